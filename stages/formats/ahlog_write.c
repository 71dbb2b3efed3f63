/* ahlog_write.c — AutoHeuristic log writer: Python-compatible number
 * formatting, the mm metadata/header lines, and a crash-safe appender.
 * Spec §1.1 (layout), §1.3 (feedback as str(float)), §1.4 (metadata must
 * match), §1.5 (categorical strings).  Declarations: end of ahlog.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ahlog_write.h"
#include "core/util.h"

char *ah_fmt_float(char *buf, double v)
{
	char tmp[40], digits[24];
	int p, nd = 0, exp10, decpt, neg, o = 0;
	const char *s;

	if (isnan(v)) {
		strcpy(buf, "nan");
		return buf;
	}
	if (isinf(v)) {
		strcpy(buf, v < 0 ? "-inf" : "inf");
		return buf;
	}
	/* Shortest precision whose correctly rounded %e form round-trips. */
	for (p = 1; p <= 17; p++) {
		snprintf(tmp, sizeof tmp, "%.*e", p - 1, v);
		if (strtod(tmp, NULL) == v)
			break;
	}
	s = tmp;
	neg = (*s == '-');
	if (neg)
		s++;
	for (; *s && *s != 'e'; s++)
		if (*s >= '0' && *s <= '9')
			digits[nd++] = *s;
	exp10 = atoi(s + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	decpt = exp10 + 1; /* v = 0.d1d2... * 10^decpt */
	if (neg)
		buf[o++] = '-';
	if (decpt <= -4 || decpt > 16) {
		buf[o++] = digits[0];
		if (nd > 1) {
			buf[o++] = '.';
			memcpy(buf + o, digits + 1, (size_t)nd - 1);
			o += nd - 1;
		}
		snprintf(buf + o, AH_FLOAT_BUF - (size_t)o, "e%c%02d",
		         exp10 < 0 ? '-' : '+', exp10 < 0 ? -exp10 : exp10);
		return buf;
	}
	if (decpt <= 0) {
		buf[o++] = '0';
		buf[o++] = '.';
		for (int i = 0; i < -decpt; i++)
			buf[o++] = '0';
		memcpy(buf + o, digits, (size_t)nd);
		o += nd;
	} else if (decpt >= nd) {
		memcpy(buf + o, digits, (size_t)nd);
		o += nd;
		for (int i = nd; i < decpt; i++)
			buf[o++] = '0';
		buf[o++] = '.';
		buf[o++] = '0';
	} else {
		memcpy(buf + o, digits, (size_t)decpt);
		o += decpt;
		buf[o++] = '.';
		memcpy(buf + o, digits + decpt, (size_t)(nd - decpt));
		o += nd - decpt;
	}
	buf[o] = '\0';
	return buf;
}

char *ah_mm_meta_json(int64_t shared_memory, int cap_major, int cap_minor)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf,
		"{\"shared_memory\": %" PRId64 ", \"device_capa\": [%d, %d], "
		"\"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", "
		"\"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", "
		"\"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", "
		"\"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", "
		"\"using_tf32\"]}", shared_memory, cap_major, cap_minor);
	if (n < 0 || (size_t)n >= sizeof buf)
		die("metadata line too long");
	return xstrdup(buf);
}

const char *ah_mm_header(void)
{
	return "m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,"
	       "mat2_stride_0,mat2_stride_1,mat1_iscontig,mat2_iscontig,"
	       "using_tf32,choice,feedback";
}

char *ah_mm_features(const ah_mm_input *in)
{
	char buf[512];
	int n = snprintf(buf, sizeof buf,
		"%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%s,%" PRId64 ",%" PRId64
		",%" PRId64 ",%" PRId64 ",%s,%s,%s",
		in->m, in->k, in->n, in->dtype, in->dtype, in->s1_0, in->s1_1,
		in->s2_0, in->s2_1, in->contig1 ? "True" : "False",
		in->contig2 ? "True" : "False", in->using_tf32);
	if (n < 0 || (size_t)n >= sizeof buf)
		die("feature string too long");
	return xstrdup(buf);
}

/* Write all of buf or die naming path. */
static void write_all(int fd, const char *path, const char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			die("cannot write '%s': %s", path, strerror(errno));
		}
		buf += w;
		len -= (size_t)w;
	}
}

static void sync_or_die(int fd, const char *path)
{
	if (fsync(fd) != 0)
		die("cannot fsync '%s': %s", path, strerror(errno));
}

/* fsync the directory holding path so a newly created file survives. */
static void sync_dir(const char *path)
{
	char *dir = xstrdup(path);
	char *slash = strrchr(dir, '/');
	int fd;
	if (slash == dir)
		slash[1] = '\0';
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	fd = open(dir, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		die("cannot open directory '%s': %s", dir, strerror(errno));
	if (fsync(fd) != 0 && errno != EINVAL)
		die("cannot fsync directory '%s': %s", dir, strerror(errno));
	close(fd);
	free(dir);
}

void ah_append_open(ah_appender *a, const char *path, const char *meta,
                    const char *header, char **body, size_t *body_len)
{
	size_t ml = strlen(meta), hl = strlen(header);
	size_t head = ml + 1 + hl + 1;
	char *want = xmalloc(head + 1);
	struct stat st;
	char *data;
	size_t len = 0, cap;

	memcpy(want, meta, ml);
	want[ml] = '\n';
	memcpy(want + ml + 1, header, hl);
	want[head - 1] = '\n';
	want[head] = '\0';

	a->path = xstrdup(path);
	a->head_len = head;
	a->fd = open(path, O_RDWR | O_CREAT, 0644);
	if (a->fd < 0)
		die("cannot open '%s': %s", path, strerror(errno));
	if (fstat(a->fd, &st) != 0)
		die("cannot stat '%s': %s", path, strerror(errno));
	cap = (size_t)st.st_size + 1;
	data = xmalloc(cap);
	while (len < (size_t)st.st_size) {
		ssize_t r = pread(a->fd, data + len, (size_t)st.st_size - len, (off_t)len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			die("cannot read '%s': %s", path, strerror(errno));
		}
		if (r == 0)
			break;
		len += (size_t)r;
	}
	data[len] = '\0';

	if (len < head && memcmp(data, want, len) == 0) {
		/* new file, or killed while writing the two lines: (re)create */
		if (ftruncate(a->fd, 0) != 0)
			die("cannot truncate '%s': %s", path, strerror(errno));
		if (lseek(a->fd, 0, SEEK_SET) < 0)
			die("cannot seek '%s': %s", path, strerror(errno));
		write_all(a->fd, path, want, head);
		sync_or_die(a->fd, path);
		sync_dir(path);
		*body = xstrdup("");
		*body_len = 0;
	} else {
		if (len < head || memcmp(data, want, head) != 0)
			die("'%s': given metadata does not match the existing "
			    "metadata (spec §1.4 InconsistentMetadata): expected\n%s"
			    "found a file of %zu bytes starting differently",
			    path, want, len);
		*body_len = len - head;
		*body = xmalloc(*body_len + 1);
		memcpy(*body, data + head, *body_len);
		(*body)[*body_len] = '\0';
	}
	if (lseek(a->fd, 0, SEEK_END) < 0)
		die("cannot seek '%s': %s", path, strerror(errno));
	free(data);
	free(want);
}

void ah_append_truncate(ah_appender *a, size_t keep)
{
	if (ftruncate(a->fd, (off_t)(a->head_len + keep)) != 0)
		die("cannot truncate '%s': %s", a->path, strerror(errno));
	sync_or_die(a->fd, a->path);
	if (lseek(a->fd, 0, SEEK_END) < 0)
		die("cannot seek '%s': %s", a->path, strerror(errno));
}

void ah_append_block(ah_appender *a, const char *buf, size_t len)
{
	write_all(a->fd, a->path, buf, len);
	sync_or_die(a->fd, a->path);
}

void ah_append_close(ah_appender *a)
{
	if (a->fd >= 0 && close(a->fd) != 0)
		die("cannot close '%s': %s", a->path, strerror(errno));
	a->fd = -1;
	free(a->path);
	a->path = NULL;
}
