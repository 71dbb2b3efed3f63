/* triton_cands.c — Inductor's mm candidates (stages/lib/inductor_cands.h)
 * for every input of a shapes file, or the distinct Triton compile variants
 * they need (the input of stages/bench/triton_aot.py). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "inductor_cands.h"
#include "intern.h"
#include "opts.h"
#include "tsvtext.h"
#include "util.h"

static const char synopsis[] =
	"triton_cands [--configs FILE] [--params FILE] [--smem BYTES] [--first N]\n"
	"                    [--candidates | --variants | --summary] SHAPES OUTPUT";

static const char about[] =
	"For every input of SHAPES write to OUTPUT the candidates Inductor's tuned_mm\n"
	"offers when collecting AutoHeuristic data (torch's version: the tables'), in\n"
	"its order and under its choice ids, or the Triton compile variants they need.\n";

static const char notes[] =
	"Exit status 0, or 1 with a message naming FILE:LINE and the field.\n";
enum { COL_INPUT, COL_M, COL_K, COL_N, COL_DTYPE, COL_TF32, COL_UTF32, COL_S10, COL_S11,
       COL_S20, COL_S21, COL_TL, COL_TR, NCOL };
static const char *colname[NCOL] = {"input", "m", "k", "n", "dtype", "tf32", "using_tf32",
                                    "mat1_stride_0", "mat1_stride_1", "mat2_stride_0",
                                    "mat2_stride_1", "transpose_left", "transpose_right"};

typedef struct {
	int64_t id;
	ic_input in;
} row;

static int64_t num(const char *s, const char *path, int line, const char *name)
{
	int64_t v;
	if (parse_i64(s, strlen(s), &v) != 0)
		die("%s:%d: field '%s': not an integer: '%s'", path, line, name, s);
	return v;
}

static row *read_shapes(const char *path, int64_t first, int64_t *nrows)
{
	char *buf = tsv_read(path, "a header line"), *pos = buf, *p;
	int64_t lineno = 0;
	char *f[64];
	int col[NCOL], ncols = tsv_split(tsv_line(&pos, path, &lineno), f, 64);
	if (ncols > 64)
		die("%s:1: more than 64 columns", path);
	tsv_columns(f, ncols, colname, NCOL, col);
	for (int i = COL_M; i <= COL_DTYPE; i++)
		if (col[i] < 0)
			die("%s:1: column '%s' missing", path, colname[i]);
	int have_s = col[COL_S10] >= 0 && col[COL_S11] >= 0 && col[COL_S20] >= 0 && col[COL_S21] >= 0;
	if (!have_s && (col[COL_S10] >= 0 || col[COL_S11] >= 0 || col[COL_S20] >= 0 || col[COL_S21] >= 0))
		die("%s:1: some of the mat*_stride_* columns missing", path);
	if (!have_s)
		col[COL_S10] = col[COL_S11] = col[COL_S20] = col[COL_S21] = -1;
	row *r = NULL;
	size_t cap = 0;
	int64_t n = 0;
	while ((first < 0 || n < first) && (p = tsv_line(&pos, path, &lineno))) {
		int line = (int)lineno, nf = tsv_split(p, f, 64);
		if (nf != ncols)
			die("%s:%d: %d fields, the header has %d", path, line, nf, ncols);
		xgrow((void **)&r, &cap, (size_t)n + 1, sizeof *r);
		row *x = &r[n];
		memset(x, 0, sizeof *x);
		x->id = col[COL_INPUT] >= 0 ? num(f[col[COL_INPUT]], path, line, "input") : n;
		x->in.m = num(f[col[COL_M]], path, line, "m");
		x->in.k = num(f[col[COL_K]], path, line, "k");
		x->in.n = num(f[col[COL_N]], path, line, "n");
		const int64_t *dims[] = {&x->in.m, &x->in.k, &x->in.n};
		for (int i = 0; i < 3; i++)
			if (*dims[i] < 1 || *dims[i] > INT32_MAX)
				die("%s:%d: field '%s': outside [1, 2^31 - 1]: '%s'", path, line,
				    colname[COL_M + i], f[col[COL_M + i]]);
		x->in.dtype = ic_dtype_parse(f[col[COL_DTYPE]]);
		if (x->in.dtype < 0)
			die("%s:%d: field 'dtype': unknown dtype: '%s'", path, line, f[col[COL_DTYPE]]);
		if (col[COL_TF32] >= 0) {
			const char *s = f[col[COL_TF32]];
			if (strcmp(s, "0") && strcmp(s, "1"))
				die("%s:%d: field 'tf32': expected 0 or 1: '%s'", path, line, s);
			x->in.tf32 = s[0] == '1';
		} else if (col[COL_UTF32] >= 0) {
			const char *s = f[col[COL_UTF32]];
			if (strcmp(s, "True") && strcmp(s, "False") && strcmp(s, "not_float_32"))
				die("%s:%d: field 'using_tf32': expected True, False or not_float_32: '%s'",
				    path, line, s);
			x->in.tf32 = !strcmp(s, "True");
		}
		int64_t m = x->in.m, k = x->in.k, nn = x->in.n;
		if (col[COL_S10] >= 0) {
			int c4[] = {COL_S10, COL_S11, COL_S20, COL_S21};
			int64_t *d4[] = {&x->in.s1[0], &x->in.s1[1], &x->in.s2[0], &x->in.s2[1]};
			for (int i = 0; i < 4; i++) {
				*d4[i] = num(f[col[c4[i]]], path, line, colname[c4[i]]);
				if (*d4[i] < 0 || *d4[i] > INT32_MAX)
					die("%s:%d: field '%s': outside [0, 2^31 - 1]: '%s'", path, line,
					    colname[c4[i]], f[col[c4[i]]]);
			}
		} else {
			int tl = 0, tr = 0;
			if (col[COL_TL] >= 0)
				tl = (int)num(f[col[COL_TL]], path, line, "transpose_left");
			if (col[COL_TR] >= 0)
				tr = (int)num(f[col[COL_TR]], path, line, "transpose_right");
			if ((tl != 0 && tl != 1) || (tr != 0 && tr != 1))
				die("%s:%d: field 'transpose_left'/'transpose_right': expected 0 or 1", path, line);
			x->in.s1[0] = tl ? 1 : k, x->in.s1[1] = tl ? m : 1;
			x->in.s2[0] = tr ? 1 : nn, x->in.s2[1] = tr ? k : 1;
		}
		n++;
	}
	free(buf);
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
	int64_t smem = 232448, first = -1;
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
		        "the device's opt-in shared memory per block (default 232448, "
		        "H100/H200), used only if the table prunes by it"),
		OPT_I64("--first", "N", &first, 0, INT64_MAX, 0, "only the first N inputs"),
		OPT_POS("SHAPES", &shapes, OPT_REQUIRED | OPT_INPUT,
		        "a TSV with a header naming its columns: m, k, n, dtype "
		        "(torch.float16|torch.bfloat16|torch.float32), optionally input "
		        "(the input's number), tf32 (0/1) or using_tf32 "
		        "(True/False/not_float_32), and the strides mat1_stride_0 "
		        "mat1_stride_1 mat2_stride_0 mat2_stride_1 or transpose_left "
		        "transpose_right (0/1); `sample` writes such a file"),
		OPT_POS("OUTPUT", &outp, OPT_REQUIRED | OPT_OUTPUT, "the output ('-': stdout)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 20}, argc, argv);
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
