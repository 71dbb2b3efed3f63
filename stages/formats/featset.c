/* featset.c — feat TSV reader, see featset.h and stages/FORMATS.md. */
#include "featset.h"
#include "ahmeta.h"
#include "emittable.h"
#include "core/intern.h"
#include "mmfeatures.h"
#include "core/sniff.h"
#include "core/util.h"

enum { FEATSET_MAXCOL = 4096 }; /* header columns at most */

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

/* Join f[a..b) with tabs into out (NULL: only measure); returns the length. */
static size_t join_fields(char *out, char **f, int a, int b)
{
	size_t n = 0;
	for (int c = a; c < b; c++) {
		size_t l = strlen(f[c]);
		if (out) {
			memcpy(out + n, f[c], l);
			out[n + l] = c + 1 < b ? '\t' : '\0';
		}
		n += l + 1;
	}
	return n;
}

/* 1 iff the tab-joined text equals f[a..b). */
static int same_fields(const char *text, char **f, int a, int b)
{
	for (int c = a; c < b; c++) {
		size_t l = strlen(f[c]);
		if (strncmp(text, f[c], l) || (text[l] != '\t' && text[l] != '\0'))
			return 0;
		text += l + 1;
	}
	return 1;
}

/* The first row of an input: derived features must equal what mm_derived
 * computes from m, k, n (spec §4.1), and each one-hot column <cat>_<value>
 * must be 1 exactly when the raw categorical is <value> (§4.3) — a feat
 * TSV edited by hand would otherwise train on values the emitted code
 * never computes.  x: the input's model features; raw: its raw
 * categorical strings. */
static void check_input(const featset *fs, const double *x, char **raw,
                        const char *path, long long lineno)
{
	const ah_meta *m = &fs->meta;
	const int nn = m->n_num;
	int im = -1, ik = -1, in = -1;
	for (int j = 0; j < nn; j++) {
		if (!strcmp(m->num[j], "m")) im = j;
		if (!strcmp(m->num[j], "k")) ik = j;
		if (!strcmp(m->num[j], "n")) in = j;
	}
	if (im >= 0 && ik >= 0 && in >= 0) {
		double d[MM_N_DERIVED];
		mm_derived((int64_t)x[im], (int64_t)x[ik], (int64_t)x[in], d);
		for (int j = 0; j < MM_N_DERIVED; j++)
			if (x[nn + j] != d[j])
				die("%s:%lld: column '%s': %.17g, but m, k, n give %.17g", path, lineno,
				    mm_derived_name[j], x[nn + j], d[j]);
	}
	for (int k = nn + MM_N_DERIVED; k < fs->n_feat; k++) {
		const char *name = fs->feat[k], *value;
		int best = ah_meta_onehot(m, name, &value); /* checked by read_header */
		int want = !strcmp(raw[best], value);
		if ((x[k] != 0) != want)
			die("%s:%lld: column '%s': %g, but '%s' is '%s'", path, lineno, name, x[k],
			    m->cat[best], raw[best]);
	}
}

/* Lines 1-2 of a feat TSV from fp: the metadata into fs->meta, the header
 * checked against it (input, numeric, derived, raw categorical columns,
 * one-hot columns <categorical>_<value>, choice, median_ms, count, winner)
 * and the model feature names into fs->feat.  Returns the header split at
 * tabs (pointers into *line) in *f, and the column count. */
static int read_header(featset *fs, FILE *fp, const char *path, char **line,
                       size_t *cap, char ***fp_cols)
{
	memset(fs, 0, sizeof *fs);
	ssize_t len = getline(line, cap, fp);
	if (len <= 0)
		die("%s: empty file: expected a feat TSV (stages/FORMATS.md)", path);
	sniff_or_die(path, *line, (size_t)len);
	if ((*line)[len - 1] == '\n')
		(*line)[--len] = '\0';
	if (memchr(*line, '\r', (size_t)len))
		die("%s:1: carriage return in line (CRLF line ends?)", path);
	char where[4096];
	snprintf(where, sizeof where, "%s:1", path);
	ah_meta_parse(&fs->meta, *line, where);
	ah_meta_require_mm(&fs->meta, where);
	const int nn = fs->meta.n_num, nc = fs->meta.n_cat;

	len = getline(line, cap, fp);
	if (len <= 0)
		die("%s:2: header line missing", path);
	if ((*line)[len - 1] == '\n')
		(*line)[--len] = '\0';
	if (memchr(*line, '\r', (size_t)len))
		die("%s:2: carriage return in line (CRLF line ends?)", path);
	char **f = xmalloc(FEATSET_MAXCOL * sizeof *f);
	if (!strncmp(*line, "m,k,n,", 6))
		die("%s:2: an AutoHeuristic log (comma-separated header 'm,k,n,...'), not a "
		    "feat TSV: run featurize on it first", path);
	int ncol = split_tabs(*line, f, FEATSET_MAXCOL);
	int fixed = 1 + nn + MM_N_DERIVED + nc;   /* input .. raw categoricals */
	if (ncol > FEATSET_MAXCOL || ncol < fixed + 4)
		die("%s:2: header has %d column%s; expected at least %d", path, ncol,
		    plural_s(ncol), fixed + 4);
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
	for (int c = fixed; c < ncol - 4; c++) {
		const char *value, *why;
		int j = ah_meta_onehot(&fs->meta, f[c], &value);
		if (j < 0)
			die("%s:2: column %d '%s' is not a one-hot column <categorical>_<value>",
			    path, c + 1, f[c]);
		if ((why = emittable_cat_problem(fs->meta.cat[j], value)))
			die("%s:2: column %d '%s': category '%s' of %s: %s", path, c + 1, f[c],
			    value, fs->meta.cat[j], why);
	}
	fs->n_dummy = ncol - 4 - fixed;
	fs->n_feat = nn + MM_N_DERIVED + fs->n_dummy;
	fs->feat = xmalloc((size_t)fs->n_feat * sizeof *fs->feat);
	int nf = 0;
	for (int c = 1; c < fixed - nc; c++)
		fs->feat[nf++] = xstrdup(f[c]);
	for (int c = fixed; c < ncol - 4; c++)
		fs->feat[nf++] = xstrdup(f[c]);
	*fp_cols = f;
	return ncol;
}

void featset_read_header(featset *fs, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		die("cannot open '%s': %s", path, strerror(errno));
	char *line = NULL, **f;
	size_t cap = 0;
	read_header(fs, fp, path, &line, &cap, &f);
	free(f);
	free(line);
	fclose(fp);
}

/* featset_read's state from row to row. */
typedef struct {
	featset *fs;
	const char *path;
	long long lineno;
	char **f;                 /* the current row split at tabs */
	int ncol, fixed;          /* header columns; input .. raw categoricals */
	intern strings, choices;
	size_t xcap, fcap, wcap, rcap, mcap, catcap;
	int *cat_id;              /* [n_inputs * n_cat] raw categoricals' ids in strings */
	int cur;                  /* the current input, -1 before the first row */
	char *firsttext;          /* its first row's features, tab-joined */
	size_t firstcap, firstlen;
	long long first_line;     /* that row's line */
	char *prefix;             /* input number, '\t', firsttext, '\t' */
	size_t prefixcap, prefixlen;
} row_reader;

/* The model features and raw categoricals of the row that starts input
 * rd->cur, into fs->x and cat_id; checked by check_input. */
static void read_features(row_reader *rd)
{
	featset *fs = rd->fs;
	char **f = rd->f;
	const int nn = fs->meta.n_num, nc = fs->meta.n_cat, cur = rd->cur;
	double *x = fs->x + (size_t)cur * fs->n_feat;
	int k = 0;
	for (int c = 1; c < rd->ncol - 4; c++) {
		if (c >= rd->fixed - nc && c < rd->fixed) {
			int j = c - (rd->fixed - nc);
			rd->cat_id[(size_t)cur * nc + j] = intern_id(&rd->strings, f[c], strlen(f[c]), NULL);
			continue;
		}
		double v;
		if (parse_f64(f[c], strlen(f[c]), &v) || !isfinite(v))
			die("%s:%lld: column '%s': cannot parse '%s' as a finite number",
			    rd->path, rd->lineno, fs->feat[k], f[c]);
		if (k >= nn + MM_N_DERIVED && v != 0 && v != 1)
			die("%s:%lld: column '%s': one-hot value '%s' is not 0 or 1",
			    rd->path, rd->lineno, fs->feat[k], f[c]);
		x[k++] = v;
	}
	check_input(fs, x, f + rd->fixed - nc, rd->path, rd->lineno);
}

/* The input's feature text (firsttext) and the prefix a later row of it
 * starts with (input number and features), for the rows that follow. */
static void keep_prefix(row_reader *rd)
{
	char **f = rd->f;
	size_t need = 0;
	for (int c = 1; c < rd->ncol - 4; c++)
		need += strlen(f[c]) + 1;
	if (need > rd->firstcap) {
		rd->firstcap = 2 * need;
		rd->firsttext = xrealloc(rd->firsttext, rd->firstcap);
	}
	rd->firstlen = join_fields(rd->firsttext, f, 1, rd->ncol - 4);
	size_t l0 = strlen(f[0]), firstlen = rd->firstlen;
	if (l0 + 1 + firstlen > rd->prefixcap) {
		rd->prefixcap = 2 * (l0 + 1 + firstlen);
		rd->prefix = xrealloc(rd->prefix, rd->prefixcap);
	}
	memcpy(rd->prefix, f[0], l0);
	rd->prefix[l0] = '\t';
	memcpy(rd->prefix + l0 + 1, rd->firsttext, firstlen); /* its '\0' becomes the '\t' */
	rd->prefix[l0 + firstlen] = '\t';
	rd->prefixlen = l0 + 1 + firstlen;
}

/* The row starts input in (the next number after rd->cur, whose rows
 * must have had a winner): grow the per-input arrays, read its features. */
static void start_input(row_reader *rd, int64_t in)
{
	featset *fs = rd->fs;
	const int nc = fs->meta.n_cat;
	if (in != rd->cur + 1)
		die("%s:%lld: column 'input': %lld follows %d (inputs must be numbered "
		    "0, 1, 2, ... with their rows contiguous)", rd->path, rd->lineno,
		    (long long)in, rd->cur);
	if (rd->cur >= 0 && fs->winner[rd->cur] < 0)
		die("%s:%lld: input %d has no winner row", rd->path, rd->lineno, rd->cur);
	int cur = rd->cur = (int)in;
	fs->n_inputs = cur + 1;
	xgrow((void **)&fs->x, &rd->xcap, (size_t)fs->n_inputs * fs->n_feat, sizeof *fs->x);
	xgrow((void **)&rd->cat_id, &rd->catcap, (size_t)fs->n_inputs * nc, sizeof *rd->cat_id);
	xgrow((void **)&fs->first, &rd->fcap, (size_t)fs->n_inputs + 1, sizeof *fs->first);
	xgrow((void **)&fs->winner, &rd->wcap, (size_t)fs->n_inputs, sizeof *fs->winner);
	fs->first[cur] = fs->n_rows;
	fs->winner[cur] = -1;
	read_features(rd);
	keep_prefix(rd);
}

/* The row's last four fields: choice, median_ms, count, winner. */
static void read_outcome(row_reader *rd)
{
	featset *fs = rd->fs;
	char **f = rd->f;
	const int ncol = rd->ncol, cur = rd->cur;
	const char *path = rd->path;
	const long long lineno = rd->lineno;
	if (fs->first[cur] == fs->n_rows)
		rd->first_line = lineno;
	xgrow((void **)&fs->choice, &rd->rcap, (size_t)fs->n_rows + 1, sizeof *fs->choice);
	xgrow((void **)&fs->ms, &rd->mcap, (size_t)fs->n_rows + 1, sizeof *fs->ms);
	const char *ch = f[ncol - 4];
	if (!*ch)
		die("%s:%lld: column 'choice': empty", path, lineno);
	int added;
	fs->choice[fs->n_rows] = intern_id(&rd->choices, ch, strlen(ch), &added);
	const char *bad = added ? emittable_problem(ch) : NULL;
	if (bad)
		die("%s:%lld: column 'choice': '%.200s%s' %s", path, lineno, ch,
		    strlen(ch) > 200 ? "..." : "", bad);
	double t;
	const char *ms = f[ncol - 3];
	if (parse_f64(ms, strlen(ms), &t) || isnan(t) || t <= 0)
		die("%s:%lld: column 'median_ms': '%s' is not a positive time", path, lineno, ms);
	fs->ms[fs->n_rows] = t;
	int64_t cnt;
	if (parse_i64(f[ncol - 2], strlen(f[ncol - 2]), &cnt) || cnt < 1)
		die("%s:%lld: column 'count': '%s' is not a measurement count >= 1", path,
		    lineno, f[ncol - 2]);
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

/* One row (line[0..len), its '\n' removed). */
static void read_row(row_reader *rd, char *line, size_t len)
{
	char **f = rd->f;
	const int ncol = rd->ncol;
	if (memchr(line, '\r', len))
		die("%s:%lld: carriage return in line", rd->path, rd->lineno);
	/* A later row of the current input that starts with exactly its first
	 * row's text (input number and features, `prefix`) needs only its last
	 * four fields split and parsed; any other row takes the full path,
	 * which checks and names what differs. */
	int fast = rd->cur >= 0 && rd->prefixlen && len >= rd->prefixlen &&
	           !memcmp(line, rd->prefix, rd->prefixlen);
	int n = fast ? ncol - 4 + split_tabs(line + rd->prefixlen, f + ncol - 4, 4)
	             : split_tabs(line, f, FEATSET_MAXCOL);
	if (n != ncol)
		die("%s:%lld: row has %d field%s, the header has %d", rd->path, rd->lineno, n,
		    plural_s(n), ncol);
	int64_t in = rd->cur;
	if (!fast && (parse_i64(f[0], strlen(f[0]), &in) || in < 0))
		die("%s:%lld: column 'input': bad input number '%s'", rd->path, rd->lineno, f[0]);
	if (fast) {
		/* features equal the first row's: checked by the prefix */
	} else if (in != rd->cur) {
		start_input(rd, in);
	} else if (join_fields(NULL, f, 1, ncol - 4) != rd->firstlen ||
	           !same_fields(rd->firsttext, f, 1, ncol - 4)) {
		die("%s:%lld: the features differ from the first row of input %d (%s:%lld): "
		    "every row of one input carries the same features", rd->path, rd->lineno,
		    rd->cur, rd->path, rd->first_line);
	}
	read_outcome(rd);
}

/* After the last row: hand the interned strings over to fs (choices[] and
 * cat[] point into them). */
static void hand_over(row_reader *rd)
{
	featset *fs = rd->fs;
	const int nc = fs->meta.n_cat;
	fs->n_choices = rd->choices.n;
	fs->choices = rd->choices.str;
	fs->n_strings = rd->strings.n;
	fs->strings = rd->strings.str;
	fs->cat = xmalloc(((size_t)fs->n_inputs * nc + 1) * sizeof *fs->cat);
	for (size_t i = 0; i < (size_t)fs->n_inputs * nc; i++)
		fs->cat[i] = rd->strings.str[rd->cat_id[i]];
	free(rd->cat_id);
	free(rd->choices.len);
	free(rd->choices.slot);
	free(rd->strings.len);
	free(rd->strings.slot);
}

void featset_read(featset *fs, const char *path)
{
	FILE *fp = fopen(path, "r");
	if (!fp)
		die("cannot open '%s': %s", path, strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	ssize_t len;
	row_reader rd = {.fs = fs, .path = path, .lineno = 2, .cur = -1};
	rd.ncol = read_header(fs, fp, path, &line, &cap, &rd.f);
	rd.fixed = 1 + fs->meta.n_num + MM_N_DERIVED + fs->meta.n_cat;
	intern_init(&rd.strings);
	intern_init(&rd.choices);
	while ((len = getline(&line, &cap, fp)) >= 0) {
		rd.lineno++;
		if (len == 0 || line[len - 1] != '\n')
			die("%s:%lld: truncated line (no final newline)", path, rd.lineno);
		line[--len] = '\0';
		read_row(&rd, line, (size_t)len);
	}
	if (ferror(fp))
		die("cannot read '%s': %s", path, strerror(errno));
	if (rd.cur < 0)
		die("%s: no rows after the header", path);
	if (fs->winner[rd.cur] < 0)
		die("%s: input %d has no winner row", path, rd.cur);
	fs->first[fs->n_inputs] = fs->n_rows;
	fclose(fp);
	free(line);
	free(rd.f);
	free(rd.firsttext);
	free(rd.prefix);
	hand_over(&rd);
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
