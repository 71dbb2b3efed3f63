/* shapes.c — shape list reader, writer and validation (shapes.h). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shapes.h"
#include "core/util.h"

static const char *const dt_torch[] = { "torch.float32", "torch.float16", "torch.bfloat16" };

const char *shape_dtype_torch(int dt)
{
	return dt >= 0 && dt < 3 ? dt_torch[dt] : "?";
}

int shape_dtype_parse(const char *s)
{
	for (int i = 0; i < 3; i++)
		if (!strcmp(s, dt_torch[i]))
			return i;
	return -1;
}

int shape_dtype_size(int dt)
{
	return dt == SHAPE_F32 ? 4 : 2;
}

const char *shape_using_tf32(const shape_row *r)
{
	return r->dtype != SHAPE_F32 ? "not_float_32" : r->tf32 ? "True" : "False";
}

int shape_source_ok(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > SHAPE_SOURCE_MAX)
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      strchr("._:/+=@-", *s)))
			return 0;
	return 1;
}

/* One operand: rows x cols with strides s0, s1 (elements). */
typedef struct {
	int64_t r, c, s0, s1;
	const char *f0, *f1;       /* the stride columns' names */
	const char *lay;           /* the layout column's name (given layout) */
	int t;                     /* out: 0 row-major, 1 transposed view */
	int64_t ld, span;
	int contig;
} operand;

#define SPAN_MAX (INT64_C(1) << 62)

/* Validate o (shapes.h "Validation"); want = given layout or -1. */
static const char *operand_check(operand *o, int want, char *err, size_t len)
{
	if (o->r > 1 && o->s0 < 1) {
		snprintf(err, len, "0 for a dimension of size %" PRId64 " (its elements overlap)", o->r);
		return o->f0;
	}
	if (o->c > 1 && o->s1 < 1) {
		snprintf(err, len, "0 for a dimension of size %" PRId64 " (its elements overlap)", o->c);
		return o->f1;
	}
	if (o->r > 1 && o->c > 1) {
		/* the larger stride must skip a whole run of the smaller one */
		if (o->s0 == o->s1) {
			snprintf(err, len, "%" PRId64 ", equal to the other stride (elements overlap)", o->s0);
			return o->f0;
		}
		int outer0 = o->s0 > o->s1;
		int64_t so = outer0 ? o->s0 : o->s1, si = outer0 ? o->s1 : o->s0;
		int64_t ni = outer0 ? o->c : o->r;
		if (so / ni < si) {
			snprintf(err, len, "%" PRId64 " < %" PRId64 " x %" PRId64 ", the extent of the "
			         "dimension it skips (elements overlap)", so, si, ni);
			return outer0 ? o->f0 : o->f1;
		}
	}
	int row = (o->c == 1 || o->s1 == 1) && (o->r == 1 || o->s0 >= o->c);
	int col = (o->r == 1 || o->s0 == 1) && (o->c == 1 || o->s1 >= o->r);
	if (want == 0 && !row) {
		snprintf(err, len, "the strides (%" PRId64 ", %" PRId64 ") of a %" PRId64 " x %" PRId64
		         " operand are not row-major ('n': stride 1 = 1, stride 0 >= %" PRId64 ")",
		         o->s0, o->s1, o->r, o->c, o->c);
		return o->lay;
	}
	if (want == 1 && !col) {
		snprintf(err, len, "the strides (%" PRId64 ", %" PRId64 ") of a %" PRId64 " x %" PRId64
		         " operand are not a transposed view ('t': stride 0 = 1, stride 1 >= %" PRId64 ")",
		         o->s0, o->s1, o->r, o->c, o->r);
		return o->lay;
	}
	if (want < 0 && !row && !col) {
		snprintf(err, len, "strides (%" PRId64 ", %" PRId64 "): neither is 1, not a BLAS layout "
		         "(cuBLAS and bench need a unit stride)", o->s0, o->s1);
		return o->f1;
	}
	o->t = want >= 0 ? want : row ? 0 : 1;
	o->ld = o->t == 0 ? (o->s0 > o->c ? o->s0 : o->c) : (o->s1 > o->r ? o->s1 : o->r);
	int64_t a = o->r - 1, b = o->c - 1;
	if ((a > 0 && o->s0 > (SPAN_MAX - 1) / a) || (b > 0 && o->s1 > (SPAN_MAX - 1) / b) ||
	    a * o->s0 > SPAN_MAX - 1 - b * o->s1) {
		snprintf(err, len, "the operand spans more than 2^62 elements");
		return o->f0;
	}
	o->span = 1 + a * o->s0 + b * o->s1;
	o->contig = (o->r == 1 || o->s0 == o->c) && (o->c == 1 || o->s1 == 1);
	return NULL;
}

const char *shape_complete(shape_row *r, int ta, int tb, const char *const lay_field[2],
                           char *err, size_t errlen)
{
	const char *dn[3] = { "m", "k", "n" };
	const int64_t dv[3] = { r->m, r->k, r->n };
	for (int i = 0; i < 3; i++)
		if (dv[i] < 1 || dv[i] > SHAPE_MAX_DIM) {
			snprintf(err, errlen, "%" PRId64 " (expected 1 .. 2^40)", dv[i]);
			return dn[i];
		}
	const char *sn[4] = { "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1" };
	const int64_t sv[4] = { r->s1_0, r->s1_1, r->s2_0, r->s2_1 };
	for (int i = 0; i < 4; i++)
		if (sv[i] < 0 || sv[i] > SHAPE_MAX_DIM) {
			snprintf(err, errlen, "%" PRId64 " (expected 0 .. 2^40)", sv[i]);
			return sn[i];
		}
	if (r->dtype < 0 || r->dtype > 2) {
		snprintf(err, errlen, "unknown dtype code %d", r->dtype);
		return "dtype";
	}
	if (r->tf32 != 0 && r->tf32 != 1) {
		snprintf(err, errlen, "%d (expected 0 or 1)", r->tf32);
		return "tf32";
	}
	if (r->tf32 && r->dtype != SHAPE_F32) {
		snprintf(err, errlen, "1 for %s (TF32 applies to torch.float32 only)",
		         shape_dtype_torch(r->dtype));
		return "tf32";
	}
	operand a = { r->m, r->k, r->s1_0, r->s1_1, sn[0], sn[1], lay_field ? lay_field[0] : "layout",
	              0, 0, 0, 0 };
	operand b = { r->k, r->n, r->s2_0, r->s2_1, sn[2], sn[3], lay_field ? lay_field[1] : "layout",
	              0, 0, 0, 0 };
	const char *f = operand_check(&a, ta, err, errlen);
	if (!f)
		f = operand_check(&b, tb, err, errlen);
	if (f)
		return f;
	r->ta = a.t, r->lda = a.ld, r->span1 = a.span, r->contig1 = a.contig;
	r->tb = b.t, r->ldb = b.ld, r->span2 = b.span, r->contig2 = b.contig;
	return NULL;
}

void shape_compact_strides(shape_row *r, int ta, int tb)
{
	r->s1_0 = ta ? 1 : r->k;
	r->s1_1 = ta ? r->m : 1;
	r->s2_0 = tb ? 1 : r->n;
	r->s2_1 = tb ? r->k : 1;
}

int shape_is_compact(const shape_row *r)
{
	int c1 = (r->s1_0 == r->k && r->s1_1 == 1) || (r->s1_0 == 1 && r->s1_1 == r->m);
	int c2 = (r->s2_0 == r->n && r->s2_1 == 1) || (r->s2_0 == 1 && r->s2_1 == r->k);
	return c1 && c2;
}

int shape_key(const shape_row *r, char *buf, size_t len)
{
	return snprintf(buf, len, "%" PRId64 ",%" PRId64 ",%" PRId64 ",%s,%" PRId64 ",%" PRId64
	                ",%" PRId64 ",%" PRId64 ",%s", r->m, r->k, r->n, shape_dtype_torch(r->dtype),
	                r->s1_0, r->s1_1, r->s2_0, r->s2_1, shape_using_tf32(r));
}

const char shape_list_header[] =
	"m\tk\tn\tdtype\ttf32\tlayout\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\t"
	"mat2_stride_1\tsource";

void shape_write(FILE *fp, const shape_row *r)
{
	fprintf(fp, "%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%s\t%d\t%c%c\t%" PRId64 "\t%" PRId64
	        "\t%" PRId64 "\t%" PRId64 "\t%s\n", r->m, r->k, r->n, shape_dtype_torch(r->dtype),
	        r->tf32, r->ta ? 't' : 'n', r->tb ? 't' : 'n', r->s1_0, r->s1_1, r->s2_0, r->s2_1,
	        r->source[0] ? r->source : "-");
}
