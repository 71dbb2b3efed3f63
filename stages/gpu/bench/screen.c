/* screen.c — screening of long inputs: the slice, the verdicts and the
 * audit's miss rule (screen.h). */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "formats/rules.h"
#include "screen.h"

/* The sliced length of a dimension of length d for an input whose
 * reference call takes ref_ms (bench_screen_slice), or 0 if slicing it
 * would not at least halve it. */
static int64_t slice_len(int64_t d, double ref_ms)
{
	double want = ceil((double)d * SCREEN_SLICE_MS / ref_ms);
	int64_t s = ((int64_t)want + SCREEN_SLICE_ALIGN - 1) / SCREEN_SLICE_ALIGN * SCREEN_SLICE_ALIGN;
	if (s < SCREEN_SLICE_MIN)
		s = SCREEN_SLICE_MIN;
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
		/* a repeated id: the first copy's verdict */
		for (int j = 0; j < i; j++)
			if (!strcmp(c[j].id, c[i].id)) {
				keep[i] = keep[j];
				break;
			}
		out += !keep[i];
	}
	*best = b;
	return out;
}

int bench_screen_miss(double t, double best)
{
	return near_best(t, best);
}
