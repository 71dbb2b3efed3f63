/* args.h — bench's command line (args.c: the options, their checks and
 * the --help text) and the modes the driver (bench.c) runs with it: a
 * collection into an AutoHeuristic log (collect.c), --use-heuristic
 * (online.c), --lt-discover (discover.c); --compile-only and --lt-decode
 * are bench.c's own.
 */
#ifndef MMRANK_BENCH_ARGS_H
#define MMRANK_BENCH_ARGS_H

#include "backend.h"
#include "measure.h"
#include "plan.h"

/* the program's name in its usage lines: bench, or bench-fake (-D) */
#ifndef BENCH_PROG
#define BENCH_PROG "bench"
#endif

typedef struct {
	bench_opts o;              /* what the measurer sees */
	const bench_backend *be;   /* --template (default mm) */
	const char *shapes, *log;  /* SHAPES, LOG (or LIST, TSV): -o LOG or the second
	                              positional */
	const char *out;           /* -o LOG as given */
	const char *stats;         /* --stats FILE */
	const char *heur;          /* --use-heuristic TREE */
	int ranking;               /* --ranking K */
	const char *ltpath;        /* --cublaslt FILE */
	const char *ltdecode;      /* --lt-decode ID */
	int no_nvrtc;              /* --no-nvrtc: extern_mm and cuBLASLt only */
	int lt_topn, lt_keep;      /* --lt-discover N, --lt-keep K */
	double time_limit;         /* --time-limit S; < 0: none */
} bench_args;

/* Parse argv into *a (defaults for what is not given); handles --help and
 * --version; dies naming the option on a bad one or a bad value, and on
 * options that do not go together. */
void bench_args_parse(bench_args *a, int argc, char **argv);

/* The screening options after the mode is known (--use-heuristic turns
 * adaptive repetitions and screening off): dies on a bad --screen,
 * --screen-ms or --screen-audit; --reps < 2 turns screening off, said on
 * stderr. */
void bench_args_screen(bench_args *a);

/* Measure the shard's inputs todo[0..ntodo) with plan p into a->log
 * (collect.c): LOG.part, resumed if it exists, renamed to LOG when
 * complete; --stats.  Returns the exit status: 0 complete, 2 stopped by
 * --time-limit. */
int bench_collect(const bench_args *a, measurer *m, const bench_device *dev,
                  bench_input *const *todo, int64_t ntodo, const bench_plan *p);

/* --use-heuristic TREE (online.c): per input a warm-up pass, the tree's
 * top-k + extern_mm, then every candidate; one TSV row per input to
 * a->log (atomically), a summary on stderr.  Returns 0. */
int bench_online(const bench_args *a, measurer *m, bench_input *const *todo, int64_t ntodo,
                 const bench_plan *p);

/* --lt-discover N (discover.c): ask measure_lt_heuristic for the top N of
 * each input, tally them (lt_tally) and write the list file a->log
 * atomically (comments: the command, device, date, counts); --lt-keep as
 * lt_tally_write.  Returns the number of algorithms the heuristic returned
 * in all. */
int64_t bench_discover(const bench_args *a, measurer *m, const bench_device *dev,
                       bench_input *const *todo, int64_t ntodo);

#endif
