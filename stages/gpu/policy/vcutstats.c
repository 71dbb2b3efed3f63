/* vcutstats.c — see vcutstats.h. */
#include "vcutstats.h"

#include <math.h>

void tt_vcut_count(tt_vcut_stats *v, const tt_sched *s, double ratio)
{
	v->cuts += s->vcut;
	if (!s->vcut_audited || !(ratio > 0) || !isfinite(ratio))
		return;
	v->lo = v->audits == 0 || ratio < v->lo ? ratio : v->lo;
	v->hi = v->audits == 0 || ratio > v->hi ? ratio : v->hi;
	v->logsum += log(ratio);
	v->audits++;
	v->flips += !s->is_loser;
}

void tt_vcut_print(FILE *fp, const tt_vcut_stats *v)
{
	fprintf(fp, "verify_cuts\t%lld\nverify_cut_audits\t%lld\nverify_cut_flips\t%lld\n", v->cuts,
	        v->audits, v->flips);
	if (v->audits == 0) {
		fputs("verify_cut_ratio_min\t-\nverify_cut_ratio_geomean\t-\nverify_cut_ratio_max\t-\n", fp);
		return;
	}
	fprintf(fp, "verify_cut_ratio_min\t%.4f\nverify_cut_ratio_geomean\t%.4f\nverify_cut_ratio_max\t%.4f\n",
	        v->lo, exp(v->logsum / (double)v->audits), v->hi);
}
