/* emit — generate the learned heuristic from a (pruned) tree TSV
 * (spec §6.1 module layout, §6.2 DOT, §4.1/§4.4 features and dummies).
 *
 * One output per invocation, so Make sees every dependency:
 *   py   _<NAME>.py  the Python class PyTorch loads from
 *                    torch/_inductor/autoheuristic/artifacts/ (§6.1)
 *   h    _<NAME>.h   the C API of the C twin (typed context, no allocation)
 *   c    _<NAME>.c   the C twin: same tree, same choices, same ranked lists
 *   dot  <NAME>.dot  Graphviz rendering of the tree (§6.2, stable node ids)
 *
 * py, h and c go through m4: emit writes m4 definitions (the data: names,
 * choices, the tree as a pre-order sequence of macro calls) to m4's stdin
 * and runs `m4 -P - templates/heuristic.<fmt>.m4`, whose output goes
 * straight into the atomic output file.  The templates hold all fixed text
 * and, for C, the mapping from feature names to C expressions.  dot is
 * written directly by stages/lib/dot.c (shared with fit --save-dot). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ahlog.h"
#include "dot.h"
#include "emittable.h"
#include "mmfeatures.h"
#include "opts.h"
#include "tree.h"
#include "util.h"

static const char synopsis[] =
"emit --heuristic-name NAME --format py|c|h|dot [-o FILE]\n"
"            [--templates DIR] [--m4 PROG] TREE.tsv";

static const char about[] =
"Generate one artifact of the learned mm ranking heuristic from a (pruned)\n"
"tree TSV (stages/FORMATS.md \"tree TSV\"; its line 1 metadata gives the\n"
"precondition name, shared memory and device capability).\n";

static const char notes[] =
"Exit status: 0 on success; 1 on bad usage, an invalid tree, a name or\n"
"category the target cannot represent, an m4 failure, or a write error.\n"
"No partial output is ever left under FILE.\n";

enum fmt { FMT_PY, FMT_C, FMT_H, FMT_DOT };
static const char *const fmt_name[] = {"py", "c", "h", "dot", NULL};


/* ---- Python float repr -------------------------------------------------- */

/* Python's str(float) / repr(float) for a finite x (spec §6.1 thresholds):
 * the shortest decimal that round-trips (tried with %.{p}e for p = 1..17),
 * then Python's layout (float_repr_style 'short', Py_DTSF_ADD_DOT_0): fixed
 * notation when the decimal exponent is in [-4, 16), with ".0" added to
 * integral values; otherwise d[.ddd]e[+-]XX (at least two exponent digits).
 * Writes at most 32 bytes into buf. */
static void py_float_repr(double x, char buf[32])
{
	char e[40], digits[24];
	int nd = 0, exp10 = 0;

	if (x == 0) {
		strcpy(buf, signbit(x) ? "-0.0" : "0.0");
		return;
	}
	for (int p = 1; p <= 17; p++) {
		snprintf(e, sizeof e, "%.*e", p - 1, x);
		if (strtod(e, NULL) == x)
			break;
	}
	/* e = [-]d[.ddd]e[+-]XX */
	const char *s = e;
	char *o = buf;
	if (*s == '-')
		*o++ = *s++;
	for (; *s != 'e'; s++)
		if (*s != '.')
			digits[nd++] = *s;
	digits[nd] = '\0';
	exp10 = atoi(s + 1);
	int decpt = exp10 + 1; /* x = 0.d1d2... * 10^decpt */
	if (decpt > -4 && decpt <= 16) {
		if (decpt <= 0) {
			*o++ = '0';
			*o++ = '.';
			for (int i = 0; i < -decpt; i++)
				*o++ = '0';
			memcpy(o, digits, (size_t)nd);
			o += nd;
		} else if (decpt < nd) {
			memcpy(o, digits, (size_t)decpt);
			o += decpt;
			*o++ = '.';
			memcpy(o, digits + decpt, (size_t)(nd - decpt));
			o += nd - decpt;
		} else {
			memcpy(o, digits, (size_t)nd);
			o += nd;
			for (int i = nd; i < decpt; i++)
				*o++ = '0';
			*o++ = '.';
			*o++ = '0';
		}
		*o = '\0';
	} else {
		*o++ = digits[0];
		if (nd > 1) {
			*o++ = '.';
			memcpy(o, digits + 1, (size_t)(nd - 1));
			o += nd - 1;
		}
		sprintf(o, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	}
}

/* ---- validation ---------------------------------------------------------- */

/* Text that goes into m4 quotes, a Python '...' literal, a C "..." literal
 * or a C comment (emittable.h, the one rule, which the log and feat TSV
 * readers apply to choice ids too).  Dies naming what (e.g. "class 3") and
 * the value. */
static void check_text(const char *what, const char *s)
{
	const char *bad = emittable_problem(s);
	if (bad)
		die("%s '%s' cannot be emitted: %s", what, s, bad);
}

static void check_identifier(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > 64)
		die("--heuristic-name '%s': must be 1 to 64 characters", s);
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		int ok = c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		         (i > 0 && c >= '0' && c <= '9');
		if (!ok)
			die("--heuristic-name '%s': not an identifier ([A-Za-z_][A-Za-z0-9_]*)",
			    s);
	}
	/* the class name must also be legal Python (and not shadow a builtin
	 * the artifact uses) */
	static const char *const reserved[] = {
		"False", "None", "True", "and", "as", "assert", "async", "await", "break",
		"class", "continue", "def", "del", "elif", "else", "except", "finally", "for",
		"from", "global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or",
		"pass", "raise", "return", "try", "while", "with", "yield", "str", "int",
		"float", "list", "tuple", "Optional", "AHContext", "AHMetadata", "Choice",
		"LearnedHeuristicDecision",
	};
	for (size_t i = 0; i < sizeof reserved / sizeof *reserved; i++)
		if (!strcmp(s, reserved[i]))
			die("--heuristic-name '%s': a Python keyword or a name the artifact uses", s);
}

/* ---- features: numeric or dummy (spec §4.3, §4.4) ------------------------ */

typedef struct {
	int dummy;         /* 1: one-hot column of a categorical feature */
	const char *orig;  /* dummy: the categorical feature (metadata name) */
	const char *value; /* dummy: the category (text after "<orig>_") */
} featinfo;

/* Classify every model feature of t: a name equal to a metadata numerical
 * feature or a derived feature (§4.1) is numeric; "<cat>_<value>" for a
 * metadata categorical feature cat (longest match) is a dummy; anything else
 * is numeric too (the C template rejects names it cannot compute). */
static featinfo *classify(const tree *t, const ah_meta *m)
{
	featinfo *fi = xcalloc((size_t)t->n_feat + 1, sizeof *fi);
	for (int f = 0; f < t->n_feat; f++) {
		const char *name = t->feat[f];
		int numeric = 0;
		for (int j = 0; j < m->n_num; j++)
			numeric |= !strcmp(name, m->num[j]);
		for (int j = 0; j < MM_N_DERIVED; j++)
			numeric |= !strcmp(name, mm_derived_name[j]);
		if (numeric)
			continue;
		int j = ah_meta_onehot(m, name, &fi[f].value);
		if (j >= 0) {
			fi[f].dummy = 1;
			fi[f].orig = m->cat[j];
		}
	}
	return fi;
}

/* ---- m4 definitions ---------------------------------------------------- */

typedef struct {
	const tree *t;
	const featinfo *fi;
	enum fmt fmt;
	int def;     /* C: index of the default choice extern_mm (n_class when
	                it is no class: the C table adds it) */
	FILE *fp; /* the definitions */
	char *used;  /* ",name,name," of tested context values */
	size_t used_len, used_cap;
} gen;

static void add_used(gen *g, const char *name)
{
	size_t n = strlen(name);
	if (g->used_len == 0) {
		xgrow((void **)&g->used, &g->used_cap, 2, 1);
		strcpy(g->used, ",");
		g->used_len = 1;
	}
	/* already listed? */
	for (const char *p = g->used; (p = strstr(p, name)) != NULL; p++)
		if (p[-1] == ',' && p[n] == ',')
			return;
	xgrow((void **)&g->used, &g->used_cap, g->used_len + n + 2, 1);
	memcpy(g->used + g->used_len, name, n);
	g->used_len += n;
	strcpy(g->used + g->used_len, ",");
	g->used_len++;
}

/* Indentation of a tree line at depth (root = 1): Python 4*(depth+1)
 * spaces (§6.1 codegen_node), C one tab per depth. */
static void indent(const gen *g, int depth)
{
	if (g->fmt == FMT_PY)
		fprintf(g->fp, "%*s", 4 * (depth + 1), "");
	else
		for (int i = 0; i < depth; i++)
			fputc('\t', g->fp);
}

/* floor(t) as an int64 literal for integer-valued features (exact: for an
 * integer x, x <= t iff x <= floor(t)), or always/never outside int64. */
static void int_threshold(double t, char buf[48])
{
	double f = floor(t);
	if (f >= 9223372036854775808.0)
		strcpy(buf, "always");
	else if (f < -9223372036854775808.0)
		strcpy(buf, "never");
	else if (f == -9223372036854775808.0)
		strcpy(buf, "(-9223372036854775807 - 1)");
	else
		snprintf(buf, 48, "%" PRId64, (int64_t)f);
}

/* 1 iff the C list of leaf lacks the default choice, which the C twin
 * then appends (issue #19: rank() always lists extern_mm, as Inductor
 * appends it, spec §7.3 step 5; the Python returns the leaf alone). */
static int appends_default(const tree *t, int leaf, int def)
{
	const tree_node *d = &t->node[leaf];
	for (int j = 0; j < d->prob_len; j++)
		if (t->prob[d->prob_off + j].cls == def)
			return 0;
	return d->prob_len > 0;
}

/* The leaf's ranked pairs (§6.1: p > 0, p descending, ties by ascending
 * index, %.3f) as "(p, i), ..." (py) or "{p, i}, ..." (c, then
 * "{0.000, default}" when the leaf lacks the default). */
static void leaf_pairs(const gen *g, int leaf, tree_prob *buf)
{
	int n = tree_ranked(g->t, leaf, buf, g->t->n_class);
	const char *open = g->fmt == FMT_PY ? "(" : "{";
	const char *close = g->fmt == FMT_PY ? ")" : "}";
	for (int j = 0; j < n; j++)
		fprintf(g->fp, "%s%s%.3f, %d%s", j ? ", " : "", open, buf[j].p,
		        buf[j].cls, close);
	if (g->fmt == FMT_C && appends_default(g->t, leaf, g->def))
		fprintf(g->fp, ", {0.000, %d}", g->def);
}

/* The tree below node i at depth (root 1) as pre-order macro calls. */
static void tree_calls(gen *g, int i, int depth, tree_prob *buf)
{
	const tree_node *d = &g->t->node[i];
	if (d->feature < 0) {
		if (d->prob_len == 0) {
			fputs("MMR_RETURN_NONE([[", g->fp);
			indent(g, depth);
			fputs("]])", g->fp);
		} else if (g->fmt == FMT_PY) {
			fputs("MMR_RETURN([[", g->fp);
			indent(g, depth);
			fputs("]], [[", g->fp);
			leaf_pairs(g, i, buf);
			fputs("]])", g->fp);
		} else {
			fputs("MMR_RETURN([[", g->fp);
			indent(g, depth);
			fprintf(g->fp, "]], %d, %d)", i,
			        d->prob_len + appends_default(g->t, i, g->def));
		}
		return;
	}
	const featinfo *f = &g->fi[d->feature];
	const char *name = g->t->feat[d->feature];
	if (f->dummy) {
		/* §4.4: left = "str(value) != category"; threshold asserted 0.5 */
		if (!(d->threshold >= 0 && d->threshold < 1))
			die("node %d: split on one-hot column '%s' at %.17g: a dummy split "
			    "must lie in [0, 1) (spec §4.4: 0.5)", i, name, d->threshold);
		add_used(g, f->orig);
		fputs("MMR_IF_CAT([[", g->fp);
		indent(g, depth);
		fprintf(g->fp, "]], [[%s]], [[%s]])", f->orig, f->value);
	} else {
		char repr[32], ib[48];
		py_float_repr(d->threshold, repr);
		add_used(g, name);
		if (g->fmt == FMT_PY) {
			fputs("MMR_IF_LE([[", g->fp);
			indent(g, depth);
			fprintf(g->fp, "]], [[%s]], [[%s]])", name, repr);
		} else {
			int_threshold(d->threshold, ib);
			fputs("MMR_IF_NUM([[", g->fp);
			indent(g, depth);
			fprintf(g->fp, "]], [[%s]], [[%s]], [[%s]])", name, ib, repr);
		}
	}
	tree_calls(g, d->left, depth + 1, buf);
	fputs("MMR_ELSE([[", g->fp);
	indent(g, depth);
	fputs("]])", g->fp);
	tree_calls(g, d->right, depth + 1, buf);
	if (g->fmt == FMT_C) {
		fputs("MMR_END([[", g->fp);
		indent(g, depth);
		fputs("]])", g->fp);
	}
}

static void define(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, "m4_define([[%s]], [[%s]])m4_dnl\n", name, value);
}

/* Write the m4 definitions of t for format fmt (see templates/heuristic.{py,h,c}.m4). */
static void write_defs(FILE *fp, const tree *t, const ah_meta *m,
                       const featinfo *fi, enum fmt fmt, const char *hname,
                       const char *source)
{
	char b[64];
	gen g = {.t = t, .fi = fi, .fmt = fmt, .fp = fp, .def = t->n_class};
	tree_prob *buf = xmalloc(((size_t)t->n_class + 1) * sizeof *buf);
	for (int c = 0; c < t->n_class; c++)
		if (!strcmp(t->cls[c], "extern_mm"))
			g.def = c;
	int add_def = g.def == t->n_class && fmt != FMT_PY; /* C adds the choice */

	fputs("m4_changequote([[,]])m4_changecom()m4_dnl\n", fp);
	fputs("m4_dnl generated by mmrank emit: data for templates/heuristic.*.m4\n", fp);
	define(fp, "MMR_NAME", hname);
	define(fp, "MMR_OPT", m->name);
	define(fp, "MMR_SOURCE", source);
	snprintf(b, sizeof b, "%" PRId64, m->shared_memory);
	define(fp, "MMR_SHARED_MEMORY", b);
	snprintf(b, sizeof b, "%d", m->cap_major);
	define(fp, "MMR_CAP_MAJOR", b);
	snprintf(b, sizeof b, "%d", m->cap_minor);
	define(fp, "MMR_CAP_MINOR", b);
	py_float_repr(t->confidence_threshold, b);
	define(fp, "MMR_THRESHOLD", b);
	snprintf(b, sizeof b, "%d", t->n_class + add_def);
	define(fp, "MMR_N_CHOICES", b);
	snprintf(b, sizeof b, "%d", g.def);
	define(fp, "MMR_DEFAULT", b);
	int maxr = 0;
	for (int i = 0; i < t->n_node; i++) {
		int len = t->node[i].prob_len + (fmt != FMT_PY && appends_default(t, i, g.def));
		if (t->node[i].feature < 0 && len > maxr)
			maxr = len;
	}
	snprintf(b, sizeof b, "%d", maxr);
	define(fp, "MMR_MAX_RANKED", b);

	fputs("m4_define([[MMR_CHOICES]], [[", fp);
	for (int c = 0; c < t->n_class; c++)
		fprintf(fp, "MMR_CHOICE([[%s]])", t->cls[c]);
	if (add_def)
		fputs("MMR_CHOICE([[extern_mm]])", fp);
	fputs("]])m4_dnl\n", fp);

	if (fmt == FMT_C) {
		fputs("m4_define([[MMR_LEAVES]], [[", fp);
		for (int i = 0; i < t->n_node; i++)
			if (t->node[i].feature < 0 && t->node[i].prob_len > 0) {
				fprintf(fp, "MMR_LEAF(%d, [[", i);
				leaf_pairs(&g, i, buf);
				fputs("]])", fp);
			}
		fputs("]])m4_dnl\n", fp);
	}

	fputs("m4_define([[MMR_TREE]], [[", fp);
	tree_calls(&g, 0, 1, buf);
	fputs("]])m4_dnl\n", fp);
	fprintf(fp, "m4_define([[MMR_USED]], [[[[%s]]]])m4_dnl\n",
	        g.used ? g.used : ",");
	free(g.used);
	free(buf);
}

/* Run `m4prog -P - template` with stdin = the definitions and stdout =
 * out_fd.  Dies if m4 cannot run or exits non-zero. */
static void run_m4(const char *m4prog, const char *template, int out_fd,
                   const tree *t, const ah_meta *m, const featinfo *fi,
                   enum fmt fmt, const char *hname, const char *source)
{
	/* The definitions are made first, in memory: write_defs validates the
	 * tree, and a failure then leaves m4 unstarted (no stray m4 error). */
	char *defs = NULL;
	size_t ndefs = 0;
	FILE *mem = open_memstream(&defs, &ndefs);
	if (!mem)
		die("cannot open a memory stream: %s", strerror(errno));
	write_defs(mem, t, m, fi, fmt, hname, source);
	if (ferror(mem) || fclose(mem) != 0)
		die("cannot build the m4 definitions: %s", strerror(errno));
	int pfd[2];
	if (pipe(pfd) != 0)
		die("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0)
		die("cannot fork: %s", strerror(errno));
	if (pid == 0) {
		if (dup2(pfd[0], 0) < 0 || dup2(out_fd, 1) < 0)
			_exit(126);
		close(pfd[0]);
		close(pfd[1]);
		execlp(m4prog, m4prog, "-P", "-", template, (char *)NULL);
		fprintf(stderr, "emit: cannot run '%s': %s\n", m4prog, strerror(errno));
		_exit(127);
	}
	close(pfd[0]);
	FILE *fp = fdopen(pfd[1], "w");
	if (!fp)
		die("cannot open a pipe to m4: %s", strerror(errno));
	fwrite(defs, 1, ndefs, fp);
	free(defs);
	int werr = ferror(fp) != 0;
	werr |= fclose(fp) != 0;
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			die("waiting for m4: %s", strerror(errno));
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		if (WIFSIGNALED(st))
			die("m4 ('%s' on '%s') killed by signal %d", m4prog, template,
			    WTERMSIG(st));
		die("m4 ('%s' on '%s') failed with exit status %d", m4prog, template,
		    WEXITSTATUS(st));
	}
	if (werr)
		die("cannot write the m4 definitions: %s", strerror(errno));
}

int main(int argc, char **argv)
{
	const char *hname = NULL, *out = NULL, *in = NULL;
	const char *tdir = getenv("MMRANK_TEMPLATES"), *m4prog = getenv("M4");
	int fmt = -1;
	const opt table[] = {
		OPT_STRING("--heuristic-name", "NAME", &hname, OPT_REQUIRED,
		           "class / C prefix, a C identifier (MMRankingA100)"),
		OPT_ENUM("--format", "py|c|h|dot", &fmt, fmt_name, OPT_REQUIRED,
		         "py: _NAME.py: Python class for "
		         "torch/_inductor/autoheuristic/artifacts/, layout of spec §6.1 "
		         "(modern typing)\n"
		         "h: _NAME.h: C99 API (ah_mm_context -> ranked choices)\n"
		         "c: _NAME.c: the C twin of _NAME.py (§4.1 features computed in "
		         "C, §4.4 dummy splits as enum comparisons)\n"
		         "dot: NAME.dot: Graphviz tree as in spec §6.2, node ids = tree "
		         "node ids"),
		OPT_OUT("FILE", &out, 0,
		        "output, written atomically (default: standard output)"),
		OPT_STRING("--templates", "DIR", &tdir, 0,
		           "folder of heuristic.{py,h,c}.m4 (default: $MMRANK_TEMPLATES "
		           "or ./templates)"),
		OPT_STRING("--m4", "PROG", &m4prog, 0,
		           "the m4 program, GNU m4 (default: $M4 or m4 on PATH)"),
		OPT_POS("TREE.tsv", &in, OPT_REQUIRED | OPT_INPUT,
		        "the (pruned) tree TSV"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 0, NULL}, argc, argv);
	check_identifier(hname);
	const char *fmtname = fmt_name[fmt];
	if (!tdir || !*tdir)
		tdir = "templates";
	if (!m4prog || !*m4prog)
		m4prog = "m4";

	tree t;
	tree_read(&t, in);
	/* checked before any output is opened */
	char where[4096];
	snprintf(where, sizeof where, "%s:1", in);
	ah_meta meta;
	ah_meta_parse(&meta, t.meta_json, where);
	check_text("metadata name", meta.name);
	for (int c = 0; c < t.n_class; c++) {
		snprintf(where, sizeof where, "class %d", c);
		check_text(where, t.cls[c]);
	}
	for (int f = 0; f < t.n_feat; f++) {
		snprintf(where, sizeof where, "feature %d", f);
		check_text(where, t.feat[f]);
	}
	if (!isfinite(t.confidence_threshold))
		die("%s: confidence_threshold %.17g is not finite", in,
		    t.confidence_threshold);
	featinfo *fi = classify(&t, &meta);
	const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	char source[256];
	snprintf(source, sizeof source, "%s", base);
	emittable_fix(source);

	char template[4096];
	if (fmt != FMT_DOT) {
		struct stat sb;
		snprintf(template, sizeof template, "%s/heuristic.%s.m4", tdir, fmtname);
		if (stat(template, &sb) != 0)
			die("cannot find template '%s': %s (see --templates)", template,
			    strerror(errno));
		signal(SIGPIPE, SIG_IGN);
	}

	aout o;
	FILE *fp = stdout;
	if (out)
		fp = aout_open(&o, out);
	if (fmt == FMT_DOT) {
		dot_write(&t, fp);
	} else {
		run_m4(m4prog, template, out ? o.fd : 1, &t, &meta, fi, fmt, hname,
		       source);
	}
	if (out)
		aout_commit(&o);
	close_stdout();
	free(fi);
	ah_meta_free(&meta);
	tree_free(&t);
	return 0;
}
