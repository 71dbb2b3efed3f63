/* readahead.h — read a byte source on a second thread, a few blocks ahead
 * of its reader (featurize inflates the next blocks of a zip
 * member while it parses the last ones, so a log costs about the larger
 * of the two, not their sum, when a core is free).
 *
 * The source is a function src_read(src, p, n, &err) that reads up to n
 * bytes into p and returns how many, 0 at the end, or -1 with *err set to
 * a message (its own static or src-owned text).  It is called on the
 * read-ahead thread only, one call at a time, in order; the reader sees
 * exactly the bytes, the end and the error that calling it directly would
 * give, in the same order: an error is reported only after every byte read
 * before it.  Blocks are allocated when the read-ahead starts; nothing is
 * allocated later.  The thread is detached: a process that exits while it
 * runs (a parse error dies) leaves nothing behind.  Every pthread error
 * dies naming the call.
 */
#ifndef MMRANK_READAHEAD_H
#define MMRANK_READAHEAD_H
#include <stddef.h>
#include <sys/types.h>

typedef ssize_t ra_src_fn(void *src, char *p, size_t n, const char **err);
typedef struct readahead readahead;

/* Start reading src ahead in nblk blocks of blk bytes (nblk >= 2). */
readahead *ra_start(ra_src_fn *fn, void *src, int nblk, size_t blk);
/* Up to n (> 0) bytes into p: returns how many, 0 at the end of the
 * source, or -1 with *err set (the source's error). */
ssize_t ra_read(readahead *ra, char *p, size_t n, const char **err);
/* Stop the thread (after a read in progress) and free; NULL is fine. */
void ra_stop(readahead *ra);

#endif
