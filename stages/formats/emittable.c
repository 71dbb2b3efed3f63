/* emittable.c — see emittable.h. */
#include "emittable.h"

#include <string.h>

#include "mmfeatures.h"

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
	if (p[0] == '/' && p[1] == '*')
		return "contains '/*', which in a C comment of the emitted code fails "
		       "-Wall -Werror (-Wcomment)";
	if (p[0] == '?' && p[1] == '?')
		return "contains '?\?', a C trigraph under -std=c99";
	return NULL;
}

const char *emittable_problem(const char *s)
{
	if (!*s)
		return "empty";
	if (strlen(s) > EMITTABLE_MAX_LEN)
		return "longer than 4095 characters, the longest string literal a "
		       "C99 compiler must accept (-pedantic-errors refuses it)";
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
	if (!strncmp(s, "AH_MM_", 6) || !strncmp(s, "ah_mm_", 6))
		return "a name of the C twin's shared types (AH_MM_..., ah_mm_...: "
		       "AH_MM_TYPES would be their include guard)";
	for (const char *const *r = emittable_reserved; *r; r++)
		if (!strcmp(s, *r))
			return "a Python keyword, a name the artifact uses or an m4 builtin";
	return NULL;
}

/* NULL if s is 1 to 32 characters, the first a letter or digit of set
 * (lower or upper case), the others of set or extra; else why not. */
static const char *word_problem(const char *s, int upper, const char *extra,
                                const char *why)
{
	size_t n = strlen(s);
	if (n == 0 || n > 32)
		return why;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int ok = (c >= '0' && c <= '9') || (upper ? c >= 'A' && c <= 'Z' : c >= 'a' && c <= 'z') ||
		         (i > 0 && strchr(extra, c));
		if (!ok)
			return why;
	}
	return NULL;
}

const char *emittable_gpu_problem(const char *s)
{
	return word_problem(s, 0, "_-", "not a GPU name (1 to 32 of a-z 0-9 _ -, starting "
	                    "with a letter or digit)");
}

const char *emittable_device_name_problem(const char *s)
{
	return word_problem(s, 1, "-", "not a device-name pattern (1 to 32 of A-Z 0-9 -, "
	                    "starting with a letter or digit)");
}

/* One of names[0..n), or 0. */
static int in_list(const char *s, const char *const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(s, names[i]))
			return 1;
	return 0;
}

const char *emittable_cat_problem(const char *feature, const char *v)
{
	if (!*v)
		return "empty value";
	for (const unsigned char *c = (const unsigned char *)v; *c; c++)
		if (*c <= ' ' || *c == 0x7f)
			return "contains white space or a control character";
	if (!strcmp(feature, "mat1_dtype") || !strcmp(feature, "mat2_dtype")) {
		if (strncmp(v, "torch.", 6) || !v[6])
			return "unknown dtype (expected torch.float16, torch.bfloat16, "
			       "torch.float32, ...: torch.<lower-case name>)";
		for (const char *c = v + 6; *c; c++)
			if (!(*c >= 'a' && *c <= 'z') && !(*c >= '0' && *c <= '9') && *c != '_')
				return "unknown dtype (torch.<lower-case name> expected)";
	} else if (!strcmp(feature, "mat1_iscontig") || !strcmp(feature, "mat2_iscontig")) {
		if (strcmp(v, "True") && strcmp(v, "False"))
			return "expected True or False";
	} else if (!strcmp(feature, "using_tf32")) {
		if (strcmp(v, "True") && strcmp(v, "False") && strcmp(v, "not_float_32"))
			return "expected True, False or not_float_32";
	}
	return NULL;
}

const char *emittable_feature_problem(const char *name, const char **cat,
                                      const char **value)
{
	*cat = *value = NULL;
	if (in_list(name, mm_raw_num_name, MM_N_RAW_NUM) ||
	    in_list(name, mm_derived_name, MM_N_DERIVED))
		return NULL;
	for (int j = 0; j < MM_N_RAW_CAT; j++) {
		size_t l = strlen(mm_raw_cat_name[j]);
		if (!strncmp(name, mm_raw_cat_name[j], l) && name[l] == '_') {
			*cat = mm_raw_cat_name[j];
			*value = name + l + 1;
			return emittable_cat_problem(*cat, *value);
		}
	}
	return "not an mm feature: neither a context value (m, k, n, mat1_stride_0, "
	       "mat1_stride_1, mat2_stride_0, mat2_stride_1, m*k, m*n, k*n, "
	       "arith_intensity) nor a one-hot column <categorical>_<value> of mm's "
	       "categoricals (mat1_dtype, mat2_dtype, mat1_iscontig, mat2_iscontig, "
	       "using_tf32): no C counterpart, and the .py would raise KeyError";
}
