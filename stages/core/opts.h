/* opts.h — table-driven command-line options, in the spirit of git's
 * parse-options.h: one table per program gives the parsing, the range
 * checks and the --help text.
 *
 *	static const char synopsis[] = "prune --ranking K -o OUT.tsv TREE.tsv";
 *	static const char about[] = "What it does.\n", notes[] = "Exit status: ...\n";
 *	static const char *const modes[] = {"rows", "group", NULL};
 *	const opt table[] = {
 *		OPT_POS("TREE.tsv", &in, OPT_REQUIRED | OPT_INPUT, "tree TSV"),
 *		OPT_INT("--ranking", "K", &k, 1, 1000000, OPT_REQUIRED, "top-k size"),
 *		OPT_ENUM("--split", "MODE", &split, modes, 0, "rows or group"),
 *		OPT_OUT("OUT.tsv", &out, OPT_REQUIRED, "output"),
 *		OPT_END()
 *	};
 *	opts_parse(&(opt_prog){synopsis, about, table, notes, 0, NULL}, argc, argv);
 *
 * Syntax (unchanged from the hand-written parsers it replaces): argv[1]
 * "--help"/"-h" prints the help text on stdout and exits 0, "--version"
 * prints "<stage> (mmrank) <version>"; an argument "-X..." other than "-"
 * is an option, spelt exactly as in the table, its values in the next
 * argument(s) ("--ranking 10", never "--ranking=10"); every other argument
 * is positional.  A scalar option given twice keeps the last value.
 *
 * Errors (die(), exit status 1, before the caller opens any output):
 *   unknown option '--nope' (see --help)
 *   option '--ranking' needs a value (see --help)     (2 values: "needs 2 values")
 *   --ranking: expected an integer in [1, 1000000], got 'x'   (">= 1" when
 *       the upper bound is the type's maximum)
 *   --test-fraction: expected a number in (0, 0.5], got 'x'
 *   --split: expected rows, group or none, got 'x'
 *   more than one TREE.tsv: 'a' and 'b'
 *   missing -o OUT.tsv; usage: <first synopsis line> (see --help)
 *   output 'x' is also an input (check_output_not_input, util.h): every
 *       OPT_OUTPUT value against every OPT_INPUT value.
 *   -o -: standard output carries fit's report (the table of models); give
 *       a file (an output "-" where the program's stdout_use is set)
 *   -o and --metrics are both 't.tsv': two outputs cannot be one file;
 *       nothing written (check_outputs_distinct, util.h): every pair of
 *       OPT_OUTPUT values.
 *
 * Help text: "usage: " + synopsis, blank, about, blank, one entry per row in
 * table order ("  --name ARG", its help wrapped to 78 columns from column col,
 * on the next line if the entry is wider than col - 1; a '\n' starts a line,
 * spaces after it indent; OPT_HEAD: its name alone), blank, notes (verbatim).
 */
#ifndef MMRANK_OPTS_H
#define MMRANK_OPTS_H
#include <stdint.h>
#include <stdio.h>

enum opt_type {
	OPT_T_END = 0,
	OPT_T_FLAG,     /* no value: *(int *)value = 1 */
	OPT_T_INT,      /* *(int *)value, in [ilo, ihi] */
	OPT_T_I64,      /* *(int64_t *)value, in [ilo, ihi] */
	OPT_T_DOUBLE,   /* *(double *)value, in [dlo, dhi] (OPT_XLO: (dlo, dhi]) */
	OPT_T_STRING,   /* *(const char **)value = the argument */
	OPT_T_ENUM,     /* *(int *)value = index of the argument in choices */
	OPT_T_LIST,     /* repeatable: nargs values per use appended to an opt_list */
	OPT_T_CALL,     /* cb(name, argument, value) parses it (and dies if bad) */
	OPT_T_POS,      /* positional: *(const char **)value */
	OPT_T_POS_LIST, /* the remaining positionals, appended to an opt_list */
	OPT_T_HEAD,     /* no option: a group heading of the help (name) */
};

/* flags */
#define OPT_REQUIRED 1u  /* must be given (a list: at least once) */
#define OPT_INPUT    2u  /* a file the program reads (for a list of pairs:
                            the second value of each use) */
#define OPT_OUTPUT   4u  /* a file the program writes: may not be an input */
#define OPT_XLO      8u  /* OPT_T_DOUBLE: the lower bound is exclusive */

/* Values of a list option, in command-line order (argv pointers); the
 * parser allocates v, the caller frees it. */
typedef struct {
	const char **v;
	int n;          /* values (nargs per use) */
} opt_list;

typedef struct opt {
	enum opt_type type;
	const char *name;   /* "--ranking", "-o"; a positional: its help label */
	const char *arg;    /* value name(s) in the help, "K", "NAME PATH" */
	void *value;
	unsigned flags;
	int nargs;          /* OPT_T_LIST: values per use (1 or 2) */
	int64_t ilo, ihi;
	double dlo, dhi;
	const char *const *choices; /* OPT_T_ENUM: NULL-terminated */
	void (*cb)(const char *name, const char *arg, void *value);
	const char *help;
} opt;

typedef struct {
	const char *synopsis; /* after "usage: "; more lines after '\n' */
	const char *about;    /* description, verbatim, or NULL */
	const opt *opts;      /* the table, ended by OPT_END() */
	const char *notes;    /* after the options, verbatim (outputs, units,
	                         exit status, spec section), or NULL */
	int col;              /* column of the option texts; 0: 20 */
	const char *stdout_use; /* what it prints on stdout (its report), or
	                           NULL; when set, no output may be "-" */
} opt_prog;

/* OPT_PTR_(T, v): v as void *, a compile error unless v is a T *. */
#define OPT_PTR_(T, v) ((void *)(1 ? (v) : (T *)0))
#define OPT_FLAG(n, v, h) \
	{ .type = OPT_T_FLAG, .name = (n), .value = OPT_PTR_(int, v), .help = (h) }
#define OPT_INT(n, a, v, lo, hi, fl, h) \
	{ .type = OPT_T_INT, .name = (n), .arg = (a), .value = OPT_PTR_(int, v), \
	  .flags = (fl), .ilo = (lo), .ihi = (hi), .help = (h) }
#define OPT_I64(n, a, v, lo, hi, fl, h) \
	{ .type = OPT_T_I64, .name = (n), .arg = (a), .value = OPT_PTR_(int64_t, v), \
	  .flags = (fl), .ilo = (lo), .ihi = (hi), .help = (h) }
#define OPT_DOUBLE(n, a, v, lo, hi, fl, h) \
	{ .type = OPT_T_DOUBLE, .name = (n), .arg = (a), \
	  .value = OPT_PTR_(double, v), .flags = (fl), .dlo = (lo), .dhi = (hi), \
	  .help = (h) }
#define OPT_STRING(n, a, v, fl, h) \
	{ .type = OPT_T_STRING, .name = (n), .arg = (a), \
	  .value = OPT_PTR_(const char *, v), .flags = (fl), .help = (h) }
#define OPT_ENUM(n, a, v, ch, fl, h) \
	{ .type = OPT_T_ENUM, .name = (n), .arg = (a), .value = OPT_PTR_(int, v), \
	  .choices = (ch), .flags = (fl), .help = (h) }
#define OPT_LIST(n, a, nv, v, fl, h) \
	{ .type = OPT_T_LIST, .name = (n), .arg = (a), .nargs = (nv), \
	  .value = OPT_PTR_(opt_list, v), .flags = (fl), .help = (h) }
#define OPT_CALL(n, a, f, v, h) \
	{ .type = OPT_T_CALL, .name = (n), .arg = (a), .cb = (f), .value = (v), \
	  .help = (h) }
#define OPT_POS(n, v, fl, h) \
	{ .type = OPT_T_POS, .name = (n), .value = OPT_PTR_(const char *, v), \
	  .flags = (fl), .help = (h) }
#define OPT_POS_LIST(n, v, fl, h) \
	{ .type = OPT_T_POS_LIST, .name = (n), .value = OPT_PTR_(opt_list, v), \
	  .flags = (fl), .help = (h) }
/* -o OUT: the one output of a stage (design.md: one stage, one output). */
#define OPT_OUT(a, v, fl, h) OPT_STRING("-o", a, v, (fl) | OPT_OUTPUT, h)
#define OPT_HEAD(n) { .type = OPT_T_HEAD, .name = (n) } /* "Split:", parses nothing */
#define OPT_END() { .type = OPT_T_END }

/* Parse argv[1..argc) by p's table into the value pointers (which keep
 * their defaults where an option is not given); handles --help and
 * --version; dies on every error listed above. */
void opts_parse(const opt_prog *p, int argc, char **argv);
/* Write p's help text to fp. */
void opts_help(const opt_prog *p, FILE *fp);

#endif
