/* nvrtc_gpu.c — the GPU half of the NVRTC back end (nvrtc.h, backend.h):
 * kernels/mm.cu, mma.cu and wgmma.cu compiled by NVRTC per (post-shrink
 * config, thread grid, dtype, tf32, arch), cubins cached on disk under
 * --cache keyed by (FNV-1a hash of the source, config, dtype, arch;
 * stages/gpu/cuda/nvrtc_cache.h), loaded and launched with the driver API
 * (stages/gpu/cuda/cudrv.h), wgmma.cu through its TMA launch contract
 * (stages/gpu/cuda/wgmma_launch.h).  Also the auxiliary kernels of every input
 * (mm.cu's fill_kernel and cmp_kernel, nvrtc_aux) and --compile-only. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configs.h"
#include "cuda.h"
#include "nvrtc.h"
#include "gpu/cuda/nvrtc_cache.h"
#include "core/util.h"
#include "gen/gpus.h"
#include "gpu/cuda/wgmma_launch.h"

typedef struct {
	char key[96];
	CUmodule mod;
	CUfunction mm, fill, cmp;
	CUfunction wg[4];           /* wgmma.cu: wgmma_kernel_<ta><tb>, index ta*2+tb */
	int ok;                     /* 0: compile/load failed */
	int launched;               /* has run at least once in this process */
} kmod;

/* The templates' sources by mm_config.tmpl: [0] kernels/mm.cu (always: the
 * auxiliary kernels), [1] mma.cu, [2] wgmma.cu when the variant uses them,
 * else NULL; and their hashes. */
typedef struct {
	char *src[3];
	uint64_t hash[3];
} sources;

typedef struct {
	sources s;
	tmap_encode_fn encode;      /* cuTensorMapEncodeTiled (wgmma.cu only) */
	CUtensorMap *tmA, *tmB;     /* wgmma.cu candidate being measured: the maps of
	                               every operand copy (nvrtc_run), capacity captm */
	int captm;
	kmod **mods;                /* each allocated once: pointers stay valid */
	size_t nmods, capmods;
} nvrtc_state;

static const char *const tmpl_file[3] = { "mm.cu", "mma.cu", "wgmma.cu" };

/* The source of template tmpl (0: mm.cu, 1: mma.cu, 2: wgmma.cu) and its
 * hash. */
static char *load_source(const bench_opts *o, int tmpl, uint64_t *hash)
{
	char *path = xmalloc(strlen(o->kernels) + 16);
	size_t len;
	sprintf(path, "%s/%s", o->kernels, tmpl_file[tmpl]);
	char *src = read_file(path, &len);
	free(path);
	*hash = fnv1a64(FNV1A64_INIT, src, len);
	return src;
}

/* Cubin for (template, cfg, tr, tc, dt, tf32, arch): from the disk cache,
 * or compiled by NVRTC and stored (atomically: temp file + rename).  src is
 * the template's source (c->tmpl), hash its hash.  Returns a malloc'd image
 * and *len, or NULL with *why (malloc'd) on a compile error.  *compiled is
 * set to 1 when NVRTC ran. */
static void sources_load(sources *s, const bench_opts *o, int mma, int wgmma)
{
	memset(s, 0, sizeof *s);
	s->src[0] = load_source(o, 0, &s->hash[0]);
	if (mma)
		s->src[1] = load_source(o, 1, &s->hash[1]);
	if (wgmma)
		s->src[2] = load_source(o, 2, &s->hash[2]);
}

static void sources_free(sources *s)
{
	for (int t = 0; t < 3; t++)
		free(s->src[t]);
}

static void *get_cubin(const char *src, uint64_t hash, const char *cache,
                       const mm_config *c, int tr, int tc, int dt, int tf32,
                       const char *arch, int bug, size_t *len, char **why,
                       int *compiled)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%016" PRIx64 "-%d-%d-%d-%d-%d-%dx%d-dt%d%s-%s%s.cubin",
	         cache, hash, c->bm, c->bn, c->bk, c->stages, c->warps, tr, tc, dt,
	         tf32 ? "-tf32" : "", arch, bug ? "-bug" : "");
	char opt[12][64];
	const char *opts[12];
	int no = nvrtc_config_opts(opt, opts, arch, c->bm, c->bn, c->bk, c->stages, c->warps, dt);
	if (c->tmpl == 1) {
		snprintf(opt[no++], 64, "-DTF32=%d", tf32);
		snprintf(opt[no++], 64, "-DSPLITK=0");
	} else if (c->tmpl == 0) {
		snprintf(opt[no++], 64, "-DTR=%d", tr);
		snprintf(opt[no++], 64, "-DTC=%d", tc);
	} /* wgmma.cu: the common defines only */
	if (bug)
		snprintf(opt[no++], 64, "-DMMRANK_BUG=1");
	for (int i = 7; i < no; i++)
		opts[i] = opt[i];

	return nvrtc_cubin_cached(path, cache, src, tmpl_file[c->tmpl], opts, no, len, why,
	                          compiled);
}

/* Module for (template, cfg, tr, tc, dt, tf32), compiled/loaded on first
 * use.  mm.cu modules also provide fill_kernel and cmp_kernel. */
static kmod *get_module(measurer *b, nvrtc_state *st, const mm_config *c, int tr, int tc, int dt,
                        int tf32)
{
	char key[96];
	static const char *const pre[3] = { "", "mma-", "wg-" };
	snprintf(key, sizeof key, "%s%d-%d-%d-%d-%d-%dx%d-%d%s", pre[c->tmpl], c->bm,
	         c->bn, c->bk, c->stages, c->warps, tr, tc, dt, tf32 ? "-tf32" : "");
	for (size_t i = 0; i < st->nmods; i++)
		if (!strcmp(st->mods[i]->key, key))
			return st->mods[i];
	xgrow((void **)&st->mods, &st->capmods, st->nmods + 1, sizeof *st->mods);
	kmod *k = xcalloc(1, sizeof *k);
	st->mods[st->nmods++] = k;
	snprintf(k->key, sizeof k->key, "%s", key);
	size_t len;
	char *why;
	int compiled;
	if (c->tmpl == 2 && strcmp(b->arch, "sm_90")) {
		fprintf(stderr, "bench: config %s: kernels/wgmma.cu needs sm_90 (wgmma, TMA); the "
		        "device is %s\n", key, b->arch);
		b->s.n_compile_fail++;
		return k;
	}
	double t0 = mono_s();
	void *img = get_cubin(st->s.src[c->tmpl], st->s.hash[c->tmpl], b->o.cache, c, tr, tc, dt, tf32,
	                      c->tmpl == 2 ? "sm_90a" : b->arch, b->o.bad_kernel,
	                      &len, &why, &compiled);
	double t1 = mono_s();
	if (compiled) {
		b->s.t_compile += t1 - t0;
		b->s.n_compile++;
	} else {
		b->s.n_cache_hit++;
	}
	if (!img) {
		fprintf(stderr, "bench: config %s: %s\n", key, why);
		free(why);
		b->s.n_compile_fail++;
		return k;
	}
	CUresult r = b->drv.load(&k->mod, img);
	free(img);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "bench: config %s: cuModuleLoadData: %s\n", key, cudrv_err(&b->drv, r));
		b->s.n_compile_fail++;
		b->s.t_load += mono_s() - t1;
		return k;
	}
	if (c->tmpl == 2) {
		for (int t = 0; t < 4; t++)
			if ((r = b->drv.getfn(&k->wg[t], k->mod, wgmma_kernel_name(t >> 1, t & 1))) != CUDA_SUCCESS)
				die("cuModuleGetFunction(%s): %s", wgmma_kernel_name(t >> 1, t & 1),
				    cudrv_err(&b->drv, r));
		k->mm = k->wg[0];
	} else if (c->tmpl == 1) {
		if ((r = b->drv.getfn(&k->mm, k->mod, "mma_kernel")) != CUDA_SUCCESS)
			die("cuModuleGetFunction(mma_kernel): %s", cudrv_err(&b->drv, r));
	} else if ((r = b->drv.getfn(&k->mm, k->mod, "mm_kernel")) != CUDA_SUCCESS ||
	           (r = b->drv.getfn(&k->fill, k->mod, "fill_kernel")) != CUDA_SUCCESS ||
	           (r = b->drv.getfn(&k->cmp, k->mod, "cmp_kernel")) != CUDA_SUCCESS) {
		die("cuModuleGetFunction: %s", cudrv_err(&b->drv, r));
	}
	int64_t sm = kernel_smem(c, dt);
	if (sm > b->dev.smem_optin) {
		fprintf(stderr, "bench: config %s: needs %" PRId64 " B shared memory, device has %" PRId64 "\n",
		        key, sm, b->dev.smem_optin);
		b->s.t_load += mono_s() - t1;
		return k;
	}
	for (int t = 0; t < (c->tmpl == 2 ? 4 : 1); t++)
		if ((r = b->drv.setattr(c->tmpl == 2 ? k->wg[t] : k->mm,
		                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, (int)sm)) != CUDA_SUCCESS) {
			fprintf(stderr, "bench: config %s: cuFuncSetAttribute: %s\n", key, cudrv_err(&b->drv, r));
			b->s.t_load += mono_s() - t1;
			return k;
		}
	k->ok = 1;
	b->s.t_load += mono_s() - t1;
	return k;
}

/* The tensor maps of wgmma.cu config g for every buffer set of input in,
 * into st->tmA/tmB (nvrtc_run reads them).  Returns 0, or -1 with a message
 * (the candidate is then inf for this input). */
static int wg_prepare(measurer *b, nvrtc_state *st, const bench_input *in, const mm_config *g,
                      const cuda_bufs *bf)
{
	if (bf->nbuf > st->captm) {
		free(st->tmA);
		free(st->tmB);
		st->captm = bf->nbuf;
		/* CUtensorMap is 64-byte aligned */
		if (posix_memalign((void **)&st->tmA, 64, sizeof *st->tmA * (size_t)st->captm) ||
		    posix_memalign((void **)&st->tmB, 64, sizeof *st->tmB * (size_t)st->captm))
			die("out of memory for %d tensor maps", st->captm);
	}
	for (int i = 0; i < bf->nbuf; i++) {
		CUresult r = wgmma_tensor_maps(st->encode, in->dtype == DT_BF16, in->ta, in->tb, in->m,
		                               in->n, in->k, bf->A[i], bf->B[i], g->bm, g->bn, g->bk,
		                               &st->tmA[i], &st->tmB[i]);
		if (r != CUDA_SUCCESS) {
			fprintf(stderr, "bench: input %" PRId64 ": wgmma config %dx%dx%d: "
			        "cuTensorMapEncodeTiled: %s; inf\n", in->id, g->bm, g->bn, g->bk,
			        cudrv_err(&b->drv, r));
			b->s.n_launch_fail++;
			return -1;
		}
	}
	return 0;
}

cuda_aux nvrtc_aux(measurer *m, int dt)
{
	mm_config auxc = { 16, 16, 16, 1, 1, 0, 0 };
	kmod *aux = get_module(m, m->nv, &auxc, 2, 16, dt, 0);
	if (!aux->ok)
		die("the auxiliary kernels do not build for dtype %d", dt);
	cuda_aux a = { aux->fill, aux->cmp };
	return a;
}

static void *nvrtc_open(measurer *m, const bench_opts *o, int variant)
{
	nvrtc_state *st = xcalloc(1, sizeof *st);
	sources_load(&st->s, o, variant != NVRTC_MM, variant == NVRTC_MMA_WGMMA);
	if (variant == NVRTC_MMA_WGMMA)
		cudrv_entry("cuTensorMapEncodeTiled", (void **)&st->encode);
	(void)m;
	return st;
}

/* Its module (*r), and for wgmma.cu its tensor maps over the full operands
 * of every copy. */
static int nvrtc_prepare(void *s, measurer *b, const bench_input *in, const bench_cand *cd,
                         const cuda_bufs *bf, cand_ready *r)
{
	nvrtc_state *st = s;
	kmod *k = get_module(b, st, &cd->cfg, cd->tr, cd->tc, in->dtype,
	                     in->dtype == DT_F32 && in->tf32);
	if (!k->ok) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: not available (see above); inf\n",
		        in->id, cd->id);
		return -1;
	}
	if (cd->cfg.tmpl == 2 && wg_prepare(b, st, in, &cd->cfg, bf) != 0)
		return -1;
	r->h = k;
	r->launched = &k->launched;
	return 0;
}

static int nvrtc_run(void *s, measurer *b, const bench_input *in, const bench_cand *c,
                     const cand_ready *rd, const cuda_bufs *bf, int i, void *out)
{
	nvrtc_state *st = s;
	const mm_config *g = &c->cfg;
	int M = (int)in->m, N = (int)in->n, K = (int)in->k;
	long long sam = in->feat.s1_0, sak = in->feat.s1_1, sbk = in->feat.s2_0, sbn = in->feat.s2_1;
	void *A = bf->A[i], *B = bf->B[i];
	void *args_mm[] = { &A, &B, &out, &M, &N, &K, &sam, &sak, &sbk, &sbn };
	/* wgmma.cu: st->tmA/tmB[i] made by nvrtc_prepare for this candidate */
	void *args_wg[] = { st->tmA ? &st->tmA[i] : NULL, st->tmB ? &st->tmB[i] : NULL, &out, &M, &N, &K };
	const kmod *k = rd->h;
	CUfunction f = k->mm;
	void **args = args_mm;
	unsigned gx, gy = 1;
	if (g->tmpl == 2) {
		/* 1-D grid of tiles, rasterised by the kernel */
		long long tiles = ((in->m + g->bm - 1) / g->bm) * ((in->n + g->bn - 1) / g->bn);
		if (tiles > 0x7fffffffLL) {
			fprintf(stderr, "bench: input %" PRId64 ": %s: %lld tiles\n", in->id, c->id, tiles);
			return -1;
		}
		f = k->wg[(in->ta ? 2 : 0) + (in->tb ? 1 : 0)];
		args = args_wg;
		gx = (unsigned)tiles;
	} else {
		gx = (unsigned)((in->n + g->bn - 1) / g->bn);
		gy = (unsigned)((in->m + g->bm - 1) / g->bm);
		if (gy > 65535) {
			fprintf(stderr, "bench: input %" PRId64 ": %s: grid y %u too large\n", in->id, c->id, gy);
			return -1;
		}
	}
	CUresult r = b->drv.launch(f, gx, gy, 1, (unsigned)(32 * g->warps), 1, 1,
	                           (unsigned)kernel_smem(g, in->dtype), 0, args, NULL);
	if (r != CUDA_SUCCESS) {
		fprintf(stderr, "bench: input %" PRId64 ": %s: cuLaunchKernel: %s\n",
		        in->id, c->id, cudrv_err(&b->drv, r));
		return -1;
	}
	return 0;
}

static void nvrtc_close(void *s, measurer *b)
{
	nvrtc_state *st = s;
	for (size_t i = 0; i < st->nmods; i++) {
		if (st->mods[i]->mod) {
			CUresult r = b->drv.unload(st->mods[i]->mod);
			if (r != CUDA_SUCCESS)
				die("cuModuleUnload: %s", cudrv_err(&b->drv, r));
		}
		free(st->mods[i]);
	}
	free(st->mods);
	sources_free(&st->s);
	free(st->tmA);
	free(st->tmB);
	free(st);
}

/* One cubin request of nvrtc_precompile: compiled by this process iff
 * its running number (*total) falls to this --shard. */
static void precompile_one(const bench_opts *o, const char *src, uint64_t hash,
                           const mm_config *g, int tr, int tc, int dt, int tf,
                           const char *arch, const char *what, int *total, int *n)
{
	if ((*total)++ % o->nshards != o->shard)
		return;
	size_t len;
	char *why;
	int comp;
	void *img = get_cubin(src, hash, o->cache, g, tr, tc, dt, tf, arch,
	                      o->bad_kernel, &len, &why, &comp);
	if (!img)
		die("%s: %s", what, why);
	free(img);
	*n += comp;
}

/* The opt-in shared memory per block of the first row of the GPU table
 * (datasets/GPUS.tsv) with this arch, else its '*' row's: the candidates
 * (and so the cubins) depend on it. */
static int64_t arch_smem(const char *arch)
{
#define GPU_ROW(name, a, mib, smem, major, minor, dev, nvmmh) if (!strcmp(arch, a)) return smem;
	GPUS_ROWS(GPU_ROW)
#undef GPU_ROW
	return GPUS_DEFAULT_SHARED_MEMORY;
}

/* Every cubin the lists' candidates need for architecture o->compile_arch,
 * plus the auxiliary kernels, for each dtype (and tf32 variant). */
static int nvrtc_precompile(const bench_opts *o, int variant, const void *lists,
                            const bench_input *ins, int64_t nins)
{
	const nvrtc_lists *l = lists;
	const int tmpl = variant != NVRTC_MM;
	/* wgmma.cu builds for sm_90a only (wgmma, setmaxnreg) */
	int wg = variant == NVRTC_MMA_WGMMA && !strncmp(o->compile_arch, "sm_90", 5);
	sources s;
	sources_load(&s, o, tmpl, wg);
	int n = 0, total = 0;
	int64_t smem = arch_smem(o->compile_arch);
	/* without SHAPES: every shrink a problem can cause, m', n', k' in
	 * {16, 32, 64, >=128} */
	static const int dims[] = { 16, 32, 64, 128 };
	bench_input in;
	bench_cand cand[BENCH_MAX_CAND];
	memset(&in, 0, sizeof in);
	in.features = (char *)"";
	for (int dt = 0; dt < 3; dt++) {
		mm_config auxc = { 16, 16, 16, 1, 1, 0, 0 };
		precompile_one(o, s.src[0], s.hash[0], &auxc, 2, 16, dt, 0, o->compile_arch,
		               "auxiliary kernels",
		               &total, &n);
		/* mma.cu for float32 has a tf32 (mma) and an FFMA variant */
		for (int tf = 0; tf <= (tmpl && dt == DT_F32); tf++)
			for (int64_t p = 0; p < (ins ? nins : 64); p++) {
				if (ins) {
					if (ins[p].dtype != dt || (dt == DT_F32 && tmpl && ins[p].tf32 != tf))
						continue;
					in = ins[p];
				} else {
					in.dtype = dt;
					in.compact = 1;
					in.m = dims[p / 16];
					in.n = dims[p / 4 % 4];
					in.k = dims[p % 4];
				}
				/* the candidates after extern_mm, at the arch's shared memory */
				memset(&cand[0], 0, sizeof cand[0]);
				int nc = nvrtc_plan.candidates(l, &in, smem, cand, 1);
				for (int i = 1; i < nc; i++) {
					const mm_config *g = &cand[i].cfg;
					if (g->tmpl == 2) {
						/* not shrunk: one cubin per (config, dtype), asked once */
						if (!wg || tf || (!ins && p > 0))
							continue;
						precompile_one(o, s.src[2], s.hash[2], g, cand[i].tr, cand[i].tc, dt, 0,
						               "sm_90a", cand[i].id, &total, &n);
						continue;
					}
					precompile_one(o, s.src[g->tmpl], s.hash[g->tmpl], g,
					               cand[i].tr, cand[i].tc, dt, tf, o->compile_arch, cand[i].id,
					               &total, &n);
				}
			}
	}
	fprintf(stderr, "bench: %d cubin requests against cache %s, %d compiled now\n", total, o->cache, n);
	sources_free(&s);
	return n;
}

const bench_gpu_ops nvrtc_gpu = {
	.open = nvrtc_open,
	.prepare = nvrtc_prepare,
	.run = nvrtc_run,
	.precompile = nvrtc_precompile,
	.close = nvrtc_close,
};
