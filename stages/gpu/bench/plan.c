/* plan.c — the candidates of one input (plan.h; spec §3.5): extern_mm,
 * the --cublaslt choices of the input's type class, then the --template
 * back end's; none for an input the back end skips.  GPU independent. */
#include <string.h>

#include "backend.h"
#include "plan.h"
#include "formats/rules.h"
#include "core/util.h"

int plan_skip(const bench_plan *p, const bench_input *in, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	return p->lists && p->be->plan->skip && p->be->plan->skip(p->lists, in, why, len);
}

int plan_candidates(const bench_plan *p, const bench_input *in, bench_cand *out)
{
	char why[8];
	if (plan_skip(p, in, why, sizeof why))
		return 0;
	int nc = 0;
	memset(&out[0], 0, sizeof out[0]);
	out[0].is_extern = 1;
	strcpy(out[0].id, DEFAULT_CHOICE);
	nc = 1;
	/* cuBLASLt algorithms of the input's type class, in list order */
	unsigned cls = lt_dtype_class(in->dtype, in->tf32);
	for (int i = 0; i < p->nlt; i++) {
		if (!(p->lt[i].dtypes & cls))
			continue;
		if (nc >= BENCH_MAX_CAND)
			die("too many candidates");
		bench_cand *c = &out[nc++];
		memset(c, 0, sizeof *c);
		c->lt = 1;
		c->alg = p->lt[i].a;
		lt_format_id(&c->alg, c->id, sizeof c->id);
	}
	if (p->lists)
		nc = p->be->plan->candidates(p->lists, in, p->smem_limit, out, nc);
	return nc;
}
