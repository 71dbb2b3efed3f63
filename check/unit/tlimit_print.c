/* tlimit_print — the C side of check/t4170-tlimit.sh: bench --time-limit's
 * rule (stages/gpu/policy/tlimit.h) driven from stdin, one command a line
 * (# comments and blank lines skipped):
 *   limit S                 tl_init (S < 0: no limit)
 *   kind DTYPE TF32         prints tl_kind's answer
 *   work M K N NC           prints tl_work's answer (%.6g)
 *   learn KIND WORK TOOK_S  tl_learn
 *   decide KIND WORK ELAPSED_S
 *                           prints "start", "time_up" or "predicted", and
 *                           the prediction (%.6g; 0 without one)
 */
#include <stdio.h>
#include <string.h>

#include "core/util.h"
#include "gpu/policy/tlimit.h"

int main(void)
{
	static const char *const names[] = { "start", "time_up", "predicted" };
	char line[256], cmd[16];
	int ln = 0;
	tl_state t;
	tl_init(&t, -1);
	while (fgets(line, sizeof line, stdin)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		double a, b, c;
		long long m, k, n;
		int d, f, nc;
		if (sscanf(line, "%15s", cmd) != 1)
			die("stdin:%d: no command", ln);
		if (!strcmp(cmd, "limit") && sscanf(line, "%*s %lf", &a) == 1)
			tl_init(&t, a);
		else if (!strcmp(cmd, "kind") && sscanf(line, "%*s %d %d", &d, &f) == 2)
			printf("%d\n", tl_kind(d, f));
		else if (!strcmp(cmd, "work") && sscanf(line, "%*s %lld %lld %lld %d", &m, &k, &n, &nc) == 4)
			printf("%.6g\n", tl_work(m, k, n, nc));
		else if (!strcmp(cmd, "learn") && sscanf(line, "%*s %d %lf %lf", &d, &a, &b) == 3)
			tl_learn(&t, d, a, b);
		else if (!strcmp(cmd, "decide") && sscanf(line, "%*s %d %lf %lf", &d, &a, &b) == 3) {
			int r = tl_decide(&t, d, a, b, &c);
			printf("%s %.6g\n", names[r], c);
		} else
			die("stdin:%d: expected limit S, kind D T, work M K N NC, learn KIND WORK S "
			    "or decide KIND WORK S", ln);
	}
	return 0;
}
