/* coolwait.c — see coolwait.h. */
#include "coolwait.h"

#include <string.h>

cool_step cool_decide(const cool_params *p, unsigned clock_mhz, unsigned max_mhz,
                      double waited_ms)
{
	if (!(p->pct > 0))
		return COOL_OFF;
	if (100.0 * (double)clock_mhz >= p->pct * (double)max_mhz)
		return COOL_READY;
	return waited_ms >= p->max_ms ? COOL_TIMEOUT : COOL_WAIT;
}

int cool_wait(const cool_params *p, const cool_source *s, cool_result *r, char *why,
              size_t whylen)
{
	memset(r, 0, sizeof *r);
	if (cool_decide(p, 0, s->max_mhz, 0) == COOL_OFF)
		return 0;
	double t0 = s->now_ms(s->ctx);
	for (int n = 0;; n++) {
		unsigned mhz;
		if (s->clock(s->ctx, &mhz, why, whylen))
			return -1;
		if (n == 0)
			r->first_mhz = mhz;
		r->last_mhz = mhz;
		double waited = n ? s->now_ms(s->ctx) - t0 : 0;
		cool_step st = cool_decide(p, mhz, s->max_mhz, waited);
		if (st != COOL_WAIT) {
			r->timeout = st == COOL_TIMEOUT;
			r->wait_ms = waited;
			return 0;
		}
		r->waited = 1;
		s->sleep_ms(s->ctx, p->step_ms);
	}
}
