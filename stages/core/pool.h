/* pool.h — a small fixed thread pool with one operation, a deterministic
 * parallel map (fit's folds and grid models on every core).
 *
 * pool_map(p, n, fn, arg) calls fn(arg, i, thread) once for every item
 * i in [0, n) and returns when all calls have returned.  The caller's
 * thread works too (it is thread 0; workers are 1 .. threads-1), so a pool
 * of one thread starts no thread at all and runs the items in index order.
 * Items are claimed in index order (a shared counter): put the largest
 * first.  Determinism is the caller's contract, and an easy one: if item i
 * writes only to item i's own outputs (and reads only what no item writes),
 * the result is the same for every thread count and every schedule.  The
 * thread index is for per-thread scratch memory only; results must not
 * depend on it.
 *
 * An item that dies (util.h die) ends the process, as in a single thread;
 * which message is printed first is then the schedule's choice.
 * pool_map is not reentrant: an item must not call pool_map on the same
 * pool.  Every pthread error is fatal (die, naming the call).
 */
#ifndef MMRANK_POOL_H
#define MMRANK_POOL_H

#define POOL_MAX_THREADS 256

typedef struct pool pool;
typedef void pool_fn(void *arg, int item, int thread);

/* A pool of `threads` threads in all (the caller included), clamped to
 * [1, POOL_MAX_THREADS].  Dies if a thread cannot be started. */
pool *pool_new(int threads);
/* Stop and join the workers; NULL is fine. */
void pool_free(pool *p);
/* Threads in the pool (the caller included), >= 1. */
int pool_threads(const pool *p);
/* Run fn(arg, i, thread) for every i in [0, n); n <= 0 does nothing. */
void pool_map(pool *p, int n, pool_fn *fn, void *arg);

/* Die "CALL: reason" if a pthread call returned rc != 0 (the pool's and
 * readahead.h's threads). */
void pool_check(int rc, const char *call);

/* The number of online CPUs (sysconf), clamped to [1, POOL_MAX_THREADS]:
 * the default thread count of the stages that take --threads. */
int pool_online_cpus(void);

#endif
