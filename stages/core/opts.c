/* opts.c — table-driven command-line options; see opts.h. */
#include "opts.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

enum { WIDTH = 78 }; /* the last column of help text */

static int
is_pos(const opt *o)
{
	return o->type == OPT_T_POS || o->type == OPT_T_POS_LIST;
}

/* ---- help ------------------------------------------------------------ */

/* Display width of s[0..n): UTF-8 continuation bytes take no column. */
static int
width(const char *s, int n)
{
	int w = 0;
	for (int i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

/* Write text word-wrapped into columns [col, WIDTH], the first line
 * starting at column at (<= col); the spaces between two words on one
 * line are kept as written ("end.  Next"). */
static void
wrap(FILE *fp, const char *text, int col, int at)
{
	const char *s = text;
	for (;;) {
		int extra = 0;
		while (s[extra] == ' ')
			extra++;
		s += extra;
		const char *end = strchr(s, '\n');
		if (!end)
			end = s + strlen(s);
		int first = 1, pos = col + extra;
		fprintf(fp, "%*s", col + extra - at, "");
		while (s < end) {
			const char *w = s;
			while (s < end && *s == ' ')
				s++;
			int gap = (int)(s - w);
			w = s;
			while (s < end && *s != ' ')
				s++;
			int n = (int)(s - w), wn = width(w, n);
			if (n == 0)
				break;
			if (!first && pos + gap + wn > WIDTH) {
				fprintf(fp, "\n%*s", col + extra, "");
				pos = col + extra;
				first = 1;
			}
			if (!first)
				fprintf(fp, "%*s", gap, "");
			fprintf(fp, "%.*s", n, w);
			pos += wn + (first ? 0 : gap);
			first = 0;
		}
		fputc('\n', fp);
		if (!*end)
			return;
		s = end + 1;
		at = 0;
	}
}

void
opts_help(const opt_prog *p, FILE *fp)
{
	int col = p->col > 0 ? p->col : 20;
	fprintf(fp, "usage: %s\n", p->synopsis);
	if (p->about)
		fprintf(fp, "\n%s", p->about);
	fputc('\n', fp);
	for (const opt *o = p->opts; o->type != OPT_T_END; o++) {
		if (o->type == OPT_T_HEAD) {
			fprintf(fp, "%s\n", o->name);
			continue;
		}
		fprintf(fp, "  %s%s%s", o->name, o->arg ? " " : "",
		        o->arg ? o->arg : "");
		int n = 2 + width(o->name, (int)strlen(o->name)) +
		        (o->arg ? 1 + width(o->arg, (int)strlen(o->arg)) : 0);
		if (n + 1 > col) {
			fputc('\n', fp);
			n = 0;
		}
		wrap(fp, o->help ? o->help : "", col, n);
	}
	if (p->notes)
		fprintf(fp, "\n%s", p->notes);
}

/* ---- values ---------------------------------------------------------- */

static void
bad_int(const opt *o, const char *v)
{
	int64_t top = o->type == OPT_T_INT ? INT_MAX : INT64_MAX;
	if (o->ihi >= top)
		die("%s: expected an integer >= %lld, got '%s'", o->name,
		    (long long)o->ilo, v);
	die("%s: expected an integer in [%lld, %lld], got '%s'", o->name,
	    (long long)o->ilo, (long long)o->ihi, v);
}

static void
bad_double(const opt *o, const char *v)
{
	const char *lb = o->flags & OPT_XLO ? "(" : "[";
	if (isinf(o->dhi))
		die("%s: expected a number %s %g, got '%s'", o->name,
		    o->flags & OPT_XLO ? ">" : ">=", o->dlo, v);
	die("%s: expected a number in %s%g, %g], got '%s'", o->name, lb, o->dlo,
	    o->dhi, v);
}

static void
bad_enum(const opt *o, const char *v)
{
	char buf[512];
	size_t n = 0;
	int k = 0;
	while (o->choices[k])
		k++;
	buf[0] = '\0';
	for (int i = 0; i < k && n < sizeof buf; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%s",
		                      i == 0 ? "" : i == k - 1 ? " or " : ", ",
		                      o->choices[i]);
	die("%s: expected %s, got '%s'", o->name, buf, v);
}

static void
list_add(opt_list *l, const char *v, int cap)
{
	if (!l->v)
		l->v = xmalloc(((size_t)cap + 1) * sizeof *l->v);
	l->v[l->n++] = v;
}

/* Store the value(s) at argv[i + 1 ..] of option o; returns how many
 * arguments it took. */
static int
take(const opt *o, int argc, char **argv, int i)
{
	int need = o->type == OPT_T_FLAG ? 0 : o->type == OPT_T_LIST ? o->nargs : 1;
	if (i + need >= argc) {
		if (need == 1)
			die("option '%s' needs a value (see --help)", o->name);
		die("option '%s' needs %d values (see --help)", o->name, need);
	}
	const char *v = argv[i + 1];
	int64_t x;
	double d;
	switch (o->type) {
	case OPT_T_FLAG:
		*(int *)o->value = 1;
		break;
	case OPT_T_INT:
	case OPT_T_I64:
		if (parse_i64(v, strlen(v), &x) != 0 || x < o->ilo || x > o->ihi)
			bad_int(o, v);
		if (o->type == OPT_T_INT)
			*(int *)o->value = (int)x;
		else
			*(int64_t *)o->value = x;
		break;
	case OPT_T_DOUBLE:
		if (parse_f64(v, strlen(v), &d) != 0 || isnan(d) || d > o->dhi ||
		    d < o->dlo || (o->flags & OPT_XLO && d == o->dlo))
			bad_double(o, v);
		*(double *)o->value = d;
		break;
	case OPT_T_STRING:
		*(const char **)o->value = v;
		break;
	case OPT_T_ENUM:
		for (int k = 0; ; k++) {
			if (!o->choices[k])
				bad_enum(o, v);
			if (!strcmp(o->choices[k], v)) {
				*(int *)o->value = k;
				break;
			}
		}
		break;
	case OPT_T_LIST:
		for (int j = 1; j <= need; j++)
			list_add(o->value, argv[i + j], argc);
		break;
	case OPT_T_CALL:
		o->cb(o->name, v, o->value);
		break;
	default:
		die("internal error: option '%s' has type %d", o->name, (int)o->type);
	}
	return need;
}

/* ---- checks after parsing -------------------------------------------- */

/* The first synopsis line, for "missing ..." messages. */
static void
missing(const opt_prog *p, const opt *o)
{
	const char *nl = strchr(p->synopsis, '\n');
	int n = nl ? (int)(nl - p->synopsis) : (int)strlen(p->synopsis);
	die("missing %s%s%s; usage: %.*s (see --help)", o->name,
	    o->arg && !is_pos(o) ? " " : "", o->arg && !is_pos(o) ? o->arg : "",
	    n, p->synopsis);
}

/* Whether o holds a path (given, or a default) for the clash check. */
static int
has_path(const opt *o)
{
	if (o->type == OPT_T_LIST || o->type == OPT_T_POS_LIST)
		return ((opt_list *)o->value)->n > 0;
	if (o->type == OPT_T_STRING || o->type == OPT_T_POS)
		return *(const char **)o->value != NULL;
	return 0;
}

/* Every OPT_OUTPUT value against every OPT_INPUT value, and against every
 * other OPT_OUTPUT value (two outputs of one run are never one file); "-"
 * (standard output) not where the program prints its report there. */
static void
check_clashes(const opt_prog *p)
{
	const opt *t = p->opts;
	for (const opt *o = t; o->type != OPT_T_END; o++) {
		if (!(o->flags & OPT_OUTPUT) || !has_path(o))
			continue;
		const char *out = *(const char **)o->value;
		if (p->stdout_use && !strcmp(out, "-"))
			die("%s -: standard output carries %s; give a file", o->name,
			    p->stdout_use);
		check_output_writable(o->name, out);
		for (const opt *q = t; q->type != OPT_T_END; q++) {
			if (q > o && q->flags & OPT_OUTPUT && has_path(q))
				check_outputs_distinct(o->name, out, q->name,
				                       *(const char **)q->value);
			if (!(q->flags & OPT_INPUT) || !has_path(q))
				continue;
			if (q->type == OPT_T_LIST || q->type == OPT_T_POS_LIST) {
				const opt_list *l = q->value;
				int step = q->type == OPT_T_LIST ? q->nargs : 1;
				for (int j = step - 1; j < l->n; j += step)
					check_output_not_input(out, l->v[j]);
			} else {
				check_output_not_input(out, *(const char **)q->value);
			}
		}
	}
}

void
opts_parse(const opt_prog *p, int argc, char **argv)
{
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		opts_help(p, stdout);
		close_stdout();
		exit(0);
	}
	std_options(argc, argv, ""); /* --version */
	int nt = 0;
	while (p->opts[nt].type != OPT_T_END)
		nt++;
	char *seen = xcalloc((size_t)nt + 1, 1);
	const opt *pos = p->opts;
	while (pos->type != OPT_T_END && !is_pos(pos))
		pos++;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (a[0] == '-' && a[1] != '\0') {
			const opt *o = p->opts;
			while (o->type != OPT_T_END &&
			       (is_pos(o) || o->type == OPT_T_HEAD || strcmp(o->name, a)))
				o++;
			if (o->type == OPT_T_END)
				die("unknown option '%s' (see --help)", a);
			i += take(o, argc, argv, i);
			seen[o - p->opts] = 1;
			continue;
		}
		if (pos->type == OPT_T_END) {
			const opt *last = NULL;
			for (const opt *o = p->opts; o->type != OPT_T_END; o++)
				if (is_pos(o))
					last = o;
			if (!last)
				die("unexpected argument '%s' (see --help)", a);
			die("more than one %s: '%s' and '%s'", last->name,
			    *(const char **)last->value, a);
		}
		seen[pos - p->opts] = 1;
		if (pos->type == OPT_T_POS_LIST) {
			list_add(pos->value, a, argc);
			continue;
		}
		*(const char **)pos->value = a;
		do
			pos++;
		while (pos->type != OPT_T_END && !is_pos(pos));
	}
	for (int j = 0; j < nt; j++)
		if (p->opts[j].flags & OPT_REQUIRED && !seen[j])
			missing(p, &p->opts[j]);
	free(seen);
	check_clashes(p);
}
