/* opts_demo — a program with one option of every kind (stages/core/opts.h),
 * for check/t0120-opts.sh: prints each value after parsing, one per line. */
#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "core/util.h"

/* OPT_CALL: "F/K" into two ints */
static void
fold(const char *name, const char *arg, void *value)
{
	int *fk = value;
	if (sscanf(arg, "%d/%d", &fk[0], &fk[1]) != 2)
		die("%s: expected F/K, got '%s'", name, arg);
}

int
main(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *name = "none";
	int flag = 0, n = 3, mode = 1, fk[2] = {0, 0};
	int64_t big = -5;
	double frac = 0.25;
	opt_list data = {0}, rest = {0};
	static const char *const modes[] = {"rows", "group", "none", NULL};
	const opt table[] = {
		OPT_POS("IN", &in, OPT_REQUIRED | OPT_INPUT, "the input"),
		OPT_FLAG("--flag", &flag, "a flag"),
		OPT_INT("--n", "N", &n, 1, 100, 0, "an int in [1, 100]"),
		OPT_I64("--big", "B", &big, INT64_MIN, INT64_MAX, 0, "any int64"),
		OPT_DOUBLE("--frac", "F", &frac, 0, 0.5, OPT_XLO, "a number in (0, 0.5]"),
		OPT_STRING("--name", "NAME", &name, 0,
		           "a string; a long help text that wraps onto a second line "
		           "because it is long.  Two spaces after a full stop stay.\n"
		           "  an indented list item that is long enough to wrap, "
		           "indented as it started\nanother line"),
		OPT_ENUM("--mode", "MODE", &mode, modes, 0, "rows, group or none"),
		OPT_HEAD("A heading:"),
		OPT_LIST("--data", "NAME PATH", 2, &data, OPT_INPUT, "repeatable pair"),
		OPT_CALL("--fold", "F/K", fold, fk, "parsed by a callback"),
		OPT_OUT("OUT", &out, 0, "the output"),
		OPT_POS_LIST("REST...", &rest, 0, "more positionals"),
		OPT_END()
	};
	const opt_prog prog = {"opts_demo [options] IN [REST...]\n"
	                       "       opts_demo --help", "About text.\n", table,
	                       "Exit status: 0, or 1 on bad usage.\n", 0, NULL};
	opts_parse(&prog, argc, argv);
	printf("in=%s\nout=%s\nflag=%d\nn=%d\nbig=%lld\nfrac=%.17g\nname=%s\n"
	       "mode=%s\nfold=%d/%d\n", in, out ? out : "(null)", flag, n,
	       (long long)big, frac, name, modes[mode], fk[0], fk[1]);
	for (int i = 0; i < data.n; i++)
		printf("data[%d]=%s\n", i, data.v[i]);
	for (int i = 0; i < rest.n; i++)
		printf("rest[%d]=%s\n", i, rest.v[i]);
	free(data.v);
	free(rest.v);
	close_stdout();
	return 0;
}
