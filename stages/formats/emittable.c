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

/* BEGIN reserved names (check/t7110-injection.sh reads this list) */
const char *const emittable_reserved[] = {
	/* Python keywords and the names the artifact uses */
	"False", "None", "True", "and", "as", "assert", "async", "await", "break",
	"class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
	"from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
	"pass", "raise", "return", "try", "while", "with", "yield", "str", "int",
	"float", "list", "tuple", "Optional", "AHContext", "AHMetadata", "Choice",
	"LearnedHeuristicDecision",
	/* GNU m4's builtins without the m4_ prefix (with it: every m4_ name) */
	"__file__", "__gnu__", "__line__", "__os2__", "__program__", "__unix__",
	"__windows__", "builtin", "changecom", "changequote", "debugfile",
	"debugmode", "decr", "define", "defn", "divert", "divnum", "dnl", "dumpdef",
	"errprint", "esyscmd", "eval", "format", "ifdef", "ifelse", "include", "incr",
	"index", "indir", "len", "m4exit", "m4wrap", "maketemp", "mkstemp", "os2",
	"patsubst", "popdef", "pushdef", "regexp", "shift", "sinclude", "substr",
	"syscmd", "sysval", "traceoff", "traceon", "translit", "undefine",
	"undivert", "unix", "windows",
	NULL,
};
/* END reserved names */

const char *emittable_name_problem(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		return "must be 1 to 64 characters";
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		         (i > 0 && c >= '0' && c <= '9');
		if (!ok)
			return "not an identifier ([A-Za-z_][A-Za-z0-9_]*)";
	}
	if (!strncmp(s, "m4_", 3))
		return "an m4 name (m4_...): the templates would run it";
	if (!strncmp(s, "MMR_", 4))
		return "a template macro name (MMR_...)";
	for (const char *const *r = emittable_reserved; *r; r++)
		if (!strcmp(s, *r))
			return "a Python keyword, a name the artifact uses or an m4 builtin";
	return NULL;
}
