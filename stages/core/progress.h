/* progress.h — progress reports on stderr for long-running stages (bench,
 * fit's grid search).  On a terminal: one line redrawn in place, a bar with
 * done/total, rate and ETA; otherwise (logs, CI, make -j): a plain line at
 * most every `every` seconds, and one at the end.  The state is the caller's
 * struct: no global state. */
#ifndef MMRANK_PROGRESS_H
#define MMRANK_PROGRESS_H
#include <stdint.h>

typedef struct {
	const char *what;   /* e.g. "fit: grid" */
	const char *unit;   /* e.g. "models" */
	int64_t total;
	double t0, last;    /* seconds (monotonic) */
	double every;       /* seconds between plain lines */
	int tty;            /* stderr is a terminal */
	int drawn;          /* a bar is on screen */
} progress;

/* Start reporting `total` units of work (total >= 0). */
void progress_start(progress *p, const char *what, const char *unit, int64_t total);
/* Report that `done` units are finished (redraws at most ~10 times a second
 * on a terminal). */
void progress_update(progress *p, int64_t done);
/* Final report (done == total) and end of the bar's line; without a
 * terminal only if the work took at least a second. */
void progress_end(progress *p, int64_t done);

#endif
