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

#include "core/privdir.h"
#include "formats/ahlog.h"
#include "formats/dot.h"
#include "formats/emittable.h"
#include "formats/gputable.h"
#include "formats/mmfeatures.h"
#include "core/opts.h"
#include "formats/tree.h"
#include "core/util.h"

static const char synopsis[] =
"emit --heuristic-name NAME (--format py|c|h|dot [-o FILE] | --out-dir\n"
"            DIR) [--gpu-facts FILE --gpu NAME] [--templates DIR] [--m4 PROG]\n"
"            [--python PROG] [--cc PROG] TREE.tsv";

static const char about[] =
"Generate the artifacts of the learned mm ranking heuristic from a (pruned)\n"
"tree TSV (stages/FORMATS.md \"tree TSV\"): one (--format), or all four\n"
"(--out-dir, as make does).  A tree of prune --truth gives the .py\n"
"truth = True and get_truth(context): k = 1 runs those leaves' picks alone.\n";

static const char notes[] =
"Exit status: 0 on success; 1 on bad usage, an invalid tree or a name,\n"
"feature or category an artifact cannot hold (TREE.tsv:line; the rules:\n"
"stages/FORMATS.md \"names\"; no value from the tree becomes code), an m4\n"
"failure, a .py that does not parse or a .c/.h that does not compile, or a\n"
"write error.  No partial output is ever left (--out-dir: all four or none).\n";

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

/* ---- validation: the rules of every format --------------------------------- */

/* The heuristic name: the one name rule of emittable.h (a Python/C
 * identifier that is no keyword, no m4 builtin, no template macro). */
static void check_identifier(const char *s)
{
	const char *bad = emittable_name_problem(s);
	if (bad)
		die("--heuristic-name '%s': %s (stages/FORMATS.md \"names\")", s, bad);
}

typedef struct {
	int dummy;         /* 1: one-hot column of a categorical feature */
	const char *orig;  /* dummy: the categorical feature (mm's name) */
	const char *value; /* dummy: the category (text after "<orig>_") */
} featinfo;

/* Classify every model feature of t (read from in) by the feature and
 * category rules of emittable.h, the same for .py, .c, .h and .dot: a raw
 * or derived mm feature is numeric, "<cat>_<value>" of an mm categorical
 * with a value Inductor can log is a dummy; anything else dies naming
 * in:line and the feature (the .py would raise KeyError, the C has no
 * counterpart).  A dummy split must lie in [0, 1) (spec §4.4: 0.5).  The
 * class names were checked by tree_read. */
static featinfo *classify(const tree *t, const char *in)
{
	featinfo *fi = xcalloc((size_t)t->n_feat + 1, sizeof *fi);
	for (int f = 0; f < t->n_feat; f++) {
		const char *why = emittable_feature_problem(t->feat[f], &fi[f].orig,
		                                            &fi[f].value);
		if (why && fi[f].orig)
			die("%s:%ld: feature %d '%s': category '%s' of %s: %s", in,
			    t->line_feat + f, f, t->feat[f], fi[f].value, fi[f].orig, why);
		if (why)
			die("%s:%ld: feature %d '%s': %s", in, t->line_feat + f, f,
			    t->feat[f], why);
		fi[f].dummy = fi[f].orig != NULL;
	}
	for (int i = 0; i < t->n_node; i++) {
		const tree_node *d = &t->node[i];
		if (d->feature >= 0 && fi[d->feature].dummy &&
		    !(d->threshold >= 0 && d->threshold < 1))
			die("%s:%ld: node %d: split on one-hot column '%s' at %.17g: a dummy "
			    "split must lie in [0, 1) (spec §4.4: 0.5)", in, t->line_node + i,
			    i, t->feat[d->feature], d->threshold);
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
 * then appends (rank() always lists extern_mm, as Inductor
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
			/* the leaf's k (fit --topk-eps; get_top_k), None without;
			 * its pick (tree_pick; get_pick); its truth mark
			 * (get_truth, with param truth) */
			if (g->t->topk_eps > 0)
				fprintf(g->fp, "]], [[%d]], %d", d->top_k, tree_pick(g->t, i));
			else
				fprintf(g->fp, "]], [[None]], %d", tree_pick(g->t, i));
			fprintf(g->fp, ", [[%s]])", d->truth ? "True" : "False");
		} else {
			fputs("MMR_RETURN([[", g->fp);
			indent(g, depth);
			fprintf(g->fp, "]], %d, %d, %d, %d, %d)", i,
			        d->prob_len + appends_default(g->t, i, g->def),
			        g->t->topk_eps > 0 ? d->top_k : -1, tree_pick(g->t, i),
			        d->truth);
		}
		return;
	}
	const featinfo *f = &g->fi[d->feature];
	const char *name = g->t->feat[d->feature];
	if (f->dummy) {
		/* §4.4: left = "str(value) != category" (threshold in [0, 1):
		 * classify) */
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
                       const char *source, const gpu_row *gpu)
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
	/* fit --topk-eps: each leaf's list length, else none */
	define(fp, "MMR_HAS_TOP_K", t->topk_eps > 0 ? "1" : "0");
	if (t->topk_eps > 0)
		py_float_repr(t->topk_eps, b);
	else
		snprintf(b, sizeof b, "0.0");
	define(fp, "MMR_TOP_K_EPS", b);
	/* fit's leaf-list rules: each leaf's pick, else the first entry */
	define(fp, "MMR_HAS_PICK", t->leaf_pick ? "1" : "0");
	/* prune --truth: picks chosen on in-graph step times */
	define(fp, "MMR_HAS_TRUTH", t->truth ? "1" : "0");
	/* --gpu: the GPU the tree was trained for (checked: gpu_row_read) */
	define(fp, "MMR_HAS_GPU", gpu ? "1" : "0");
	define(fp, "MMR_GPU_NAME", gpu ? gpu->name : "");
	define(fp, "MMR_GPU_DEVICE_NAME", gpu ? gpu->device_name : "");

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
                       const gpu_row *gpu, size_t *n)
{
	char *defs = NULL;
	FILE *mem = open_memstream(&defs, n);
	if (!mem)
		die("cannot open a memory stream: %s", strerror(errno));
	write_defs(mem, t, m, fi, fmt, hname, source, gpu);
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
		snprintf(err, errn, "cannot create '%.4200s': %s", outpath, strerror(errno));
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
	char what[8500];
	snprintf(what, sizeof what, "m4 ('%.4096s' on '%.4096s')", m4prog, template);
	if (wait_ok(pid, what, err, errn) != 0)
		return -1;
	if (werr) {
		snprintf(err, errn, "cannot write the m4 definitions: %s",
		         strerror(werr));
		return -1;
	}
	return 0;
}

/* Start argv[0] (PATH searched) with stdout sent to stderr, stdin from
 * /dev/null: its pid, else -1 with why in err. */
static pid_t start_tool(char *const argv[], char *err, size_t errn)
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
	return pid;
}

/* One compiler check of a generated file, running. */
typedef struct {
	enum fmt fmt;     /* py: python; c, h: cc */
	const char *tool; /* as given (--python, --cc) */
	char words[1024]; /* tool split at spaces, in place */
	char *argv[32];
	pid_t pid;
} check;

/* Start the check of the artifact at path: a .py must parse (Python's
 * compile(), nothing of it runs; -I -S: no user paths, no site), a .c or .h
 * must pass `cc -std=c99 -pedantic-errors -Wall -Wextra -Werror
 * -fsyntax-only` (the .c with its header beside it: that one run checks
 * both).  tool may hold words separated by spaces (CC="ccache gcc").  0 if
 * started, else -1 with why in err. */
static int check_start(check *k, enum fmt fmt, const char *path,
                       const char *tool, char *err, size_t errn)
{
	static const char *const py_args[] = {
		"-I", "-S", "-c",
		"import sys; compile(open(sys.argv[1], 'rb').read(), sys.argv[1], 'exec')",
		NULL};
	static const char *const cc_args[] = {"-std=c99", "-pedantic-errors", "-Wall",
	                                      "-Wextra", "-Werror", "-fsyntax-only",
	                                      "-x", "c", NULL};
	const char *const *args = fmt == FMT_PY ? py_args : cc_args;
	char *save = NULL;
	int n = 0;
	k->fmt = fmt;
	k->tool = tool;
	k->pid = -1;
	snprintf(k->words, sizeof k->words, "%s", tool);
	for (char *w = strtok_r(k->words, " ", &save); w && n < 20;
	     w = strtok_r(NULL, " ", &save))
		k->argv[n++] = w;
	if (n == 0) {
		snprintf(err, errn, "no %s to check the generated .%s with",
		         fmt == FMT_PY ? "--python" : "--cc", fmt_name[fmt]);
		return -1;
	}
	for (int i = 0; args[i]; i++)
		k->argv[n++] = (char *)args[i];
	k->argv[n++] = (char *)path;
	k->argv[n] = NULL;
	k->pid = start_tool(k->argv, err, errn);
	return k->pid < 0 ? -1 : 0;
}

/* Wait for a started check: 0 if the file passed, else -1 with why in err. */
static int check_wait(const check *k, char *err, size_t errn)
{
	char tool_err[256];
	if (wait_ok(k->pid, k->argv[0], tool_err, sizeof tool_err) == 0)
		return 0;
	if (k->fmt == FMT_PY)
		snprintf(err, errn, "the generated .py does not parse as Python (%s -I -S "
		         "-c compile(...): %s)", k->tool, tool_err);
	else
		snprintf(err, errn, "the generated .%s does not compile (%s -std=c99 "
		         "-pedantic-errors -Wall -Wextra -Werror -fsyntax-only: %s)",
		         fmt_name[k->fmt], k->tool, tool_err);
	return -1;
}

/* The whole file at path into *text (*len bytes): 0, else -1 with why in
 * err. */
static int slurp(const char *path, char **text, size_t *len, char *err,
                 size_t errn)
{
	FILE *in = fopen(path, "rb");
	if (!in) {
		snprintf(err, errn, "cannot read back '%.4200s': %s", path, strerror(errno));
		return -1;
	}
	FILE *mem = open_memstream(text, len);
	char b[65536];
	size_t r;
	while (mem && (r = fread(b, 1, sizeof b, in)) > 0)
		fwrite(b, 1, r, mem);
	int bad = !mem || ferror(in) || fclose(mem) != 0;
	fclose(in);
	if (bad)
		snprintf(err, errn, "cannot read back '%.4200s'", path);
	return bad ? -1 : 0;
}

/* What one emit run writes from: the settings and the validated tree. */
typedef struct {
	const char *m4prog, *tdir, *python, *cc, *hname, *source;
	const tree *t;
	const ah_meta *m;
	const featinfo *fi;
	const gpu_row *gpu; /* --gpu's row, or NULL */
} job;

#define BIT(f) (1u << (f))

/* Start the checks of the files the formats in want need (paths[f]): one
 * python for a .py, one cc for a .c (its header included), one cc for a .h
 * only without a .c.  Returns how many started into k[]; *rc -1 and why in
 * err when one could not start. */
static int checks_start(const job *j, unsigned want, char paths[][4200],
                        check k[3], int *rc, char *err, size_t errn)
{
	int nk = 0;
	for (int f = FMT_PY; f <= FMT_H && *rc == 0; f++) {
		if (!(want & BIT(f)) || (f == FMT_H && (want & BIT(FMT_C))))
			continue;
		if (check_start(&k[nk], (enum fmt)f, paths[f],
		                f == FMT_PY ? j->python : j->cc, err, errn) != 0)
			*rc = -1;
		else
			nk++;
	}
	return nk;
}

/* The artifacts of the formats in want into text[fmt], len[fmt]: py, c and
 * h expanded by m4 into a private folder (privdir.h: it goes however emit
 * ends), a .c with its header beside it, and checked there, python and cc
 * at once; dot written directly.  Dies, having returned nothing, on any
 * failure (the first one, after every check has ended). */
static void generate(const job *j, unsigned want, char *text[], size_t len[])
{
	char err[8500] = "", paths[FMT_H + 1][4200], tpl[4200];
	unsigned m4want = want & (BIT(FMT_PY) | BIT(FMT_C) | BIT(FMT_H));
	if (want & BIT(FMT_C))
		m4want |= BIT(FMT_H); /* the .c includes it */
	privdir d = {.keep = -1, .helper = -1};
	int rc = m4want ? privdir_open(&d, "mmrank-emit", err, sizeof err) : 0;
	for (int f = FMT_PY; f <= FMT_H && rc == 0; f++) {
		if (!(m4want & BIT(f)))
			continue;
		size_t nd;
		char *defs = make_defs(j->t, j->m, j->fi, (enum fmt)f, j->hname,
		                       j->source, j->gpu, &nd);
		snprintf(paths[f], sizeof paths[f], "%s/_%s.%s", d.path, j->hname,
		         fmt_name[f]);
		snprintf(tpl, sizeof tpl, "%s/heuristic.%s.m4", j->tdir, fmt_name[f]);
		rc = run_m4(j->m4prog, tpl, paths[f], defs, nd, err, sizeof err);
		free(defs);
	}
	check k[3];
	int nk = checks_start(j, want, paths, k, &rc, err, sizeof err);
	for (int i = 0; i < nk; i++) { /* all of them end before the folder goes */
		char why[1500];
		if (check_wait(&k[i], why, sizeof why) != 0 && rc == 0) {
			snprintf(err, sizeof err, "%s", why);
			rc = -1;
		}
	}
	for (int f = FMT_PY; f <= FMT_H && rc == 0; f++)
		if (want & BIT(f))
			rc = slurp(paths[f], &text[f], &len[f], err, sizeof err);
	privdir_close(&d);
	if (rc != 0)
		die("%s; nothing written", err);
	if (want & BIT(FMT_DOT)) {
		FILE *mem = open_memstream(&text[FMT_DOT], &len[FMT_DOT]);
		if (!mem)
			die("cannot open a memory stream: %s", strerror(errno));
		dot_write(j->t, mem);
		if (ferror(mem) || fclose(mem) != 0)
			die("cannot write the .dot: %s", strerror(errno));
	}
}

/* Die unless every template the formats in want expand exists (before any
 * output is opened). */
static void check_templates(const char *tdir, unsigned want)
{
	if (want & BIT(FMT_C))
		want |= BIT(FMT_H);
	for (int f = FMT_PY; f <= FMT_H; f++) {
		char template[4200];
		struct stat sb;
		if (!(want & BIT(f)))
			continue;
		snprintf(template, sizeof template, "%s/heuristic.%s.m4", tdir, fmt_name[f]);
		if (stat(template, &sb) != 0)
			die("cannot find template '%s': %s (see --templates)", template,
			    strerror(errno));
	}
}

/* The input's file name, for a comment of the .h/.c: letters, digits, '.',
 * '-' and '_' only (anything else becomes '_'), and quoted for m4 like
 * every data macro. */
static void source_name(const char *in, char source[256])
{
	const char *base = strrchr(in, '/') ? strrchr(in, '/') + 1 : in;
	snprintf(source, 256, "%s", base);
	for (char *p = source; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '_'))
			*p = '_';
}

/* Write text[f] of every format in want to out[f] ("-" or NULL: standard
 * output): every file written and flushed before the first is named, so a
 * failure names none. */
static void publish(unsigned want, char *const out[], char *const text[],
                    const size_t len[])
{
	aout o[FMT_DOT + 1];
	for (int f = FMT_PY; f <= FMT_DOT; f++) {
		if (!(want & BIT(f)))
			continue;
		FILE *fp = aout_open(&o[f], out[f] ? out[f] : "-");
		fwrite(text[f], 1, len[f], fp);
		if (fflush(fp) != 0 || ferror(fp))
			die("cannot write '%s': %s", out[f] ? out[f] : "-", strerror(errno));
	}
	for (int f = FMT_PY; f <= FMT_DOT; f++)
		if (want & BIT(f))
			aout_commit(&o[f]);
}

/* The outputs of --out-dir DIR: DIR/_NAME.py, .c, .h and DIR/NAME.dot
 * (make's names), each checked against the input. */
static void out_dir_paths(const char *dir, const char *hname, const char *in,
                          char *out[])
{
	for (int f = FMT_PY; f <= FMT_DOT; f++) {
		size_t n = strlen(dir) + strlen(hname) + 8;
		out[f] = xmalloc(n);
		snprintf(out[f], n, "%s/%s%s.%s", dir, f == FMT_DOT ? "" : "_", hname,
		         fmt_name[f]);
		check_output_not_input(out[f], in);
	}
	check_output_writable("--out-dir", out[FMT_PY]);
}

/* --gpu NAME's row of the GPU table facts into *g (gputable.h checks it with
 * the emittable GPU rules); dies unless its shared memory and capability
 * are the tree's metadata's (where: TREE.tsv:1): a tree of another GPU's
 * data must not carry this GPU. */
static void check_gpu(gpu_row *g, const char *facts, const char *name,
                      const ah_meta *m, const char *where)
{
	gpu_row_read(g, facts, name);
	if (g->shared_memory != m->shared_memory || g->cap_major != m->cap_major ||
	    g->cap_minor != m->cap_minor)
		die("%s: the tree's device (shared_memory %" PRId64 ", device_capa (%d, %d)) is "
		    "not that of GPU '%s' (%s:%" PRId64 ": shared_memory %" PRId64 ", capability %d.%d): "
		    "a tree of another GPU's data", where, m->shared_memory, m->cap_major,
		    m->cap_minor, name, facts, g->line, g->shared_memory, g->cap_major, g->cap_minor);
}

int main(int argc, char **argv)
{
	const char *hname = NULL, *out = NULL, *in = NULL, *outdir = NULL;
	const char *facts = NULL, *gpu_name = NULL;
	const char *tdir = getenv("MMRANK_TEMPLATES"), *m4prog = getenv("M4");
	const char *python = getenv("PYTHON"), *cc = getenv("CC");
	int fmt = -1;
	const opt table[] = {
		OPT_STRING("--heuristic-name", "NAME", &hname, OPT_REQUIRED,
		           "class / C prefix, a C identifier (MMRankingA100)"),
		OPT_ENUM("--format", "py|c|h|dot", &fmt, fmt_name, 0,
		         "the one artifact to write (or --out-dir): py: _NAME.py, the "
		         "class for torch/_inductor/autoheuristic/artifacts/ (spec §6.1); "
		         "h: _NAME.h, the C99 API; c: _NAME.c, the C twin of the .py; "
		         "dot: NAME.dot, Graphviz (spec §6.2)"),
		OPT_OUT("FILE", &out, 0,
		        "--format's output, written atomically (default: standard "
		        "output)"),
		OPT_STRING("--out-dir", "DIR", &outdir, 0,
		           "all four artifacts into DIR under make's names, written all "
		           "or none (instead of --format and -o)"),
		OPT_STRING("--gpu-facts", "FILE", &facts, OPT_INPUT,
		           "the GPU table (datasets/GPUS.tsv, make's GPU_FACTS), read "
		           "for --gpu"),
		OPT_STRING("--gpu", "NAME", &gpu_name, 0,
		           "the GPU the tree was trained for, its row of --gpu-facts "
		           "(shared memory and capability: the tree's), into the .py "
		           "and .h (default: none)"),
		OPT_STRING("--templates", "DIR", &tdir, 0,
		           "folder of heuristic.{py,h,c}.m4 (default: $MMRANK_TEMPLATES "
		           "or ./templates)"),
		OPT_STRING("--m4", "PROG", &m4prog, 0,
		           "the m4 program, GNU m4 (default: $M4 or m4 on PATH)"),
		OPT_STRING("--python", "PROG", &python, 0,
		           "checks a .py parses, nothing runs (default: $PYTHON or "
		           "python3)"),
		OPT_STRING("--cc", "PROG", &cc, 0,
		           "checks a .c/.h compiles (-std=c99 -Wall -Wextra -Werror; "
		           "default: $CC or cc)"),
		OPT_POS("TREE.tsv", &in, OPT_REQUIRED | OPT_INPUT,
		        "the (pruned) tree TSV"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 0, NULL}, argc, argv);
	if ((fmt < 0) == (outdir == NULL))
		die("give --format FMT (one artifact) or --out-dir DIR (all four), not "
		    "%s (see --help)", fmt < 0 ? "neither" : "both");
	if (outdir && out)
		die("-o and --out-dir: --out-dir names its four files itself");
	check_identifier(hname);
	if (!facts != !gpu_name)
		die("--gpu-facts and --gpu go together (the GPU's row of the table)");
	if (!tdir || !*tdir)
		tdir = "templates";
	if (!m4prog || !*m4prog)
		m4prog = "m4";
	if (!python || !*python)
		python = "python3";
	if (!cc || !*cc)
		cc = "cc";
	unsigned want = outdir ? BIT(FMT_PY) | BIT(FMT_C) | BIT(FMT_H) | BIT(FMT_DOT)
	                       : BIT(fmt);
	char *outs[FMT_DOT + 1] = {NULL};
	if (outdir)
		out_dir_paths(outdir, hname, in, outs);
	else
		outs[fmt] = out ? xstrdup(out) : NULL;

	/* everything checked before any output is opened, for every format */
	tree t;
	tree_read(&t, in);
	char where[4096];
	snprintf(where, sizeof where, "%s:1", in);
	ah_meta meta;
	ah_meta_parse(&meta, t.meta_json, where);
	if (strcmp(meta.name, EMITTABLE_META_NAME) != 0)
		die("%s: metadata 'name': expected '%s', found '%.64s' (mmrank emits mm "
		    "heuristics only; stages/FORMATS.md \"names\")", where,
		    EMITTABLE_META_NAME, meta.name);
	if (!isfinite(t.confidence_threshold))
		die("%s: confidence_threshold %.17g is not finite", in,
		    t.confidence_threshold);
	featinfo *fi = classify(&t, in);
	gpu_row gpu;
	if (gpu_name)
		check_gpu(&gpu, facts, gpu_name, &meta, where);
	char source[256];
	source_name(in, source);
	check_templates(tdir, want);
	signal(SIGPIPE, SIG_IGN);

	char *text[FMT_DOT + 1] = {NULL};
	size_t len[FMT_DOT + 1] = {0};
	job j = {.m4prog = m4prog, .tdir = tdir, .python = python, .cc = cc,
	         .hname = hname, .source = source, .t = &t, .m = &meta, .fi = fi,
	         .gpu = gpu_name ? &gpu : NULL};
	generate(&j, want, text, len);
	publish(want, outs, text, len);
	close_stdout();
	for (int f = FMT_PY; f <= FMT_DOT; f++) {
		free(text[f]);
		free(outs[f]);
	}
	free(fi);
	ah_meta_free(&meta);
	tree_free(&t);
	return 0;
}
