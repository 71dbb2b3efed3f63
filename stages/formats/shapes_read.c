/* shapes_read.c — the shape list reader (shapes.h, stages/FORMATS.md
 * "shape list"): a header naming the columns, then one problem per line. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shapes.h"
#include "core/tsvtext.h"
#include "core/util.h"

enum {
	C_INPUT, C_SAMPLE, C_M, C_K, C_N, C_DTYPE, C_TF32, C_USING_TF32, C_LAYOUT, C_TL, C_TR,
	C_S10, C_S11, C_S20, C_S21, C_IC1, C_IC2, C_SOURCE, N_COLS
};
static const char *const col_name[N_COLS] = {
	"input", "sample", "m", "k", "n", "dtype", "tf32", "using_tf32", "layout",
	"transpose_left", "transpose_right", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0",
	"mat2_stride_1", "mat1_iscontig", "mat2_iscontig", "source"
};

typedef struct {
	const char *path;
	int64_t line;
	int pos[N_COLS];           /* field index of each column, -1 if absent */
	int ncols;
	char *f[N_COLS];           /* the current row's fields */
} reader;

/* die "path:line: field 'col': <why>'<what>'" */
_Noreturn static void bad(const reader *rd, int col, const char *why, const char *what)
{
	die("%s:%" PRId64 ": field '%s': %s'%s'", rd->path, rd->line, col_name[col], why, what);
}

static int has(const reader *rd, int c) { return rd->pos[c] >= 0; }
static const char *fld(const reader *rd, int c) { return rd->f[rd->pos[c]]; }

static int64_t get_int(const reader *rd, int c, int64_t lo, int64_t hi)
{
	const char *s = fld(rd, c);
	int64_t v;
	int e = parse_i64(s, strlen(s), &v);
	if (e != 0 || v < lo || v > hi)
		die("%s:%" PRId64 ": field '%s': '%s' is not an integer in %" PRId64 " .. %" PRId64,
		    rd->path, rd->line, col_name[c], s, lo, hi);
	return v;
}

/* Index of s in the NULL-terminated words, or die naming column c. */
static int get_word(const reader *rd, int c, const char *const *words)
{
	const char *s = fld(rd, c);
	for (int i = 0; words[i]; i++)
		if (!strcmp(s, words[i]))
			return i;
	die("%s:%" PRId64 ": field '%s': unknown value '%s'", rd->path, rd->line, col_name[c], s);
}

static void read_header(reader *rd, char *line)
{
	char *f[N_COLS + 1];
	int n = tsv_split(line, f, N_COLS);
	if (n > N_COLS)
		die("%s:%" PRId64 ": header: more than %d columns", rd->path, rd->line, N_COLS);
	for (int c = 0; c < N_COLS; c++)
		rd->pos[c] = -1;
	for (int i = 0; i < n; i++) {
		int c = 0;
		while (c < N_COLS && strcmp(f[i], col_name[c]))
			c++;
		if (c == N_COLS)
			die("%s:%" PRId64 ": header: unknown column '%s' (stages/FORMATS.md \"shape list\")",
			    rd->path, rd->line, f[i]);
		if (rd->pos[c] >= 0)
			die("%s:%" PRId64 ": header: column '%s' twice", rd->path, rd->line, f[i]);
		rd->pos[c] = i;
	}
	rd->ncols = n;
	const char *why = NULL;
	int nstr = has(rd, C_S10) + has(rd, C_S11) + has(rd, C_S20) + has(rd, C_S21);
	if (!has(rd, C_M) || !has(rd, C_K) || !has(rd, C_N) || !has(rd, C_DTYPE))
		why = "columns m, k, n and dtype are required";
	else if (!has(rd, C_TF32) && !has(rd, C_USING_TF32))
		why = "a 'tf32' or 'using_tf32' column is required";
	else if (nstr != 0 && nstr != 4)
		why = "the four stride columns come together (mat1_stride_0 .. mat2_stride_1)";
	else if (has(rd, C_TL) != has(rd, C_TR))
		why = "transpose_left and transpose_right come together";
	else if (has(rd, C_LAYOUT) && has(rd, C_TL))
		why = "both 'layout' and transpose_left/right: give one";
	else if (nstr == 0 && !has(rd, C_LAYOUT) && !has(rd, C_TL))
		why = "the strides or a layout (layout, or transpose_left/right) are required";
	else if (has(rd, C_IC1) != has(rd, C_IC2))
		why = "mat1_iscontig and mat2_iscontig come together";
	if (why)
		die("%s:%" PRId64 ": header: %s", rd->path, rd->line, why);
}

static const char *const bools[] = { "False", "True", NULL };

static void read_row(reader *rd, shape_row *r, int64_t index)
{
	static const char *const tf32_words[] = { "False", "True", "not_float_32", NULL };
	static const char *const layouts[] = { "nn", "nt", "tn", "tt", NULL };
	memset(r, 0, sizeof *r);
	r->line = rd->line;
	r->id = has(rd, C_INPUT) ? get_int(rd, C_INPUT, 0, INT64_MAX) : index;
	r->sample = has(rd, C_SAMPLE) ? get_int(rd, C_SAMPLE, 0, INT64_MAX) : -1;
	r->m = get_int(rd, C_M, 1, SHAPE_MAX_DIM);
	r->k = get_int(rd, C_K, 1, SHAPE_MAX_DIM);
	r->n = get_int(rd, C_N, 1, SHAPE_MAX_DIM);
	r->dtype = shape_dtype_parse(fld(rd, C_DTYPE));
	if (r->dtype < 0)
		bad(rd, C_DTYPE, "unknown dtype ", fld(rd, C_DTYPE));
	if (has(rd, C_TF32))
		r->tf32 = (int)get_int(rd, C_TF32, 0, 1);
	else
		r->tf32 = get_word(rd, C_USING_TF32, tf32_words) == 1;
	int ta = -1, tb = -1;
	if (has(rd, C_LAYOUT)) {
		int l = get_word(rd, C_LAYOUT, layouts);
		ta = l >> 1, tb = l & 1;
	} else if (has(rd, C_TL)) {
		ta = (int)get_int(rd, C_TL, 0, 1);
		tb = (int)get_int(rd, C_TR, 0, 1);
	}
	if (has(rd, C_S10)) {
		r->s1_0 = get_int(rd, C_S10, 0, SHAPE_MAX_DIM);
		r->s1_1 = get_int(rd, C_S11, 0, SHAPE_MAX_DIM);
		r->s2_0 = get_int(rd, C_S20, 0, SHAPE_MAX_DIM);
		r->s2_1 = get_int(rd, C_S21, 0, SHAPE_MAX_DIM);
	} else {
		shape_compact_strides(r, ta, tb);
	}
	const char *lay[2] = { "layout", "layout" };
	if (has(rd, C_TL))
		lay[0] = "transpose_left", lay[1] = "transpose_right";
	char err[256];
	const char *f = shape_complete(r, ta, tb, lay, err, sizeof err);
	if (f)
		die("%s:%" PRId64 ": field '%s': %s", rd->path, rd->line, f, err);
	if (has(rd, C_USING_TF32) && strcmp(fld(rd, C_USING_TF32), shape_using_tf32(r))) {
		get_word(rd, C_USING_TF32, tf32_words);   /* an unknown word is named as such */
		die("%s:%" PRId64 ": field 'using_tf32': '%s' disagrees with dtype %s and tf32 %d "
		    "(expected '%s')", rd->path, rd->line, fld(rd, C_USING_TF32),
		    shape_dtype_torch(r->dtype), r->tf32, shape_using_tf32(r));
	}
	if (has(rd, C_IC1)) {
		int c1 = get_word(rd, C_IC1, bools), c2 = get_word(rd, C_IC2, bools);
		if (c1 != r->contig1 || c2 != r->contig2) {
			int one = c1 != r->contig1;
			die("%s:%" PRId64 ": field '%s': '%s', but the strides (%" PRId64 ", %" PRId64
			    ") of a %" PRId64 " x %" PRId64 " operand say %s", rd->path, rd->line,
			    col_name[one ? C_IC1 : C_IC2], bools[one ? c1 : c2],
			    one ? r->s1_0 : r->s2_0, one ? r->s1_1 : r->s2_1, one ? r->m : r->k,
			    one ? r->k : r->n, bools[one ? r->contig1 : r->contig2]);
		}
	}
	if (has(rd, C_SOURCE)) {
		const char *s = fld(rd, C_SOURCE);
		if (!shape_source_ok(s))
			bad(rd, C_SOURCE, "not a source token (1..160 bytes of [A-Za-z0-9._:/+=@-]): ", s);
		strcpy(r->source, s);
	}
}

shape_row *shape_list_read(const char *path, int64_t *n)
{
	char *buf = tsv_read(path, "a header line"), *pos = buf, *p;
	reader rd = { .path = path };
	shape_row *v = NULL;
	size_t cap = 0;
	int64_t cnt = 0;
	int header = 0;
	while ((p = tsv_line(&pos, path, &rd.line))) {
		if (*p == '#')
			continue;
		if (*p == '\0')
			die("%s:%" PRId64 ": blank line", path, rd.line);
		if (!header) {
			read_header(&rd, p);
			header = 1;
			continue;
		}
		int nf = tsv_split(p, rd.f, rd.ncols);
		if (nf != rd.ncols)
			die("%s:%" PRId64 ": %s%d fields, the header has %d", path, rd.line,
			    nf > rd.ncols ? "more than " : "", nf > rd.ncols ? rd.ncols : nf, rd.ncols);
		for (int i = 0; i < nf; i++)
			if (!*rd.f[i]) {
				int c = 0;
				while (rd.pos[c] != i)
					c++;
				die("%s:%" PRId64 ": field '%s': empty", path, rd.line, col_name[c]);
			}
		xgrow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v);
		read_row(&rd, &v[cnt], cnt);
		cnt++;
	}
	if (!header)
		die("%s: no header line (only comments)", path);
	free(buf);
	*n = cnt;
	return v;
}
