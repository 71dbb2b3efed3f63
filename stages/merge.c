/* merge — concatenate AutoHeuristic logs of one device (spec §2). */
#include "ahlog.h"
#include "opts.h"
#include "util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
"merge OUTPUT INPUT...";

static const char about[] =
"Concatenate AutoHeuristic logs (spec §2, merge_data.py): the first two lines\n"
"(JSON metadata and CSV header) of every INPUT must be byte-identical to the\n"
"first INPUT's; OUTPUT gets those two lines once, then every INPUT's rows in\n"
"argument order.  Unlike the reference, an INPUT whose last row lacks a final\n"
"newline gets one, so it cannot fuse with the next file's first row, and\n"
"OUTPUT is written atomically: on any error nothing is written.\n";

static const char notes[] =
"Exit status: 0 on success; 1 when an INPUT is unreadable, has fewer than 2\n"
"lines, has a carriage return (CRLF line ends), or its metadata differs (both\n"
"versions are shown).\n";

/* Read the first two lines of fp (with their '\n') into a malloc'd
 * string; returns NULL if the file has fewer than two complete lines. */
static char *read_meta(FILE *fp, size_t *len)
{
	char *a = NULL, *b = NULL;
	size_t ca = 0, cb = 0;
	ssize_t la = getline(&a, &ca, fp), lb = la > 0 ? getline(&b, &cb, fp) : -1;
	if (la <= 0 || lb <= 0 || a[la - 1] != '\n' || b[lb - 1] != '\n') {
		free(a);
		free(b);
		return NULL;
	}
	char *m = xmalloc((size_t)(la + lb) + 1);
	memcpy(m, a, (size_t)la);
	memcpy(m + la, b, (size_t)lb + 1);
	free(a);
	free(b);
	*len = (size_t)(la + lb);
	return m;
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	opt_list inputs = {0};
	const opt table[] = {
		OPT_POS("OUTPUT", &out, OPT_REQUIRED | OPT_OUTPUT,
		        "merged log (may not be one of the INPUTs)"),
		OPT_POS_LIST("INPUT", &inputs, OPT_REQUIRED | OPT_INPUT,
		             "AutoHeuristic logs (rows are copied, not validated; "
		             "featurize validates them)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 11}, argc, argv);

	aout ao;
	FILE *fp = NULL;
	char *ref = NULL;
	long reflen = 0;
	const char *refpath = NULL;
	long long rows = 0;
	char *buf = xmalloc(1 << 16);
	for (int i = 0; i < inputs.n; i++) {
		const char *path = inputs.v[i];
		FILE *in = fopen(path, "r");
		if (!in)
			die("cannot open '%s': %s", path, strerror(errno));
		size_t ml;
		char *meta = read_meta(in, &ml);
		if (!meta)
			die("%s: fewer than 2 lines: the metadata and header lines are missing",
			    path);
		/* CRLF: name it, not as "metadata differs" from a LF file */
		size_t l1 = (size_t)((char *)memchr(meta, '\n', ml) - meta) + 1;
		ah_reject_cr(path, 1, meta, l1);
		ah_reject_cr(path, 2, meta + l1, ml - l1);
		if (!ref) {
			ref = meta;
			reflen = (long)ml;
			refpath = path;
			fp = aout_open(&ao, out);
			fwrite(ref, 1, ml, fp);
		} else if ((long)ml != reflen || memcmp(meta, ref, ml)) {
			aout_abort(&ao);
			fprintf(stderr, "merge: %s: metadata differs from %s; nothing written\n"
				"expected (%s):\n%.*s"
				"found (%s):\n%.*s",
				path, refpath, refpath, (int)reflen, ref, path, (int)ml, meta);
			exit(1);
		} else {
			free(meta);
		}
		/* Stream the rows: memory stays bounded whatever the file size. */
		size_t got;
		char last = '\n';
		long long line = 3; /* of path, for the CRLF message */
		while ((got = fread(buf, 1, 1 << 16, in)) > 0) {
			fwrite(buf, 1, got, fp);
			for (size_t j = 0; j < got; j++) {
				if (buf[j] == '\r')
					ah_reject_cr(path, line, buf + j, 1);
				rows += buf[j] == '\n';
				line += buf[j] == '\n';
			}
			last = buf[got - 1];
		}
		if (ferror(in))
			die("cannot read '%s': %s", path, strerror(errno));
		fclose(in);
		if (last != '\n') {
			fputc('\n', fp);
			rows++;
		}
	}
	free(buf);
	aout_commit(&ao);
	fprintf(stderr, "merge: wrote %s: %lld rows from %d files\n", out, rows, inputs.n);
	free(ref);
	free(inputs.v);
	close_stdout();
	return 0;
}
