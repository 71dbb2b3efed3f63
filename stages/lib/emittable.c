/* emittable.c — see emittable.h. */
#include "emittable.h"

#include <string.h>

/* Why the byte at p (of a NUL-terminated string) cannot be emitted, or
 * NULL. */
static const char *problem_at(const unsigned char *p)
{
	if (*p <= ' ' || *p == 0x7f)
		return "contains white space or a control character";
	if (*p > 0x7e)
		return "contains a byte outside printable ASCII (emit writes ASCII "
		       "only)";
	if (strchr("'\"\\`[]$", *p))
		return "contains a quote, backslash, backtick, bracket or '$', which "
		       "emit cannot write (they end a Python or C literal or an m4 "
		       "quote)";
	if (p[0] == '*' && p[1] == '/')
		return "contains '*/', which would end a C comment of the emitted code";
	if (p[0] == '?' && p[1] == '?')
		return "contains '?\?', a C trigraph under -std=c99";
	return NULL;
}

const char *emittable_problem(const char *s)
{
	if (!*s)
		return "empty";
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		const char *why = problem_at(p);
		if (why)
			return why;
	}
	return NULL;
}

void emittable_fix(char *s)
{
	for (unsigned char *p = (unsigned char *)s; *p; p++)
		if (problem_at(p))
			*p = '_';
}
