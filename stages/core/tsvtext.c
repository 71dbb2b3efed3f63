/* tsvtext.c — see tsvtext.h. */
#include "tsvtext.h"

#include <inttypes.h>
#include <string.h>

#include "util.h"

void tsv_check(const char *path, const char *buf, size_t len, const char *what)
{
	if (len == 0)
		die("%s: empty file: expected %s", path, what);
	if (memchr(buf, '\0', len))
		die("%s: NUL byte in file", path);
	if (buf[len - 1] != '\n')
		die("%s: missing final newline (truncated?)", path);
}

char *tsv_read(const char *path, const char *what)
{
	size_t len;
	char *buf = read_file(!strcmp(path, "-") ? "/dev/stdin" : path, &len);
	tsv_check(path, buf, len, what);
	return buf;
}

char *tsv_line(char **pos, const char *path, int64_t *lineno)
{
	char *p = *pos;
	if (!*p)
		return NULL;
	char *nl = strchr(p, '\n');
	*nl = '\0';
	*pos = nl + 1;
	++*lineno;
	if (strchr(p, '\r'))
		die("%s:%" PRId64 ": carriage return (CRLF line ends are not accepted)", path, *lineno);
	return p;
}

int tsv_split(char *line, char **f, int max)
{
	int n = 0;
	for (char *p = line;; p++) {
		if (n < max)
			f[n] = p;
		n++;
		p = strchr(p, '\t');
		if (!p)
			return n;
		*p = '\0';
	}
}

int tsv_columns(char *const *f, int nf, const char *const *names, int n, int *col)
{
	int found = 0;
	for (int i = 0; i < n; i++) {
		col[i] = -1;
		for (int j = 0; j < nf; j++)
			if (!strcmp(f[j], names[i]))
				col[i] = j;
		found += col[i] >= 0;
	}
	return found;
}
