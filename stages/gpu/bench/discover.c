/* discover.c — bench --lt-discover N [--lt-keep K] SHAPES LIST: which
 * cuBLASLt algorithms the heuristic picks on the shard's inputs, tallied
 * into a list file (args.h bench_discover; stages/FORMATS.md "cuBLASLt
 * algorithm list"). */
#include <inttypes.h>
#include <stdlib.h>
#include <time.h>

#include "args.h"
#include "lt.h"
#include "core/util.h"

int64_t bench_discover(const bench_args *a, measurer *m, const bench_device *dev,
                       bench_input *const *todo, int64_t ntodo)
{
	const int topn = a->lt_topn, keep = a->lt_keep;
	const char *shapes = a->shapes, *out = a->log;
	lt_tally *t = lt_tally_new();
	lt_algo *buf = xmalloc(sizeof *buf * (size_t)topn);
	int64_t none = 0, total = 0, per_class[4] = { 0 };
	for (int64_t i = 0; i < ntodo; i++) {
		int n = measure_lt_heuristic(m, todo[i], topn, buf);
		unsigned cls = lt_dtype_class(todo[i]->dtype, todo[i]->tf32);
		for (int c = 0; c < 4; c++)
			per_class[c] += cls == 1u << c;
		if (n == 0)
			none++;
		total += n;
		lt_tally_add(t, buf, n, cls);
	}
	char c0[512], c1[256], c2[256], c3[256];
	time_t now = time(NULL);
	struct tm tmv;
	char date[32] = "?";
	if (gmtime_r(&now, &tmv))
		strftime(date, sizeof date, "%Y-%m-%d", &tmv);
	snprintf(c0, sizeof c0, "bench --lt-discover %d %s: cublasLtMatmulAlgoGetHeuristic top-%d "
	         "per input, %s, %s", topn, shapes, topn, dev->name, date);
	snprintf(c1, sizeof c1, "%" PRId64 " inputs (f32 %" PRId64 ", tf32 %" PRId64 ", f16 %" PRId64
	         ", bf16 %" PRId64 "), %" PRId64 " algorithms returned, %" PRId64
	         " inputs without any; %d distinct", ntodo, per_class[0], per_class[1],
	         per_class[2], per_class[3], total, none, lt_tally_count(t));
	snprintf(c2, sizeof c2, "inputs: inputs whose top-%d held the algorithm; rank1: inputs "
	         "where it was the first pick; dtypes: the type classes it was seen for", topn);
	if (keep > 0)
		snprintf(c3, sizeof c3, "kept: the %d most frequent of each type class (--lt-keep %d); "
		         "sorted by inputs, then rank1; see stages/FORMATS.md", keep, keep);
	else
		snprintf(c3, sizeof c3, "all of them, sorted by inputs, then rank1; see stages/FORMATS.md");
	const char *const comments[] = { c0, c1, c2, c3, NULL };
	aout ao;
	FILE *fp = aout_open(&ao, out);
	int written = lt_tally_write(t, fp, comments, keep);
	aout_commit(&ao);
	fprintf(stderr, "bench: --lt-discover: %s\nbench: %d of them written to %s\n", c1,
	        written, out);
	free(buf);
	lt_tally_free(t);
	return total;
}
