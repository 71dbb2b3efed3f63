/* privdir.c — see privdir.h. */
#include "privdir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Remove the files directly in dir, then dir (emit puts no subfolder). */
static void remove_dir(const char *dir)
{
	DIR *dp = opendir(dir);
	if (dp) {
		int fd = dirfd(dp);
		struct dirent *e;
		while ((e = readdir(dp)) != NULL)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(fd, e->d_name, 0);
		closedir(dp);
	}
	rmdir(dir);
}

/* The helper: make the folder, send its name (or "!" and why) on out,
 * wait for end-of-file on keep (the owner ended or closed it), remove the
 * folder. */
static _Noreturn void helper(const char *prefix, int keep, int out)
{
	setsid();
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGPIPE, SIG_IGN);
	int dn = open("/dev/null", O_RDWR);
	if (dn >= 0) { /* hold none of the owner's standard streams */
		dup2(dn, 0);
		dup2(dn, 1);
		dup2(dn, 2);
		if (dn > 2)
			close(dn);
	}
	const char *tmp = getenv("TMPDIR");
	char dir[4096], msg[4200];
	int n = snprintf(dir, sizeof dir, "%s/%s.XXXXXX", tmp && *tmp ? tmp : "/tmp",
	                 prefix);
	int made = n > 0 && (size_t)n < sizeof dir && mkdtemp(dir) != NULL;
	if (made)
		snprintf(msg, sizeof msg, "%s", dir);
	else
		snprintf(msg, sizeof msg, "!cannot create a temporary folder '%s': %s",
		         dir, n > 0 && (size_t)n < sizeof dir ? strerror(errno)
		                                              : "name too long");
	for (size_t off = 0, len = strlen(msg); off < len;) {
		ssize_t w = write(out, msg + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			break;
		off += (size_t)w;
	}
	close(out);
	for (;;) {
		char c;
		ssize_t r = read(keep, &c, 1);
		if (r == 0 || (r < 0 && errno != EINTR))
			break;
	}
	if (made)
		remove_dir(dir);
	_exit(0);
}

int privdir_open(privdir *d, const char *prefix, char *err, size_t errn)
{
	int keep[2], name[2];
	d->keep = -1;
	d->helper = -1;
	d->path[0] = '\0';
	if (pipe2(keep, O_CLOEXEC) != 0) {
		snprintf(err, errn, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	if (pipe2(name, O_CLOEXEC) != 0) {
		snprintf(err, errn, "cannot create a pipe: %s", strerror(errno));
		close(keep[0]);
		close(keep[1]);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errn, "cannot fork: %s", strerror(errno));
		close(keep[0]);
		close(keep[1]);
		close(name[0]);
		close(name[1]);
		return -1;
	}
	if (pid == 0) {
		close(keep[1]);
		close(name[0]);
		helper(prefix, keep[0], name[1]);
	}
	close(keep[0]);
	close(name[1]);
	d->keep = keep[1];
	d->helper = pid;
	char msg[4200];
	size_t len = 0;
	for (;;) {
		ssize_t r = read(name[0], msg + len, sizeof msg - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0 || (len += (size_t)r) == sizeof msg - 1)
			break;
	}
	close(name[0]);
	msg[len] = '\0';
	if (len == 0 || msg[0] == '!' || len >= sizeof d->path) {
		snprintf(err, errn, "%s", len && msg[0] == '!' ? msg + 1
		         : "the temporary-folder helper did not answer");
		privdir_close(d);
		return -1;
	}
	memcpy(d->path, msg, len + 1);
	return 0;
}

void privdir_close(privdir *d)
{
	if (d->keep >= 0)
		close(d->keep);
	d->keep = -1;
	if (d->helper > 0)
		while (waitpid(d->helper, NULL, 0) < 0 && errno == EINTR)
			;
	d->helper = -1;
}
