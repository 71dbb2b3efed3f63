/* inductor_cands.c — see inductor_cands.h.  torch 2.11 line references are
 * to the PyPI wheel's torch/_inductor/ (kernels/INDUCTOR_MM.md). */
#include "inductor_cands.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/tsvtext.h"
#include "core/util.h"

/* ---- table reading -------------------------------------------------------- */

/* Iterate over the data lines of a table file: skips '#' comment lines,
 * checks the header equals want (tab-separated), dies on '\r'.  Calls
 * row(ctx, fields, nf, line) per record. */
static void read_table(const char *path, const char *want,
                       void (*row)(void *ctx, char **f, int nf, const char *path, int line),
                       void *ctx)
{
	char *buf = tsv_read(path, "a header line"), *pos = buf, *p;
	int64_t line = 0;
	int have_header = 0, nwant = 1;
	for (const char *w = want; *w; w++)
		nwant += *w == '\t';
	while ((p = tsv_line(&pos, path, &line))) {
		if (p[0] == '#')
			continue;
		if (!have_header) {
			if (strcmp(p, want) != 0)
				die("%s:%d: header is '%s', expected '%s'", path, (int)line, p, want);
			have_header = 1;
		} else {
			char *f[32];
			int nf = tsv_split(p, f, 32);
			if (nf != nwant)
				die("%s:%d: %d fields, the header has %d", path, (int)line, nf, nwant);
			row(ctx, f, nf, path, (int)line);
		}
	}
	if (!have_header)
		die("%s: no header line", path);
	free(buf);
}

static int field_int(const char *s, const char *path, int line, const char *name, int lo, int hi)
{
	int64_t v;
	if (parse_i64(s, strlen(s), &v) != 0 || v < lo || v > hi)
		die("%s:%d: field '%s': not an integer in [%d, %d]: '%s'", path, line, name, lo, hi, s);
	return (int)v;
}

static const char *cfg_cols[] = {"list", "block_m", "block_n", "block_k", "num_stages",
                                 "num_warps", "group_m"};

static void cfg_row(void *ctx, char **f, int nf, const char *path, int line)
{
	(void)nf;
	ic_table *t = ctx;
	if (t->n == IC_MAX_CONFIGS)
		die("%s:%d: more than %d configs", path, line, IC_MAX_CONFIGS);
	ic_config *c = &t->cfg[t->n];
	if (strcmp(f[0], "mm") == 0)
		c->list = IC_LIST_MM;
	else if (strcmp(f[0], "mm-ah") == 0)
		c->list = IC_LIST_AH;
	else
		die("%s:%d: field 'list': expected mm or mm-ah: '%s'", path, line, f[0]);
	int *dst[] = {&c->bm, &c->bn, &c->bk, &c->stages, &c->warps, &c->group_m};
	for (int i = 0; i < 6; i++) {
		*dst[i] = field_int(f[i + 1], path, line, cfg_cols[i + 1], 1, 1024);
		if (i < 3 && (*dst[i] < 16 || (*dst[i] & (*dst[i] - 1))))
			die("%s:%d: field '%s': not a power of two >= 16: '%s'", path, line,
			    cfg_cols[i + 1], f[i + 1]);
	}
	if (c->stages > 8)
		die("%s:%d: field 'num_stages': above 8: '%s'", path, line, f[4]);
	if (c->warps & (c->warps - 1) || c->warps > 32)
		die("%s:%d: field 'num_warps': not a power of two <= 32: '%s'", path, line, f[5]);
	if (c->group_m > 64)
		die("%s:%d: field 'group_m': above 64: '%s'", path, line, f[6]);
	/* within a list, the same config twice would be a table error (Inductor
	 * would drop the second copy; a hand edit should not rely on it) */
	for (int j = 0; j < t->n; j++) {
		const ic_config *o = &t->cfg[j];
		if (o->list == c->list && o->bm == c->bm && o->bn == c->bn && o->bk == c->bk &&
		    o->stages == c->stages && o->warps == c->warps && o->group_m == c->group_m)
			die("%s:%d: field 'list': duplicate of line %d", path, line, o->line);
	}
	c->line = line;
	t->n++;
}

static const struct {
	const char *name;
	size_t off;
	int lo, hi;
} params[] = {
	{"min_block_size", offsetof(ic_table, min_block), 1, 1024},
	{"min_block_size_k", offsetof(ic_table, min_block_k), 1, 1024},
	{"force_same_precision", offsetof(ic_table, force_same_precision), 0, 1},
	{"prune_shared_mem", offsetof(ic_table, prune_shared_mem), 0, 1},
	{"aten_gemm", offsetof(ic_table, aten_gemm), 0, 1},
	{"triton_gemm", offsetof(ic_table, triton_gemm), 0, 1},
	{"num_decompose_k_splits", offsetof(ic_table, dk_splits), 0, 64},
	{"decompose_k_threshold", offsetof(ic_table, dk_threshold), 0, 1 << 20},
	{"decompose_k_template_skip_multiple", offsetof(ic_table, dk_skip_multiple), 1, 1024},
	{"coordinate_descent_tuning", offsetof(ic_table, coordinate_descent_tuning), 0, 1},
};
#define NPARAMS (int)(sizeof params / sizeof params[0])

struct param_ctx {
	ic_table *t;
	int seen[NPARAMS + 1];   /* line of each parameter (last: torch_version) */
};

static void param_row(void *ctx, char **f, int nf, const char *path, int line)
{
	(void)nf;
	struct param_ctx *pc = ctx;
	if (strcmp(f[0], "torch_version") == 0) {
		if (pc->seen[NPARAMS])
			die("%s:%d: field 'param': torch_version repeated (line %d)", path, line, pc->seen[NPARAMS]);
		if (!f[1][0] || strlen(f[1]) >= sizeof pc->t->torch_version)
			die("%s:%d: field 'value': bad torch version: '%s'", path, line, f[1]);
		strcpy(pc->t->torch_version, f[1]);
		pc->seen[NPARAMS] = line;
		return;
	}
	for (int i = 0; i < NPARAMS; i++)
		if (strcmp(f[0], params[i].name) == 0) {
			if (pc->seen[i])
				die("%s:%d: field 'param': %s repeated (line %d)", path, line, f[0], pc->seen[i]);
			*(int *)((char *)pc->t + params[i].off) =
				field_int(f[1], path, line, "value", params[i].lo, params[i].hi);
			pc->seen[i] = line;
			return;
		}
	die("%s:%d: field 'param': unknown parameter: '%s'", path, line, f[0]);
}

void ic_table_read(ic_table *t, const char *configs_path, const char *params_path)
{
	memset(t, 0, sizeof *t);
	read_table(configs_path, "list\tblock_m\tblock_n\tblock_k\tnum_stages\tnum_warps\tgroup_m",
	           cfg_row, t);
	if (t->n == 0)
		die("%s: no configs", configs_path);
	struct param_ctx pc = {.t = t};
	read_table(params_path, "param\tvalue\tsource", param_row, &pc);
	for (int i = 0; i <= NPARAMS; i++)
		if (!pc.seen[i])
			die("%s: field 'param': %s missing", params_path,
			    i < NPARAMS ? params[i].name : "torch_version");
}

/* ---- dtypes --------------------------------------------------------------- */

int ic_dtype_parse(const char *s)
{
	if (!strncmp(s, "torch.", 6))
		s += 6;
	if (!strcmp(s, "float16") || !strcmp(s, "fp16") || !strcmp(s, "half"))
		return IC_F16;
	if (!strcmp(s, "bfloat16") || !strcmp(s, "bf16"))
		return IC_BF16;
	if (!strcmp(s, "float32") || !strcmp(s, "fp32") || !strcmp(s, "float"))
		return IC_F32;
	return -1;
}

const char *ic_dtype_torch(int dtype)
{
	return dtype == IC_F16 ? "torch.float16" : dtype == IC_BF16 ? "torch.bfloat16" : "torch.float32";
}

int ic_itemsize(int dtype) { return dtype == IC_F32 ? 4 : 2; }

/* ---- the rule ------------------------------------------------------------- */

/* next_power_of_2 (runtime/runtime_utils.py:40): smallest 2^e >= n, 1 for n <= 0 */
static int64_t next_pow2(int64_t n)
{
	int64_t p = 1;
	while (p < n)
		p <<= 1;
	return p;
}

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }
static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }

/* get_k_splits (utils.py:2273-2326) for static m, n, k: divisors d of k with
 * 2 <= d <= min(k // m, k // n) and k / d >= 128, those whose k / d is a
 * power of two first, then k / d a multiple of 32, then the rest (each in
 * ascending d), at most limit of them. */
static int k_splits(int64_t m, int64_t n, int64_t k, int limit, int64_t *out)
{
	if (limit == 0)
		return 0;
	int64_t maxs = min64(k / m, k / n);
	int64_t cls[3][64];
	int nc[3] = {0, 0, 0};
	for (int64_t d = 2; d <= maxs; d++) {
		if (k % d)
			continue;
		int64_t part = k / d;
		if (part < 128)
			continue;
		int c = (part & (part - 1)) == 0 ? 0 : part % 32 == 0 ? 1 : 2;
		if (nc[c] < 64)
			cls[c][nc[c]++] = d;
	}
	int n_out = 0;
	for (int c = 0; c < 3; c++)
		for (int i = 0; i < nc[c] && n_out < limit; i++)
			out[n_out++] = cls[c][i];
	return n_out;
}

static int div_level(int64_t v, int cap)
{
	int d = 1;
	while (d < cap && v % (2 * d) == 0)
		d *= 2;
	return d;
}

void ic_args(const ic_input *in, int64_t arg[IC_NARG])
{
	arg[IC_ARG_M] = in->m;
	arg[IC_ARG_N] = in->n;
	arg[IC_ARG_K] = in->k;
	arg[IC_ARG_AM] = in->s1[0];
	arg[IC_ARG_AK] = in->s1[1];
	arg[IC_ARG_BK] = in->s2[0];
	arg[IC_ARG_BN] = in->s2[1];
}

/* The variant of config (bm, bn, bk, stages, warps, group_m) on in
 * (mm_template's kwargs, template_heuristics/triton.py:1864-1975, and the
 * template's compile-time branches, kernel/templates/triton_mm.py.jinja). */
static void variant_of(const ic_table *t, const ic_input *in, const ic_cand *c, ic_variant *v)
{
	memset(v, 0, sizeof *v);
	int64_t m = in->m, k = in->k, n = in->n;
	v->dtype = in->dtype;
	/* ALLOW_TF32 (triton.py:1872): fp32_precision == "tf32" and (not
	 * force_same_precision or m, n % 16 == 0 and k % 8 == 0); it only
	 * changes the code of fp32 inputs */
	v->allow_tf32 = in->dtype == IC_F32 && in->tf32 &&
	                (!t->force_same_precision || (m % 16 == 0 && n % 16 == 0 && k % 8 == 0));
	v->bm = c->bm, v->bn = c->bn, v->bk = c->bk;
	v->stages = c->stages, v->warps = c->warps, v->group_m = c->group_m;
	v->even_k = k % c->bk == 0;                                   /* triton.py:1956 */
	const int64_t *a = in->s1, *b = in->s2;
	v->hint_a = ((a[0] == 1 && a[1] == m) || (a[0] == k && a[1] == 1)) && m >= c->bm && k > 1;
	v->hint_b = ((b[0] == 1 && b[1] == k) || (b[0] == n && b[1] == 1)) && n >= c->bn && k > 1;
	int64_t kt = (k + c->bk - 1) / c->bk;
	v->k_tiles = kt <= IC_KT_MAX ? (int)kt : 0;
	/* can_use_32bit_indexing (codegen/simd.py:1844): the output's numel and
	 * every buffer's storage size <= INT32_MAX */
	int64_t sa = 1 + (m - 1) * a[0] + (k - 1) * a[1];
	int64_t sb = 1 + (k - 1) * b[0] + (n - 1) * b[1];
	v->idx64 = m * n > INT32_MAX || sa > INT32_MAX || sb > INT32_MAX;
	int64_t arg[IC_NARG];
	ic_args(in, arg);
	int cap = 16 / ic_itemsize(in->dtype);
	for (int i = 0; i < IC_NARG; i++)
		v->div[i] = i >= IC_ARG_AM && arg[i] == 1 ? 0 : div_level(arg[i], cap);
}

static void add(ic_cand *c, int *nc, const ic_cand *x)
{
	c[*nc] = *x;
	c[*nc].dup_of = -1;
	for (int i = 0; i < *nc; i++)
		if (!strcmp(c[i].id, x->id)) {
			c[*nc].dup_of = i;
			break;
		}
	(*nc)++;
}

int ic_candidates(const ic_table *t, const ic_input *in, int64_t smem, ic_cand *c,
                  char *err, size_t errlen)
{
	int64_t m = in->m, k = in->k, n = in->n;
	if (m < 1 || k < 1 || n < 1) {
		snprintf(err, errlen, "m, k, n must be >= 1 (m=%" PRId64 " k=%" PRId64 " n=%" PRId64 ")", m, k, n);
		return -1;
	}
	if (in->dtype != IC_F16 && in->dtype != IC_BF16 && in->dtype != IC_F32) {
		snprintf(err, errlen, "unknown dtype %d", in->dtype);
		return -1;
	}
	const int64_t *st[] = {&in->m, &in->n, &in->k, &in->s1[0], &in->s1[1], &in->s2[0], &in->s2[1]};
	for (int i = 0; i < 7; i++)
		if (*st[i] < 0 || *st[i] > INT32_MAX) {
			snprintf(err, errlen, "a size or stride outside [0, 2^31 - 1]: %" PRId64, *st[i]);
			return -1;
		}
	int nc = 0;
	/* m == 1 or n == 1: decomposition.py:372-376 turns the mm into a
	 * broadcast multiply and sum when coordinate_descent_tuning is on
	 * (mode max-autotune-no-cudagraphs, __init__.py:360-363) */
	if (t->coordinate_descent_tuning && (m == 1 || n == 1))
		return 0;
	ic_cand x;
	memset(&x, 0, sizeof x);
	/* kernel/mm.py:401-404: aten mm first */
	if (t->aten_gemm) {
		x.kind = IC_EXTERN;
		strcpy(x.id, "extern_mm");
		add(c, &nc, &x);
	}
	if (!t->triton_gemm)
		return nc;
	/* use_decompose_k_choice (utils.py:2228): k >= T*m and k >= T*n */
	int64_t th = t->dk_threshold;
	int dk = t->dk_splits > 0 && k >= th * m && k >= th * n;
	if (dk) {
		int64_t s[64];
		int ns = k_splits(m, n, k, t->dk_splits, s);
		for (int i = 0; i < ns; i++) {
			memset(&x, 0, sizeof x);
			x.kind = IC_DECOMPOSE_K;
			x.k_split = (int)s[i];
			snprintf(x.id, sizeof x.id, "subgraph_decompose_k_mm_%" PRId64 "_split", s[i]);
			add(c, &nc, &x);
		}
	}
	/* kernel/mm.py:419: the mm template unless decompose_k at 2T */
	int64_t th2 = th * t->dk_skip_multiple;
	int mm_on = !(t->dk_splits > 0 && k >= th2 * m && k >= th2 * n);
	/* _scale_mm_configs (triton.py:779-853), scale 1, no exclusions */
	int64_t mh = max64(next_pow2(m), t->min_block);
	int64_t nh = max64(next_pow2(n), t->min_block);
	int64_t kh = max64(next_pow2(k), t->min_block_k);
	for (int list = IC_LIST_MM; list <= IC_LIST_AH; list++) {
		if (list == IC_LIST_MM && !mm_on)
			continue;
		int first = nc;   /* _finalize_mm_configs dedupes within one list */
		for (int i = 0; i < t->n; i++) {
			const ic_config *g = &t->cfg[i];
			if (g->list != list)
				continue;
			memset(&x, 0, sizeof x);
			x.kind = IC_TRITON;
			x.list = list;
			x.cfg = i;
			x.bm = (int)max64(min64(g->bm, mh), t->min_block);
			x.bn = (int)max64(min64(g->bn, nh), t->min_block);
			x.bk = (int)max64(min64(g->bk, kh), t->min_block_k);
			x.stages = g->stages;
			x.group_m = g->group_m;
			/* preprocess_mm_configs (triton.py:994): the shared-memory
			 * estimate, only when the flag is on */
			if (t->prune_shared_mem) {
				int64_t need = (int64_t)ic_itemsize(in->dtype) *
				               ((int64_t)x.bm * x.bk + (int64_t)x.bn * x.bk) * x.stages + 128;
				if (need > smem)
					continue;
			}
			/* _finalize_mm_configs (triton.py:723): 16x16 per warp */
			x.warps = g->warps < x.bm * x.bn / 256 ? g->warps : x.bm * x.bn / 256;
			int dup = 0;
			for (int j = first; j < nc; j++)
				if (c[j].bm == x.bm && c[j].bn == x.bn && c[j].bk == x.bk &&
				    c[j].stages == x.stages && c[j].warps == x.warps && c[j].group_m == x.group_m)
					dup = 1;
			if (dup)
				continue;
			/* select_algorithm.py:2424-2436: M, K, N order */
			snprintf(x.id, sizeof x.id,
			         "type=triton_BLOCK-M=%d_BLOCK-K=%d_BLOCK-N=%d_numstages=%d_numwarps=%d",
			         x.bm, x.bk, x.bn, x.stages, x.warps);
			variant_of(t, in, &x, &x.v);
			if (nc == IC_MAX_CANDS) {
				snprintf(err, errlen, "more than %d candidates", IC_MAX_CANDS);
				return -1;
			}
			add(c, &nc, &x);
		}
	}
	return nc;
}

void ic_variant_name(const ic_variant *v, char *buf, size_t len)
{
	static const char *dt[] = {"f16", "bf16", "f32"};
	char d[IC_NARG][4];
	for (int i = 0; i < IC_NARG; i++) {
		unsigned x = v->div[i] < 0 ? 0 : v->div[i] > 99 ? 99 : (unsigned)v->div[i];
		if (x == 0)
			strcpy(d[i], "u");
		else if (x < 10)
			d[i][0] = (char)('0' + x), d[i][1] = '\0';
		else
			d[i][0] = (char)('0' + x / 10), d[i][1] = (char)('0' + x % 10), d[i][2] = '\0';
	}
	snprintf(buf, len, "%s-%dx%dx%d-s%dw%dg%d-ek%d-h%d%d-kt%d-i%d-d%s.%s.%s-a%s.%s-b%s.%s",
	         v->dtype == IC_F32 && v->allow_tf32 ? "tf32" : dt[v->dtype], v->bm, v->bn, v->bk,
	         v->stages, v->warps, v->group_m, v->even_k, v->hint_a, v->hint_b, v->k_tiles,
	         v->idx64 ? 64 : 32, d[0], d[1], d[2], d[3], d[4], d[5], d[6]);
}
