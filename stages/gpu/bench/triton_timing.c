/* triton_timing.c — see triton_timing.h. */
#include "triton_timing.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int cu_fail(const cudrv *d, CUresult r, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s", what, cudrv_name(d, r));
	return -1;
}

#define CU(call, what)                                                  \
	do {                                                            \
		CUresult r_ = (call);                                   \
		if (r_ != CUDA_SUCCESS)                                 \
			return cu_fail(b->d, r_, what, why, whylen);    \
	} while (0)

int tt_init(tt_bench *b, const cudrv *d, CUstream s, CUdevice dev, int max_iters, char *why,
            size_t whylen)
{
	memset(b, 0, sizeof *b);
	b->audit_ratio = NAN;
	b->d = d;
	b->s = s;
	int l2;
	CU(d->devattr(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, dev), "cuDeviceGetAttribute(L2_CACHE_SIZE)");
	/* torch: torch.empty(L2_cache_size // 4, dtype=torch.int) */
	b->flush_words = (size_t)l2 / 4;
	if (b->flush_words == 0)
		b->flush_words = 1;
	CU(d->memalloc(&b->flush, b->flush_words * 4), "cuMemAlloc(L2 flush buffer)");
	b->max_iters = max_iters < 5 ? 5 : max_iters;
	b->ev = calloc((size_t)b->max_iters * 2, sizeof *b->ev);
	if (!b->ev) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	for (int i = 0; i < 2 * b->max_iters; i++)
		CU(d->evcreate(&b->ev[i], CU_EVENT_DEFAULT), "cuEventCreate");
	return 0;
}

int tt_free(tt_bench *b)
{
	int rc = 0;
	if (b->ev)
		for (int i = 0; i < 2 * b->max_iters; i++)
			if (b->ev[i] && b->d->evdestroy(b->ev[i]) != CUDA_SUCCESS)
				rc = -1;
	free(b->ev);
	if (b->flush && b->d->memfree(b->flush) != CUDA_SUCCESS)
		rc = -1;
	memset(b, 0, sizeof *b);
	return rc;
}

static void spin_us(double us)
{
	if (us <= 0)
		return;
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while ((t.tv_sec - t0.tv_sec) * 1e6 + (t.tv_nsec - t0.tv_nsec) / 1e3 < us);
}

/* n timed launches, each after a flush; the minimum into *ms */
static int timed(tt_bench *b, const tt_params *p, tt_call call, void *ctx, int n, double *ms,
                 char *why, size_t whylen)
{
	for (int i = 0; i < n; i++) {
		CU(b->d->memsetd32async(b->flush, 0, b->flush_words, b->s), "cuMemsetD32Async(L2 flush)");
		CU(b->d->evrecord(b->ev[2 * i], b->s), "cuEventRecord");
		spin_us(p->host_delay_us);
		if (call(ctx, b->s) != 0) {
			snprintf(why, whylen, "the call failed while timed");
			return -1;
		}
		CU(b->d->evrecord(b->ev[2 * i + 1], b->s), "cuEventRecord");
	}
	CU(b->d->streamsync(b->s), "cuStreamSynchronize (timed launches)");
	double best = INFINITY;
	for (int i = 0; i < n; i++) {
		float t;
		CU(b->d->evelapsed(&t, b->ev[2 * i], b->ev[2 * i + 1]), "cuEventElapsedTime");
		if (t < best)
			best = t;
	}
	*ms = best;
	return 0;
}

/* The warm-up call, timed by the event pair ev[0], ev[1] (the first
 * call's costs, e.g. module loading, land in it). */
static int warm_up(tt_bench *b, tt_call call, void *ctx, double *ms, char *why, size_t whylen)
{
	CU(b->d->streamsync(b->s), "cuStreamSynchronize (before)");
	CU(b->d->ctxsync(), "cuCtxSynchronize (before)");
	CU(b->d->evrecord(b->ev[0], b->s), "cuEventRecord (warm-up)");
	if (call(ctx, b->s) != 0) {
		snprintf(why, whylen, "the warm-up call failed");
		return -1;
	}
	CU(b->d->evrecord(b->ev[1], b->s), "cuEventRecord (warm-up)");
	CU(b->d->streamsync(b->s), "cuStreamSynchronize (warm-up call)");
	float t;
	CU(b->d->evelapsed(&t, b->ev[0], b->ev[1]), "cuEventElapsedTime (warm-up)");
	*ms = t;
	return 0;
}

int tt_time(tt_bench *b, const tt_params *p, tt_call call, void *ctx, double best_ms,
            double verify_ms, double *ms, tt_sched *how, char *why, size_t whylen)
{
	tt_known k = { NAN, NAN, NAN, NAN, best_ms, tt_warm_reused(p, verify_ms), 0 };
	b->audit_ratio = NAN;
	if (k.warm_reused) {
		/* the verification call was the warm-up (ttsched.h) */
		k.warm_ms = verify_ms;
	} else if (warm_up(b, call, ctx, &k.warm_ms, why, whylen)) {
		return -1;
	}
	/* audited: the loser cut's probe decides, compared below */
	tt_sched s = tt_schedule_audited(p, &k, b->max_iters, &b->vcut_seen);
	if (s.vcut) {
		/* the verification cut: that call's time is the result */
		*ms = k.warm_ms;
		if (how)
			*how = s;
		return 0;
	}
	CU(b->d->memsetd32async(b->flush, 0, b->flush_words, b->s), "cuMemsetD32Async(L2 flush)");
	/* the first estimation launches: all of them, N on a long call, or
	 * the probe alone first on a possible loser */
	double est, more, best;
	if (timed(b, p, call, ctx, s.first, &est, why, whylen))
		return -1;
	if (s.probe) {
		k.probe_ms = est;
		if (s.vcut_audited)
			b->audit_ratio = k.warm_ms / est;
		s = tt_schedule(p, &k, b->max_iters);
		/* not a loser: the rest of the first launches, as without the cut */
		if (!s.is_loser && s.first > 1) {
			if (timed(b, p, call, ctx, s.first - 1, &more, why, whylen))
				return -1;
			est = more < est ? more : est;
		}
	}
	k.first_ms = est;
	s = tt_schedule(p, &k, b->max_iters);
	if (!s.is_loser && !s.is_long) {
		if (s.estimation > 0) {
			if (timed(b, p, call, ctx, s.estimation, &more, why, whylen))
				return -1;
			est = more < est ? more : est;
		}
		k.est_ms = est;
		s = tt_schedule(p, &k, b->max_iters);
		for (int i = 0; i < s.memory_warmup; i++)
			CU(b->d->memsetd32async(b->flush, 0, b->flush_words, b->s),
			   "cuMemsetD32Async(memory warm-up)");
		if (timed(b, p, call, ctx, s.benchmark, &best, why, whylen))
			return -1;
		est = best < est ? best : est;
	}
	*ms = est;
	if (how)
		*how = s;
	return 0;
}
