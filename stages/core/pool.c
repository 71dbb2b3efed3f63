/* pool.c — see pool.h. */
#include "pool.h"
#include "util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct pool {
	int threads;
	pthread_t *tid;         /* [threads - 1] workers */
	pthread_mutex_t mu;
	pthread_cond_t go;      /* a new map (or stop) for the workers */
	pthread_cond_t done;    /* the last worker left the current map */
	long gen;               /* map generation, bumped per pool_map */
	int stop;
	/* the current map */
	pool_fn *fn;
	void *arg;
	int n, next;            /* items, next unclaimed item */
	int busy;               /* workers still inside the current map */
};

typedef struct {
	pool *p;
	int thread;
} worker_arg;

void pool_check(int rc, const char *call)
{
	if (rc)
		die("%s: %s", call, strerror(rc));
}

/* Claim and run items of the current map until none is left.  Called with
 * p->mu held; returns with it held. */
static void run_items(pool *p, int thread)
{
	while (p->next < p->n) {
		int i = p->next++;
		pool_fn *fn = p->fn;
		void *arg = p->arg;
		pool_check(pthread_mutex_unlock(&p->mu), "pthread_mutex_unlock");
		fn(arg, i, thread);
		pool_check(pthread_mutex_lock(&p->mu), "pthread_mutex_lock");
	}
}

static void *worker(void *v)
{
	worker_arg *wa = v;
	pool *p = wa->p;
	int thread = wa->thread;
	free(wa);
	long seen = 0;
	pool_check(pthread_mutex_lock(&p->mu), "pthread_mutex_lock");
	for (;;) {
		while (!p->stop && p->gen == seen)
			pool_check(pthread_cond_wait(&p->go, &p->mu), "pthread_cond_wait");
		if (p->stop)
			break;
		seen = p->gen;
		run_items(p, thread);
		if (--p->busy == 0)
			pool_check(pthread_cond_signal(&p->done), "pthread_cond_signal");
	}
	pool_check(pthread_mutex_unlock(&p->mu), "pthread_mutex_unlock");
	return NULL;
}

pool *pool_new(int threads)
{
	if (threads < 1)
		threads = 1;
	if (threads > POOL_MAX_THREADS)
		threads = POOL_MAX_THREADS;
	pool *p = xcalloc(1, sizeof *p);
	p->threads = threads;
	pool_check(pthread_mutex_init(&p->mu, NULL), "pthread_mutex_init");
	pool_check(pthread_cond_init(&p->go, NULL), "pthread_cond_init");
	pool_check(pthread_cond_init(&p->done, NULL), "pthread_cond_init");
	p->tid = xcalloc((size_t)threads, sizeof *p->tid);
	for (int t = 1; t < threads; t++) {
		worker_arg *wa = xmalloc(sizeof *wa);
		wa->p = p;
		wa->thread = t;
		pool_check(pthread_create(&p->tid[t - 1], NULL, worker, wa), "pthread_create");
	}
	return p;
}

void pool_free(pool *p)
{
	if (!p)
		return;
	pool_check(pthread_mutex_lock(&p->mu), "pthread_mutex_lock");
	p->stop = 1;
	pool_check(pthread_cond_broadcast(&p->go), "pthread_cond_broadcast");
	pool_check(pthread_mutex_unlock(&p->mu), "pthread_mutex_unlock");
	for (int t = 1; t < p->threads; t++)
		pool_check(pthread_join(p->tid[t - 1], NULL), "pthread_join");
	pool_check(pthread_cond_destroy(&p->done), "pthread_cond_destroy");
	pool_check(pthread_cond_destroy(&p->go), "pthread_cond_destroy");
	pool_check(pthread_mutex_destroy(&p->mu), "pthread_mutex_destroy");
	free(p->tid);
	free(p);
}

int pool_threads(const pool *p)
{
	return p->threads;
}

void pool_map(pool *p, int n, pool_fn *fn, void *arg)
{
	if (n <= 0)
		return;
	if (p->threads == 1 || n == 1) {
		for (int i = 0; i < n; i++)
			fn(arg, i, 0);
		return;
	}
	pool_check(pthread_mutex_lock(&p->mu), "pthread_mutex_lock");
	p->fn = fn;
	p->arg = arg;
	p->n = n;
	p->next = 0;
	p->busy = p->threads - 1;
	p->gen++;
	pool_check(pthread_cond_broadcast(&p->go), "pthread_cond_broadcast");
	run_items(p, 0);
	while (p->busy > 0)
		pool_check(pthread_cond_wait(&p->done, &p->mu), "pthread_cond_wait");
	pool_check(pthread_mutex_unlock(&p->mu), "pthread_mutex_unlock");
}

int pool_online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n < 1)
		return 1;
	return n > POOL_MAX_THREADS ? POOL_MAX_THREADS : (int)n;
}
