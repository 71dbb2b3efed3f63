/* zipcat.c — the in-process inflate floors of perf/pipeline/run.sh:
 * read zip members and count their lines, like `unzip -p ZIP
 * MEMBER... | wc -l`, either as featurize --zip reads them (zipmember.h:
 * libzip for the archive, ISA-L inflate, CRC checked) or with --libzip
 * through libzip's own decoder (zlib inflate, CRC checked).
 * usage: zipcat [--libzip] ZIP MEMBER...   prints the line count; exit 1 on
 * an error.  Built by run.sh with stages/formats/zipmember.c and util.c. */
#include <stdio.h>
#include <string.h>
#include <zip.h>

#include "formats/zipmember.h"

static char buf[1 << 20];

static long long lines(const char *p, size_t n)
{
	long long k = 0;
	for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
		k++;
	return k;
}

/* through libzip's decoder */
static int by_libzip(const char *zip, char **members, int n, long long *count)
{
	int err;
	zip_t *z = zip_open(zip, ZIP_RDONLY, &err);
	if (!z) {
		fprintf(stderr, "zipcat: cannot open '%s' (libzip error %d)\n", zip, err);
		return 1;
	}
	for (int a = 0; a < n; a++) {
		zip_file_t *f = zip_fopen(z, members[a], 0);
		if (!f) {
			fprintf(stderr, "zipcat: %s: %s\n", members[a], zip_strerror(z));
			return 1;
		}
		zip_int64_t got;
		while ((got = zip_fread(f, buf, sizeof buf)) > 0)
			*count += lines(buf, (size_t)got);
		if (got < 0) {
			fprintf(stderr, "zipcat: %s: %s\n", members[a], zip_file_strerror(f));
			return 1;
		}
		zip_fclose(f);
	}
	zip_discard(z);
	return 0;
}

/* as featurize --zip reads them */
static int by_zipmember(const char *zip, char **members, int n, long long *count)
{
	for (int a = 0; a < n; a++) {
		char msg[256];
		const char *err = NULL;
		zipmember *zm = zm_open(zip, members[a], msg, sizeof msg);
		if (!zm) {
			fprintf(stderr, "zipcat: %s: %s\n", members[a], msg);
			return 1;
		}
		ssize_t got;
		while ((got = zm_read(zm, buf, sizeof buf, &err)) > 0)
			*count += lines(buf, (size_t)got);
		if (got < 0) {
			fprintf(stderr, "zipcat: %s: %s\n", members[a], err);
			return 1;
		}
		zm_close(zm);
	}
	return 0;
}

int main(int argc, char **argv)
{
	int lz = argc > 1 && !strcmp(argv[1], "--libzip");
	if (argc < 3 + lz) {
		fprintf(stderr, "usage: zipcat [--libzip] ZIP MEMBER...\n");
		return 2;
	}
	long long count = 0;
	int rc = (lz ? by_libzip : by_zipmember)(argv[1 + lz], argv + 2 + lz, argc - 2 - lz, &count);
	if (rc == 0)
		printf("%lld\n", count);
	return rc;
}
