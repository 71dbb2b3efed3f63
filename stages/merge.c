/* merge — concatenate AutoHeuristic logs of one device (spec §2). */
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: merge OUTPUT INPUT...\n"
"\n"
"Concatenate AutoHeuristic logs (spec §2, merge_data.py): the first two lines\n"
"(JSON metadata and CSV header) of every INPUT must be byte-identical to the\n"
"first INPUT's; OUTPUT gets those two lines once, then every INPUT's rows in\n"
"argument order.  Unlike the reference, an INPUT whose last row lacks a final\n"
"newline gets one, so it cannot fuse with the next file's first row, and\n"
"OUTPUT is written atomically: on any error nothing is written.\n"
"\n"
"  OUTPUT   merged log (may not be one of the INPUTs)\n"
"  INPUT    AutoHeuristic logs (rows are copied, not validated; featurize\n"
"           validates them)\n"
"\n"
"Exit status: 0 on success; 1 when an INPUT is unreadable, has fewer than 2\n"
"lines, or its metadata differs (both versions are shown).\n";

/* Length of the first two lines of buf (including their '\n'), or -1 if
 * buf has fewer than two complete lines. */
static long meta_len(const char *buf, size_t n)
{
	const char *a = memchr(buf, '\n', n);
	if (!a)
		return -1;
	const char *b = memchr(a + 1, '\n', n - (size_t)(a + 1 - buf));
	return b ? (long)(b + 1 - buf) : -1;
}

int main(int argc, char **argv)
{
	std_options(argc, argv, usage);
	if (argc < 3)
		die("usage: merge OUTPUT INPUT... (see --help)");
	const char *out = argv[1];
	for (int i = 2; i < argc; i++)
		if (!strcmp(argv[i], out))
			die("output '%s' is also an input", out);

	aout ao;
	FILE *fp = NULL;
	char *ref = NULL;
	long reflen = 0;
	const char *refpath = NULL;
	long long rows = 0;
	for (int i = 2; i < argc; i++) {
		size_t n;
		char *buf = read_file(argv[i], &n);
		long ml = meta_len(buf, n);
		if (ml < 0)
			die("%s: fewer than 2 lines: the metadata and header lines are missing",
			    argv[i]);
		if (!ref) {
			ref = xstrndup(buf, (size_t)ml);
			reflen = ml;
			refpath = argv[i];
			fp = aout_open(&ao, out);
			fwrite(ref, 1, (size_t)ml, fp);
		} else if (ml != reflen || memcmp(buf, ref, (size_t)ml)) {
			if (fp)
				aout_abort(&ao);
			fprintf(stderr, "merge: %s: metadata differs from %s; nothing written\n"
				"expected (%s):\n%.*s"
				"found (%s):\n%.*s",
				argv[i], refpath, refpath, (int)reflen, ref, argv[i], (int)ml, buf);
			exit(1);
		}
		const char *body = buf + ml;
		size_t blen = n - (size_t)ml;
		fwrite(body, 1, blen, fp);
		for (size_t j = 0; j < blen; j++)
			rows += body[j] == '\n';
		if (blen && body[blen - 1] != '\n') {
			fputc('\n', fp);
			rows++;
		}
		free(buf);
	}
	aout_commit(&ao);
	fprintf(stderr, "merge: wrote %s: %lld rows from %d files\n", out, rows, argc - 2);
	free(ref);
	close_stdout();
	return 0;
}
