/* privdir.h — a private temporary folder that never outlives its process.
 *
 * emit writes each artifact into such a folder, where m4 puts it and the
 * compilers read it, before publishing it.  A folder removed only by the
 * process that made it stays behind when that process is killed (SIGKILL,
 * or any signal it does not catch).  Here a small helper process makes the
 * folder and removes it, with every file in it, as soon as the owner ends,
 * however it ends: the helper waits for end-of-file on a pipe whose write
 * end only the owner holds (close-on-exec, so m4 and the compilers never
 * hold it), and it runs in a session of its own, so a signal to the
 * owner's process group does not reach it.
 */
#ifndef MMRANK_PRIVDIR_H
#define MMRANK_PRIVDIR_H
#include <sys/types.h>

typedef struct {
	char path[4096]; /* the folder */
	int keep;        /* the owner's end of the pipe; -1 when closed */
	pid_t helper;
} privdir;

/* Make the folder "$TMPDIR/<prefix>.XXXXXX" ($TMPDIR unset or empty:
 * /tmp), mode 0700.  0 on success, else -1 with why in err[errn]. */
int privdir_open(privdir *d, const char *prefix, char *err, size_t errn);
/* Remove the folder and the files in it now (the helper does it) and wait
 * for the helper; nothing happens for a closed d. */
void privdir_close(privdir *d);

#endif
