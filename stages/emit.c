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
 * written directly by stages/formats/dot.c (shared with fit --save-dot). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "formats/ahlog.h"
#include "formats/dot.h"
#include "formats/emittable.h"
#include "formats/mmfeatures.h"
#include "core/opts.h"
#include "formats/tree.h"
#include "core/util.h"

static const char synopsis[] =
"emit --heuristic-name NAME --format py|c|h|dot [-o FILE]\n"
"            [--templates DIR] [--m4 PROG] [--python PROG] [--cc PROG]\n"
"            TREE.tsv";

static const char about[] =
"Generate one artifact of the learned mm ranking heuristic from a (pruned)\n"
"tree TSV (stages/FORMATS.md \"tree TSV\"; its line 1 metadata gives the\n"
"precondition name, shared memory and device capability).\n";

static const char notes[] =
"Exit status: 0 on success; 1 on bad usage, an invalid tree, a name or\n"
"category the target cannot represent, an m4 failure, a generated file\n"
"that does not parse (.py) or compile (.c, .h), or a write error.\n"
"No partial output is ever left under FILE.\n"
"Names (stages/FORMATS.md \"names\"): NAME is a Python/C identifier that is\n"
"no keyword, no m4 builtin (with or without m4_) and no template macro\n"
"(MMR_...); the metadata name is mm; every value from the tree reaches m4\n"
"quoted, so none is ever expanded.\n";

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

/* The heuristic name: the one name rule of emittable.h (a Python/C
 * identifier that is no keyword, no m4 builtin, no template macro). */
static void check_identifier(const char *s)
{
	const char *bad = emittable_name_problem(s);
	if (bad)
		die("--heuristic-name '%s': %s (stages/FORMATS.md \"names\")", s, bad);
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

/* The C twin computes only mm's context values (spec §1.1, §4.1;
 * templates/heuristic.c.m4): die naming the first feature it cannot, before
 * m4 sees any name. */
static void check_c_features(const tree *t, const featinfo *fi, const char *in)
{
	for (int f = 0; f < t->n_feat; f++) {
		const char *name = fi[f].dummy ? fi[f].orig : t->feat[f];
		int ok = 0;
		if (fi[f].dummy) {
			for (int j = 0; j < MM_N_RAW_CAT; j++)
				ok |= !strcmp(name, mm_raw_cat_name[j]);
		} else {
			for (int j = 0; j < MM_N_RAW_NUM; j++)
				ok |= !strcmp(name, mm_raw_num_name[j]);
			for (int j = 0; j < MM_N_DERIVED; j++)
				ok |= !strcmp(name, mm_derived_name[j]);
		}
		if (!ok)
			die("%s: feature %d '%s': %s feature with no C counterpart (mm's "
			    "context values only: spec §1.1, §4.1)", in, f, t->feat[f],
			    fi[f].dummy ? "categorical" : "numeric");
	}
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
			/* the leaf's k (fit --topk-eps; get_top_k), None without */
			if (g->t->topk_eps > 0)
				fprintf(g->fp, "]], [[%d]])", d->top_k);
			else
				fputs("]], [[None]])", g->fp);
		} else {
			fputs("MMR_RETURN([[", g->fp);
			indent(g, depth);
			fprintf(g->fp, "]], %d, %d, %d)", i,
			        d->prob_len + appends_default(g->t, i, g->def),
			        g->t->topk_eps > 0 ? d->top_k : -1);
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

/* A data macro: defined quoted twice, so that its expansion is the quoted
 * value, which m4 outputs as it is and never rescans (value holds no [ or
 * ]: emittable.h). */
static void define(FILE *fp, const char *name, const char *value)
{
	fprintf(fp, "m4_define([[%s]], [[[[%s]]]])m4_dnl\n", name, value);
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
	/* fit --topk-eps: each leaf's list length (issue #35), else none */
	define(fp, "MMR_HAS_TOP_K", t->topk_eps > 0 ? "1" : "0");
	if (t->topk_eps > 0)
		py_float_repr(t->topk_eps, b);
	else
		snprintf(b, sizeof b, "0.0");
	define(fp, "MMR_TOP_K_EPS", b);

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

/* The m4 definitions of t for fmt, in memory (write_defs validates the
 * tree: a failure dies before m4 starts).  *n gets their length. */
static char *make_defs(const tree *t, const ah_meta *m, const featinfo *fi,
                       enum fmt fmt, const char *hname, const char *source,
                       size_t *n)
{
	char *defs = NULL;
	FILE *mem = open_memstream(&defs, n);
	if (!mem)
		die("cannot open a memory stream: %s", strerror(errno));
	write_defs(mem, t, m, fi, fmt, hname, source);
	if (ferror(mem) || fclose(mem) != 0)
		die("cannot build the m4 definitions: %s", strerror(errno));
	return defs;
}

/* Wait for child pid; 0 if it exited 0, else -1 with why in err (what
 * names the program). */
static int wait_ok(pid_t pid, const char *what, char *err, size_t errn)
{
	int st;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			snprintf(err, errn, "waiting for %s: %s", what, strerror(errno));
			return -1;
		}
	if (WIFSIGNALED(st)) {
		snprintf(err, errn, "%s killed by signal %d", what, WTERMSIG(st));
		return -1;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(err, errn, "%s failed with exit status %d", what,
		         WEXITSTATUS(st));
		return -1;
	}
	return 0;
}

/* Run `m4prog -P - template` with stdin = defs and stdout = the new file
 * outpath.  0 on success, else -1 with why in err. */
static int run_m4(const char *m4prog, const char *template, const char *outpath,
                  const char *defs, size_t ndefs, char *err, size_t errn)
{
	int out_fd = open(outpath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out_fd < 0) {
		snprintf(err, errn, "cannot create '%s': %s", outpath, strerror(errno));
		return -1;
	}
	int pfd[2];
	if (pipe(pfd) != 0) {
		snprintf(err, errn, "cannot create a pipe: %s", strerror(errno));
		close(out_fd);
		return -1;
	}
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errn, "cannot fork: %s", strerror(errno));
		close(out_fd);
		close(pfd[0]);
		close(pfd[1]);
		return -1;
	}
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
	close(out_fd);
	int werr = 0;
	for (size_t off = 0; off < ndefs && !werr;) {
		ssize_t w = write(pfd[1], defs + off, ndefs - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			werr = errno ? errno : EIO;
		else
			off += (size_t)w;
	}
	close(pfd[1]);
	char what[4200];
	snprintf(what, sizeof what, "m4 ('%s' on '%s')", m4prog, template);
	if (wait_ok(pid, what, err, errn) != 0)
		return -1;
	if (werr) {
		snprintf(err, errn, "cannot write the m4 definitions: %s",
		         strerror(werr));
		return -1;
	}
	return 0;
}

/* Run argv[0] (PATH searched) with stdout sent to stderr, stdin from
 * /dev/null.  0 if it exits 0, else -1 with why in err. */
static int run_tool(char *const argv[], char *err, size_t errn)
{
	fflush(NULL);
	pid_t pid = fork();
	if (pid < 0) {
		snprintf(err, errn, "cannot fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		int dn = open("/dev/null", O_RDONLY);
		if (dn < 0 || dup2(dn, 0) < 0 || dup2(2, 1) < 0)
			_exit(126);
		execvp(argv[0], argv);
		fprintf(stderr, "emit: cannot run '%s': %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	return wait_ok(pid, argv[0], err, errn);
}

/* Check the artifact at path before it is published: a .py must parse
 * (Python's compile(), nothing of it runs), a .c or .h must pass
 * `cc -std=c99 -pedantic-errors -fsyntax-only` (the .c with its header
 * beside it).  tool (python or cc) may hold words separated by spaces
 * (CC="ccache gcc").  0 if it does, else -1 with why in err. */
static int check_artifact(enum fmt fmt, const char *path, const char *python,
                          const char *cc, char *err, size_t errn)
{
	static const char *const py_args[] = {
		"-I", "-c",
		"import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')",
		NULL};
	static const char *const cc_args[] = {"-std=c99", "-pedantic-errors",
	                                      "-fsyntax-only", "-x", "c", NULL};
	const char *tool = fmt == FMT_PY ? python : cc;
	const char *const *args = fmt == FMT_PY ? py_args : cc_args;
	char words[1024], tool_err[256];
	char *argv[32];
	int n = 0;
	snprintf(words, sizeof words, "%s", tool);
	for (char *w = strtok(words, " "); w && n < 20; w = strtok(NULL, " "))
		argv[n++] = w;
	if (n == 0) {
		snprintf(err, errn, "no %s to check the generated .%s with",
		         fmt == FMT_PY ? "--python" : "--cc", fmt_name[fmt]);
		return -1;
	}
	for (int i = 0; args[i]; i++)
		argv[n++] = (char *)args[i];
	argv[n++] = (char *)path;
	argv[n] = NULL;
	if (run_tool(argv, tool_err, sizeof tool_err) == 0)
		return 0;
	if (fmt == FMT_PY)
		snprintf(err, errn, "the generated .py does not parse as Python (%s -I "
		         "-c compile(...): %s)", python, tool_err);
	else
		snprintf(err, errn, "the generated .%s does not compile (%s -std=c99 "
		         "-pedantic-errors -fsyntax-only: %s)", fmt_name[fmt], cc, tool_err);
	return -1;
}

/* Generate the artifact of fmt with m4 into a private temporary folder
 * (with the header beside a .c), check it (check_artifact), and copy it to
 * fp only if it passes; the folder is removed either way.  Dies on any
 * failure, having written nothing to fp. */
static void generate(FILE *fp, const char *m4prog, const char *tdir,
                     const char *python, const char *cc, const tree *t,
                     const ah_meta *m, const featinfo *fi, enum fmt fmt,
                     const char *hname, const char *source)
{
	size_t nd, nh = 0;
	char *defs = make_defs(t, m, fi, fmt, hname, source, &nd);
	char *hdefs = fmt == FMT_C ? make_defs(t, m, fi, FMT_H, hname, source, &nh)
	                           : NULL;
	const char *tmp = getenv("TMPDIR");
	char dir[4096], main_path[4200], h_path[4200], tpl[4200], err[8500] = "";
	snprintf(dir, sizeof dir, "%s/mmrank-emit.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		die("cannot create a temporary folder '%s': %s", dir, strerror(errno));
	snprintf(main_path, sizeof main_path, "%s/_%s.%s", dir, hname, fmt_name[fmt]);
	snprintf(h_path, sizeof h_path, "%s/_%s.h", dir, hname);
	snprintf(tpl, sizeof tpl, "%s/heuristic.%s.m4", tdir, fmt_name[fmt]);
	int rc = run_m4(m4prog, tpl, main_path, defs, nd, err, sizeof err);
	if (rc == 0 && hdefs) {
		snprintf(tpl, sizeof tpl, "%s/heuristic.h.m4", tdir);
		rc = run_m4(m4prog, tpl, h_path, hdefs, nh, err, sizeof err);
	}
	if (rc == 0)
		rc = check_artifact(fmt, main_path, python, cc, err, sizeof err);
	size_t len = 0;
	char *text = NULL;
	if (rc == 0) {
		FILE *in = fopen(main_path, "rb");
		if (!in) {
			snprintf(err, sizeof err, "cannot read back '%s': %s", main_path,
			         strerror(errno));
			rc = -1;
		} else {
			FILE *mem = open_memstream(&text, &len);
			char b[65536];
			size_t r;
			while (mem && (r = fread(b, 1, sizeof b, in)) > 0)
				fwrite(b, 1, r, mem);
			if (!mem || ferror(in) || fclose(mem) != 0) {
				snprintf(err, sizeof err, "cannot read back '%s'", main_path);
				rc = -1;
			}
			fclose(in);
		}
	}
	unlink(main_path);
	if (hdefs)
		unlink(h_path);
	rmdir(dir);
	free(defs);
	free(hdefs);
	if (rc != 0)
		die("%s; nothing written", err);
	fwrite(text, 1, len, fp);
	free(text);
}

int main(int argc, char **argv)
{
	const char *hname = NULL, *out = NULL, *in = NULL;
	const char *tdir = getenv("MMRANK_TEMPLATES"), *m4prog = getenv("M4");
	const char *python = getenv("PYTHON"), *cc = getenv("CC");
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
		OPT_STRING("--python", "PROG", &python, 0,
		           "Python 3 that checks a .py parses before it is written "
		           "(compile(), nothing runs; default: $PYTHON or python3)"),
		OPT_STRING("--cc", "PROG", &cc, 0,
		           "C compiler that checks a .c/.h before it is written (-std=c99 "
		           "-pedantic-errors -fsyntax-only; default: $CC or cc)"),
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
	if (!python || !*python)
		python = "python3";
	if (!cc || !*cc)
		cc = "cc";

	tree t;
	tree_read(&t, in);
	/* checked before any output is opened */
	char where[4096];
	snprintf(where, sizeof where, "%s:1", in);
	ah_meta meta;
	ah_meta_parse(&meta, t.meta_json, where);
	if (strcmp(meta.name, EMITTABLE_META_NAME) != 0)
		die("%s: metadata 'name': expected '%s', found '%.64s' (mmrank emits mm "
		    "heuristics only; stages/FORMATS.md \"names\")", where,
		    EMITTABLE_META_NAME, meta.name);
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
	if (fmt == FMT_C)
		check_c_features(&t, fi, in);
	/* the input's file name, for a comment of the .h/.c: letters, digits,
	 * '.', '-' and '_' only (anything else becomes '_'), and quoted for m4
	 * like every data macro */
	const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	char source[256];
	snprintf(source, sizeof source, "%s", base);
	for (char *p = source; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
			*p = '_';

	char template[4096];
	if (fmt != FMT_DOT) {
		struct stat sb;
		for (int k = 0; k < 2; k++) {
			const char *f = k ? "h" : fmtname;
			if (k && fmt != FMT_C)
				break;
			snprintf(template, sizeof template, "%s/heuristic.%s.m4", tdir, f);
			if (stat(template, &sb) != 0)
				die("cannot find template '%s': %s (see --templates)", template,
				    strerror(errno));
		}
		signal(SIGPIPE, SIG_IGN);
	}

	aout o;
	FILE *fp = stdout;
	if (out)
		fp = aout_open(&o, out);
	if (fmt == FMT_DOT) {
		dot_write(&t, fp);
	} else {
		generate(fp, m4prog, tdir, python, cc, &t, &meta, fi, fmt, hname,
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
