/* bench_plan.c — the GPU-independent half of bench: shapes.tsv and
 * configs.tsv readers, the per-input candidate plan (spec §3.5), log block
 * formatting (spec §1.1, §1.3) and the resumption scan; the cuBLASLt
 * choices' ids and list are in stages/bench_lt.c.  Linked into both
 * build/bin/bench (CUDA) and build/bin/bench-fake (CPU tests), so
 * everything here is exercised by check/test_bench_cpu.sh.  See bench.h. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plan.h"
#include "util.h"

int dtype_size(int dt) { return dt == DT_F32 ? 4 : 2; }

const char *dtype_torch(int dt)
{
	static const char *const n[] = { "torch.float32", "torch.float16", "torch.bfloat16" };
	return n[dt];
}

static const char shapes_header[] =
	"input\tsample\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\t"
	"mat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\t"
	"mat1_iscontig\tmat2_iscontig\tusing_tf32";

/* Split line (modified in place) at tabs into at most max fields. */
static int split_tabs(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p; p++)
		if (*p == '\t') {
			*p = '\0';
			if (n == max)
				return max + 1;
			f[n++] = p + 1;
		}
	return n;
}

static int64_t field_i64(const char *path, int64_t line, const char *name,
                         const char *s, int64_t lo, int64_t hi)
{
	int64_t v;
	if (parse_i64(s, strlen(s), &v) != 0 || v < lo || v > hi)
		die("%s:%" PRId64 ": field '%s': bad value '%s'", path, line, name, s);
	return v;
}

static int field_bool(const char *path, int64_t line, const char *name, const char *s)
{
	if (!strcmp(s, "True"))
		return 1;
	if (!strcmp(s, "False"))
		return 0;
	die("%s:%" PRId64 ": field '%s': expected True or False, got '%s'", path, line, name, s);
}

bench_input *shapes_read(const char *path, int64_t *n)
{
	size_t len;
	char *buf = read_file(path, &len);
	bench_input *v = NULL;
	size_t cap = 0;
	int64_t cnt = 0, lineno = 0;
	char *p = buf;
	if (len == 0 || buf[len - 1] != '\n')
		die("%s: empty or missing final newline", path);
	while (*p) {
		char *nl = strchr(p, '\n'), *f[17];
		*nl = '\0';
		lineno++;
		if (strchr(p, '\r'))
			die("%s:%" PRId64 ": carriage return", path, lineno);
		if (lineno == 1) {
			if (strcmp(p, shapes_header))
				die("%s:1: not a shapes.tsv header (see stages/sample.c)", path);
			p = nl + 1;
			continue;
		}
		if (split_tabs(p, f, 16) != 16)
			die("%s:%" PRId64 ": expected 16 fields", path, lineno);
		xgrow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v);
		bench_input *in = &v[cnt];
		memset(in, 0, sizeof *in);
		const int64_t big = INT64_C(1) << 40;
		in->id = field_i64(path, lineno, "input", f[0], 0, INT64_MAX);
		in->sample = field_i64(path, lineno, "sample", f[1], 0, INT64_MAX);
		in->m = field_i64(path, lineno, "m", f[2], 1, big);
		in->k = field_i64(path, lineno, "k", f[3], 1, big);
		in->n = field_i64(path, lineno, "n", f[4], 1, big);
		if (!strcmp(f[5], "torch.float32"))
			in->dtype = DT_F32;
		else if (!strcmp(f[5], "torch.float16"))
			in->dtype = DT_F16;
		else if (!strcmp(f[5], "torch.bfloat16"))
			in->dtype = DT_BF16;
		else
			die("%s:%" PRId64 ": field 'dtype': unknown '%s'", path, lineno, f[5]);
		in->tf32 = (int)field_i64(path, lineno, "tf32", f[6], 0, 1);
		in->ta = (int)field_i64(path, lineno, "transpose_left", f[7], 0, 1);
		in->tb = (int)field_i64(path, lineno, "transpose_right", f[8], 0, 1);
		in->feat.m = in->m;
		in->feat.k = in->k;
		in->feat.n = in->n;
		in->feat.dtype = dtype_torch(in->dtype);
		in->feat.s1_0 = field_i64(path, lineno, "mat1_stride_0", f[9], 0, big);
		in->feat.s1_1 = field_i64(path, lineno, "mat1_stride_1", f[10], 0, big);
		in->feat.s2_0 = field_i64(path, lineno, "mat2_stride_0", f[11], 0, big);
		in->feat.s2_1 = field_i64(path, lineno, "mat2_stride_1", f[12], 0, big);
		in->feat.contig1 = field_bool(path, lineno, "mat1_iscontig", f[13]);
		in->feat.contig2 = field_bool(path, lineno, "mat2_iscontig", f[14]);
		const char *want = in->dtype != DT_F32 ? "not_float_32"
		                   : in->tf32 ? "True" : "False";
		if (strcmp(f[15], want))
			die("%s:%" PRId64 ": field 'using_tf32': '%s' disagrees with dtype/tf32 (expected '%s')",
			    path, lineno, f[15], want);
		in->feat.using_tf32 = want;
		/* the strides must describe the layout the transposes give */
		if (in->feat.s1_0 != (in->ta ? 1 : in->k) || in->feat.s1_1 != (in->ta ? in->m : 1) ||
		    in->feat.s2_0 != (in->tb ? 1 : in->n) || in->feat.s2_1 != (in->tb ? in->k : 1))
			die("%s:%" PRId64 ": strides disagree with the transposes", path, lineno);
		in->features = ah_mm_features(&in->feat);
		cnt++;
		p = nl + 1;
	}
	free(buf);
	*n = cnt;
	return v;
}

void shapes_free(bench_input *in, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		free(in[i].features);
	free(in);
}

mm_config *configs_read(const char *path, int *n)
{
	size_t len;
	char *buf = read_file(path, &len);
	mm_config *v = NULL;
	size_t cap = 0;
	int cnt = 0, header = 0, seen_extra = 0;
	int64_t lineno = 0;
	char *p = buf;
	if (len == 0 || buf[len - 1] != '\n')
		die("%s: empty or missing final newline", path);
	while (*p) {
		char *nl = strchr(p, '\n'), *f[7];
		*nl = '\0';
		lineno++;
		if (*p == '#' || *p == '\0') {
			p = nl + 1;
			continue;
		}
		if (!header) {
			/* kernels/wgmma_configs.tsv spells the columns BLOCK_M ... */
			if (strcasecmp(p, "list\tblock_m\tblock_n\tblock_k\tnum_stages\tnum_warps"))
				die("%s:%" PRId64 ": bad header", path, lineno);
			header = 1;
			p = nl + 1;
			continue;
		}
		if (split_tabs(p, f, 6) != 6)
			die("%s:%" PRId64 ": expected 6 fields", path, lineno);
		xgrow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v);
		mm_config *c = &v[cnt];
		if (!strcmp(f[0], "base")) {
			if (seen_extra)
				die("%s:%" PRId64 ": base config after extra ones", path, lineno);
			c->extra = 0;
		} else if (!strcmp(f[0], "extra") || !strcmp(f[0], "big")) {
			/* big (kernels/mma_configs.tsv): larger tiles, offered after
			 * Inductor's extra configs, in the same deduplicated list */
			c->extra = 1;
			seen_extra = 1;
		} else if (!strcmp(f[0], "splitk")) {
			/* split-K needs a workspace and a reduction launch that bench
			 * does not drive yet (perf/kernels/mma_harness.c does) */
			p = nl + 1;
			continue;
		} else {
			die("%s:%" PRId64 ": field 'list': '%s' (base or extra)", path, lineno, f[0]);
		}
		c->bm = (int)field_i64(path, lineno, "block_m", f[1], 16, 256);
		c->bn = (int)field_i64(path, lineno, "block_n", f[2], 16, 256);
		c->bk = (int)field_i64(path, lineno, "block_k", f[3], 16, 256);
		c->stages = (int)field_i64(path, lineno, "num_stages", f[4], 1, 8);
		c->warps = (int)field_i64(path, lineno, "num_warps", f[5], 1, 32);
		if (cnt + 2 > BENCH_MAX_CAND - LT_MAX_LIST)
			die("%s: too many configs (at most %d)", path, BENCH_MAX_CAND - LT_MAX_LIST - 2);
		cnt++;
		p = nl + 1;
	}
	if (!header || cnt == 0)
		die("%s: no configs", path);
	free(buf);
	*n = cnt;
	return v;
}

int thread_grid(int bm, int bn, int nt, int *tr, int *tc)
{
	int best = -1, bestd = 1 << 30;
	for (int r = 1; r <= nt; r *= 2) {
		int c = nt / r;
		if (r * c != nt || r > bm || c > bn || bm % r || bn % c)
			continue;
		int d = abs(bm / r - bn / c);
		if (d < bestd || (d == bestd && c > nt / best)) {
			best = r;
			bestd = d;
		}
	}
	if (best < 0)
		return -1;
	*tr = best;
	*tc = nt / best;
	return 0;
}

int64_t triton_smem(const mm_config *c, int itemsize)
{
	return (int64_t)c->stages * ((int64_t)c->bm * c->bk + (int64_t)c->bk * c->bn) * itemsize;
}

int64_t kernel_smem(const mm_config *c, int dt)
{
	if (c->tmpl == 2) /* kernels/wgmma.cu: stages of A and B tiles + mbarriers + alignment */
		return (int64_t)c->stages * (c->bm + c->bn) * c->bk * 2 + 16 * (int64_t)c->stages + 1024;
	if (c->tmpl == 1) {
		int64_t es = dtype_size(dt), pad = 16 / es;
		int64_t a = (int64_t)c->bm * (c->bk + pad), at = (int64_t)c->bk * (c->bm + 8);
		int64_t b = (int64_t)c->bn * (c->bk + pad), bt = (int64_t)c->bk * (c->bn + 8);
		return (int64_t)c->stages * ((a > at ? a : at) + (b > bt ? b : bt)) * es;
	}
	return (int64_t)c->bk * (c->bm + 1 + c->bn + 1) * 4;
}

static int64_t next_pow2(int64_t x)
{
	int64_t p = 1;
	while (p < x)
		p *= 2;
	return p;
}

static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

mm_config shrink_config(mm_config c, int64_t m, int64_t n, int64_t k)
{
	int64_t mp = imax(next_pow2(m), 16), np = imax(next_pow2(n), 16),
	        kp = imax(next_pow2(k), 16);
	c.bm = (int)imax(imin(c.bm, mp), 16);
	c.bn = (int)imax(imin(c.bn, np), 16);
	c.bk = (int)imax(imin(c.bk, kp), 16);
	c.warps = (int)imin(c.warps, (int64_t)c.bm * c.bn / 256);
	return c;
}

int wgmma_eligible(const bench_input *in)
{
	if (in->dtype != DT_F16 && in->dtype != DT_BF16)
		return 0;
	int64_t lda = in->ta ? in->m : in->k, ldb = in->tb ? in->k : in->n;
	return lda % 8 == 0 && ldb % 8 == 0;
}

static int same_cfg(const mm_config *a, const mm_config *b)
{
	return a->bm == b->bm && a->bn == b->bn && a->bk == b->bk &&
	       a->stages == b->stages && a->warps == b->warps;
}

int plan_candidates(const bench_input *in, const mm_config *cfgs, int ncfg,
                    const lt_entry *lt, int nlt, int64_t smem_limit, bench_cand *out)
{
	int nc = 0;
	memset(&out[0], 0, sizeof out[0]);
	out[0].is_extern = 1;
	strcpy(out[0].id, "extern_mm");
	nc = 1;
	/* cuBLASLt algorithms of the input's type class, in list order */
	unsigned cls = lt_dtype_class(in->dtype, in->tf32);
	for (int i = 0; i < nlt; i++) {
		if (!(lt[i].dtypes & cls))
			continue;
		if (nc >= BENCH_MAX_CAND)
			die("too many candidates");
		bench_cand *c = &out[nc++];
		memset(c, 0, sizeof *c);
		c->lt = 1;
		c->alg = lt[i].a;
		lt_format_id(&c->alg, c->id, sizeof c->id);
	}
	for (int list = 0; list < 3; list++) {
		int first = nc;
		if (list == 2 && !wgmma_eligible(in))
			break; /* wgmma.cu: fp16/bf16 with TMA-describable operands only */
		for (int i = 0; i < ncfg; i++) {
			if (cfgs[i].extra != list)
				continue;
			/* wgmma.cu tiles are not shrunk: TMA zero-fills partial tiles and
			 * the kernel supports only its configured shapes */
			mm_config s = list == 2 ? cfgs[i] : shrink_config(cfgs[i], in->m, in->n, in->k);
			int dup = 0;
			for (int j = first; j < nc; j++)
				dup |= same_cfg(&out[j].cfg, &s);
			if (dup)
				continue; /* filtered_configs dedups within one list */
			if (triton_smem(&s, dtype_size(in->dtype)) > smem_limit)
				continue; /* pruned: exceeds the device's shared memory */
			if (s.tmpl != 0 && kernel_smem(&s, in->dtype) > smem_limit)
				continue; /* mma.cu's padded tiles (fp32), wgmma.cu's stages */
			if (nc >= BENCH_MAX_CAND)
				die("too many candidates");
			bench_cand *c = &out[nc];
			memset(c, 0, sizeof *c);
			c->cfg = s;
			if (s.tmpl == 0 && thread_grid(s.bm, s.bn, 32 * s.warps, &c->tr, &c->tc) != 0)
				die("config %dx%dx%d with %d warps has no thread grid",
				    s.bm, s.bn, s.bk, s.warps);
			snprintf(c->id, sizeof c->id,
			         "type=nvrtc_%sBLOCK-M=%d_BLOCK-K=%d_BLOCK-N=%d_numstages=%d_numwarps=%d",
			         s.tmpl == 2 ? "wgmma_" : s.tmpl == 1 ? "mma_" : "", s.bm, s.bk, s.bn,
			         s.stages, s.warps);
			nc++;
		}
	}
	return nc;
}

/* Append s to a growing buffer. */
static void buf_put(char **b, size_t *len, size_t *cap, const char *s, size_t n)
{
	xgrow((void **)b, cap, *len + n + 1, 1);
	memcpy(*b + *len, s, n);
	*len += n;
	(*b)[*len] = '\0';
}

int bench_full_reps(double t, double best, double alpha)
{
	if (!(alpha > 0))
		return 1;
	return isfinite(t) && t <= alpha * best;
}

/* The sliced length of a dimension of length d for an input whose
 * reference call takes ref_ms (bench_screen_slice), or 0 if slicing it
 * would not at least halve it. */
static int64_t slice_len(int64_t d, double ref_ms)
{
	double want = ceil((double)d * 0.5 / ref_ms);
	int64_t s = ((int64_t)want + 255) / 256 * 256;
	if (s < 2048)
		s = 2048;
	return 2 * s <= d ? s : 0;
}

int bench_screen_slice(const bench_input *in, double ref_ms, double screen_ms,
                       bench_input *slice)
{
	if (!(screen_ms > 0) || !isfinite(ref_ms) || ref_ms < screen_ms)
		return 0;
	int64_t ks = slice_len(in->k, ref_ms), ms = ks ? 0 : slice_len(in->m, ref_ms);
	if (!ks && !ms)
		return 0;
	*slice = *in;
	if (ks)
		slice->k = ks;
	else
		slice->m = ms;
	return 1;
}

int bench_screen_verdicts(const bench_cand *c, int nc, const double *st, double beta,
                          unsigned char *keep, double *best)
{
	double b = INFINITY;
	for (int i = 0; i < nc; i++)
		if (!c[i].lt && st[i] > 0 && st[i] < b)
			b = st[i];
	int out = 0;
	for (int i = 0; i < nc; i++) {
		keep[i] = (unsigned char)(i == 0 || c[i].lt || !(beta > 0) ||
		                          (st[i] > 0 && isfinite(st[i]) && st[i] <= beta * b));
		out += !keep[i];
	}
	*best = b;
	return out;
}

double bench_median(const double *fb, int nc, int c, int reps)
{
	double *v = xmalloc(sizeof *v * (size_t)(reps > 0 ? reps : 1));
	int n = 0;
	for (int r = 0; r < reps; r++) {
		double x = fb[(size_t)r * nc + c];
		if (isnan(x))
			continue;
		if (isinf(x)) {
			free(v);
			return INFINITY;
		}
		v[n++] = x;
	}
	double m = NAN;
	if (n > 0) {
		qsort(v, (size_t)n, sizeof *v, cmp_double);
		m = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	}
	free(v);
	return m;
}

/* full[i] for the nc candidates from their first repetitions t0[]: the
 * running best as the back ends see it (bench_full_reps). */
static void full_reps_of(const double *t0, int nc, double alpha, unsigned char *full)
{
	double best = INFINITY;
	for (int i = 0; i < nc; i++) {
		if (t0[i] < best)
			best = t0[i];
		/* NaN: screened out, no row at all */
		full[i] = (unsigned char)(!isnan(t0[i]) && bench_full_reps(t0[i], best, alpha));
	}
}

char *format_block(const bench_input *in, const bench_cand *c, int nc,
                   int reps, double alpha, const double *fb, size_t *len)
{
	char *b = NULL, num[AH_FLOAT_BUF];
	size_t cap = 0, fl = strlen(in->features);
	unsigned char full[BENCH_MAX_CAND];
	full_reps_of(fb, nc, alpha, full);
	*len = 0;
	for (int r = 0; r < reps; r++)
		for (int i = 0; i < nc; i++) {
			double v = fb[(size_t)r * nc + i];
			if (r > 0 && !full[i]) {
				if (!isnan(v))
					die("internal: '%s' rep %d measured although --fast-reject "
					    "skips it", c[i].id, r + 1);
				continue;
			}
			if (r == 0 && isnan(v) && i > 0)
				continue; /* screened out: no row */
			if (!(v > 0))
				die("internal: feedback %g for '%s' rep %d is not positive", v,
				    c[i].id, r + 1);
			buf_put(&b, len, &cap, in->features, fl);
			buf_put(&b, len, &cap, ",", 1);
			buf_put(&b, len, &cap, c[i].id, strlen(c[i].id));
			buf_put(&b, len, &cap, ",", 1);
			ah_fmt_float(num, v);
			buf_put(&b, len, &cap, num, strlen(num));
			buf_put(&b, len, &cap, "\n", 1);
		}
	return b;
}

/* Position of the choice of log line l (features fl bytes) among
 * cand[from..nc), or -1. */
static int row_choice(const char *l, size_t ll, const bench_input *in, size_t fl,
                      const bench_cand *cand, int from, int nc)
{
	if (ll < fl + 3 || memcmp(l, in->features, fl) || l[fl] != ',')
		return -1;
	for (int j = from; j < nc; j++) {
		size_t il = strlen(cand[j].id);
		if (ll >= fl + il + 3 && !memcmp(l + fl + 1, cand[j].id, il) && l[fl + 1 + il] == ',')
			return j;
	}
	return -1;
}

int64_t resume_scan(const char *path, const char *body, size_t len,
                    bench_input *const *todo, int64_t ntodo,
                    const mm_config *cfgs, int ncfg, const lt_entry *lt, int nlt,
                    int64_t smem_limit, int reps, double alpha, double screen,
                    size_t *keep)
{
	bench_cand cand[BENCH_MAX_CAND];
	double t0[BENCH_MAX_CAND];
	unsigned char full[BENCH_MAX_CAND];
	size_t pos = 0;
	int64_t done = 0, line = 2;
	*keep = 0;
	while (done < ntodo && pos < len) {
		const bench_input *in = todo[done];
		int nc = plan_candidates(in, cfgs, ncfg, lt, nlt, smem_limit, cand);
		size_t fl = strlen(in->features);
		for (int r = 0; r < reps; r++) {
			if (r == 1)
				full_reps_of(t0, nc, alpha, full);
			for (int i = 0; i < nc; i++) {
				if (r > 0 && !full[i])
					continue;
				const char *l = body + pos;
				const char *nl = memchr(l, '\n', len - pos);
				if (!nl)
					return done; /* torn last line: input incomplete */
				size_t ll = (size_t)(nl - l);
				/* screening: candidates after a finite extern_mm row may be
				 * absent from the first repetition */
				int gaps = r == 0 && i > 0 && screen > 0 && reps >= 2 && isfinite(t0[0]);
				int j = row_choice(l, ll, in, fl, cand, i, gaps ? nc : i + 1);
				if (j < 0 && gaps) {
					/* the first repetition ended: the rest screened out */
					for (; i < nc; i++)
						t0[i] = NAN;
					break;
				}
				line++;
				if (j < 0)
					die("%s:%" PRId64 ": row does not match the plan (expected input %"
					    PRId64 " '%s', choice '%s', rep %d): the log was made with "
					    "another shapes.tsv, configs.tsv, --reps, --fast-reject, "
					    "--screen, shard or device; remove it to start over", path, line,
					    in->id, in->features, cand[i].id, r + 1);
				for (; i < j; i++)
					t0[i] = NAN;
				size_t il = strlen(cand[i].id);
				const char *v = l + fl + il + 2;
				double fbv;
				if (parse_f64(v, (size_t)(nl - v), &fbv) != 0 || !(fbv > 0))
					die("%s:%" PRId64 ": bad feedback '%.*s'", path, line,
					    (int)(nl - v), v);
				if (r == 0)
					t0[i] = fbv;
				pos = (size_t)(nl - body) + 1;
			}
		}
		done++;
		*keep = pos;
	}
	if (done == ntodo && pos < len)
		die("%s: %zu bytes after the last input of the shard", path, len - pos);
	return done;
}
