/* nvrtc.c — the plan half of the NVRTC back end (nvrtc.h, backend.h):
 * the config lists of a variant and the candidates of an input (spec §3.5),
 * GPU independent.  The GPU half is nvrtc_gpu.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "configs.h"
#include "nvrtc.h"
#include "core/util.h"

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

int wgmma_eligible(const bench_input *in)
{
	/* the tensor maps describe compact operands (wgmma_launch.h) */
	if ((in->dtype != DT_F16 && in->dtype != DT_BF16) || !in->compact)
		return 0;
	int64_t lda = in->ta ? in->m : in->k, ldb = in->tb ? in->k : in->n;
	return lda % 8 == 0 && ldb % 8 == 0;
}

/* kernels/configs.tsv (mm) or kernels/mma_configs.tsv, then with mma+wgmma
 * kernels/wgmma_configs.tsv as a third list (candidates() offers it to
 * eligible fp16/bf16 inputs, unshrunk). */
static void *nvrtc_load(const bench_opts *o, int variant)
{
	nvrtc_lists *l = xcalloc(1, sizeof *l);
	l->tmpl = variant != NVRTC_MM;
	l->wgmma = variant == NVRTC_MMA_WGMMA;
	char *cfgpath = xmalloc(strlen(o->kernels) + 32);
	sprintf(cfgpath, "%s/%s", o->kernels, l->tmpl ? "mma_configs.tsv" : "configs.tsv");
	l->cfg = configs_read(cfgpath, &l->n);
	for (int i = 0; i < l->n; i++)
		l->cfg[i].tmpl = l->tmpl;
	if (l->wgmma) {
		sprintf(cfgpath, "%s/wgmma_configs.tsv", o->kernels);
		int nw;
		mm_config *w = configs_read(cfgpath, &nw);
		if (l->n + nw + 2 > BENCH_MAX_CAND)
			die("%s: too many configs together with the mma list", cfgpath);
		l->cfg = xrealloc(l->cfg, sizeof *l->cfg * (size_t)(l->n + nw));
		for (int i = 0; i < nw; i++) {
			w[i].tmpl = 2;
			w[i].extra = 2;
			l->cfg[l->n++] = w[i];
		}
		free(w);
	}
	free(cfgpath);
	return l;
}

/* wgmma.cu is sm_90a code: not offered on another device */
static void nvrtc_fit(void *lists, const bench_device *dev)
{
	nvrtc_lists *l = lists;
	if (!l->wgmma || (dev->cap_major == 9 && dev->cap_minor == 0))
		return;
	int kept = 0;
	for (int i = 0; i < l->n; i++)
		if (l->cfg[i].tmpl != 2)
			l->cfg[kept++] = l->cfg[i];
	fprintf(stderr, "bench: kernels/wgmma.cu needs sm_90, the device is sm_%d%d: its %d "
	        "configs are not offered\n", dev->cap_major, dev->cap_minor, l->n - kept);
	l->n = kept;
}

/* The base configs shrunk to the problem with duplicates inside the base
 * list dropped, then the extra configs likewise, then (mma+wgmma, eligible
 * inputs) wgmma.cu's, unshrunk; configs whose triton_smem or kernel_smem
 * exceeds smem_limit are skipped. */
static int nvrtc_candidates(const void *lists, const bench_input *in, int64_t smem_limit,
                            bench_cand *out, int nc)
{
	const nvrtc_lists *l = lists;
	for (int list = 0; list < 3; list++) {
		int first = nc;
		if (list == 2 && !wgmma_eligible(in))
			break; /* wgmma.cu: fp16/bf16 with TMA-describable operands only */
		for (int i = 0; i < l->n; i++) {
			if (l->cfg[i].extra != list)
				continue;
			/* wgmma.cu tiles are not shrunk: TMA zero-fills partial tiles and
			 * the kernel supports only its configured shapes */
			mm_config s = list == 2 ? l->cfg[i] : shrink_config(l->cfg[i], in->m, in->n, in->k);
			int dup = 0;
			for (int j = first; j < nc; j++)
				dup |= same_config(&out[j].cfg, &s);
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

static void nvrtc_free(void *lists)
{
	nvrtc_lists *l = lists;
	if (l)
		free(l->cfg);
	free(l);
}

const bench_plan_ops nvrtc_plan = { .load = nvrtc_load, .fit = nvrtc_fit,
                                    .candidates = nvrtc_candidates, .free = nvrtc_free };
