/* ttsched_print — the C side of check/test_ttsched.sh: evaluates
 * tt_schedule (stages/lib/ttsched.h: Inductor's launch counts and the
 * long-kernel rule of bench --long-ms) on the cases read from stdin, one
 * per line (# comments and blank lines skipped):
 *   LONG_MS N WARM_MS FIRST_MS EST_MS MAX_ITERS
 * (times in ms, "nan" = not yet measured; Inductor's other parameters:
 * 5 estimation launches, 100 memory warm-up flushes, at most 100 benchmark
 * launches, 25 ms) and prints for each
 *   first=F long_tried=L is_long=I estimation=E memory_warmup=W benchmark=B calls=C
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ttsched.h"
#include "util.h"

int main(void)
{
	char line[512];
	int ln = 0;
	while (fgets(line, sizeof line, stdin)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		tt_params p = TT_PARAMS_INDUCTOR;
		double warm, first, est;
		int max_iters;
		if (sscanf(line, "%lf %d %lf %lf %lf %d", &p.long_ms, &p.long_launches, &warm,
		           &first, &est, &max_iters) != 6)
			die("stdin:%d: expected LONG_MS N WARM_MS FIRST_MS EST_MS MAX_ITERS", ln);
		tt_sched s = tt_schedule(&p, warm, first, est, max_iters);
		printf("first=%d long_tried=%d is_long=%d estimation=%d memory_warmup=%d "
		       "benchmark=%d calls=%d\n", s.first, s.long_tried, s.is_long, s.estimation,
		       s.memory_warmup, s.benchmark, tt_sched_calls(&s));
	}
	return 0;
}
