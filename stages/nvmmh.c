/* nvmmh — rank every input's Triton choices by NVIDIA's analytic
 * nvMatmulHeuristics (PyPI nvidia-matmul-heuristics: an analytic
 * peer of the learned trees).  Reads a feat TSV (stages/FORMATS.md), writes
 * a ranks TSV (stages/formats/ranks.h) that `eval --ranked` scores with the
 * rules of every tree (spec §5.9, §7.3: filtered to the input's choices,
 * the first k, extern_mm appended).
 *
 * Per input: the problem is (M, N, K) = (m, n, k), batch 1; the layout is
 * NN, TN, NT or TT row-major (A = mat1 transposed iff mat1_stride_1 != 1,
 * B likewise for mat2); the precision string is HSH (float16), TST
 * (bfloat16), SFS (float32 with TF32, using_tf32 True) or SSS (float32).
 * Every choice `type=triton_BLOCK-M=BM_BLOCK-K=BK_BLOCK-N=BN_numstages=S_
 * numwarps=W` becomes the kernel configuration CTA (BM, BN, BK), load
 * stages S, swizzle 8 (Inductor's GROUP_M), split-K 1, no cluster, the
 * tensor-core instruction 16x8x16 (16x8x8 for float32), and the warp tile
 * of the CTA tile split among W warps (warps along M and N as equal as
 * possible, each at least one 16x8 instruction tile; fewer warps when the
 * tile is too small); its score is the library's runtime estimate for the
 * Triton target (--metric: by default the one tuned for relative ordering)
 * with the predefined descriptor of the GPU and the internal discovery set
 * loaded.  The estimate does not depend on S and
 * W (choices that differ only there get the same score), so ties are broken
 * by --tie.  A configuration the library rejects (score 0) ranks after all
 * others.  Other choices (extern_mm, nvrtc_*, cublaslt_*) are not ranked.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "formats/featset.h"
#include "core/opts.h"
#include "formats/ranks.h"
#include "core/util.h"
#include "gen/gpus.h"

#include "nvMatmulHeuristics.h"

static const char synopsis[] =
"nvmmh [--gpu NAME] [--metric relative|runtime]\n"
"             [--tie order|spread|measured] -o RANKS.tsv SET.feat.tsv";

static const char about[] =
"Rank every input's Triton choices (type=triton_BLOCK-M=..._numwarps=...)\n"
"by nvMatmulHeuristics' runtime estimate for the Triton target, fastest\n"
"first (the analytic peer of the trees in eval and compare).\n";

static const char notes[] =
"stderr: inputs, Triton choices scored, rejected configurations and tie\n"
"groups.  Needs libnvMatmulHeuristics.so.0 (make NVMMH_DIR=..., see\n"
"mk/nvmmh.mk); runs without a GPU.\n"
"Exit status: 0 on success; 1 on bad usage, invalid input (file:line), a\n"
"library error, or a write error.  No partial output is left under\n"
"RANKS.tsv.\n";

static const char h_tie[] =
"the estimate ignores num_stages and num_warps, so choices that differ "
"only there tie (relative difference < 1e-9): order (default) keeps the "
"feat TSV's order of the input's rows, i.e. Inductor's candidate order in "
"the log; spread lists one choice of every tied group (in that order) "
"before the second of any, so that a short list holds several tiles; "
"measured takes the smaller median time first, an oracle tie-break (not a "
"heuristic: it bounds what the ignored parameters cost)";

enum { TIE_ORDER, TIE_SPREAD, TIE_MEASURED }; /* --tie, in ties[] order */

/* The library's state: handle, descriptor, backend, loaded discovery sets
 * (precision x layout). */
typedef struct {
	nvmmhHandle_t h;
	nvmmhHardwareDescriptor_t hw;
	nvmmhBackend_t be;
	int relative;
	char loaded[4][4];
	long partial; /* discovery sets not entirely loaded */
} lib;

static const char *const precs[4] = {"HSH", "TST", "SFS", "SSS"};

static void
check(nvmmhStatus_t s, const char *call)
{
	if (s != NVMMH_STATUS_SUCCESS)
		die("nvMatmulHeuristics: %s: %s", call,
		    nvMatmulHeuristicsGetStatusString(s));
}

static void
lib_open(lib *l, nvmmhNvidiaGpu_t gpu, int relative)
{
	memset(l, 0, sizeof *l);
	l->relative = relative;
	check(nvMatmulHeuristicsCreate(&l->h), "Create");
	check(nvMatmulHeuristicsHardwareDescriptorCreate(&l->hw),
	      "HardwareDescriptorCreate");
	check(nvMatmulHeuristicsHardwareDescriptorSetPredefinedGpu(l->hw, gpu),
	      "HardwareDescriptorSetPredefinedGpu");
	check(nvMatmulHeuristicsBackendCreate(&l->be, NVMMH_TARGET_TRITON),
	      "BackendCreate");
}

/* LeakSanitizer (the make check build) reads its suppressions here: the
 * handle and what the library allocates for it are left to process exit on
 * purpose (lib_close); allocations of ours are still checked. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_options(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:libnvMatmulHeuristics.so\n";
}

const char *
__lsan_default_options(void)
{
	return "print_suppressions=0";
}

static void
lib_close(lib *l)
{
	check(nvMatmulHeuristicsBackendDestroy(&l->be), "BackendDestroy");
	check(nvMatmulHeuristicsHardwareDescriptorDestroy(&l->hw),
	      "HardwareDescriptorDestroy");
	/* Not nvMatmulHeuristicsDestroy(&l->h): the 0.1.0.27 library then
	 * dlclose()s the CUDA driver it failed to load on a machine without one
	 * (a NULL handle: SIGSEGV).  The process exits right after. */
}

/* The discovery set of (precision p, layout y), loaded once. */
static void
lib_discover(lib *l, int p, int y)
{
	if (l->loaded[p][y])
		return;
	l->loaded[p][y] = 1;
	nvmmhStatus_t s = nvMatmulHeuristicsLoadInternalDiscoverySet(
	    l->h, precs[p], NVMMH_TARGET_TRITON, (nvmmhMatmulLayout_t)y, l->hw);
	if (s == NVMMH_STATUS_PROFILE_NOT_ENTIRELY_LOADED)
		l->partial++;
	else
		check(s, "LoadInternalDiscoverySet");
}

/* "type=triton_BLOCK-M=BM_BLOCK-K=BK_BLOCK-N=BN_numstages=S_numwarps=W"
 * into v[5] = BM, BK, BN, S, W; 0 if id is not of that form. */
static int
parse_triton(const char *id, int v[5])
{
	int end = -1;
	if (sscanf(id, "type=triton_BLOCK-M=%d_BLOCK-K=%d_BLOCK-N=%d_numstages=%d"
	           "_numwarps=%d%n", &v[0], &v[1], &v[2], &v[3], &v[4], &end) != 5 ||
	    end < 0 || id[end] != '\0')
		return 0;
	for (int i = 0; i < 5; i++)
		if (v[i] < 1 || v[i] > 65535)
			return 0;
	return 1;
}

/* The CTA tile bm x bn split among w warps (see the file comment): w =
 * a x b with a <= b powers of two as equal as possible, the larger factor
 * along the larger tile side; w halved until every warp holds at least one
 * 16 x 8 instruction tile. */
static void
warp_tile(int bm, int bn, int w, uint16_t out[2])
{
	for (; w > 1; w /= 2) {
		int a = 1;
		while (4 * a * a <= w)
			a *= 2;
		int b = w / a, wm = bm >= bn ? b : a, wn = w / wm;
		if (bm % wm == 0 && bn % wn == 0 && bm / wm >= 16 && bn / wn >= 8) {
			out[0] = (uint16_t)(bm / wm);
			out[1] = (uint16_t)(bn / wn);
			return;
		}
	}
	out[0] = (uint16_t)bm;
	out[1] = (uint16_t)bn;
}

/* The library's score of Triton configuration v for the problem (0:
 * rejected). */
static double
score(lib *l, int p, const nvmmhMatmulProblem_t *pb, const int v[5])
{
	nvmmhKernelConfiguration_t c;
	memset(&c, 0, sizeof c);
	c.cta[0] = (uint16_t)v[0];
	c.cta[1] = (uint16_t)v[2];
	c.cta[2] = (uint16_t)v[1];
	warp_tile(v[0], v[2], v[4], c.warp);
	c.warp[2] = (uint16_t)v[1];
	c.instr[0] = 16;
	c.instr[1] = 8;
	c.instr[2] = p >= 2 ? 8 : 16;
	c.splitK = 1;
	c.loadStages = (uint8_t)(v[3] > 255 ? 255 : v[3]);
	c.gridSwizzle = 8;
	c.cluster[0] = c.cluster[1] = 1;
	double s = l->relative
	    ? nvMatmulHeuristicsEstimateSiliconMetricEx(
	          l->h, precs[p], l->be, pb, &c, NVMMH_METRIC_RUNTIME_RELATIVE_FAST_S,
	          l->hw)
	    : nvMatmulHeuristicsEstimateRuntime(l->h, precs[p], NVMMH_TARGET_TRITON,
	                                        pb, &c, l->hw);
	return isfinite(s) && s > 0 ? s : 0;
}

/* One scored choice of an input. */
typedef struct {
	const char *id;
	double score, ms;
	int pos;      /* row position within the input (Inductor's order) */
	int round;    /* --tie spread: its place within its tied group */
} cand;

/* Scores first (a rejected configuration, score 0, last), ties (relative
 * difference < 1e-9) left equal. */
static int
cmp_score(const cand *x, const cand *y)
{
	if ((x->score == 0) != (y->score == 0))
		return x->score == 0 ? 1 : -1;
	double d = x->score - y->score, tol = 1e-9 * fmax(x->score, y->score);
	return d < -tol ? -1 : d > tol ? 1 : 0;
}

/* --tie order: then the row position. */
static int
cmp_order(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	int c = cmp_score(x, y);
	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* --tie spread (after cmp_order): rejected configurations last, then the
 * place within the tied group, then as cmp_order. */
static int
cmp_spread(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	if ((x->score == 0) != (y->score == 0))
		return x->score == 0 ? 1 : -1;
	if (x->round != y->round)
		return x->round < y->round ? -1 : 1;
	int c = cmp_score(x, y);
	return c ? c : (x->pos > y->pos) - (x->pos < y->pos);
}

/* --tie measured: then the smaller median time, then the row position. */
static int
cmp_measured(const void *a, const void *b)
{
	const cand *x = a, *y = b;
	int c = cmp_score(x, y);
	if (c)
		return c;
	if (x->ms != y->ms)
		return x->ms < y->ms ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

/* Column of model feature name in fs, dying if absent. */
static int
column(const featset *fs, const char *name, const char *path)
{
	int c = featset_feature(fs, name);
	if (c < 0)
		die("%s: no feature column '%s'", path, name);
	return c;
}

/* Index of categorical feature name in fs->meta, dying if absent. */
static int
category(const featset *fs, const char *name, const char *path)
{
	for (int j = 0; j < fs->meta.n_cat; j++)
		if (!strcmp(fs->meta.cat[j], name))
			return j;
	die("%s: no categorical feature '%s' in the metadata", path, name);
}

/* Precision index into precs[] of mat1_dtype dt and using_tf32 tf, or -1. */
static int
precision(const char *dt, const char *tf)
{
	if (!strcmp(dt, "torch.float16"))
		return 0;
	if (!strcmp(dt, "torch.bfloat16"))
		return 1;
	if (!strcmp(dt, "torch.float32"))
		return !strcmp(tf, "True") ? 2 : 3;
	return -1;
}

typedef struct {
	long inputs, unranked, scored, rejected, ties;
} tally;

/* Rank input i of fs into ids[] (room for its rows); returns the count. */
static int
rank_input(lib *l, const featset *fs, int i, const int *col, const int *cat,
           int tie, cand *cs, const char **ids, tally *t)
{
	const double *x = fs->x + (size_t)i * fs->n_feat;
	int64_t m = (int64_t)x[col[0]], k = (int64_t)x[col[1]], n = (int64_t)x[col[2]];
	const char *const *cv = (const char *const *)fs->cat + (size_t)i * fs->meta.n_cat;
	int p = precision(cv[cat[0]], cv[cat[1]]);
	if (p < 0 || m < 1 || n < 1 || k < 1 || m > UINT32_MAX || n > UINT32_MAX ||
	    k > UINT32_MAX) {
		t->unranked++;
		return 0;
	}
	int y = (x[col[3]] != 1) * 2 + (x[col[4]] != 1); /* TN = 2, NT = 1 */
	lib_discover(l, p, y);
	nvmmhMatmulProblem_t pb = {(uint32_t)m, (uint32_t)n, (uint32_t)k, 1, (uint8_t)y};
	int nc = 0;
	for (int r = fs->first[i]; r < fs->first[i + 1]; r++) {
		int v[5];
		const char *id = fs->choices[fs->choice[r]];
		if (!parse_triton(id, v))
			continue;
		cs[nc] = (cand){id, score(l, p, &pb, v), fs->ms[r], r - fs->first[i], 0};
		t->rejected += cs[nc].score == 0;
		nc++;
	}
	qsort(cs, (size_t)nc, sizeof *cs, tie == TIE_MEASURED ? cmp_measured : cmp_order);
	for (int j = 0; j < nc; j++) {
		int tied = j > 0 && cs[j].score > 0 && cmp_score(&cs[j - 1], &cs[j]) == 0;
		cs[j].round = tied ? cs[j - 1].round + 1 : 0;
		t->ties += tied;
	}
	if (tie == TIE_SPREAD)
		qsort(cs, (size_t)nc, sizeof *cs, cmp_spread);
	for (int j = 0; j < nc; j++)
		ids[j] = cs[j].id;
	t->scored += nc;
	return nc;
}

int
main(int argc, char **argv)
{
	/* the GPU table's rows with a descriptor (datasets/GPUS.tsv, gen/gpus.h) */
#define GPU_NAME(name, smem, major, minor, desc) name,
#define GPU_DESC(name, smem, major, minor, desc) NVMMH_NVGPU_##desc,
#define GPU_DEV(name, smem, major, minor, desc) {smem, major, minor},
	static const char *const gpus[] = {GPUS_NVMMH_ROWS(GPU_NAME) NULL};
	static const nvmmhNvidiaGpu_t descs[] = {GPUS_NVMMH_ROWS(GPU_DESC)};
	static const struct {
		int64_t smem;
		int major, minor;
	} devs[] = {GPUS_NVMMH_ROWS(GPU_DEV)};
#undef GPU_NAME
#undef GPU_DESC
#undef GPU_DEV
	static const char *const metrics[] = {"relative", "runtime", NULL};
	static const char *const ties[] = {"order", "spread", "measured", NULL};
	const char *out = NULL, *in = NULL;
	int gi = -1, metric = 0, tie = TIE_ORDER;
	const opt table[] = {
		OPT_POS("SET.feat.tsv", &in, OPT_REQUIRED | OPT_INPUT,
		        "featurize output (stages/FORMATS.md \"feat TSV\"; times in "
		        "ms are read only for --tie measured)"),
		OPT_OUT("RANKS.tsv", &out, OPT_REQUIRED,
		        "ranks TSV (stages/FORMATS.md \"ranks TSV\"), written "
		        "atomically: one row per input, its Triton choice ids best "
		        "first; eval --ranked NAME:SET=RANKS.tsv scores it"),
		OPT_ENUM("--gpu", "NAME", &gi, gpus, 0,
		         "the predefined hardware descriptor of the GPU table's row "
		         "NAME (datasets/GPUS.tsv, its nvmmh column); default: the "
		         "first row of the table whose shared memory and capability "
		         "are the metadata's"),
		OPT_ENUM("--metric", "M", &metric, metrics, 0,
		         "relative (default): the silicon metric "
		         "RUNTIME_RELATIVE_FAST_S, which the library's header "
		         "recommends for ordering kernels; runtime: "
		         "nvMatmulHeuristicsEstimateRuntime (seconds)"),
		OPT_ENUM("--tie", "T", &tie, ties, 0, h_tie),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 18, NULL}, argc, argv);
	int relative = metric == 0;
	featset fs;
	featset_read(&fs, in);
	for (int i = 0; gi < 0 && gpus[i]; i++)
		if (devs[i].smem == fs.meta.shared_memory && devs[i].major == fs.meta.cap_major &&
		    devs[i].minor == fs.meta.cap_minor)
			gi = i;
	if (gi < 0) {
		char names[512] = "";
		for (int i = 0, o = 0; gpus[i] && o < (int)sizeof names; i++)
			o += snprintf(names + o, sizeof names - (size_t)o, "%s%s", i ? "|" : "", gpus[i]);
		die("%s: shared memory %" PRId64 ", device capability (%d, %d): give --gpu %s "
		    "(no row of datasets/GPUS.tsv with a descriptor reports this device)", in,
		    fs.meta.shared_memory, fs.meta.cap_major, fs.meta.cap_minor, names);
	}
	const char *gpu = gpus[gi];
	nvmmhNvidiaGpu_t g = descs[gi];
	int col[5] = {column(&fs, "m", in), column(&fs, "k", in), column(&fs, "n", in),
	              column(&fs, "mat1_stride_1", in), column(&fs, "mat2_stride_1", in)};
	int cat[2] = {category(&fs, "mat1_dtype", in), category(&fs, "using_tf32", in)};
	lib l;
	lib_open(&l, g, relative);
	int maxr = 1;
	for (int i = 0; i < fs.n_inputs; i++)
		if (fs.first[i + 1] - fs.first[i] > maxr)
			maxr = fs.first[i + 1] - fs.first[i];
	cand *cs = xmalloc((size_t)maxr * sizeof *cs);
	const char **ids = xmalloc((size_t)maxr * sizeof *ids);
	tally t = {0};
	aout o;
	FILE *fp = aout_open(&o, out);
	fprintf(fp, "%s\n", ranks_header);
	for (int i = 0; i < fs.n_inputs; i++) {
		int n = rank_input(&l, &fs, i, col, cat, tie, cs, ids, &t);
		const double *x = fs.x + (size_t)i * fs.n_feat;
		ranks_write_row(fp, i, (int64_t)x[col[0]], (int64_t)x[col[1]],
		                (int64_t)x[col[2]], ids, n);
		t.inputs++;
	}
	aout_commit(&o);
	fprintf(stderr, "nvmmh: %s: %ld inputs (%ld unranked: dtype or size), %ld "
	        "Triton choices scored (%s, %s), %ld rejected, %ld tied with the "
	        "previous one (broken by %s)%s\n", in, t.inputs, t.unranked, t.scored,
	        gpu, relative ? "relative" : "runtime", t.rejected, t.ties,
	        tie == TIE_MEASURED ? "measured time" : tie == TIE_SPREAD ?
	        "row order, spread" : "row order",
	        l.partial ? "; some discovery sets not entirely loaded" : "");
	lib_close(&l);
	free(ids);
	free(cs);
	featset_free(&fs);
	close_stdout();
	return 0;
}
