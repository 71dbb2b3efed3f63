/* block.c — the log rows of one input and the adaptive-repetitions rule
 * (block.h; spec §1.1, §1.3). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "block.h"
#include "core/util.h"

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
 * running best as the measurers see it (bench_full_reps). */
void block_full_reps(const double *t0, int nc, double alpha, unsigned char *full)
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
	block_full_reps(fb, nc, alpha, full);
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
