/* featset.c — feat TSV reader, see featset.h and stages/FORMATS.md. */
#include "featset.h"
#include "intern.h"
#include "mmfeatures.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Split line at tabs into f[0..max); returns the number of fields (a count
 * larger than max means too many). */
static int split_tabs(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line; p;) {
		if (n < max)
			f[n] = p;
		n++;
		p = strchr(p, '\t');
		if (p)
			*p++ = '\0';
	}
	return n;
}

void featset_read(featset *fs, const char *path)
{
	memset(fs, 0, sizeof *fs);
	FILE *fp = fopen(path, "r");
	if (!fp)
		die("cannot open '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	long long lineno = 1;
	ssize_t len = getline(&line, &cap, fp);
	if (len <= 0)
		die("%s: empty file: expected a feat TSV (stages/FORMATS.md)", path);
	if (line[len - 1] == '\n')
		line[--len] = '\0';
	if (memchr(line, '\r', (size_t)len))
		die("%s:1: carriage return in line (CRLF line ends?)", path);
	char where[4096];
	snprintf(where, sizeof where, "%s:1", path);
	ah_meta_parse(&fs->meta, line, where);
	const int nn = fs->meta.n_num, nc = fs->meta.n_cat;

	len = getline(&line, &cap, fp);
	lineno = 2;
	if (len <= 0)
		die("%s:2: header line missing", path);
	if (line[len - 1] == '\n')
		line[--len] = '\0';
	if (memchr(line, '\r', (size_t)len))
		die("%s:2: carriage return in line (CRLF line ends?)", path);
	enum { MAXCOL = 4096 };
	char **f = xmalloc(MAXCOL * sizeof *f);
	int ncol = split_tabs(line, f, MAXCOL);
	int fixed = 1 + nn + MM_N_DERIVED + nc;   /* input .. raw categoricals */
	if (ncol > MAXCOL || ncol < fixed + 4)
		die("%s:2: header has %d columns; expected at least %d", path, ncol, fixed + 4);
	const char *tail[4] = {"choice", "median_ms", "count", "winner"};
	for (int i = 0; i < 4; i++)
		if (strcmp(f[ncol - 4 + i], tail[i]))
			die("%s:2: column %d is '%s', expected '%s'", path, ncol - 3 + i,
			    f[ncol - 4 + i], tail[i]);
	if (strcmp(f[0], "input"))
		die("%s:2: first column is '%s', expected 'input'", path, f[0]);
	for (int j = 0; j < nn; j++)
		if (strcmp(f[1 + j], fs->meta.num[j]))
			die("%s:2: column %d is '%s', expected numerical feature '%s'", path, 2 + j,
			    f[1 + j], fs->meta.num[j]);
	for (int d = 0; d < MM_N_DERIVED; d++)
		if (strcmp(f[1 + nn + d], mm_derived_name[d]))
			die("%s:2: column %d is '%s', expected derived feature '%s'", path,
			    2 + nn + d, f[1 + nn + d], mm_derived_name[d]);
	for (int j = 0; j < nc; j++)
		if (strcmp(f[1 + nn + MM_N_DERIVED + j], fs->meta.cat[j]))
			die("%s:2: column %d is '%s', expected categorical feature '%s'", path,
			    2 + nn + MM_N_DERIVED + j, f[1 + nn + MM_N_DERIVED + j], fs->meta.cat[j]);
	fs->n_dummy = ncol - 4 - fixed;
	fs->n_feat = nn + MM_N_DERIVED + fs->n_dummy;
	fs->feat = xmalloc((size_t)fs->n_feat * sizeof *fs->feat);
	int nf = 0;
	for (int c = 1; c < fixed - nc; c++)
		fs->feat[nf++] = xstrdup(f[c]);
	for (int c = fixed; c < ncol - 4; c++)
		fs->feat[nf++] = xstrdup(f[c]);

	intern strings, choices;
	intern_init(&strings);
	intern_init(&choices);
	size_t xcap = 0, fcap = 0, wcap = 0, rcap = 0, mcap = 0;
	int *cat_id = NULL;
	size_t catcap = 0;
	int cur = -1;
	while ((len = getline(&line, &cap, fp)) >= 0) {
		lineno++;
		if (len == 0 || line[len - 1] != '\n')
			die("%s:%lld: truncated line (no final newline)", path, lineno);
		line[--len] = '\0';
		if (memchr(line, '\r', (size_t)len))
			die("%s:%lld: carriage return in line", path, lineno);
		int n = split_tabs(line, f, MAXCOL);
		if (n != ncol)
			die("%s:%lld: row has %d fields, the header has %d", path, lineno, n, ncol);
		int64_t in;
		if (parse_i64(f[0], strlen(f[0]), &in) || in < 0)
			die("%s:%lld: column 'input': bad input number '%s'", path, lineno, f[0]);
		if (in != cur) {
			if (in != cur + 1)
				die("%s:%lld: column 'input': %lld follows %d (inputs must be numbered "
				    "0, 1, 2, ... with their rows contiguous)", path, lineno,
				    (long long)in, cur);
			if (cur >= 0 && fs->winner[cur] < 0)
				die("%s:%lld: input %d has no winner row", path, lineno, cur);
			cur = (int)in;
			fs->n_inputs = cur + 1;
			xgrow((void **)&fs->x, &xcap, (size_t)fs->n_inputs * fs->n_feat, sizeof *fs->x);
			xgrow((void **)&cat_id, &catcap, (size_t)fs->n_inputs * nc, sizeof *cat_id);
			xgrow((void **)&fs->first, &fcap, (size_t)fs->n_inputs + 1, sizeof *fs->first);
			xgrow((void **)&fs->winner, &wcap, (size_t)fs->n_inputs, sizeof *fs->winner);
			fs->first[cur] = fs->n_rows;
			fs->winner[cur] = -1;
			double *x = fs->x + (size_t)cur * fs->n_feat;
			int k = 0;
			for (int c = 1; c < ncol - 4; c++) {
				if (c >= fixed - nc && c < fixed) {
					int j = c - (fixed - nc);
					cat_id[(size_t)cur * nc + j] = intern_id(&strings, f[c], strlen(f[c]), NULL);
					continue;
				}
				double v;
				if (parse_f64(f[c], strlen(f[c]), &v) || !isfinite(v))
					die("%s:%lld: column '%s': cannot parse '%s' as a finite number",
					    path, lineno, fs->feat[k], f[c]);
				x[k++] = v;
			}
		}
		xgrow((void **)&fs->choice, &rcap, (size_t)fs->n_rows + 1, sizeof *fs->choice);
		xgrow((void **)&fs->ms, &mcap, (size_t)fs->n_rows + 1, sizeof *fs->ms);
		const char *ch = f[ncol - 4];
		if (!*ch)
			die("%s:%lld: column 'choice': empty", path, lineno);
		fs->choice[fs->n_rows] = intern_id(&choices, ch, strlen(ch), NULL);
		double t;
		const char *ms = f[ncol - 3];
		if (parse_f64(ms, strlen(ms), &t) || isnan(t) || t <= 0)
			die("%s:%lld: column 'median_ms': '%s' is not a positive time", path, lineno, ms);
		fs->ms[fs->n_rows] = t;
		const char *w = f[ncol - 1];
		if (!strcmp(w, "1")) {
			if (fs->winner[cur] >= 0)
				die("%s:%lld: column 'winner': input %d has two winners", path, lineno, cur);
			fs->winner[cur] = fs->n_rows;
		} else if (strcmp(w, "0")) {
			die("%s:%lld: column 'winner': '%s' is not 0 or 1", path, lineno, w);
		}
		fs->n_rows++;
	}
	if (ferror(fp))
		die("cannot read '%s': %s", path, strerror(errno));
	if (cur < 0)
		die("%s: no rows after the header", path);
	if (fs->winner[cur] < 0)
		die("%s: input %d has no winner row", path, cur);
	fs->first[fs->n_inputs] = fs->n_rows;
	fclose(fp);
	free(line);
	free(f);

	/* Hand the interned strings over: choices[] and cat[] point into them. */
	fs->n_choices = choices.n;
	fs->choices = choices.str;
	fs->n_strings = strings.n;
	fs->strings = strings.str;
	fs->cat = xmalloc(((size_t)fs->n_inputs * nc + 1) * sizeof *fs->cat);
	for (size_t i = 0; i < (size_t)fs->n_inputs * nc; i++)
		fs->cat[i] = strings.str[cat_id[i]];
	free(cat_id);
	free(choices.len);
	free(choices.slot);
	free(strings.len);
	free(strings.slot);
}

int featset_feature(const featset *fs, const char *name)
{
	for (int i = 0; i < fs->n_feat; i++)
		if (!strcmp(fs->feat[i], name))
			return i;
	return -1;
}

void featset_free(featset *fs)
{
	ah_meta_free(&fs->meta);
	for (int i = 0; i < fs->n_feat; i++)
		free(fs->feat[i]);
	free(fs->feat);
	free(fs->x);
	free(fs->cat);
	free(fs->first);
	free(fs->winner);
	free(fs->choice);
	free(fs->ms);
	for (int i = 0; i < fs->n_choices; i++)
		free(fs->choices[i]);
	free(fs->choices);
	for (int i = 0; i < fs->n_strings; i++)
		free(fs->strings[i]);
	free(fs->strings);
	memset(fs, 0, sizeof *fs);
}
