/* readahead.c — see readahead.h. */
#include "readahead.h"
#include "pool.h"
#include "util.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct readahead {
	ra_src_fn *fn;
	void *src;
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;      /* a block filled, or one freed, or stop */
	int nblk;
	size_t blk;
	char **buf;             /* [nblk] ring of blocks */
	size_t *len;            /* [nblk] bytes filled */
	int head, count;        /* the block read next; blocks filled */
	size_t off;             /* bytes of the head block already read */
	int end, stop, gone;    /* the source ended (or failed); stop asked;
	                           the thread touches ra no more (it is
	                           detached: a process that exits while it
	                           runs, e.g. on a parse error, leaks nothing) */
	const char *err;        /* the source's error, after the filled blocks */
};


static void *ahead(void *v)
{
	readahead *ra = v;
	pool_check(pthread_mutex_lock(&ra->mu), "pthread_mutex_lock");
	while (!ra->end && !ra->stop) {
		while (ra->count == ra->nblk && !ra->stop)
			pool_check(pthread_cond_wait(&ra->cv, &ra->mu), "pthread_cond_wait");
		if (ra->stop)
			break;
		int slot = (ra->head + ra->count) % ra->nblk;
		pool_check(pthread_mutex_unlock(&ra->mu), "pthread_mutex_unlock");
		/* the slot is this thread's until count counts it */
		const char *err = NULL;
		ssize_t got = ra->fn(ra->src, ra->buf[slot], ra->blk, &err);
		pool_check(pthread_mutex_lock(&ra->mu), "pthread_mutex_lock");
		if (got < 0) {
			ra->err = err ? err : "read error";
			ra->end = 1;
		} else if (got == 0) {
			ra->end = 1;
		} else {
			ra->len[slot] = (size_t)got;
			ra->count++;
		}
		pool_check(pthread_cond_broadcast(&ra->cv), "pthread_cond_broadcast");
	}
	while (!ra->stop) /* keep the blocks' owner until it is done with them */
		pool_check(pthread_cond_wait(&ra->cv, &ra->mu), "pthread_cond_wait");
	ra->gone = 1;
	pool_check(pthread_cond_broadcast(&ra->cv), "pthread_cond_broadcast");
	pool_check(pthread_mutex_unlock(&ra->mu), "pthread_mutex_unlock");
	return NULL;
}

readahead *ra_start(ra_src_fn *fn, void *src, int nblk, size_t blk)
{
	readahead *ra = xcalloc(1, sizeof *ra);
	ra->fn = fn;
	ra->src = src;
	ra->nblk = nblk < 2 ? 2 : nblk;
	ra->blk = blk;
	ra->buf = xmalloc((size_t)ra->nblk * sizeof *ra->buf);
	ra->len = xcalloc((size_t)ra->nblk, sizeof *ra->len);
	for (int i = 0; i < ra->nblk; i++)
		ra->buf[i] = xmalloc(blk);
	pool_check(pthread_mutex_init(&ra->mu, NULL), "pthread_mutex_init");
	pool_check(pthread_cond_init(&ra->cv, NULL), "pthread_cond_init");
	pool_check(pthread_create(&ra->tid, NULL, ahead, ra), "pthread_create");
	pool_check(pthread_detach(ra->tid), "pthread_detach");
	return ra;
}

ssize_t ra_read(readahead *ra, char *p, size_t n, const char **err)
{
	pool_check(pthread_mutex_lock(&ra->mu), "pthread_mutex_lock");
	while (ra->count == 0 && !ra->end)
		pool_check(pthread_cond_wait(&ra->cv, &ra->mu), "pthread_cond_wait");
	ssize_t got;
	if (ra->count == 0) { /* the end, after every filled block */
		got = ra->err ? -1 : 0;
		if (ra->err)
			*err = ra->err;
	} else {
		/* the head block is the reader's while count counts it */
		int h = ra->head;
		size_t k = ra->len[h] - ra->off;
		if (k > n)
			k = n;
		pool_check(pthread_mutex_unlock(&ra->mu), "pthread_mutex_unlock");
		memcpy(p, ra->buf[h] + ra->off, k);
		pool_check(pthread_mutex_lock(&ra->mu), "pthread_mutex_lock");
		ra->off += k;
		if (ra->off == ra->len[h]) {
			ra->off = 0;
			ra->head = (h + 1) % ra->nblk;
			ra->count--;
			pool_check(pthread_cond_broadcast(&ra->cv), "pthread_cond_broadcast");
		}
		got = (ssize_t)k;
	}
	pool_check(pthread_mutex_unlock(&ra->mu), "pthread_mutex_unlock");
	return got;
}

void ra_stop(readahead *ra)
{
	if (!ra)
		return;
	pool_check(pthread_mutex_lock(&ra->mu), "pthread_mutex_lock");
	ra->stop = 1;
	pool_check(pthread_cond_broadcast(&ra->cv), "pthread_cond_broadcast");
	while (!ra->gone)
		pool_check(pthread_cond_wait(&ra->cv, &ra->mu), "pthread_cond_wait");
	pool_check(pthread_mutex_unlock(&ra->mu), "pthread_mutex_unlock");
	pool_check(pthread_cond_destroy(&ra->cv), "pthread_cond_destroy");
	pool_check(pthread_mutex_destroy(&ra->mu), "pthread_mutex_destroy");
	for (int i = 0; i < ra->nblk; i++)
		free(ra->buf[i]);
	free(ra->buf);
	free(ra->len);
	free(ra);
}
