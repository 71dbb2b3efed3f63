/* tlimit.h — bench --time-limit S: whether the next input starts.
 *
 * bench stops between inputs (an input's rows are written whole or not at
 * all).  It stops when S seconds have passed, and also before an input
 * that will not end by S on the run's own evidence: an fp32 giant started
 * with minutes left only runs into the caller's hard stop (a device call's
 * end, a batch job's wall time) and is measured again from its start on
 * the resume, while stopping before it hands the time back.
 *
 * The evidence: an input's work is 2·m·k·n times its number of candidates
 * (FLOP·candidates), and a kind is its dtype (fp32 with and without TF32
 * apart).  An input that took at least TL_CALIBRATE of S is calibrating:
 * it gives a rate, its seconds over its work.  The next input is predicted
 * to take TL_MARGIN × its work × the highest rate among the calibrating
 * inputs of its kind whose work is not much below its own: buckets of
 * floor(log2(work)), from TL_SCALE below its own up (down to between 1/16
 * and 1/8 of its work, by where it falls in its bucket).
 * Pessimistic on purpose: the layouts of one shape differ by about 1.6×
 * (the H100's fp32 giant took about 211, 305 and 187 s in three layouts),
 * and a stop that was not needed costs a restart, while an input cut in
 * flight is measured again from its start.  The window keeps a small input
 * whose time is overhead or memory traffic, not FLOPs, from predicting a
 * giant.  Rates are the run's own, so its first input always starts (the
 * time-up rule aside) and a rerun always makes progress; an input with no
 * calibrating input in its window predicts nothing.  docs/STAGES.md "bench".
 */
#ifndef MMRANK_TLIMIT_H
#define MMRANK_TLIMIT_H

#include <stdint.h>

#define TL_CALIBRATE 0.02  /* of the limit: an input this long gives a rate */
#define TL_MARGIN 1.5      /* the prediction's factor over the highest rate */
#define TL_SCALE 3         /* buckets below the input's own that inform it */
#define TL_KINDS 4         /* fp32, fp32 with TF32, fp16, bf16 */
#define TL_BUCKETS 128     /* floor(log2(work)), 0 .. 127 */

enum { TL_START = 0, TL_TIME_UP = 1, TL_PREDICTED = 2 };

typedef struct {
	double limit_s;                      /* S; < 0: no limit */
	double rate[TL_KINDS][TL_BUCKETS];   /* s per unit of work, the highest
	                                        so far by kind and bucket; 0: none */
} tl_state;

void tl_init(tl_state *t, double limit_s);

/* The kind of an input: dtype 0 fp32, 1 fp16, 2 bf16 (bench's DT_*),
 * tf32 1 when fp32 runs with TF32.  -1 for another dtype (never predicted). */
int tl_kind(int dtype, int tf32);

/* 2·m·k·n·nc as a double (FLOP·candidates). */
double tl_work(int64_t m, int64_t k, int64_t n, int nc);

/* Records an input of kind that did work (>= 1) in took_s seconds (a rate
 * when took_s >= TL_CALIBRATE × the limit). */
void tl_learn(tl_state *t, int kind, double work, double took_s);

/* Whether an input of kind and work starts elapsed_s into the run.
 * TL_TIME_UP: elapsed_s >= the limit; TL_PREDICTED: elapsed_s + the
 * prediction > the limit (*pred_s gets the prediction when there is one,
 * else 0); TL_START otherwise, or without a limit. */
int tl_decide(const tl_state *t, int kind, double work, double elapsed_s, double *pred_s);

#endif
