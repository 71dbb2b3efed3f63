/* import — read a PyTorch AutoHeuristic ranking artifact (_MMRankingA100.py,
 * _MMRankingH100.py, or one written by our emit) back into a tree TSV
 * (spec §6.1 module layout, §6.3 shipped artifacts, §4.4 dummy splits;
 * output format: stages/FORMATS.md "tree TSV").
 *
 * What is recovered and how:
 * - metadata line: name from get_name(), shared_memory and device_capa from
 *   check_precondition(), the mm context feature lists of spec §1.1 (only
 *   name "mm" is supported: other heuristics log other features);
 * - classes: fill_choices() in file order (the generator writes them sorted;
 *   the tree format requires strcmp order, checked);
 * - features: the 7 raw numeric and 4 derived mm features (spec §1.1,
 *   §4.1), then every one-hot column "<cat>_<value>" the tree tests, in order
 *   of first use;
 * - nodes, pre-order: `if context.get_value('f') <= T:` -> feature f,
 *   threshold T (the literal, parsed with strtod: exact); `if
 *   str(context.get_value('c')) != 'v':` -> feature c_v, threshold 0.5, the
 *   "not equal" branch left (dummy 0 <= 0.5), as our trees do;
 * - leaves: `return [(p, idx), ...]`.  The file prints every p with 3
 *   decimals, sorted by true probability (ties: ascending idx), so printed
 *   ties may appear out of index order and the printed p do not sum to 1.
 *   import reconstructs probabilities that are consistent with the file:
 *   each entry keeps its printed value up to the rounding (|p - printed| <
 *   0.0005, so `%.3f` prints the same text again), the list sums to 1, and
 *   the values strictly decrease in file order (equal printed values get
 *   offsets of 1e-7 per position, centred; entries printed 0.000 get 1e-6
 *   scaled down in order; the remaining rounding residual is spread evenly
 *   over the other entries).  tree_ranked() therefore returns exactly the
 *   file's list order; import checks this for every leaf.  If the printed
 *   values are too far from summing to 1 for rounding to explain (a hand
 *   edited file), they are normalised instead, with a warning.
 * - `return None` (unsafe leaf, §5.7) and `return []` become a leaf without
 *   probabilities (emit writes such a leaf as `return None`; eval counts it
 *   as unsafe);
 * - internal nodes carry no distribution, n_samples = weighted_n = 0 (the
 *   artifact has no counts), n_labels = number of distinct classes listed
 *   in the leaves below it (a lower bound of the training label count);
 * - get_top_k (emit's: each leaf's k from fit --topk-eps) is
 *   not read back: the imported tree has no per-node k (no param
 *   topk_eps), and the artifact does not record the epsilon's folds; the
 *   tree lines after get_best_choices' body end the parse as before;
 * - params: criterion entropy, max_depth = depth of the imported tree,
 *   min_samples_leaf 0.01, ranking_k 10 — the mm settings of spec §5.0,
 *   §5.4 (not recorded in the artifact); confidence_threshold from
 *   get_confidence_threshold().
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/emittable.h"
#include "formats/mmfeatures.h"
#include "core/opts.h"
#include "formats/tree.h"
#include "core/util.h"

static const char synopsis[] =
"import -o TREE.tsv ARTIFACT.py";

static const char about[] =
"Parse a PyTorch AutoHeuristic mm ranking artifact (spec §6.1, §6.3: the\n"
"shipped _MMRankingA100.py / _MMRankingH100.py, or one written by emit)\n"
"into a tree TSV (stages/FORMATS.md \"tree TSV\"), so that eval can rank\n"
"inputs with it and emit can regenerate it.\n";

static const char notes[] =
"Exit status: 0 on success; 1 on bad usage, a construct the generator does\n"
"not write (the message names ARTIFACT.py:line), or a write error.  No\n"
"partial output is ever left under TREE.tsv.\n";

/* ---- source lines --------------------------------------------------------- */

typedef struct {
	char *text;   /* the line without indentation and trailing blanks */
	int indent;   /* leading spaces */
	long ln;      /* 1-based line number */
} src_line;

typedef struct {
	const char *path;
	src_line *l;  /* non-blank lines */
	int n;
	char *buf;
} src;

static void
src_read(src *s, const char *path)
{
	size_t len, cap = 0;
	memset(s, 0, sizeof *s);
	s->path = path;
	s->buf = read_file(path, &len);
	if (memchr(s->buf, '\0', len))
		die("%s: contains a NUL byte", path);
	char *p = s->buf, *end = s->buf + len;
	long ln = 0;
	while (p < end) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		if (!nl)
			nl = end;
		*nl = '\0';
		ln++;
		if (memchr(p, '\r', (size_t)(nl - p)))
			die("%s:%ld: carriage return (CRLF line end?)", path, ln);
		int ind = 0;
		while (p[ind] == ' ')
			ind++;
		if (p[ind] == '\t')
			die("%s:%ld: tab in indentation", path, ln);
		char *t = p + ind, *e = nl;
		while (e > t && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (*t != '\0' && *t != '#') {
			xgrow((void **)&s->l, &cap, (size_t)s->n + 1, sizeof *s->l);
			s->l[s->n].text = t;
			s->l[s->n].indent = ind;
			s->l[s->n].ln = ln;
			s->n++;
		}
		p = nl + 1;
	}
}

/* Index of the first line at or after from that starts with prefix, or -1. */
static int
find_prefix(const src *s, int from, const char *prefix)
{
	size_t n = strlen(prefix);
	for (int i = from; i < s->n; i++)
		if (!strncmp(s->l[i].text, prefix, n))
			return i;
	return -1;
}

/* The one line starting with prefix; dies if absent or repeated. */
static int
find_once(const src *s, const char *prefix)
{
	int i = find_prefix(s, 0, prefix);
	if (i < 0)
		die("%s: no line starting with '%s' (not an AutoHeuristic artifact?)",
		    s->path, prefix);
	int j = find_prefix(s, i + 1, prefix);
	if (j >= 0)
		die("%s:%ld: second line starting with '%s' (first at line %ld)",
		    s->path, s->l[j].ln, prefix, s->l[i].ln);
	return i;
}

/* If s starts with prefix, return the rest, else NULL. */
static const char *
after(const char *s, const char *prefix)
{
	size_t n = strlen(prefix);
	return strncmp(s, prefix, n) ? NULL : s + n;
}

/* A quoted Python string literal at *p (quote ' or "): returns a copy of its
 * contents and advances *p past the closing quote.  Escapes are refused
 * (the generator never writes them). */
static char *
py_string(const char **p, const src *s, int li)
{
	char q = **p;
	if (q != '\'' && q != '"')
		die("%s:%ld: expected a string literal at '%.30s'", s->path,
		    s->l[li].ln, *p);
	const char *b = *p + 1, *e = strchr(b, q);
	if (!e)
		die("%s:%ld: unterminated string literal", s->path, s->l[li].ln);
	if (memchr(b, '\\', (size_t)(e - b)))
		die("%s:%ld: backslash escape in string literal not supported",
		    s->path, s->l[li].ln);
	*p = e + 1;
	return xstrndup(b, (size_t)(e - b));
}

/* Strict integer / float over [b, e). */
static int64_t
num_i64(const char *b, const char *e, const src *s, int li, const char *what)
{
	int64_t v;
	if (parse_i64(b, (size_t)(e - b), &v) != 0)
		die("%s:%ld: %s: not an integer: '%.*s'", s->path, s->l[li].ln, what,
		    (int)(e - b), b);
	return v;
}

static double
num_f64(const char *b, const char *e, const src *s, int li, const char *what)
{
	double v;
	if (parse_f64(b, (size_t)(e - b), &v) != 0 || !isfinite(v))
		die("%s:%ld: %s: not a finite number: '%.*s'", s->path, s->l[li].ln,
		    what, (int)(e - b), b);
	return v;
}

/* The body line after a `def` line: must be `return <value>`; returns the
 * text after "return ". */
static const char *
def_return(const src *s, const char *def)
{
	int i = find_once(s, def);
	if (i + 1 >= s->n || !after(s->l[i + 1].text, "return "))
		die("%s:%ld: expected 'return ...' after '%s'", s->path,
		    s->l[i].ln, def);
	return s->l[i + 1].text + strlen("return ");
}

/* ---- the tree under construction ------------------------------------------ */

typedef struct {
	const src *s;
	tree *t;
	size_t ncap, pcap, fcap;
	int **leafcls;      /* per node: classes listed below it (for n_labels) */
	long *node_ln;      /* per node: source line */
	double *printed;    /* per prob entry: the printed value */
	const char *catnames[MM_N_RAW_CAT];
} builder;

/* Feature index of name, adding a one-hot name if allowed. */
static int
feature_index(builder *b, const char *name, int dummy, int li)
{
	tree *t = b->t;
	for (int i = 0; i < t->n_feat; i++)
		if (!strcmp(t->feat[i], name))
			return i;
	if (!dummy) {
		char list[512] = "";
		for (int i = 0; i < MM_N_RAW_NUM + MM_N_DERIVED; i++) {
			strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
			strncat(list, t->feat[i], sizeof list - strlen(list) - 1);
		}
		die("%s:%ld: unknown numeric feature '%s' (mm features: %s)",
		    b->s->path, b->s->l[li].ln, name, list);
	}
	xgrow((void **)&t->feat, &b->fcap, (size_t)t->n_feat + 1, sizeof *t->feat);
	t->feat[t->n_feat] = xstrdup(name);
	return t->n_feat++;
}

static int
new_node(builder *b, int li)
{
	tree *t = b->t;
	int id = t->n_node++;
	size_t old = b->ncap;
	xgrow((void **)&t->node, &b->ncap, (size_t)t->n_node, sizeof *t->node);
	if (b->ncap != old) {
		b->leafcls = xrealloc(b->leafcls, b->ncap * sizeof *b->leafcls);
		b->node_ln = xrealloc(b->node_ln, b->ncap * sizeof *b->node_ln);
	}
	memset(&t->node[id], 0, sizeof t->node[id]);
	t->node[id].feature = -1;
	t->node[id].threshold = -2.0;
	t->node[id].left = t->node[id].right = -1;
	t->node[id].prob_off = t->n_prob;
	b->leafcls[id] = xcalloc((size_t)t->n_class, sizeof **b->leafcls);
	b->node_ln[id] = b->s->l[li].ln;
	return id;
}

/* Parse `[(p, idx), ...]` at text into the leaf node id. */
static void
parse_leaf(builder *b, int id, const char *text, int li)
{
	tree *t = b->t;
	const src *s = b->s;
	const char *p = text;
	if (*p++ != '[')
		die("%s:%ld: expected 'return [...]' or 'return None', got 'return %s'",
		    s->path, s->l[li].ln, text);
	while (*p == ' ')
		p++;
	double prev = INFINITY;
	while (*p != ']') {
		if (*p++ != '(')
			die("%s:%ld: expected '(' in the leaf list at '%.30s'", s->path,
			    s->l[li].ln, p - 1);
		while (*p == ' ')
			p++;
		const char *c = strchr(p, ',');
		if (!c)
			die("%s:%ld: expected '(probability, index)'", s->path,
			    s->l[li].ln);
		double pr = num_f64(p, c, s, li, "leaf probability");
		p = c + 1;
		while (*p == ' ')
			p++;
		const char *e = p;
		while (*e && *e != ')' && *e != ' ')
			e++;
		int64_t idx = num_i64(p, e, s, li, "leaf choice index");
		p = e;
		while (*p == ' ')
			p++;
		if (*p++ != ')')
			die("%s:%ld: expected ')' after choice index %lld", s->path,
			    s->l[li].ln, (long long)idx);
		if (idx < 0 || idx >= t->n_class)
			die("%s:%ld: choice index %lld out of range (fill_choices has "
			    "%d choices)", s->path, s->l[li].ln, (long long)idx,
			    t->n_class);
		if (pr < 0 || pr > 1)
			die("%s:%ld: probability %g of choice %lld not in [0, 1]",
			    s->path, s->l[li].ln, pr, (long long)idx);
		if (pr > prev)
			die("%s:%ld: probability %g of choice %lld after %g: the list "
			    "is not sorted by probability (the tree format ranks by "
			    "probability)", s->path, s->l[li].ln, pr, (long long)idx,
			    prev);
		prev = pr;
		if (b->leafcls[id][idx])
			die("%s:%ld: choice %lld listed twice in one leaf", s->path,
			    s->l[li].ln, (long long)idx);
		b->leafcls[id][idx] = 1;
		size_t oldp = b->pcap;
		xgrow((void **)&t->prob, &b->pcap, (size_t)t->n_prob + 1,
		      sizeof *t->prob);
		if (b->pcap != oldp)
			b->printed = xrealloc(b->printed, b->pcap * sizeof *b->printed);
		t->prob[t->n_prob].cls = (int)idx;
		t->prob[t->n_prob].p = pr;
		b->printed[t->n_prob] = pr;
		t->n_prob++;
		while (*p == ' ')
			p++;
		if (*p == ',') {
			p++;
			while (*p == ' ')
				p++;
		} else if (*p != ']') {
			die("%s:%ld: expected ',' or ']' in the leaf list at '%.30s'",
			    s->path, s->l[li].ln, p);
		}
	}
	if (p[1] != '\0')
		die("%s:%ld: trailing text after the leaf list: '%s'", s->path,
		    s->l[li].ln, p + 1);
	t->node[id].prob_len = t->n_prob - t->node[id].prob_off;
}

/* Reconstruct a consistent distribution for the leaf's entries (see the
 * file comment).  q = printed values in file order. */
static void
reconstruct(builder *b, int id)
{
	tree *t = b->t;
	tree_node *d = &t->node[id];
	int n = d->prob_len, npos = 0;
	/* (an empty leaf first: t->prob and b->printed may still be NULL, and
	 * NULL + 0 is undefined) */
	if (n == 0)
		return;
	tree_prob *e = t->prob + d->prob_off;
	const double *q = b->printed + d->prob_off;
	double sum = 0, zsum = 0;
	int nzero = 0;
	for (int i = 0; i < n; i++) {
		sum += q[i];
		if (q[i] > 0)
			npos++;
		else
			nzero++;
	}
	if (npos == 0)
		die("%s:%ld: every probability of the leaf is 0", b->s->path,
		    b->node_ln[id]);
	/* entries printed 0.000: tiny, strictly decreasing, positive */
	for (int i = 0, z = 0; i < n; i++)
		if (!(q[i] > 0)) {
			e[i].p = 1e-6 * (double)(nzero - z) / (double)(nzero + 1);
			zsum += e[i].p;
			z++;
		}
	double shift = (1.0 - zsum - sum) / npos;
	double scale = 1.0;
	if (fabs(shift) > 0.0004) {
		warnf("%s:%ld: printed probabilities sum to %.4f, too far from 1 "
		      "for 3-decimal rounding; normalising", b->s->path,
		      b->node_ln[id], sum);
		scale = (1.0 - zsum) / sum;
		shift = 0;
	}
	/* runs of equal printed values among the positive entries */
	for (int i = 0; i < n;) {
		int j = i;
		while (j < n && q[j] == q[i])
			j++;
		if (q[i] > 0)
			for (int r = i; r < j; r++)
				e[r].p = q[r] * scale + shift +
				         1e-7 * ((double)(j - i - 1) / 2.0 - (double)(r - i));
		i = j;
	}
	for (int i = 0; i < n; i++) {
		char a[32], c[32];
		if (!(e[i].p > 0) || e[i].p > 1)
			die("%s:%ld: cannot reconstruct the probability of choice %d "
			    "(printed %g)", b->s->path, b->node_ln[id], e[i].cls, q[i]);
		snprintf(a, sizeof a, "%.3f", e[i].p);
		snprintf(c, sizeof c, "%.3f", q[i]);
		if (scale == 1.0 && strcmp(a, c))
			die("%s:%ld: reconstructed probability %s of choice %d does not "
			    "print as %s", b->s->path, b->node_ln[id], a, e[i].cls, c);
	}
}

/* Parse the node starting at line *li with indentation ind; returns its id
 * and advances *li past the subtree. */
static int
parse_node(builder *b, int *li, int ind, int depth)
{
	const src *s = b->s;
	if (*li >= s->n)
		die("%s: unexpected end of file inside get_best_choices", s->path);
	const src_line *L = &s->l[*li];
	if (L->indent != ind)
		die("%s:%ld: indentation %d, expected %d", s->path, L->ln, L->indent,
		    ind);
	if (depth > TREE_MAX_DEPTH)
		die("%s:%ld: tree deeper than %d tests (TREE_MAX_DEPTH)", s->path,
		    L->ln, TREE_MAX_DEPTH);
	int id = new_node(b, *li);
	const char *r;
	if ((r = after(L->text, "return "))) {
		if (strcmp(r, "None") && strcmp(r, "[]"))
			parse_leaf(b, id, r, *li);
		reconstruct(b, id);
		(*li)++;
		return id;
	}
	if (!(r = after(L->text, "if ")))
		die("%s:%ld: expected 'if ...:' or 'return ...', got '%s'", s->path,
		    L->ln, L->text);
	tree_node nd = b->t->node[id];
	const char *q;
	if ((q = after(r, "context.get_value("))) {
		char *f = py_string(&q, s, *li);
		if (!(q = after(q, ") <= ")))
			die("%s:%ld: expected \"context.get_value('%s') <= "
			    "THRESHOLD:\"", s->path, L->ln, f);
		const char *colon = strrchr(q, ':');
		if (!colon || colon[1] != '\0')
			die("%s:%ld: missing ':' at the end of the test", s->path, L->ln);
		nd.threshold = num_f64(q, colon, s, *li, "threshold");
		nd.feature = feature_index(b, f, 0, *li);
		free(f);
	} else if ((q = after(r, "str(context.get_value("))) {
		char *f = py_string(&q, s, *li);
		if (!(q = after(q, ")) != ")))
			die("%s:%ld: expected \"str(context.get_value('%s')) != "
			    "'VALUE':\"", s->path, L->ln, f);
		char *v = py_string(&q, s, *li);
		if (strcmp(q, ":"))
			die("%s:%ld: expected ':' after the category, got '%s'",
			    s->path, L->ln, q);
		int known = 0;
		for (int c = 0; c < MM_N_RAW_CAT; c++)
			known |= !strcmp(f, mm_raw_cat_name[c]);
		if (!known)
			die("%s:%ld: '%s' is not a categorical mm feature", s->path,
			    L->ln, f);
		/* the category rule of every artifact (emittable.h), as for a
		 * trained tree */
		const char *bad = emittable_cat_problem(f, v);
		if (bad)
			die("%s:%ld: category '%s' of %s cannot be emitted: %s", s->path,
			    L->ln, v, f, bad);
		size_t nl = strlen(f) + 1 + strlen(v) + 1;
		char *name = xmalloc(nl);
		snprintf(name, nl, "%s_%s", f, v);
		nd.feature = feature_index(b, name, 1, *li);
		nd.threshold = 0.5;
		free(name);
		free(f);
		free(v);
	} else {
		die("%s:%ld: unsupported test '%s' (expected context.get_value('f') "
		    "<= T or str(context.get_value('f')) != 'v')", s->path, L->ln, r);
	}
	(*li)++;
	if (*li >= s->n || s->l[*li].indent <= ind)
		die("%s:%ld: 'if' without an indented body", s->path, L->ln);
	int child_ind = s->l[*li].indent;
	nd.left = parse_node(b, li, child_ind, depth + 1);
	if (*li >= s->n || s->l[*li].indent != ind ||
	    strcmp(s->l[*li].text, "else:"))
		die("%s:%ld: expected 'else:' at indentation %d for the test at "
		    "line %ld", s->path, *li < s->n ? s->l[*li].ln : L->ln, ind,
		    L->ln);
	(*li)++;
	if (*li >= s->n || s->l[*li].indent != child_ind)
		die("%s:%ld: 'else:' without a body at indentation %d", s->path,
		    s->l[*li - 1].ln, child_ind);
	nd.right = parse_node(b, li, child_ind, depth + 1);
	/* classes below = union of the children's */
	for (int c = 0; c < b->t->n_class; c++)
		b->leafcls[id][c] = b->leafcls[nd.left][c] | b->leafcls[nd.right][c];
	b->t->node[id] = nd;
	return id;
}

/* The artifact's name (mm only), precondition (shared memory, device
 * capability) and confidence threshold into t (meta_json rebuilt with
 * spec §1.1's key order and separators). */
static void
read_header(const src *s, tree *t)
{
	const char *r = def_return(s, "def get_name(");
	char *name = py_string(&r, s, find_once(s, "def get_name(") + 1);
	if (*r)
		die("%s:%ld: trailing text after the name: '%s'", s->path,
		    s->l[find_once(s, "def get_name(") + 1].ln, r);
	if (strcmp(name, "mm"))
		die("%s:%ld: heuristic name '%s': only 'mm' artifacts can be "
		    "imported (the context feature lists of spec §1.1 are mm's)",
		    s->path, s->l[find_once(s, "def get_name(") + 1].ln, name);
	/* the class name: the one name rule (emittable.h), as emit's */
	int cl = find_once(s, "class ");
	const char *cn = s->l[cl].text + strlen("class ");
	const char *par = strchr(cn, '(');
	if (!par || strcmp(par, "(LearnedHeuristicDecision):"))
		die("%s:%ld: expected 'class NAME(LearnedHeuristicDecision):'", s->path,
		    s->l[cl].ln);
	char *cname = xstrndup(cn, (size_t)(par - cn));
	const char *bad = emittable_name_problem(cname);
	if (bad)
		die("%s:%ld: class name '%s': %s (stages/FORMATS.md \"names\")", s->path,
		    s->l[cl].ln, cname, bad);
	free(cname);
	int li = find_once(s, "and metadata.shared_memory == ");
	const char *v = s->l[li].text + strlen("and metadata.shared_memory == ");
	int64_t smem = num_i64(v, v + strlen(v), s, li, "shared_memory");
	li = find_once(s, "and str(metadata.device_capa) == \"(");
	v = s->l[li].text + strlen("and str(metadata.device_capa) == \"(");
	const char *comma = strchr(v, ','), *close = strchr(v, ')');
	if (!comma || !close || comma > close || comma[1] != ' ' ||
	    strcmp(close, ")\""))
		die("%s:%ld: expected str(metadata.device_capa) == \"(MAJOR, MINOR)\"",
		    s->path, s->l[li].ln);
	int64_t cmaj = num_i64(v, comma, s, li, "device_capa major");
	int64_t cmin = num_i64(comma + 2, close, s, li, "device_capa minor");
	/* a CUDA compute capability: major 1..99, minor 0..9 */
	if (cmaj < 1 || cmaj > 99 || cmin < 0 || cmin > 9)
		die("%s:%ld: device_capa (%lld, %lld): expected a compute capability "
		    "(major 1..99, minor 0..9)", s->path, s->l[li].ln, (long long)cmaj,
		    (long long)cmin);
	if (smem < 0)
		die("%s:%ld: shared_memory %lld: expected bytes >= 0", s->path,
		    s->l[li].ln, (long long)smem);
	r = def_return(s, "def get_confidence_threshold(");
	li = find_once(s, "def get_confidence_threshold(") + 1;
	t->confidence_threshold = num_f64(r, r + strlen(r), s, li,
	                                  "confidence threshold");

	/* metadata JSON (spec §1.1 key order and separators) */
	char meta[1024];
	int ml = snprintf(meta, sizeof meta,
	    "{\"shared_memory\": %lld, \"device_capa\": [%lld, %lld], "
	    "\"name\": \"%s\", \"numerical_features\": [",
	    (long long)smem, (long long)cmaj, (long long)cmin, name);
	for (int i = 0; i < MM_N_RAW_NUM; i++)
		ml += snprintf(meta + ml, sizeof meta - (size_t)ml, "%s\"%s\"",
		               i ? ", " : "", mm_raw_num_name[i]);
	ml += snprintf(meta + ml, sizeof meta - (size_t)ml,
	               "], \"categorical_features\": [");
	for (int i = 0; i < MM_N_RAW_CAT; i++)
		ml += snprintf(meta + ml, sizeof meta - (size_t)ml, "%s\"%s\"",
		               i ? ", " : "", mm_raw_cat_name[i]);
	snprintf(meta + ml, sizeof meta - (size_t)ml, "]}");
	t->meta_json = xstrdup(meta);
	free(name);
}

/* fill_choices: the classes, which must be in byte order. */
static void
read_classes(const src *s, tree *t)
{
	int li = find_once(s, "def fill_choices(");
	size_t ccap = 0;
	for (int i = li + 1; i < s->n; i++) {
		const char *p = after(s->l[i].text, "self.choices.append(");
		if (!p)
			break;
		char *c = py_string(&p, s, i);
		const char *bad = emittable_problem(c);
		if (bad)
			die("%s:%ld: choice '%.200s%s' cannot be emitted: %s", s->path,
			    s->l[i].ln, c, strlen(c) > 200 ? "..." : "", bad);
		if (strcmp(p, ")"))
			die("%s:%ld: trailing text after the choice: '%s'", s->path,
			    s->l[i].ln, p);
		if (t->n_class > 0 && strcmp(t->cls[t->n_class - 1], c) >= 0)
			die("%s:%ld: choice '%s' is not after '%s' in byte order (the "
			    "tree format requires sorted classes)", s->path, s->l[i].ln, c,
			    t->cls[t->n_class - 1]);
		xgrow((void **)&t->cls, &ccap, (size_t)t->n_class + 1, sizeof *t->cls);
		t->cls[t->n_class++] = c;
	}
	if (t->n_class == 0)
		die("%s:%ld: fill_choices appends no choice", s->path, s->l[li].ln);
}

/* ---- main ----------------------------------------------------------------- */

int
main(int argc, char **argv)
{
	const char *out = NULL, *in = NULL;
	const opt table[] = {
		OPT_POS("ARTIFACT.py", &in, OPT_REQUIRED | OPT_INPUT,
		        "the generated Python module (LearnedHeuristicDecision)"),
		OPT_OUT("TREE.tsv", &out, OPT_REQUIRED,
		        "output tree TSV, written atomically: metadata JSON rebuilt "
		        "from check_precondition/get_name (mm feature lists, spec "
		        "§1.1), classes in fill_choices order, nodes in pre-order, leaf "
		        "probabilities reconstructed so that they sum to 1, print as in "
		        "the file with %.3f and rank in the file's list order; `return "
		        "None` -> a leaf without probabilities (unsafe, §5.7).  "
		        "Thresholds are exact (the file's literals)."),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 15, NULL}, argc, argv);

	src s;
	src_read(&s, in);
	tree t;
	memset(&t, 0, sizeof t);
	builder b;
	memset(&b, 0, sizeof b);
	b.s = &s;
	b.t = &t;

	read_header(&s, &t);
	read_classes(&s, &t);

	/* features: raw numeric, derived; dummies are added when used */
	for (int i = 0; i < MM_N_RAW_NUM + MM_N_DERIVED; i++) {
		const char *f = i < MM_N_RAW_NUM ? mm_raw_num_name[i]
		                                 : mm_derived_name[i - MM_N_RAW_NUM];
		xgrow((void **)&t.feat, &b.fcap, (size_t)t.n_feat + 1, sizeof *t.feat);
		t.feat[t.n_feat++] = xstrdup(f);
	}

	/* the tree */
	int li = find_once(&s, "def get_best_choices(") + 1;
	int def_ind = s.l[li - 1].indent;
	if (li >= s.n || s.l[li].indent <= def_ind)
		die("%s:%ld: get_best_choices has no body", in, s.l[li - 1].ln);
	int body_ind = s.l[li].indent;
	parse_node(&b, &li, body_ind, 0);
	if (li < s.n && s.l[li].indent >= body_ind)
		die("%s:%ld: unexpected line after the tree: '%s'", in, s.l[li].ln,
		    s.l[li].text);

	/* node statistics, params; sort each leaf's pairs by class */
	for (int i = 0; i < t.n_node; i++) {
		int nl = 0;
		for (int c = 0; c < t.n_class; c++)
			nl += b.leafcls[i][c];
		t.node[i].n_labels = nl;
	}
	snprintf(t.criterion, sizeof t.criterion, "entropy");
	t.max_depth = tree_depth(&t);
	t.min_samples_leaf = 0.01;
	t.ranking_k = 10;
	tree_prob *file_order = xmalloc(((size_t)t.n_prob + 1) * sizeof *file_order);
	if (t.n_prob > 0) /* (every leaf None: t.prob is NULL) */
		memcpy(file_order, t.prob, (size_t)t.n_prob * sizeof *t.prob);
	for (int i = 0; i < t.n_node; i++) {
		tree_node *d = &t.node[i];
		if (d->prob_len == 0)
			continue;
		tree_prob *e = t.prob + d->prob_off;
		for (int a = 1; a < d->prob_len; a++) /* insertion sort by class */
			for (int c = a; c > 0 && e[c - 1].cls > e[c].cls; c--) {
				tree_prob tmp = e[c];
				e[c] = e[c - 1];
				e[c - 1] = tmp;
			}
	}
	/* self-check: the ranking is the file's list order */
	tree_prob *rk = xmalloc(((size_t)t.n_class + 1) * sizeof *rk);
	for (int i = 0; i < t.n_node; i++) {
		tree_node *d = &t.node[i];
		if (d->feature >= 0)
			continue;
		int n = tree_ranked(&t, i, rk, t.n_class);
		for (int j = 0; j < n; j++)
			if (rk[j].cls != file_order[d->prob_off + j].cls)
				die("%s:%ld: internal error: ranked choice %d is %d, the "
				    "file lists %d", in, b.node_ln[i], j, rk[j].cls,
				    file_order[d->prob_off + j].cls);
	}

	aout o;
	FILE *fp = aout_open(&o, out);
	tree_write(&t, fp);
	aout_commit(&o);
	fprintf(stderr, "import: %s: %d choices, %d nodes (%d leaves, %d "
	        "internal), depth %d, %d features\n", in, t.n_class, t.n_node,
	        tree_leaves(&t), t.n_node - tree_leaves(&t), tree_depth(&t),
	        t.n_feat);

	for (int i = 0; i < t.n_node; i++)
		free(b.leafcls[i]);
	free(b.leafcls);
	free(b.node_ln);
	free(b.printed);
	free(rk);
	free(file_order);
	tree_free(&t);
	free(s.l);
	free(s.buf);
	close_stdout();
	return 0;
}
