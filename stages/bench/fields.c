/* fields.c — see fields.h. */
#include <inttypes.h>
#include <string.h>

#include "fields.h"
#include "util.h"

char *read_lines(const char *path)
{
	size_t len;
	char *buf = read_file(path, &len);
	if (len == 0 || buf[len - 1] != '\n')
		die("%s: empty or missing final newline", path);
	return buf;
}

char *next_line(char **p, int64_t *lineno)
{
	char *l = *p, *nl = strchr(l, '\n');
	if (!*l)
		return NULL;
	*nl = '\0';
	*p = nl + 1;
	++*lineno;
	return l;
}

int split_tabs(char *line, char **f, int max)
{
	int n = 0;
	f[n++] = line;
	for (char *p = line; *p; p++)
		if (*p == '\t') {
			*p = '\0';
			if (n == max)
				return max + 1;
			f[n++] = p + 1;
		}
	return n;
}

int64_t field_i64(const char *path, int64_t line, const char *name, const char *s, int64_t lo,
                  int64_t hi)
{
	int64_t v;
	if (parse_i64(s, strlen(s), &v) != 0 || v < lo || v > hi)
		die("%s:%" PRId64 ": field '%s': bad value '%s'", path, line, name, s);
	return v;
}

int field_bool(const char *path, int64_t line, const char *name, const char *s)
{
	if (!strcmp(s, "True"))
		return 1;
	if (!strcmp(s, "False"))
		return 0;
	die("%s:%" PRId64 ": field '%s': expected True or False, got '%s'", path, line, name, s);
}
