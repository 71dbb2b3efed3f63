/* featurize — aggregate an AutoHeuristic log into a feat TSV.
 * Spec §1.6 (median per (input, choice)), §4.1 (derived features), §4.3
 * (one-hot categoricals), §5.1 (inputs with < 2 choices dropped, winner).
 * Output format: stages/FORMATS.md, "feat TSV". */
#include "formats/ahlog.h"
#include "formats/ahmeta.h"
#include "formats/featset.h"
#include "formats/mmfeatures.h"
#include "core/g17.h"
#include "core/intern.h"
#include "core/opts.h"
#include "core/util.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static const char synopsis[] =
"featurize [--categories MAIN.feat.tsv [--cross-device]] [--label NAME]\n"
"                 [--zip ARCHIVE] -o OUT.feat.tsv LOG.txt";

static const char about[] =
"Aggregate the measurements of an AutoHeuristic log (spec §1) into one row per\n"
"(input, choice): the median time in milliseconds (inf if any measurement is\n"
"inf, spec §1.6), the derived features m*k, m*n, k*n, arith_intensity (spec\n"
"§4.1), one-hot columns <feature>_<value> for the categorical features (spec\n"
"§4.3) and the input's winner (smallest median; ties: first seen).  Inputs\n"
"with fewer than 2 distinct choices are dropped (spec §5.1).\n";

static const char notes[] =
"Exit status: 0 on success, 1 on any error (the message names file:line and\n"
"field; no output is left behind).\n";

typedef struct {
	int input, choice;
} pair;

typedef struct {
	int pair;
	double ms;
} meas;

/* One output line, grown as needed: featurize formats an input's columns
 * once and each of its rows after them. */
typedef struct {
	char *s;
	size_t n, cap;
} line_buf;

static void lb_put(line_buf *b, const char *p, size_t n)
{
	if (b->n + n >= b->cap)
		xgrow((void **)&b->s, &b->cap, b->n + n + 1, 1);
	memcpy(b->s + b->n, p, n);
	b->n += n;
}

/* Append v in decimal. */
static void lb_i64(line_buf *b, int64_t v)
{
	char t[24];
	int n = 0;
	uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
	do
		t[sizeof t - 1 - n++] = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		t[sizeof t - 1 - n++] = '-';
	lb_put(b, t + sizeof t - n, (size_t)n);
}

/* Median of v[0..n) (numpy semantics: mean of the two middle values for
 * even n); +inf if any value is inf.  Sorts v in place. */
static double median(double *v, int n)
{
	for (int i = 0; i < n; i++)
		if (isinf(v[i]))
			return INFINITY;
	if (n <= 16) /* an input's repetitions: a few values */
		for (int i = 1; i < n; i++) {
			double x = v[i];
			int j = i;
			for (; j > 0 && v[j - 1] > x; j--)
				v[j] = v[j - 1];
			v[j] = x;
		}
	else
		qsort(v, (size_t)n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2.0;
}

/* Counting sort: the indices 0 .. n-1 of an array of n elements of size
 * bytes, grouped by their int key at byte offset off (in [0, nk)), stable
 * (each group in index order); returns that order, and in *start (nk + 1
 * entries) where each group begins. */
#define KEY(i) (*(const int *)((const char *)base + (i) * size + off))
static int *bucket(const void *base, size_t size, size_t off, size_t n, int nk,
                   int **start)
{
	int *st = xcalloc((size_t)nk + 1, sizeof *st);
	for (size_t i = 0; i < n; i++)
		st[KEY(i) + 1]++;
	for (int k = 0; k < nk; k++)
		st[k + 1] += st[k];
	int *order = xmalloc((n + 1) * sizeof *order);
	int *fill = xmalloc(((size_t)nk + 1) * sizeof *fill);
	memcpy(fill, st, (size_t)nk * sizeof *fill);
	for (size_t i = 0; i < n; i++)
		order[fill[KEY(i)]++] = (int)i;
	free(fill);
	*start = st;
	return order;
}
#undef KEY

/* Median time of every pair: measurements grouped by pair (in log order),
 * (*pstart)[p] .. (*pstart)[p + 1] the pair's measurements (the count is
 * written). */
static double *pair_medians(const meas *ms, size_t n_meas, int np, int **pstart)
{
	int *order = bucket(ms, sizeof *ms, offsetof(meas, pair), n_meas, np, pstart);
	double *vals = xmalloc((n_meas + 1) * sizeof *vals);
	for (size_t i = 0; i < n_meas; i++)
		vals[i] = ms[order[i]].ms;
	free(order);
	double *med = xmalloc(((size_t)np + 1) * sizeof *med);
	for (int p = 0; p < np; p++)
		med[p] = median(vals + (*pstart)[p], (*pstart)[p + 1] - (*pstart)[p]);
	free(vals);
	return med;
}

/* Pairs of each input in first-seen order: returns order[], the pairs of
 * input i at (*istart)[i] .. (*istart)[i+1]. */
static int *input_pairs(const pair *pr, int np, int ni, int **istart)
{
	return bucket(pr, sizeof *pr, offsetof(pair, input), (size_t)np, ni, istart);
}

/* What the read loop collected, for the output. */
typedef struct {
	const ah_meta *m;
	int im, ik, in;            /* the numerical features m, k, n */
	const intern *cats;        /* [n_cat] one-hot categories */
	const intern *values;      /* [n_cat] every value seen */
	const intern *choices;
	const int64_t *inum;       /* [ni * n_num] */
	const int32_t *icat;       /* [ni * n_cat] value ids */
	const pair *pr;
	int ni;
	const int *pstart, *istart, *order;
	const double *med;
} collected;

/* The feat TSV (stages/FORMATS.md): header, then every input with >= 2
 * choices (§5.1), one row per choice; returns how many inputs were kept. */
static int write_feat(FILE *fp, const collected *c)
{
	const ah_meta *m = c->m;
	const int nn = m->n_num, nc = m->n_cat;
	fprintf(fp, "%s\ninput", m->json);
	for (int j = 0; j < nn; j++)
		fprintf(fp, "\t%s", m->num[j]);
	for (int d = 0; d < MM_N_DERIVED; d++)
		fprintf(fp, "\t%s", mm_derived_name[d]);
	for (int j = 0; j < nc; j++)
		fprintf(fp, "\t%s", m->cat[j]);
	for (int j = 0; j < nc; j++)
		for (int k = 0; k < c->cats[j].n; k++)
			fprintf(fp, "\t%s_%s", m->cat[j], c->cats[j].str[k]);
	fputs("\tchoice\tmedian_ms\tcount\twinner\n", fp);

	/* one-hot value per (feature, value id in this log) */
	int *dummy_of[AH_MAX_FEATURES];
	for (int j = 0; j < nc; j++) {
		dummy_of[j] = xmalloc((size_t)c->values[j].n * sizeof(int));
		for (int v = 0; v < c->values[j].n; v++)
			dummy_of[j][v] = intern_find(&c->cats[j], c->values[j].str[v],
			                             c->values[j].len[v]);
	}
	int kept = 0;
	line_buf head = {0}, rows = {0}; /* an input's columns; rows to write */
	for (int i = 0; i < c->ni; i++) {
		int a = c->istart[i], b = c->istart[i + 1];
		if (b - a < 2)
			continue;
		int win = c->order[a];
		for (int q = a + 1; q < b; q++)
			if (c->med[c->order[q]] < c->med[win])
				win = c->order[q];
		const int64_t *x = c->inum + (size_t)i * nn;
		const int32_t *cv = c->icat + (size_t)i * nc;
		double der[MM_N_DERIVED];
		mm_derived(x[c->im], x[c->ik], x[c->in], der);
		/* the input's columns, the same in each of its rows: once */
		char num[G17_BUF];
		head.n = 0;
		lb_i64(&head, kept);
		int64_t prods[3] = {x[c->im] * x[c->ik], x[c->im] * x[c->in],
		                    x[c->ik] * x[c->in]};
		for (int j = 0; j < nn + 3; j++) {
			lb_put(&head, "\t", 1);
			lb_i64(&head, j < nn ? x[j] : prods[j - nn]);
		}
		lb_put(&head, "\t", 1);
		lb_put(&head, num, (size_t)g17(num, der[3]));
		for (int j = 0; j < nc; j++) {
			lb_put(&head, "\t", 1);
			lb_put(&head, c->values[j].str[cv[j]], c->values[j].len[cv[j]]);
		}
		for (int j = 0; j < nc; j++)
			for (int k = 0; k < c->cats[j].n; k++)
				lb_put(&head, dummy_of[j][cv[j]] == k ? "\t1" : "\t0", 2);
		for (int q = a; q < b; q++) {
			int p = c->order[q], ch = c->pr[p].choice;
			lb_put(&rows, head.s, head.n);
			lb_put(&rows, "\t", 1);
			lb_put(&rows, c->choices->str[ch], c->choices->len[ch]);
			lb_put(&rows, "\t", 1);
			lb_put(&rows, num, (size_t)g17(num, c->med[p]));
			lb_put(&rows, "\t", 1);
			lb_i64(&rows, c->pstart[p + 1] - c->pstart[p]);
			lb_put(&rows, p == win ? "\t1\n" : "\t0\n", 3);
		}
		if (rows.n >= 1 << 16) {
			fwrite(rows.s, 1, rows.n, fp);
			rows.n = 0;
		}
		kept++;
	}
	if (rows.n)
		fwrite(rows.s, 1, rows.n, fp);
	free(rows.s);
	free(head.s);
	for (int j = 0; j < nc; j++)
		free(dummy_of[j]);
	return kept;
}

/* Load the one-hot category lists of a main feat TSV's header into cats[]
 * (one interner per categorical feature, values in column order).  The
 * header is read and checked by featset_read_header; its metadata must be
 * the log's (ahmeta.h ah_meta_check: another device only with cross). */
static void load_categories(const char *path, const ah_meta *m, const char *log,
                            int cross, intern *cats)
{
	featset h;
	featset_read_header(&h, path);
	const ah_meta *mm = &h.meta;
	char main_set[4200], dl[256], dm[256];
	snprintf(main_set, sizeof main_set, "the main set %s", path);
	if (ah_meta_check(mm, main_set, m, log, cross, AH_CROSS_FLAG))
		warnf("cross-device (--cross-device): %s (%s) takes the categories of "
		      "%s (%s)", log, ah_device_str(m, dl, sizeof dl), path,
		      ah_device_str(mm, dm, sizeof dm));
	for (int k = h.n_feat - h.n_dummy; k < h.n_feat; k++) {
		const char *v;
		int j = ah_meta_onehot(mm, h.feat[k], &v);
		intern_id(&cats[j], v, strlen(v), NULL);
	}
	featset_free(&h);
}

/* The read loop's state: the distinct inputs (their features as a key),
 * the pairs (input, choice) and the measurements seen so far. */
typedef struct {
	int input, pair;
} last_pair;

typedef struct {
	const char *log;
	int nn, nc, im, ik, in;    /* numerical and categorical features; m, k, n */
	intern *values;            /* [nc] every value seen in this log */
	intern inputs;
	size_t keylen;
	unsigned char *key;
	int64_t *inum;             /* [n_inputs * nn] */
	int32_t *icat;             /* [n_inputs * nc] value ids */
	size_t inum_cap, icat_cap, pair_cap, meas_cap;
	pair *pr;
	meas *ms;
	size_t n_meas;
	/* Pairs (input, choice), numbered in order of first appearance.  Rows
	 * come in runs of one input (its choices and repetitions): per choice
	 * id, lp holds the pair of its last row and that row's input, so a row
	 * finds its pair without a search; a choice new in the run is a new
	 * pair if the input is new (fresh), else it is looked up in the
	 * input's list of pairs (pnext[] chained from pfirst[input]). */
	last_pair *lp;
	int *pfirst, *pnext;
	size_t lp_cap, pf_cap, pn_cap;
	int n_lp, id, fresh, np;
} gather;

/* The indices of the numerical features m, k, n in m->num. */
static void find_mkn(const ah_meta *m, const char *log, int *im, int *ik, int *in)
{
	*im = *ik = *in = -1;
	for (int j = 0; j < m->n_num; j++) {
		if (!strcmp(m->num[j], "m")) *im = j;
		if (!strcmp(m->num[j], "k")) *ik = j;
		if (!strcmp(m->num[j], "n")) *in = j;
	}
	if (*im < 0 || *ik < 0 || *in < 0) /* ah_open_named checked mm's features */
		die("%s:1: metadata has no numerical features m, k, n", log);
}

/* A row whose features differ from the previous row's: its input, new or
 * seen before, becomes g->id (g->fresh: new in this run of rows). */
static void see_input(gather *g, const ah_reader *r)
{
	const int nn = g->nn, nc = g->nc, im = g->im, ik = g->ik, in = g->in;
	/* m*k, m*n, k*n are written as exact 64-bit integers (spec §4.1);
	 * m*k*n itself may exceed 2^53 (arith_intensity is exact, see
	 * mm_derived).  A pairwise product beyond 2^63 is no real matrix. */
	int64_t prod;
	if (__builtin_mul_overflow(r->num[im], r->num[ik], &prod) ||
	    __builtin_mul_overflow(r->num[im], r->num[in], &prod) ||
	    __builtin_mul_overflow(r->num[ik], r->num[in], &prod))
		die("%s:%lld: fields 'm', 'k', 'n': %" PRId64 " x %" PRId64 " x %" PRId64
		    ": m*k, m*n or k*n overflows a 64-bit integer", g->log,
		    (long long)r->lineno, r->num[im], r->num[ik], r->num[in]);
	memcpy(g->key, r->num, (size_t)nn * sizeof(int64_t));
	int32_t cid[AH_MAX_FEATURES];
	for (int j = 0; j < nc; j++)
		cid[j] = intern_id(&g->values[j], r->cat[j], strlen(r->cat[j]), NULL);
	memcpy(g->key + (size_t)nn * sizeof(int64_t), cid, (size_t)nc * sizeof(int32_t));
	int added;
	int was = g->id, id;
	id = g->id = intern_id(&g->inputs, (const char *)g->key, g->keylen, &added);
	if (id != was)
		g->fresh = added;
	if (added) {
		xgrow((void **)&g->pfirst, &g->pf_cap, (size_t)g->inputs.n, sizeof *g->pfirst);
		g->pfirst[id] = -1;
		xgrow((void **)&g->inum, &g->inum_cap, (size_t)g->inputs.n * nn, sizeof *g->inum);
		xgrow((void **)&g->icat, &g->icat_cap, (size_t)g->inputs.n * nc, sizeof *g->icat);
		memcpy(g->inum + (size_t)id * nn, r->num, (size_t)nn * sizeof(int64_t));
		if (nc > 0) /* icat stays NULL for a log without categoricals */
			memcpy(g->icat + (size_t)id * nc, cid, (size_t)nc * sizeof(int32_t));
	}
}

/* The pair (g->id, choice ch of row r), found or added. */
static int pair_of(gather *g, const ah_reader *r, int ch)
{
	const int id = g->id;
	if (ch >= g->n_lp) {
		xgrow((void **)&g->lp, &g->lp_cap, (size_t)r->choices.n, sizeof *g->lp);
		for (; g->n_lp < r->choices.n; g->n_lp++)
			g->lp[g->n_lp].input = -1;
	}
	if (g->lp[ch].input != id) {
		int p = -1;
		if (!g->fresh) /* an input seen before: has it this choice? */
			for (p = g->pfirst[id]; p >= 0 && g->pr[p].choice != ch; p = g->pnext[p])
				;
		if (p < 0) {
			p = g->np++;
			xgrow((void **)&g->pr, &g->pair_cap, (size_t)g->np, sizeof *g->pr);
			xgrow((void **)&g->pnext, &g->pn_cap, (size_t)g->np, sizeof *g->pnext);
			g->pr[p].input = id;
			g->pr[p].choice = ch;
			g->pnext[p] = g->pfirst[id];
			g->pfirst[id] = p;
		}
		g->lp[ch] = (last_pair){id, p};
	}
	return g->lp[ch].pair;
}

/* Every row of r into g: inputs, pairs, measurements; then the warnings
 * (missing final newline, blank lines) and the refusal of an empty log. */
static void read_log(gather *g, ah_reader *r)
{
	while (ah_next(r)) {
		if (!r->same_features) /* else: the previous row's input */
			see_input(g, r);
		int p = pair_of(g, r, r->choice_id);
		xgrow((void **)&g->ms, &g->meas_cap, g->n_meas + 1, sizeof *g->ms);
		g->ms[g->n_meas].pair = p;
		g->ms[g->n_meas].ms = r->feedback;
		g->n_meas++;
	}
	free(g->lp);
	free(g->pfirst);
	free(g->pnext);
	if (r->missing_newline)
		warnf("%s:%lld: the last row has no final newline (a truncated log?); "
		      "it was read as complete", g->log, (long long)r->lineno);
	ah_warn_blank_lines(r);
	if (g->n_meas == 0)
		die("%s: no measurement rows after the header", g->log);
}

int main(int argc, char **argv)
{
	const char *out = NULL, *catfile = NULL, *log = NULL, *label = NULL, *zip = NULL;
	int cross = 0;
	const opt table[] = {
		OPT_POS("LOG.txt", &log, OPT_REQUIRED | OPT_INPUT,
		        "AutoHeuristic log: JSON metadata line, CSV header, rows; '-' "
		        "reads standard input (e.g. unzip -p DATA.zip LOG |)"),
		OPT_STRING("--zip", "ARCHIVE", &zip, OPT_INPUT,
		           "LOG.txt is a member of the zip ARCHIVE, inflated in-process "
		           "(libzip, ISA-L; CRC checked): a100_mm.zip a100/a100_mm.txt"),
		OPT_STRING("--label", "NAME", &label, 0,
		           "call the log NAME in messages (e.g. a100_mm.zip:a100_mm.txt)"),
		OPT_OUT("FILE", &out, OPT_REQUIRED,
		        "output feat TSV (stages/FORMATS.md), written atomically"),
		OPT_STRING("--categories", "F", &catfile, OPT_INPUT,
		           "reuse the one-hot categories of the main dataset's feat TSV "
		           "F (for extra datasets, spec §4.3); the metadata must be "
		           "equal (as JSON), the device too unless --cross-device"),
		OPT_FLAG("--cross-device", &cross,
		         "with --categories: accept a log of another device than F's "
		         "(shared_memory, device_capa), for a deliberate cross-device "
		         "evaluation; says so on stderr"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 17, NULL}, argc, argv);

	ah_reader r;
	if (zip)
		ah_open_zip(&r, zip, log, label);
	else
		ah_open_named(&r, log, label);
	log = r.path; /* the name messages use */
	const ah_meta *m = &r.meta;
	const int nn = m->n_num, nc = m->n_cat;
	intern cats[AH_MAX_FEATURES], values[AH_MAX_FEATURES];
	gather g = {.log = log, .nn = nn, .nc = nc, .values = values, .id = -1};
	find_mkn(m, log, &g.im, &g.ik, &g.in);
	const intern *choices = &r.choices; /* the reader's, first seen first */
	for (int j = 0; j < nc; j++) {
		intern_init(&cats[j]);   /* one-hot categories (main's, or first seen) */
		intern_init(&values[j]); /* every value seen in this log */
	}
	intern_init(&g.inputs);
	if (catfile)
		load_categories(catfile, m, log, cross, cats);
	g.keylen = (size_t)nn * sizeof(int64_t) + (size_t)nc * sizeof(int32_t);
	g.key = xmalloc(g.keylen);
	read_log(&g, &r);

	int ni = g.inputs.n;
	int *pstart;
	double *med = pair_medians(g.ms, g.n_meas, g.np, &pstart);

	int *istart, *order = input_pairs(g.pr, g.np, ni, &istart);

	/* Categories of the main dataset: values of the kept inputs, in order of
	 * first appearance (spec §4.3: taken after §5.1 dropped inputs). */
	if (!catfile)
		for (int i = 0; i < ni; i++)
			if (istart[i + 1] - istart[i] >= 2)
				for (int j = 0; j < nc; j++) {
					int v = g.icat[(size_t)i * nc + j];
					intern_id(&cats[j], values[j].str[v], values[j].len[v], NULL);
				}

	aout ao;
	FILE *fp = aout_open(&ao, out);
	const collected col = {m, g.im, g.ik, g.in, cats, values, choices, g.inum, g.icat, g.pr,
	                       ni, pstart, istart, order, med};
	int kept = write_feat(fp, &col);
	if (kept == 0)
		die("%s: no input has 2 or more distinct choices; nothing to learn from", log);
	aout_commit(&ao);
	fprintf(stderr, "featurize: %s: %zu measurement%s, %d input%s (%d kept), %d choice%s\n",
		log, g.n_meas, plural_s((long long)g.n_meas), ni, plural_s(ni), kept, choices->n,
		plural_s(choices->n));

	for (int j = 0; j < nc; j++) {
		intern_free(&cats[j]);
		intern_free(&values[j]);
	}
	intern_free(&g.inputs);
	free(g.key); free(g.inum); free(g.icat); free(g.pr); free(g.ms); free(pstart);
	free(med); free(istart); free(order);
	ah_close(&r);
	close_stdout();
	return 0;
}
