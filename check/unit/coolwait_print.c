/* coolwait_print — the C side of check/t4170-coolwait.sh: evaluates
 * cool_decide and cool_wait (stages/gpu/policy/coolwait.h, bench --cool-clock) on
 * the cases read from stdin, one per line (# comments, blank lines skipped):
 *   decide P C CLOCK_MHZ MAX_MHZ WAITED_MS   -> off|ready|wait|timeout
 *   wait P C MAX_MHZ R1 R2 ...               -> waited=W timeout=T wait_ms=M
 *                                               first=F last=L readings=N
 * "wait" drives cool_wait with a scripted clock source on a virtual clock:
 * the readings R1, R2, ... in order (the last repeated once they run out),
 * each sleep of 2 ms (COOL_STEP_MS) advancing the virtual time by 2 ms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/policy/coolwait.h"
#include "core/util.h"

typedef struct {
	unsigned r[64];
	int n, next;
	double now;
} script;

static int s_clock(void *ctx, unsigned *mhz, char *why, size_t whylen)
{
	(void)why;
	(void)whylen;
	script *s = ctx;
	*mhz = s->r[s->next < s->n ? s->next : s->n - 1];
	s->next++;
	return 0;
}

static double s_now(void *ctx) { return ((script *)ctx)->now; }
static void s_sleep(void *ctx, double ms) { ((script *)ctx)->now += ms; }

static const char *step_name(cool_step s)
{
	return s == COOL_OFF ? "off" : s == COOL_READY ? "ready" : s == COOL_WAIT ? "wait"
	                                                                          : "timeout";
}

static void wait_case(cool_params *p, char *rest, int ln)
{
	script sc = { .n = 0 };
	unsigned max;
	int used;
	if (sscanf(rest, "%lf %lf %u%n", &p->pct, &p->max_ms, &max, &used) != 3)
		die("stdin:%d: expected wait P C MAX_MHZ R1 R2 ...", ln);
	for (char *q = rest + used, *e; sc.n < 64; q = e) {
		unsigned long v = strtoul(q, &e, 10);
		if (e == q)
			break;
		sc.r[sc.n++] = (unsigned)v;
	}
	if (sc.n == 0)
		die("stdin:%d: no readings", ln);
	cool_source src = { s_clock, s_now, s_sleep, &sc, max };
	cool_result r;
	char why[128];
	if (cool_wait(p, &src, &r, why, sizeof why))
		die("stdin:%d: %s", ln, why);
	printf("waited=%d timeout=%d wait_ms=%g first=%u last=%u readings=%d\n", r.waited,
	       r.timeout, r.wait_ms, r.first_mhz, r.last_mhz, sc.next);
}

int main(void)
{
	char line[1024];
	int ln = 0;
	while (fgets(line, sizeof line, stdin)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		cool_params p = { 0, COOL_MAX_MS_DEFAULT, COOL_STEP_MS };
		unsigned clock, max;
		double waited;
		if (!strncmp(line, "decide ", 7)) {
			if (sscanf(line + 7, "%lf %lf %u %u %lf", &p.pct, &p.max_ms, &clock, &max,
			           &waited) != 5)
				die("stdin:%d: expected decide P C CLOCK_MHZ MAX_MHZ WAITED_MS", ln);
			printf("%s\n", step_name(cool_decide(&p, clock, max, waited)));
		} else if (!strncmp(line, "wait ", 5)) {
			wait_case(&p, line + 5, ln);
		} else {
			die("stdin:%d: expected decide or wait", ln);
		}
	}
	return 0;
}
