/* triton_cands.c — Inductor's mm candidates (stages/gpu/policy/inductor_cands.h)
 * for every input of a shapes file, or the distinct Triton compile variants
 * they need (the input of python3 -m mmrank.bench.triton_aot). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/policy/inductor_cands.h"
#include "core/intern.h"
#include "core/opts.h"
#include "formats/shapes.h"
#include "core/util.h"
#include "gen/gpus.h"

#define STR_(x) #x
#define STR(x) STR_(x)

static const char synopsis[] =
	"triton_cands [--configs FILE] [--params FILE] [--smem BYTES] [--first N]\n"
	"                    [--candidates | --variants | --summary] SHAPES OUTPUT";

static const char about[] =
	"For every input of SHAPES write to OUTPUT the candidates Inductor's tuned_mm\n"
	"offers when collecting AutoHeuristic data (torch's version: the tables'), in\n"
	"its order and under its choice ids, or the Triton compile variants they need.\n";

static const char notes[] =
	"Exit status 0, or 1 with a message naming FILE:LINE and the field.\n";
typedef struct {
	int64_t id;
	ic_input in;
} row;

/* The first `first` (-1: all) inputs of shape list path, read and checked
 * by the shared reader (shapes.h: the header's columns, strides or layout,
 * tf32/using_tf32), as the candidate rule's inputs; the sizes and strides
 * the generated kernels index with 32-bit integers are limited to them. */
static row *read_shapes(const char *path, int64_t first, int64_t *nrows)
{
	int64_t n;
	shape_row *s = shape_list_read(path, &n);
	if (first >= 0 && n > first)
		n = first;
	row *r = xcalloc((size_t)n + 1, sizeof *r);
	for (int64_t i = 0; i < n; i++) {
		const shape_row *x = &s[i];
		const int64_t v[7] = {x->m, x->k, x->n, x->s1_0, x->s1_1, x->s2_0, x->s2_1};
		static const char *const name[7] = {"m", "k", "n", "mat1_stride_0", "mat1_stride_1",
		                                    "mat2_stride_0", "mat2_stride_1"};
		for (int j = 0; j < 7; j++)
			if (v[j] > INT32_MAX)
				die("%s:%" PRId64 ": field '%s': %" PRId64 " is over 2^31 - 1 (the Triton "
				    "kernels' 32-bit indices)", path, x->line, name[j], v[j]);
		r[i].id = x->id;
		r[i].in.m = x->m, r[i].in.k = x->k, r[i].in.n = x->n;
		r[i].in.dtype = x->dtype == SHAPE_F32 ? IC_F32 : x->dtype == SHAPE_F16 ? IC_F16 : IC_BF16;
		r[i].in.tf32 = x->tf32;
		r[i].in.s1[0] = x->s1_0, r[i].in.s1[1] = x->s1_1;
		r[i].in.s2[0] = x->s2_0, r[i].in.s2[1] = x->s2_1;
	}
	free(s);
	*nrows = n;
	return r;
}

static const char *kind_name(int k)
{
	return k == IC_EXTERN ? "extern" : k == IC_DECOMPOSE_K ? "decompose_k" : "triton";
}

static const char cand_header[] =
	"input\tm\tk\tn\tdtype\ttf32\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\t"
	"mat2_stride_1\tpos\tid\tkind\tlist\tcfg\tbm\tbn\tbk\tstages\twarps\tk_split\t"
	"dup_of\tvariant\n";
static const char variant_header[] =
	"variant\tdtype\tallow_tf32\tbm\tbn\tbk\tstages\twarps\tgroup_m\teven_k\thint_a\t"
	"hint_b\tk_tiles\tidx64\tdiv_m\tdiv_n\tdiv_k\tdiv_am\tdiv_ak\tdiv_bk\tdiv_bn\n";

/* The input's columns of a --candidates row (input .. mat2_stride_1). */
static void print_input(FILE *out, const row *r)
{
	const ic_input *in = &r->in;
	fprintf(out, "%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%" PRId64
	        "\t%" PRId64 "\t%" PRId64 "\t%" PRId64, r->id, in->m, in->k, in->n,
	        ic_dtype_torch(in->dtype), in->tf32, in->s1[0], in->s1[1], in->s2[0], in->s2[1]);
}

/* One --candidates row: candidate q of input r (vname: its variant, "-"
 * unless Triton). */
static void print_candidate(FILE *out, const row *r, int q, const ic_cand *c, const char *vname)
{
	print_input(out, r);
	fprintf(out, "\t%d\t%s\t%s\t", q, c->id, kind_name(c->kind));
	if (c->kind == IC_TRITON)
		fprintf(out, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t-\t%d\t%s\n",
		        c->list == IC_LIST_MM ? "mm" : "mm-ah", c->cfg, c->bm, c->bn,
		        c->bk, c->stages, c->warps, c->dup_of, vname);
	else if (c->kind == IC_DECOMPOSE_K)
		fprintf(out, "-\t-\t-\t-\t-\t-\t-\t%d\t%d\t-\n", c->k_split, c->dup_of);
	else
		fprintf(out, "-\t-\t-\t-\t-\t-\t-\t-\t%d\t-\n", c->dup_of);
}

/* One --variants row: the variant's name and fields. */
static void print_variant(FILE *out, const char *vname, const ic_variant *v)
{
	static const char *const dts[] = {"fp16", "bf16", "fp32"};
	fprintf(out, "%s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d", vname,
	        dts[v->dtype], v->allow_tf32, v->bm, v->bn, v->bk, v->stages, v->warps,
	        v->group_m, v->even_k, v->hint_a, v->hint_b, v->k_tiles, v->idx64);
	for (int a = 0; a < IC_NARG; a++)
		fprintf(out, "\t%d", v->div[a]);
	fputc('\n', out);
}

/* What --summary counts, over all inputs. */
typedef struct {
	int64_t cand, tri, dk_inputs, dup, none;
	int min_c, max_c;
	intern variants;           /* distinct variant names, in order of first use */
} tally;

/* Input r's candidates c[0..nc): counted into *t; in mode 0 (--candidates)
 * printed, in mode 1 (--variants) each variant at its first use. */
static void one_input(FILE *out, int mode, const row *r, const ic_cand *c, int nc, tally *t)
{
	t->cand += nc;
	t->none += nc == 0;
	t->min_c = nc < t->min_c ? nc : t->min_c;
	t->max_c = nc > t->max_c ? nc : t->max_c;
	int has_dk = 0;
	if (mode == 0 && nc == 0) {
		print_input(out, r);
		fputs("\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\t-\n", out);
	}
	for (int q = 0; q < nc; q++) {
		char vname[IC_VARIANT_MAX] = "-";
		if (c[q].kind == IC_TRITON) {
			ic_variant_name(&c[q].v, vname, sizeof vname);
			t->tri++;
		}
		has_dk |= c[q].kind == IC_DECOMPOSE_K;
		t->dup += c[q].dup_of >= 0;
		if (mode == 0)
			print_candidate(out, r, q, &c[q], vname);
		if (c[q].kind != IC_TRITON)
			continue;
		int added;
		intern_id(&t->variants, vname, strlen(vname), &added);
		if (added && mode == 1)
			print_variant(out, vname, &c[q].v);
	}
	t->dk_inputs += has_dk;
}

static void print_summary(FILE *out, const ic_table *tb, int64_t nr, const tally *t)
{
	fprintf(out, "torch\t%s\ninputs\t%" PRId64 "\ninputs_without_candidates\t%" PRId64
	        "\ncandidates\t%" PRId64 "\ncandidates_per_input_min\t%d\ncandidates_per_input_max\t%d\n"
	        "triton_candidates\t%" PRId64 "\ndistinct_variants\t%d\ninputs_with_decompose_k\t%" PRId64
	        "\nduplicate_ids\t%" PRId64 "\n",
	        tb->torch_version, nr, t->none, t->cand, nr ? t->min_c : 0, t->max_c, t->tri,
	        t->variants.n, t->dk_inputs, t->dup);
}

int main(int argc, char **argv)
{
	const char *configs = "kernels/inductor_mm_configs.tsv", *params = "kernels/inductor_mm_params.tsv";
	const char *shapes = NULL, *outp = NULL;
	int64_t smem = GPUS_DEFAULT_SHARED_MEMORY, first = -1;
	int m_cand = 0, m_var = 0, m_sum = 0;
	const opt table[] = {
		OPT_FLAG("--candidates", &m_cand,
		         "(default) one row per (input, candidate): input m k n dtype "
		         "tf32, the four strides, pos id kind list cfg bm bn bk stages "
		         "warps k_split dup_of variant (an input with no candidate: one "
		         "row, id '-'; stages/FORMATS.md \"Inductor candidate list\")"),
		OPT_FLAG("--variants", &m_var,
		         "the distinct compile variants of kernels/triton_mm.py the "
		         "Triton candidates need, in order of first use, with their "
		         "fields (stages/FORMATS.md \"Triton variant list\")"),
		OPT_FLAG("--summary", &m_sum,
		         "inputs, candidates, Triton candidates, distinct variants, "
		         "inputs with decompose_k candidates, duplicate ids"),
		OPT_STRING("--configs", "FILE", &configs, OPT_INPUT,
		           "Inductor's config table (default kernels/inductor_mm_configs.tsv)"),
		OPT_STRING("--params", "FILE", &params, OPT_INPUT,
		           "its parameter table (default kernels/inductor_mm_params.tsv)"),
		OPT_I64("--smem", "BYTES", &smem, 0, INT64_MAX, 0,
		        "the device's opt-in shared memory per block (default "
		        STR(GPUS_DEFAULT_SHARED_MEMORY) ", datasets/GPUS.tsv's '*' row), "
		        "used only if the table prunes by it"),
		OPT_I64("--first", "N", &first, 0, INT64_MAX, 0, "only the first N inputs"),
		OPT_POS("SHAPES", &shapes, OPT_REQUIRED | OPT_INPUT,
		        "a shape list (stages/FORMATS.md \"shape list\", stages/formats/"
		        "shapes.h): a header naming its columns, m, k, n, dtype "
		        "(torch.float16|torch.bfloat16|torch.float32), tf32 (0/1) or "
		        "using_tf32 (True/False/not_float_32), the four strides "
		        "mat1_stride_0 .. mat2_stride_1 or a layout (layout nn|nt|tn|tt, "
		        "or transpose_left and transpose_right) or both, optionally "
		        "input (the input's number); `sample` and `shapes` write such "
		        "files; '-': standard input"),
		OPT_POS("OUTPUT", &outp, OPT_REQUIRED | OPT_OUTPUT, "the output ('-': stdout)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 20, NULL}, argc, argv);
	if (m_cand + m_var + m_sum > 1)
		die("more than one of --candidates, --variants, --summary (see --help)");
	int mode = m_var ? 1 : m_sum ? 2 : 0;   /* 0 candidates, 1 variants, 2 summary */
	ic_table tb;
	ic_table_read(&tb, configs, params);
	int64_t nr;
	row *r = read_shapes(shapes, first, &nr);

	aout ao;
	FILE *out = strcmp(outp, "-") ? aout_open(&ao, outp) : stdout;
	if (mode < 2)
		fputs(mode == 0 ? cand_header : variant_header, out);
	tally t = {.min_c = 1 << 30};
	intern_init(&t.variants);
	static ic_cand c[IC_MAX_CANDS];
	for (int64_t j = 0; j < nr; j++) {
		char err[256];
		int nc = ic_candidates(&tb, &r[j].in, smem, c, err, sizeof err);
		if (nc < 0)
			die("%s: input %" PRId64 ": %s", shapes, r[j].id, err);
		one_input(out, mode, &r[j], c, nc, &t);
	}
	if (mode == 2)
		print_summary(out, &tb, nr, &t);
	if (out == stdout)
		close_stdout();
	else
		aout_commit(&ao);
	intern_free(&t.variants);
	free(r);
	return 0;
}
