/* shapes — make a shape list (stages/FORMATS.md "shape list") from an
 * AutoHeuristic log, a model-layer table or another shape list.
 *
 * Input:  --from-log: AutoHeuristic mm logs (spec §1.1; "-" standard input,
 *         e.g. unzip -p); --from-models: model-layer tables
 *         (stages/formats/shapes_models.h, datasets/shapes/models.tsv);
 *         --from-list: shape lists (any header the reader accepts, e.g.
 *         sample's shapes.tsv).
 * Output: -o OUT, the shape list in the writer's columns (shapes.h),
 *         written atomically: the distinct inputs in order of first
 *         appearance (two rows are one input when AutoHeuristic would group
 *         them, spec §1.6: same m, k, n, dtype, strides, using_tf32; the
 *         first row's source is kept).
 * Errors: exit 1 naming file:line: field; OUT is then left untouched.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "formats/ahlog.h"
#include "core/intern.h"
#include "core/opts.h"
#include "formats/shapes.h"
#include "formats/shapes_models.h"
#include "core/util.h"

static const char synopsis[] =
"shapes (--from-log | --from-models | --from-list) [--label NAME]\n"
"              [--source TOKEN] -o OUT INPUT...";

static const char about[] =
"Write the distinct mm problems of the INPUTs as a shape list (stages/FORMATS.md\n"
"\"shape list\"; bench measures one, `make collect SHAPES=OUT`).\n";

static const char notes[] =
"Units: sizes and strides in elements.  Rows that AutoHeuristic groups as one\n"
"input (spec §1.6: same m, k, n, dtype, strides, using_tf32) are written once,\n"
"with the first one's source.  stderr gets one summary line per INPUT: rows,\n"
"distinct inputs, and how many of them have strides other than the transposes'\n"
"(mat1 (k,1) or (1,m), mat2 (n,1) or (1,k): padded or sliced operands).\n"
"\n"
"Exit status: 0 on success; 1 on bad usage, an input error (the message names\n"
"file:line: field: an overlapping or non-BLAS operand, a dtype the two operands\n"
"do not share, using_tf32 or is-contiguous values that contradict the strides,\n"
"a malformed table row), no inputs at all, or a write error.  OUT is then left\n"
"untouched.\n";

typedef struct {
	shape_row *v;
	size_t cap;
	int64_t n;
	int64_t offered;           /* rows offered, duplicates included */
	intern seen;
	const char *source;        /* for rows without one */
} shape_set;

static void set_add(shape_set *s, const shape_row *r)
{
	char key[256];
	int len = shape_key(r, key, sizeof key);
	int added;
	s->offered++;
	intern_id(&s->seen, key, (size_t)len, &added);
	if (!added)
		return;
	xgrow((void **)&s->v, &s->cap, (size_t)s->n + 1, sizeof *s->v);
	s->v[s->n] = *r;
	if (!r->source[0])
		strcpy(s->v[s->n].source, s->source);
	s->n++;
}

static void emit_to_set(void *ctx, const shape_row *r)
{
	set_add(ctx, r);
}

/* Index of feature name in names[0..n), or die: not an mm log. */
static int feature(const char *path, char *const *names, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return i;
	die("%s: not an mm log: no feature '%s' in the metadata (spec §1.1)", path, name);
}

enum { N_M, N_K, N_N, N_S10, N_S11, N_S20, N_S21 };
enum { K_D1, K_D2, K_C1, K_C2, K_TF };
static const char *const num_names[] = { "m", "k", "n", "mat1_stride_0", "mat1_stride_1",
                                         "mat2_stride_0", "mat2_stride_1" };
static const char *const cat_names[] = { "mat1_dtype", "mat2_dtype", "mat1_iscontig",
                                         "mat2_iscontig", "using_tf32" };

/* One log row -> r; dies naming path:line: field. */
static void log_row(const ah_reader *lr, const int *ni, const int *ci, shape_row *r)
{
	const char *P = lr->path;
	int64_t L = lr->lineno;
	memset(r, 0, sizeof *r);
	r->line = L;
	r->sample = -1;
	r->m = lr->num[ni[N_M]], r->k = lr->num[ni[N_K]], r->n = lr->num[ni[N_N]];
	r->s1_0 = lr->num[ni[N_S10]], r->s1_1 = lr->num[ni[N_S11]];
	r->s2_0 = lr->num[ni[N_S20]], r->s2_1 = lr->num[ni[N_S21]];
	const char *d1 = lr->cat[ci[K_D1]], *d2 = lr->cat[ci[K_D2]], *tf = lr->cat[ci[K_TF]];
	r->dtype = shape_dtype_parse(d1);
	if (r->dtype < 0)
		die("%s:%" PRId64 ": field 'mat1_dtype': unknown dtype '%s'", P, L, d1);
	if (strcmp(d1, d2))
		die("%s:%" PRId64 ": field 'mat2_dtype': '%s' differs from mat1_dtype '%s' (a shape "
		    "list has one dtype per problem)", P, L, d2, d1);
	r->tf32 = r->dtype == SHAPE_F32 && !strcmp(tf, "True");
	if (strcmp(tf, shape_using_tf32(r)))
		die("%s:%" PRId64 ": field 'using_tf32': '%s' for %s (expected %s)", P, L, tf, d1,
		    r->dtype == SHAPE_F32 ? "True or False" : "not_float_32");
	char err[256];
	const char *f = shape_complete(r, -1, -1, NULL, err, sizeof err);
	if (f)
		die("%s:%" PRId64 ": field '%s': %s", P, L, f, err);
	for (int o = 0; o < 2; o++) {
		const char *got = lr->cat[ci[o ? K_C2 : K_C1]];
		const char *want = (o ? r->contig2 : r->contig1) ? "True" : "False";
		if (strcmp(got, want))
			die("%s:%" PRId64 ": field '%s': '%s', but the strides say %s (torch's "
			    "is_contiguous)", P, L, cat_names[o ? K_C2 : K_C1], got, want);
	}
}

static void from_log(shape_set *s, const char *file, const char *label)
{
	ah_reader lr;
	ah_open_named(&lr, file, label);
	int ni[7], ci[5];
	for (int i = 0; i < 7; i++)
		ni[i] = feature(lr.path, lr.meta.num, lr.meta.n_num, num_names[i]);
	for (int i = 0; i < 5; i++)
		ci[i] = feature(lr.path, lr.meta.cat, lr.meta.n_cat, cat_names[i]);
	while (ah_next(&lr)) {
		shape_row r;
		log_row(&lr, ni, ci, &r);
		set_add(s, &r);
	}
	ah_close(&lr);
}

static void from_list(shape_set *s, const char *file)
{
	int64_t n;
	shape_row *v = shape_list_read(file, &n);
	for (int64_t i = 0; i < n; i++)
		set_add(s, &v[i]);
	free(v);
}

/* The default source token for file: its base name without extension. */
static void default_source(char *buf, size_t len, const char *file, const char *label)
{
	const char *name = label ? label : !strcmp(file, "-") ? "stdin" : file;
	const char *b = strrchr(name, '/');
	b = b ? b + 1 : name;
	const char *colon = strrchr(b, ':');   /* "zip:member" labels */
	if (colon && colon[1])
		b = colon + 1;
	const char *dot = strrchr(b, '.');
	size_t n = dot && dot != b ? (size_t)(dot - b) : strlen(b);
	snprintf(buf, len, "%.*s", (int)n, b);
	if (!shape_source_ok(buf))
		die("'%s' makes no source token ([A-Za-z0-9._:/+=@-]): say --source TOKEN", name);
}

int main(int argc, char **argv)
{
	enum { M_NONE, M_LOG, M_MODELS, M_LIST } mode = M_NONE;
	const char *out = NULL, *label = NULL, *source = NULL;
	int m_log = 0, m_models = 0, m_list = 0;
	opt_list in = { 0 };
	const opt table[] = {
		OPT_FLAG("--from-log", &m_log,
		         "INPUTs are AutoHeuristic mm logs (spec §1.1; \"-\": standard "
		         "input): each distinct input with its exact logged strides "
		         "(padded leading dimensions included), dtype, using_tf32"),
		OPT_FLAG("--from-models", &m_models,
		         "INPUTs are model-layer tables (stages/FORMATS.md \"model-layer "
		         "table\", datasets/shapes/models.tsv): every layer expanded into "
		         "its forward GEMM y = x W' and, where the row lists them, the "
		         "backward GEMMs dX = dY W, dW = dY' x (stages/formats/shapes_models.h)"),
		OPT_FLAG("--from-list", &m_list,
		         "INPUTs are shape lists (e.g. sample's shapes.tsv): validated, "
		         "rewritten in the writer's columns"),
		OPT_STRING("--label", "NAME", &label, 0,
		           "name INPUT \"-\" in messages and the default source (logs)"),
		OPT_STRING("--source", "TOKEN", &source, 0,
		           "the source of rows that have none (logs, lists; default: the "
		           "INPUT's file name without its extension, \"stdin\" for \"-\")"),
		OPT_OUT("OUT", &out, OPT_REQUIRED,
		        "the shape list, written atomically (header m k n dtype tf32 "
		        "layout mat1_stride_0 mat1_stride_1 mat2_stride_0 mat2_stride_1 "
		        "source)"),
		OPT_POS_LIST("INPUT...", &in, OPT_REQUIRED | OPT_INPUT,
		             "the logs, tables or lists, read in order (\"-\": standard "
		             "input, at most once)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 17, NULL}, argc, argv);
	const char **inputs = in.v;
	int ninputs = in.n;
	if (m_log + m_models + m_list > 1)
		die("more than one of --from-log, --from-models, --from-list (see --help)");
	mode = m_log ? M_LOG : m_models ? M_MODELS : m_list ? M_LIST : M_NONE;
	if (mode == M_NONE)
		die("say --from-log, --from-models or --from-list (see --help)");
	if (mode == M_MODELS && (source || label))
		die("--source and --label are for --from-log and --from-list (a table names its sources)");
	if (source && !shape_source_ok(source))
		die("bad value for '--source': '%s' (1..%d bytes of [A-Za-z0-9._:/+=@-])", source,
		    SHAPE_SOURCE_MAX);
	int stdin_uses = 0;
	for (int i = 0; i < ninputs; i++)
		stdin_uses += !strcmp(inputs[i], "-");
	if (stdin_uses > 1)
		die("standard input ('-') named more than once");
	if (label && !stdin_uses)
		die("--label names standard input: no INPUT is '-'");

	shape_set s = { 0 };
	intern_init(&s.seen);
	for (int i = 0; i < ninputs; i++) {
		const char *f = inputs[i], *lab = !strcmp(f, "-") ? label : NULL;
		char src[SHAPE_SOURCE_MAX + 1] = "";
		if (mode != M_MODELS) {
			if (source)
				snprintf(src, sizeof src, "%s", source);
			else
				default_source(src, sizeof src, f, lab);
		}
		s.source = src;
		int64_t n0 = s.n, off0 = s.offered, rows = 0;
		if (mode == M_LOG)
			from_log(&s, f, lab);
		else if (mode == M_LIST)
			from_list(&s, f);
		else
			rows = shape_models_expand(f, emit_to_set, &s);
		int64_t padded = 0;
		for (int64_t j = n0; j < s.n; j++)
			padded += !shape_is_compact(&s.v[j]);
		const char *name = lab ? lab : !strcmp(f, "-") ? "standard input" : f;
		if (mode == M_MODELS)
			fprintf(stderr, "shapes: %s: %" PRId64 " layer rows, %" PRId64 " GEMMs, %" PRId64
			        " new distinct (%" PRId64 " with strides other than the transposes')\n",
			        name, rows, s.offered - off0, s.n - n0, padded);
		else
			fprintf(stderr, "shapes: %s: %" PRId64 " rows, %" PRId64 " new distinct inputs "
			        "(%" PRId64 " with strides other than the transposes')\n", name,
			        s.offered - off0, s.n - n0, padded);
	}
	if (s.n == 0)
		die("no inputs: nothing to write to '%s'", out);
	aout ao;
	FILE *fp = aout_open(&ao, out);
	fprintf(fp, "%s\n", shape_list_header);
	for (int64_t i = 0; i < s.n; i++)
		shape_write(fp, &s.v[i]);
	aout_commit(&ao);
	fprintf(stderr, "shapes: wrote %" PRId64 " inputs to %s\n", s.n, out);
	intern_free(&s.seen);
	free(s.v);
	free(inputs);
	close_stdout();
	return 0;
}
