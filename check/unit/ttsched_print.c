/* ttsched_print — the C side of check/t4160-ttsched.sh: evaluates
 * tt_schedule (stages/gpu/policy/ttsched.h: Inductor's launch counts, the
 * long-kernel rule of bench --long-ms and the loser cut of bench
 * --loser-ratio) on the cases read from stdin, one per line (# comments and
 * blank lines skipped):
 *   LONG_MS N WARM_MS FIRST_MS EST_MS MAX_ITERS [LOSER_RATIO BEST_MS PROBE_MS
 *   [VERIFY_CUT WARM_REUSED AUDIT]]
 * (times in ms, "nan" = not yet measured or, for BEST_MS, none; without the
 * last three, LOSER_RATIO 0 and BEST_MS, PROBE_MS nan; Inductor's other
 * parameters: 5 estimation launches, 100 memory warm-up flushes, at most 100
 * benchmark launches, 25 ms) and prints for each
 *   first=F long_tried=L is_long=I estimation=E memory_warmup=W benchmark=B calls=C
 * followed, on a line with the last three fields, by
 *   probe=P loser_tried=T is_loser=S
 * and, with the verification cut's three (bench --verify-cut S; WARM_REUSED
 * 1: WARM_MS is the verification call's; AUDIT 1: an audited timing), by
 *   vcut=V vcut_audited=A
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/policy/ttsched.h"
#include "core/util.h"

int main(void)
{
	char line[512];
	int ln = 0;
	while (fgets(line, sizeof line, stdin)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		tt_params p = TT_PARAMS_INDUCTOR;
		tt_known k = { NAN, NAN, NAN, NAN, NAN, 0, 0 };
		int max_iters;
		int n = sscanf(line, "%lf %d %lf %lf %lf %d %lf %lf %lf %lf %d %d", &p.long_ms,
		               &p.long_launches, &k.warm_ms, &k.first_ms, &k.est_ms, &max_iters,
		               &p.loser_ratio, &k.best_ms, &k.probe_ms, &p.verify_cut, &k.warm_reused,
		               &k.audit);
		if (n != 6 && n != 9 && n != 12)
			die("stdin:%d: expected LONG_MS N WARM_MS FIRST_MS EST_MS MAX_ITERS "
			    "[LOSER_RATIO BEST_MS PROBE_MS [VERIFY_CUT WARM_REUSED AUDIT]]", ln);
		tt_sched s = tt_schedule(&p, &k, max_iters);
		printf("first=%d long_tried=%d is_long=%d estimation=%d memory_warmup=%d "
		       "benchmark=%d calls=%d", s.first, s.long_tried, s.is_long, s.estimation,
		       s.memory_warmup, s.benchmark, tt_sched_calls(&s));
		if (n >= 9)
			printf(" probe=%d loser_tried=%d is_loser=%d", s.probe, s.loser_tried,
			       s.is_loser);
		if (n == 12)
			printf(" vcut=%d vcut_audited=%d", s.vcut, s.vcut_audited);
		putchar('\n');
	}
	return 0;
}
