/* zipcat.c — the library inflate floor of perf/pipeline/run.sh (issue #20):
 * read zip members in-process with libzip (as featurize --zip does, CRC
 * checked) and count their lines, like `unzip -p ZIP MEMBER... | wc -l`.
 * usage: zipcat ZIP MEMBER...   prints the line count; exit 1 on an error.
 * Built by run.sh: cc -O2 -o zipcat zipcat.c -lzip */
#include <stdio.h>
#include <string.h>
#include <zip.h>

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: zipcat ZIP MEMBER...\n");
		return 2;
	}
	int err;
	zip_t *z = zip_open(argv[1], ZIP_RDONLY, &err);
	if (!z) {
		fprintf(stderr, "zipcat: cannot open '%s' (libzip error %d)\n", argv[1], err);
		return 1;
	}
	static char buf[1 << 20];
	long long lines = 0;
	for (int a = 2; a < argc; a++) {
		zip_file_t *f = zip_fopen(z, argv[a], 0);
		if (!f) {
			fprintf(stderr, "zipcat: %s: %s\n", argv[a], zip_strerror(z));
			return 1;
		}
		zip_int64_t n;
		while ((n = zip_fread(f, buf, sizeof buf)) > 0)
			for (char *p = buf, *e = buf + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
				lines++;
		if (n < 0) {
			fprintf(stderr, "zipcat: %s: %s\n", argv[a], zip_file_strerror(f));
			return 1;
		}
		if (zip_fclose(f)) {
			fprintf(stderr, "zipcat: %s: cannot close\n", argv[a]);
			return 1;
		}
	}
	zip_discard(z);
	printf("%lld\n", lines);
	return 0;
}
