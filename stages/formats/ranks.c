/* ranks.c — per-input rankings TSV; see ranks.h. */
#include "ranks.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "core/tsvtext.h"
#include "core/util.h"

const char ranks_header[] = "input\tm\tk\tn\tranking";

void
ranks_write_row(FILE *fp, int input, int64_t m, int64_t k, int64_t n,
                const char *const *ids, int n_ids)
{
	fprintf(fp, "%d\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t", input, m, k, n);
	for (int j = 0; j < n_ids; j++) {
		if (!*ids[j] || strpbrk(ids[j], "\t,\n\r"))
			die("choice id '%s' cannot be written to a ranks TSV (empty, or "
			    "a tab, comma or line end)", ids[j]);
		fprintf(fp, "%s%s", j ? "," : "", ids[j]);
	}
	fputc('\n', fp);
}

static int64_t
field_i64(const char *path, long ln, const char *name, const char *s,
          size_t len, int64_t lo)
{
	int64_t v;
	if (parse_i64(s, len, &v) != 0 || v < lo)
		die("%s:%ld: field '%s': expected an integer >= %" PRId64 ", got '%.*s'",
		    path, ln, name, lo, (int)len, s);
	return v;
}

void
ranks_read(ranks *r, const char *path)
{
	static const char *const name[] = {"input", "m", "k", "n", "ranking"};
	size_t ocap = 0, mcap = 0, icap = 0;
	char *buf = tsv_read(path, "a header line"), *pos = buf, *p;
	memset(r, 0, sizeof *r);
	int64_t lineno = 0;
	while ((p = tsv_line(&pos, path, &lineno))) {
		long ln = (long)lineno;
		if (ln == 1) {
			if (strcmp(p, ranks_header))
				die("%s:1: header is not '%s'", path, ranks_header);
			continue;
		}
		char *f[5];
		int nf = tsv_split(p, f, 5);
		if (nf != 5)
			die("%s:%ld: %d fields, expected 5 (%s)", path, ln, nf, ranks_header);
		int i = r->n_inputs;
		if (field_i64(path, ln, name[0], f[0], strlen(f[0]), 0) != i)
			die("%s:%ld: field 'input': expected %d (inputs in order), got '%s'",
			    path, ln, i, f[0]);
		xgrow((void **)&r->mkn, &mcap, 3 * ((size_t)i + 1), sizeof *r->mkn);
		for (int c = 0; c < 3; c++)
			r->mkn[3 * i + c] = field_i64(path, ln, name[1 + c], f[1 + c],
			                              strlen(f[1 + c]), 0);
		xgrow((void **)&r->off, &ocap, (size_t)i + 2, sizeof *r->off);
		r->off[i] = r->n_id;
		for (char *s = f[4]; *f[4];) {
			char *c = strchr(s, ',');
			size_t n = c ? (size_t)(c - s) : strlen(s);
			if (n == 0)
				die("%s:%ld: field 'ranking': empty choice id", path, ln);
			xgrow((void **)&r->id, &icap, (size_t)r->n_id + 1, sizeof *r->id);
			r->id[r->n_id++] = xstrndup(s, n);
			if (!c)
				break;
			s = c + 1;
		}
		r->n_inputs++;
	}
	xgrow((void **)&r->off, &ocap, (size_t)r->n_inputs + 1, sizeof *r->off);
	r->off[r->n_inputs] = r->n_id;
	free(buf);
}

void
ranks_free(ranks *r)
{
	for (int j = 0; j < r->n_id; j++)
		free(r->id[j]);
	free(r->id);
	free(r->off);
	free(r->mkn);
	memset(r, 0, sizeof *r);
}
