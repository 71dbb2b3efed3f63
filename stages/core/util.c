/* util.c — see util.h. */
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* One message line, written with a single fputs so that processes sharing
 * stderr (parallel bench shards under make -j) do not interleave it. */
static void vmsg(const char *prefix, const char *fmt, va_list ap)
{
	char buf[4096];
	int n = snprintf(buf, sizeof buf, "%s: %s", program_invocation_short_name, prefix);
	if (n < 0 || (size_t)n >= sizeof buf)
		n = 0;
	int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
	size_t len = m < 0 ? (size_t)n : (size_t)n + (size_t)m;
	if (len > sizeof buf - 2)
		len = sizeof buf - 2; /* truncated */
	buf[len] = '\n';
	buf[len + 1] = '\0';
	fflush(stdout);
	fputs(buf, stderr);
}

void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("", fmt, ap);
	va_end(ap);
	exit(1);
}

void warnf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vmsg("warning: ", fmt, ap);
	va_end(ap);
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t count, size_t size)
{
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p)
		die("out of memory (%zu x %zu bytes)", count, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void xgrow(void **p, size_t *cap, size_t need, size_t elem)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < need) {
		if (c > SIZE_MAX / 2 / elem)
			die("out of memory (array of %zu elements)", need);
		c *= 2;
	}
	*p = xrealloc(*p, c * elem);
	*cap = c;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

int parse_i64(const char *s, size_t len, int64_t *out)
{
	size_t i = 0;
	int neg = 0;
	if (len && s[0] == '-') {
		neg = 1;
		i = 1;
	}
	if (i == len)
		return -1;
	uint64_t v = 0;
	const uint64_t lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	int over = 0;
	for (; i < len; i++) {
		unsigned d = (unsigned char)s[i] - '0';
		if (d > 9)
			return -1;
		if (v > (lim - d) / 10)
			over = 1;
		else
			v = v * 10 + d;
	}
	if (over)
		return -2;
	*out = neg ? (int64_t)(0 - v) : (int64_t)v;
	return 0;
}

int parse_f64(const char *s, size_t len, double *out)
{
	char buf[64];
	if (len == 0 || len >= sizeof buf)
		return -1;
	memcpy(buf, s, len);
	buf[len] = '\0';
	/* strtod accepts leading white space and hex; the log never has them. */
	if (buf[0] == ' ' || buf[0] == '\t' || buf[0] == '+' ||
	    strchr(buf, 'x') || strchr(buf, 'X'))
		return -1;
	char *end;
	errno = 0;
	double v = strtod(buf, &end);
	if (end != buf + len)
		return -1;
	/* ERANGE: overflow ("1e999" -> inf) is not a number we accept; an
	 * underflow to a subnormal or zero is (Python reads it the same way). */
	if (errno == ERANGE && isinf(v))
		return -1;
	*out = v;
	return 0;
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

FILE *aout_open(aout *o, const char *path)
{
	memset(o, 0, sizeof *o);
	o->path = xstrdup(path);
	o->fd = -1;
	if (!strcmp(path, "-")) {
		o->direct = 1;
		o->fp = stdout;
		return o->fp;
	}
	struct stat st;
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
		/* a device or FIFO: written in place, never replaced */
		o->direct = 1;
		o->fd = open(path, O_WRONLY | O_CLOEXEC);
		if (o->fd < 0)
			die("cannot open '%s': %s", path, strerror(errno));
	}
#ifdef O_TMPFILE
	if (o->fd < 0) {
		char *dir = dir_of(path);
		o->fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
		free(dir);
	}
#endif
	if (o->fd < 0) {
		size_t n = strlen(path) + 32;
		o->tmpname = xmalloc(n);
		snprintf(o->tmpname, n, "%s.tmp.%ld", path, (long)getpid());
		o->fd = open(o->tmpname, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (o->fd < 0)
			die("cannot create '%s': %s", o->tmpname, strerror(errno));
	}
	o->fp = fdopen(o->fd, "w");
	if (!o->fp)
		die("cannot open output for '%s': %s", path, strerror(errno));
	return o->fp;
}

void aout_abort(aout *o)
{
	if (o->fp == stdout)
		fflush(stdout); /* close_stdout() reports its errors */
	else if (o->fp)
		fclose(o->fp);
	if (o->tmpname)
		unlink(o->tmpname);
	free(o->tmpname);
	free(o->path);
	memset(o, 0, sizeof *o);
}

void aout_commit(aout *o)
{
	int err = 0;
	if (fflush(o->fp) != 0 || ferror(o->fp))
		err = errno ? errno : EIO;
	int linked = 0;
	if (o->direct) {
		/* standard output, a device or a FIFO: nothing to name */
		if (o->fp != stdout && fclose(o->fp) != 0 && !err)
			err = errno;
		o->fp = NULL;
		if (err)
			die("cannot write '%s': %s", o->path, strerror(err));
		free(o->path);
		memset(o, 0, sizeof *o);
		return;
	}
	if (!err && !o->tmpname) {
		/* Link the unnamed file to the destination name itself.  linkat
		 * cannot replace a file, so the out-of-date destination goes
		 * first: a kill in between leaves no output (Make redoes it),
		 * never a stray temporary name. */
		char proc[64];
		snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
		if (unlink(o->path) != 0 && errno != ENOENT)
			err = errno;
		else if (linkat(AT_FDCWD, proc, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW) != 0)
			err = errno;
		else
			linked = 1;
	}
	if (fclose(o->fp) != 0 && !err)
		err = errno;
	o->fp = NULL;
	if (!err && !linked && rename(o->tmpname, o->path) != 0)
		err = errno;
	if (err) {
		if (o->tmpname)
			unlink(o->tmpname);
		if (linked)
			unlink(o->path);
		die("cannot write '%s': %s", o->path, strerror(err));
	}
	free(o->tmpname);
	free(o->path);
	memset(o, 0, sizeof *o);
}

/* The file name part of path and its folder's identity. */
static int dir_stat(const char *path, struct stat *st, const char **base)
{
	char *dir = dir_of(path);
	int r = stat(dir, st);
	free(dir);
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	return r;
}

int same_file(const char *a, const char *b)
{
	if (!strcmp(a, b))
		return 1;
	struct stat sa, sb;
	int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
	if (ea && eb)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	if (ea || eb)
		return 0;
	/* neither exists (yet): one name in one folder ("t.tsv", "./t.tsv") */
	const char *ba, *bb;
	if (dir_stat(a, &sa, &ba) != 0 || dir_stat(b, &sb, &bb) != 0)
		return 0;
	return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino && *ba && !strcmp(ba, bb);
}

void check_output_not_input(const char *out, const char *in)
{
	if (!out || !in || !strcmp(out, "-") || !strcmp(in, "-") || !same_file(out, in))
		return;
	if (!strcmp(out, in))
		die("output '%s' is also an input; nothing written", out);
	die("output '%s' is also an input (as '%s'); nothing written", out, in);
}

void check_output_writable(const char *opt_name, const char *path)
{
	if (!path || !strcmp(path, "-"))
		return;
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		die("%s '%s' is a folder: give a file name; nothing was run", opt_name, path);
	char *dir = dir_of(path);
	int bad = stat(dir, &st) != 0 ? 1 : !S_ISDIR(st.st_mode) ? 2 : access(dir, W_OK) ? 3 : 0;
	if (bad)
		die("%s '%s': folder '%s' %s; nothing was run", opt_name, path, dir,
		    bad == 1 ? "does not exist" : bad == 2 ? "is not a folder" : "is not writable");
	free(dir);
}

void check_outputs_distinct(const char *opt_a, const char *a, const char *opt_b, const char *b)
{
	if (!a || !b || !same_file(a, b))
		return;
	if (!strcmp(a, b))
		die("%s and %s are both '%s': two outputs cannot be one file; nothing written",
		    opt_a, opt_b, a);
	die("%s '%s' and %s '%s' are one file: two outputs cannot be one file; nothing written",
	    opt_a, a, opt_b, b);
}

char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	if (!fp)
		die("cannot open '%s': %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (n + 1 >= cap) {
			cap *= 2;
			buf = xrealloc(buf, cap);
		}
		size_t got = fread(buf + n, 1, cap - n - 1, fp);
		n += got;
		if (got == 0)
			break;
	}
	if (ferror(fp))
		die("cannot read '%s': %s", path, strerror(errno));
	fclose(fp);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

void close_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0)
		die("write error on standard output: %s", strerror(errno));
}

void std_options(int argc, char **argv, const char *usage)
{
	if (argc < 2)
		return;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage, stdout);
		close_stdout();
		exit(0);
	}
	if (!strcmp(argv[1], "--version")) {
		printf("%s (mmrank) %s\n", program_invocation_short_name, MMRANK_VERSION);
		close_stdout();
		exit(0);
	}
}

uint64_t fnv1a64(uint64_t h, const void *p, size_t n)
{
	const unsigned char *s = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ s[i]) * 0x100000001b3ULL;
	return h;
}

double mono_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

void mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	for (char *s = p + 1;; s++) {
		char c = *s;
		if (c == '/' || c == '\0') {
			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST)
				die("cannot create directory '%s': %s", p, strerror(errno));
			*s = c;
		}
		if (c == '\0')
			break;
	}
	free(p);
}

int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}
