/* triton.c — the plan half of the Triton back end (triton.h, backend.h):
 * the tables (kernels/inductor_mm_configs.tsv, inductor_mm_params.tsv) and
 * the candidates of an input, Inductor's (ic_candidates) after extern_mm:
 * its Triton configs, shrunk and deduplicated per list, in its order,
 * under its ids, an id of both lists twice (both timed and logged, as
 * Inductor does), each with its compile variant (ic_variant_name).  GPU
 * independent. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triton.h"
#include "core/util.h"
#include "gen/gpus.h"

void triton_ic_input(const bench_input *in, ic_input *out)
{
	memset(out, 0, sizeof *out);
	out->m = in->m, out->k = in->k, out->n = in->n;
	out->dtype = in->dtype == DT_F32 ? IC_F32 : in->dtype == DT_F16 ? IC_F16 : IC_BF16;
	out->s1[0] = in->feat.s1_0, out->s1[1] = in->feat.s1_1;
	out->s2[0] = in->feat.s2_0, out->s2[1] = in->feat.s2_1;
	out->tf32 = in->tf32;
}

static void *triton_load(const bench_opts *o, int variant)
{
	(void)variant;
	triton_lists *l = xcalloc(1, sizeof *l);
	char *cfg = xmalloc(strlen(o->kernels) + 32), *par = xmalloc(strlen(o->kernels) + 32);
	sprintf(cfg, "%s/inductor_mm_configs.tsv", o->kernels);
	sprintf(par, "%s/inductor_mm_params.tsv", o->kernels);
	ic_table_read(&l->t, cfg, par);
	/* the driver times extern_mm first on every measured input */
	if (!l->t.aten_gemm)
		die("%s: aten_gemm is 0: bench always offers extern_mm first (Inductor's "
		    "default, ATEN in max_autotune_gemm_backends)", par);
	free(cfg);
	free(par);
	return l;
}

/* The rule's candidates of in into c (IC_MAX_CANDS), or -1 with err. */
static int rule(const triton_lists *l, const bench_input *in, ic_cand *c, char *err, size_t len)
{
	ic_input x;
	triton_ic_input(in, &x);
	/* shared memory only matters when the table prunes by it (torch 2.11
	 * does not: such configs are offered and fail as "out of resource");
	 * the plan has no device: the GPU table's '*' row's */
	return ic_candidates(&l->t, &x, GPUS_DEFAULT_SHARED_MEMORY, c, err, len);
}

static int triton_skip(const void *lists, const bench_input *in, char *why, size_t len)
{
	ic_cand c[IC_MAX_CANDS];
	char err[256];
	int nc = rule(lists, in, c, err, sizeof err);
	if (nc < 0) {
		snprintf(why, len, "outside what the rule and kernels/triton_mm.py cover: %s", err);
		return 1;
	}
	if (nc == 0) {
		snprintf(why, len, "Inductor autotunes no mm at m = 1 or n = 1 (it decomposes it), "
		         "so it offers no candidates");
		return 1;
	}
	int dk = 0;
	for (int i = 0; i < nc; i++)
		dk += c[i].kind == IC_DECOMPOSE_K;
	if (dk) {
		snprintf(why, len, "k >= %d x max(m, n): Inductor also offers %d decompose_k "
		         "candidates, which this back end does not time (kernels/INDUCTOR_MM.md "
		         "section 6); refused whole rather than logged with part of its candidates",
		         ((const triton_lists *)lists)->t.dk_threshold, dk);
		return 1;
	}
	return 0;
}

static int triton_candidates(const void *lists, const bench_input *in, int64_t smem_limit,
                             bench_cand *out, int nc)
{
	(void)smem_limit; /* over-limit configs are offered and fail at load: inf */
	ic_cand c[IC_MAX_CANDS];
	char err[256];
	int n = rule(lists, in, c, err, sizeof err);
	if (n < 1 || c[0].kind != IC_EXTERN)
		die("internal: input %" PRId64 " has no rule candidates (skip() passes it): %s", in->id,
		    n < 0 ? err : "none");
	for (int i = 1; i < n; i++) {
		if (c[i].kind != IC_TRITON)
			die("internal: input %" PRId64 ": candidate %s is not a Triton config", in->id,
			    c[i].id);
		if (nc >= BENCH_MAX_CAND)
			die("too many candidates");
		bench_cand *b = &out[nc++];
		memset(b, 0, sizeof *b);
		b->cfg = (mm_config){ c[i].bm, c[i].bn, c[i].bk, c[i].stages, c[i].warps,
		                      c[i].list == IC_LIST_AH, 3 };
		snprintf(b->id, sizeof b->id, "%s", c[i].id);
		ic_variant_name(&c[i].v, b->variant, sizeof b->variant);
	}
	return nc;
}

static void triton_describe(const void *lists, FILE *fp)
{
	const triton_lists *l = lists;
	fprintf(fp, "torch\t%s\n", l->t.torch_version);
}

static void triton_free(void *lists) { free(lists); }

const bench_plan_ops triton_plan = { .load = triton_load, .candidates = triton_candidates,
                                     .free = triton_free, .skip = triton_skip,
                                     .describe = triton_describe, .no_screen = 1,
                                     .inductor_timing = 1 };
