/* merge — concatenate AutoHeuristic mm logs of one device (spec §2). */
#include "formats/ahlog.h"
#include "formats/ahmeta.h"
#include "core/opts.h"
#include "core/sniff.h"
#include "core/util.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
"merge -o OUTPUT INPUT...";

static const char about[] =
"Concatenate AutoHeuristic mm logs (spec §2, merge_data.py): every INPUT must\n"
"be an mm log (its metadata and header mm's, spec §1.1: a mixed_mm, pad_mm or\n"
"other AutoHeuristic log is refused) whose metadata equal the first INPUT's\n"
"as JSON (unlike the reference, which compares bytes: key order and spacing\n"
"do not matter; the device, shared_memory and device_capa, must agree).\n"
"OUTPUT gets the first INPUT's two lines once, then every INPUT's rows in\n"
"argument order.  Unlike the reference, an INPUT whose last row lacks a final\n"
"newline gets one, so it cannot fuse with the next file's first row, and\n"
"OUTPUT is written atomically: on any error nothing is written.\n";

static const char notes[] =
"stderr: 'merge: wrote OUTPUT: N rows from M files' (blank lines, which are\n"
"copied and which featurize skips, are not counted).\n"
"Exit status: 0 on success; 1 when an INPUT is unreadable, compressed or\n"
"binary, has fewer than 2 lines, has a carriage return (CRLF line ends), is\n"
"not an mm log, or its metadata differ (both versions are shown).\n";

/* The first two lines of in (path), with their '\n', into a malloc'd
 * string (*len bytes); their metadata and header, checked to be mm's, into
 * *m.  Dies naming path: fewer than two complete lines, a compressed or
 * binary file (sniff.h), CRLF, metadata or a header that are not mm's. */
static char *read_meta(FILE *in, const char *path, ah_meta *m, size_t *len)
{
	char *a = NULL, *b = NULL;
	size_t ca = 0, cb = 0;
	ssize_t la = getline(&a, &ca, in);
	if (la > 0)
		sniff_or_die(path, a, (size_t)la);
	ssize_t lb = la > 0 ? getline(&b, &cb, in) : -1;
	if (la <= 0 && feof(in))
		die("%s: empty file: expected the metadata JSON line and the header "
		    "(spec §1.1)", path);
	if (la <= 0 || lb <= 0 || a[la - 1] != '\n' || b[lb - 1] != '\n')
		die("%s: fewer than 2 lines: the metadata and header lines are missing",
		    path);
	/* CRLF: name it, not as "metadata differs" from a LF file */
	ah_reject_cr(path, 1, a, (size_t)la);
	ah_reject_cr(path, 2, b, (size_t)lb);
	char *two = xmalloc((size_t)(la + lb) + 1);
	memcpy(two, a, (size_t)la);
	memcpy(two + la, b, (size_t)lb + 1);
	*len = (size_t)(la + lb);
	char where[4096];
	a[la - 1] = b[lb - 1] = '\0';
	snprintf(where, sizeof where, "%s:1", path);
	ah_meta_parse(m, a, where);
	ah_meta_require_mm(m, where);
	snprintf(where, sizeof where, "%s:2", path);
	ah_meta_header(m, b, where);
	ah_header_require_mm(m, where);
	free(a);
	free(b);
	return two;
}

/* Die: path's metadata differ from the first INPUT's (nothing written). */
static _Noreturn void differs(const char *path, const ah_meta *m, const char *refpath,
                              const ah_meta *ref)
{
	char dm[256], dr[256], note[600] = "";
	if (!ah_meta_same_device(m, ref))
		snprintf(note, sizeof note, " (another device: %s, not %s)",
		         ah_device_str(m, dm, sizeof dm), ah_device_str(ref, dr, sizeof dr));
	fprintf(stderr, "merge: %s: metadata differs from %s%s; nothing written\n"
	        "expected (%s):\n%s\nfound (%s):\n%s\n", path, refpath, note, refpath,
	        ref->json, path, m->json);
	exit(1);
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	opt_list inputs = {0};
	const opt table[] = {
		OPT_OUT("OUTPUT", &out, 0,
		        "merged log (may not be one of the INPUTs); without -o the "
		        "first positional is OUTPUT (merge_data.py's order, the old "
		        "form: said on stderr)"),
		OPT_POS_LIST("INPUT", &inputs, OPT_REQUIRED | OPT_INPUT,
		             "AutoHeuristic mm logs (the metadata and header are "
		             "checked; rows are copied, not validated: featurize "
		             "validates them)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 11, NULL}, argc, argv);
	const char **in0 = inputs.v;
	if (!out) {
		if (inputs.n < 2)
			die("missing -o OUTPUT; usage: %s (see --help)", synopsis);
		out = inputs.v[0];
		inputs.v++;
		inputs.n--;
		warnf("OUTPUT as the first positional is the old form: use -o %s (every "
		      "stage takes -o OUT)", out);
		for (int i = 0; i < inputs.n; i++)
			check_output_not_input(out, inputs.v[i]);
	}

	aout ao;
	FILE *fp = NULL;
	ah_meta ref = {0}, m;
	const char *refpath = NULL;
	long long rows = 0, blank = 0;
	char *buf = xmalloc(1 << 16);
	for (int i = 0; i < inputs.n; i++) {
		const char *path = inputs.v[i];
		FILE *in = fopen(path, "r");
		if (!in)
			die("cannot open '%s': %s", path, strerror(errno));
		size_t ml;
		char *two = read_meta(in, path, &m, &ml);
		if (!refpath) {
			ref = m;
			refpath = path;
			fp = aout_open(&ao, out);
			fwrite(two, 1, ml, fp);
		} else {
			/* both are mm's (read_meta): the headers are equal, the
			 * metadata may differ in the device */
			if (!ah_meta_equal(&m, &ref)) {
				aout_abort(&ao);
				differs(path, &m, refpath, &ref);
			}
			ah_meta_free(&m);
		}
		free(two);
		/* Stream the rows: memory stays bounded whatever the file size. */
		size_t got;
		char last = '\n';
		long long line = 3; /* of path, for the CRLF message */
		while ((got = fread(buf, 1, 1 << 16, in)) > 0) {
			fwrite(buf, 1, got, fp);
			for (size_t j = 0; j < got; j++) {
				if (buf[j] == '\r')
					ah_reject_cr(path, line, buf + j, 1);
				if (buf[j] == '\n') {
					/* a line of its own '\n' only is blank */
					if (last == '\n')
						blank++;
					else
						rows++;
					line++;
				}
				last = buf[j];
			}
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
	if (blank)
		fprintf(stderr, "merge: wrote %s: %lld row%s from %d file%s (%lld blank "
		        "line%s copied, not counted)\n", out, rows, plural_s(rows), inputs.n,
		        plural_s(inputs.n), blank, plural_s(blank));
	else
		fprintf(stderr, "merge: wrote %s: %lld row%s from %d file%s\n", out, rows,
		        plural_s(rows), inputs.n, plural_s(inputs.n));
	ah_meta_free(&ref);
	free(in0);
	close_stdout();
	return 0;
}
