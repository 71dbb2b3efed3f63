/* backend.h — the bench back-end interface: a family of candidates.
 *
 * A back end is what `bench --template NAME` selects (mm, mma and
 * mma+wgmma, the NVRTC back end, nvrtc.c + nvrtc_gpu.c; triton, Inductor's
 * own candidates, triton.c + triton_gpu.c): the
 * candidates an input gets after extern_mm and the --cublaslt choices, and
 * how one of them is made ready and run on the GPU.  It has two halves:
 *   - the plan half (bench_plan_ops, GPU independent, in both binaries):
 *     its config lists and the candidate ids of an input;
 *   - the GPU half (bench_gpu_ops, build/bin/bench only): a one-time
 *     prepare (compile or load, cached), one asynchronous call into an
 *     output buffer, optionally its own timing, and release.
 * Everything else is the driver's and the measurer's, the same for every
 * back end: plan order, the log and its resumption (block.h), adaptive
 * repetitions, screening (screen.h), verification against cuBLAS (one call
 * into a NaN-poisoned output, compared with extern_mm's result by relative
 * Frobenius error, first use per (choice, dtype, transposes) or
 * --verify-all), timing (CUDA events around back-to-back calls rotating over
 * operand copies >= 2x L2, ms per call; a failure is inf), warm-up, the
 * statistics of --stats (cuda.h).  extern_mm (cuda_extern.c) and cuBLASLt
 * (cuda_lt.c) implement bench_gpu_ops too; every plan may hold them.
 *
 * Adding a back end: its plan half in NAME.c (in BENCH_COMMON of
 * mk/collect.mk: both binaries), its GPU half in NAME_gpu.c (in
 * BENCH_GPU: bench only), and one line in the table of backends.c naming
 * them; `bench --template NAME` (make collect KERNEL_TEMPLATE=NAME) then
 * selects it, bench-fake times its plan with made-up times.  Its GPU half
 * may use cuda.h (the measurer's state and statistics), nvrtc_cache.h (an
 * on-disk cubin cache), cudrv.h (module loading and launches without
 * libcuda).
 */
#ifndef MMRANK_BENCH_BACKEND_H
#define MMRANK_BENCH_BACKEND_H

#include <stdio.h>

#include "measure.h"
#include "plan.h"

typedef struct {
	/* The config lists for variant (the table's), read from o->kernels;
	 * dies naming file:line on a bad file.  Freed by free(). */
	void *(*load)(const bench_opts *o, int variant);
	/* Optional (NULL: keep all): drop the configs device dev cannot run,
	 * saying so on stderr once.  The plan follows the device, whose
	 * capability is in the log's metadata. */
	void (*fit)(void *lists, const bench_device *dev);
	/* Append the candidates of input in to out[nc..) (BENCH_MAX_CAND in all:
	 * die beyond), in the back end's order, a pure function of (lists, in,
	 * smem_limit) (resumption recomputes it); smem_limit is the device's
	 * opt-in shared memory per block in bytes.  An id may occur twice
	 * (Inductor dedups within a list, not across lists): both are timed and
	 * logged.  A candidate carries its id and tile config (cfg); what else
	 * the GPU half needs it derives from (in, cfg).  Returns the new count. */
	int (*candidates)(const void *lists, const bench_input *in, int64_t smem_limit,
	                  bench_cand *out, int nc);
	void (*free)(void *lists);
	/* Optional (NULL: every input is measured): 1 when the back end measures
	 * nothing on input in — it then has no candidates at all, extern_mm
	 * included, and no rows in the log (Inductor autotunes no mm at m = 1;
	 * an input the back end cannot time completely is refused whole, never
	 * logged with part of its candidates) — with the reason in why[0..len);
	 * else 0.  A pure function of (lists, in), like candidates(). */
	int (*skip)(const void *lists, const bench_input *in, char *why, size_t len);
	/* Optional: "key\tvalue\n" lines that identify the lists (e.g. "torch\t2.11.0")
	 * for --stats and LOG.versions.tsv. */
	void (*describe)(const void *lists, FILE *fp);
	/* 1: screening (screen.h) cannot be exact for these candidates (kernels
	 * specialised to the input's K: a slice would run another kernel);
	 * bench turns it off, saying so. */
	int no_screen;
	/* 1: its GPU half times every choice, extern_mm included, as Inductor
	 * does (triton_timing.h): the rules of stages/gpu/policy/ttsched.h (--long-ms,
	 * --loser-ratio) apply, part of the plan; 0: bench sets --long-ms to 0
	 * and refuses --loser-ratio (its timing has no such rules). */
	int inductor_timing;
} bench_plan_ops;

/* A candidate made ready by prepare(), for run() and the measurer. */
typedef struct {
	void *h;                   /* the back end's own (e.g. the loaded module) */
	int *launched;             /* set by the measurer once the kernel has run in
	                              this process (decides warm-up calls on long
	                              inputs); NULL: a library call, always warm */
} cand_ready;

typedef struct cuda_bufs cuda_bufs; /* one input's device operands (cuda.h) */

typedef struct {
	/* Once per process: the back end's state for variant (sources,
	 * module cache), NULL allowed; dies on an unusable setup. */
	void *(*open)(measurer *m, const bench_opts *o, int variant);
	/* Ready candidate c for input in: compile or load it on first use (the
	 * cubin cache), per-input setup over bf's operand copies (e.g. TMA
	 * descriptors).  Returns 0 with *r filled, or -1 with a message on
	 * stderr: c is inf for this input. */
	int (*prepare)(void *st, measurer *m, const bench_input *in, const bench_cand *c,
	               const cuda_bufs *bf, cand_ready *r);
	/* One call of prepared c on operand copy i of bf into out (device
	 * memory, m x n of the input's dtype), asynchronous on stream 0; in may
	 * be a screening slice of the input prepare() saw (screen.h: smaller k
	 * or m, same strides).  Returns 0, or -1 with a message on stderr. */
	int (*run)(void *st, measurer *m, const bench_input *in, const bench_cand *c,
	           const cand_ready *r, const cuda_bufs *bf, int i, void *out);
	/* Optional (NULL: the measurer's): one timed repetition of every
	 * candidate of this run, extern_mm's and cuBLASLt's included (so that
	 * all choices are timed alike), through cuda_run (cuda.h): n_iter calls,
	 * or the back end's own method, which then includes whatever warm-up it
	 * needs (the measurer makes no warm-up call of its own for a back end
	 * with time()).  Returns ms per call (> 0), or -1 after a failure, with
	 * a message. */
	double (*time)(void *st, measurer *m, const bench_input *in, const bench_cand *c,
	               const cand_ready *r, cuda_bufs *bf, int n_iter);
	/* Optional: --compile-only (measure_precompile): fill the cubin cache
	 * without a GPU; returns the number of cubins compiled. */
	int (*precompile)(const bench_opts *o, int variant, const void *lists,
	                  const bench_input *ins, int64_t nins);
	/* Release everything open() and prepare() made; dies on a failing call. */
	void (*close)(void *st, measurer *m);
	/* Optional: "key\tvalue\n" lines that identify what open() loaded (e.g.
	 * the compiler version of its cubins), as the plan half's describe(). */
	void (*describe)(void *st, FILE *fp);
	/* 1: verify every candidate on every input (its kernels are specialised
	 * to the input: the same id is another kernel on another shape), as
	 * --verify-all; 0: first use per (choice, dtype, tf32, transposes). */
	int verify_each;
	/* 1: time() keeps the operands out of L2 itself (a flush before each
	 * call): the input gets one operand copy instead of copies >= 2x L2. */
	int one_copy;
} bench_gpu_ops;

/* One line of the table: a --template value and the halves it selects. */
typedef struct bench_backend {
	const char *name;          /* the --template value */
	const bench_plan_ops *plan;
	const bench_gpu_ops *gpu;  /* NULL in bench-fake */
	int variant;               /* passed to both halves */
} bench_backend;

/* The table (backends.c), ended by a line with name NULL, and lookups. */
extern const bench_backend bench_backends[];

/* The line named name, or NULL. */
const bench_backend *backend_find(const char *name);

/* The names of the table for messages, "mm, mma or mma+wgmma", into buf
 * (n bytes, truncated if longer). */
void backend_names(char *buf, size_t n);

#endif
