/* coolwait.h — the cool-clock wait of bench --cool-clock P --cool-max-ms C
 * (ours, opt-in, --template triton only; kernels/INDUCTOR_MM.md section 5
 * "The GPU's clock state"): before each timing of a choice
 * (stages/gpu/bench/triton_timing.c tt_time, extern_mm included) wait, in
 * small sleeps, until the GPU's current SM clock is >= P % of its maximum
 * SM clock, or C ms have passed.  Inductor's 0.1-0.2 s of Python per choice
 * lets the GPU return to its boost clock before each of its timings; bench
 * times back to back, and under sustained tensor-core load the clock falls
 * (H200: 1980 -> ~1450-1530 MHz, power limit).
 *
 * The decision is a pure function (cool_decide) and the loop (cool_wait)
 * is driven through a clock source, so both are tested without a GPU
 * (check/t4170-coolwait.sh; bench-fake's made-up clock in
 * stages/gpu/bench/fake.c).  The GPU's source reads NVML
 * (stages/gpu/bench/nvml_clock.h).  Clocks in MHz, times in ms.
 */
#ifndef MMRANK_COOLWAIT_H
#define MMRANK_COOLWAIT_H

#include <stddef.h>

typedef struct {
	double pct;                /* P: percent of the max SM clock; 0: off */
	double max_ms;             /* C: the most one wait may last, ms */
	double step_ms;            /* the sleep between readings (COOL_STEP_MS) */
} cool_params;

#define COOL_MAX_MS_DEFAULT 300.0
#define COOL_STEP_MS 2.0

typedef enum {
	COOL_OFF,                  /* P = 0: no wait at all (no reading either) */
	COOL_READY,                /* clock >= P % of max: time now */
	COOL_WAIT,                 /* below, and < C ms waited: sleep a step, read again */
	COOL_TIMEOUT               /* below, and >= C ms waited: time anyway */
} cool_step;

/* The decision for one reading: clock_mhz now, max_mhz the device's
 * maximum (> 0), waited_ms since the wait began.  READY iff
 * 100 * clock >= P * max (so P = 95 of 1980 MHz: >= 1881 MHz).  Pure. */
cool_step cool_decide(const cool_params *p, unsigned clock_mhz, unsigned max_mhz,
                      double waited_ms);

/* A clock source: the current SM clock, a clock in ms, a sleep. */
typedef struct {
	/* 0 with *mhz, or -1 with why[] */
	int (*clock)(void *ctx, unsigned *mhz, char *why, size_t whylen);
	double (*now_ms)(void *ctx);
	void (*sleep_ms)(void *ctx, double ms);
	void *ctx;
	unsigned max_mhz;          /* the device's maximum SM clock */
} cool_source;

/* One wait's outcome. */
typedef struct {
	int waited;                /* 1: slept at least once */
	int timeout;               /* 1: stopped by C */
	double wait_ms;            /* from the first reading to the last (0 if not waited) */
	unsigned first_mhz, last_mhz; /* the first and last readings */
} cool_result;

/* Read, decide, sleep p->step_ms, ... until READY or TIMEOUT (or OFF:
 * nothing read, *r zeroed).  Returns 0, or -1 with why[] when a reading
 * failed. */
int cool_wait(const cool_params *p, const cool_source *s, cool_result *r, char *why,
              size_t whylen);

#endif
