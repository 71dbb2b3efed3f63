/* progress.c — see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double mono(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void fmt_eta(char *b, size_t n, double s)
{
	if (!(s >= 0) || s > 1e7)
		snprintf(b, n, "?");
	else if (s >= 3600)
		snprintf(b, n, "%dh%02dm", (int)(s / 3600), (int)(s / 60) % 60);
	else
		snprintf(b, n, "%dm%02ds", (int)(s / 60), (int)s % 60);
}

void progress_start(progress *p, const char *what, const char *unit, int64_t total)
{
	p->what = what;
	p->unit = unit;
	p->total = total;
	p->t0 = p->last = mono();
	p->every = 5.0;
	p->tty = isatty(STDERR_FILENO);
	p->drawn = 0;
}

static void report(progress *p, int64_t done, double now)
{
	double el = now - p->t0;
	double rate = el > 0 ? (double)done / el : 0;
	char eta[32];
	fmt_eta(eta, sizeof eta, rate > 0 ? (double)(p->total - done) / rate : -1);
	if (p->tty) {
		char bar[31];
		int fill = p->total > 0 ? (int)(30 * done / p->total) : 30;
		for (int i = 0; i < 30; i++)
			bar[i] = i < fill ? '#' : '.';
		bar[30] = '\0';
		fprintf(stderr, "\r%s [%s] %lld/%lld %s, %.2f %s/s, ETA %s \033[K", p->what, bar,
		        (long long)done, (long long)p->total, p->unit, rate, p->unit, eta);
		p->drawn = 1;
	} else {
		fprintf(stderr, "%s: %lld/%lld %s, %.2f %s/s, elapsed %.1f s, ETA %s\n", p->what,
		        (long long)done, (long long)p->total, p->unit, rate, p->unit, el, eta);
	}
	fflush(stderr);
	p->last = now;
}

void progress_update(progress *p, int64_t done)
{
	double now = mono();
	if (now - p->last >= (p->tty ? 0.1 : p->every))
		report(p, done, now);
}

void progress_end(progress *p, int64_t done)
{
	double now = mono();
	/* a plain log gets a final line only for runs long enough to matter */
	if (p->tty || now - p->t0 >= 1.0)
		report(p, done, now);
	if (p->tty && p->drawn)
		fputc('\n', stderr);
}
