/* shapes.h — the shape list: mm problems to measure, one per line
 * (stages/FORMATS.md "shape list"; spec §1.1 for the logged features,
 * §3.4 for the transposes sample draws).
 *
 * A shape list is a TSV whose header names its columns, in any order:
 *   m k n dtype                         required (sizes in elements; dtype
 *                                       torch.float32|float16|bfloat16)
 *   tf32 and/or using_tf32              at least one (0/1; True/False/
 *                                       not_float_32 as logged)
 *   mat1_stride_0 mat1_stride_1 mat2_stride_0 mat2_stride_1
 *                                       all four or none (elements)
 *   layout, or transpose_left and transpose_right
 *                                       BLAS layout code nn|nt|tn|tt (first
 *                                       letter mat1, t = transposed view,
 *                                       as sample's transpose_left/right)
 *   mat1_iscontig mat2_iscontig         optional, checked (True/False)
 *   input sample                        optional ids (sample's columns)
 *   source                              optional token: where the GEMM
 *                                       comes from (llama3-8b.q_proj.decode)
 * Strides, a layout or both are required.  A layout alone means the compact
 * strides (sample's: mat1 (k,1) or (1,m), mat2 (n,1) or (1,k)); strides
 * alone may be padded (mat1 (1, 50304) for m = 50257) and their layout is
 * derived; both: the strides must have that layout.  sample's shapes.tsv
 * (input sample m k n dtype tf32 transpose_left transpose_right, the four
 * strides, both iscontig, using_tf32) is one instance of the format.
 * Lines starting with '#' are comments; no blank lines, no '\r'.
 *
 * Validation (each operand, rows r x cols c, strides s0 s1): a dimension of
 * size > 1 has stride >= 1; when both sizes are > 1 the larger stride is at
 * least the smaller stride times its dimension's size (no two elements
 * overlap: the outer stride skips a whole inner row/column); one dimension
 * has unit stride (a BLAS layout: cuBLAS and bench need one), the other
 * stride, if its size is > 1, is >= the extent (the leading dimension).
 * A size-1 dimension's stride is free (torch ignores it).  Every error
 * dies naming "file:line: field 'name': ...".
 */
#ifndef MMRANK_SHAPES_H
#define MMRANK_SHAPES_H

#include <stdint.h>
#include <stdio.h>

/* dtype codes: the same numbers as bench's DT_F32, DT_F16, DT_BF16 */
enum { SHAPE_F32 = 0, SHAPE_F16 = 1, SHAPE_BF16 = 2 };

#define SHAPE_MAX_DIM (INT64_C(1) << 40)   /* sizes and strides, elements */
#define SHAPE_SOURCE_MAX 160               /* bytes of a source token */

/* One problem: torch.mm(mat1 (m, k), mat2 (k, n)). */
typedef struct {
	int64_t line;              /* line in its file (1-based), 0 if none */
	int64_t id;                /* `input` column, else the 0-based row index */
	int64_t sample;            /* `sample` column, else -1 */
	int64_t m, k, n;
	int dtype;                 /* SHAPE_* */
	int tf32;                  /* 0/1; 1 only for float32 */
	int64_t s1_0, s1_1, s2_0, s2_1;  /* the logged strides, elements */
	/* derived by shape_complete(): */
	int contig1, contig2;      /* torch's is_contiguous (size-1 dims ignored) */
	int ta, tb;                /* 0: row-major (stride_1 unit), 1: transposed
	                              view (stride_0 unit) = sample's transposes */
	int64_t lda, ldb;          /* BLAS leading dimensions: the non-unit
	                              stride, at least the extent (k or m for
	                              mat1, n or k for mat2) */
	int64_t span1, span2;      /* elements each operand's storage spans:
	                              1 + (rows-1)*s0 + (cols-1)*s1 */
	char source[SHAPE_SOURCE_MAX + 1];  /* "" when the list has no source */
} shape_row;

/* "torch.float32" ... for a SHAPE_* code; shape_dtype_parse returns the
 * code for such a name, or -1. */
const char *shape_dtype_torch(int dt);
int shape_dtype_parse(const char *s);
int shape_dtype_size(int dt);           /* bytes per element */
/* The logged using_tf32 value: "True"/"False" for float32, else "not_float_32". */
const char *shape_using_tf32(const shape_row *r);
/* A valid source token: 1..SHAPE_SOURCE_MAX bytes of [A-Za-z0-9._:/+=@-]. */
int shape_source_ok(const char *s);

/* Check r's sizes, dtype/tf32 and strides and fill the derived fields.
 * ta, tb: the layout the caller was given (0/1), or -1 to derive it (row-
 * major preferred when both fit, as for a size-1 dimension).  On success
 * returns NULL; otherwise the name of the offending field (a column name;
 * for a layout the caller gave, lay_field[0] or lay_field[1]) with the
 * reason in err[0..errlen). */
const char *shape_complete(shape_row *r, int ta, int tb, const char *const lay_field[2],
                           char *err, size_t errlen);
/* The compact strides of layout (ta, tb), as sample writes them. */
void shape_compact_strides(shape_row *r, int ta, int tb);
/* 1 if both operands have the compact strides of one of the transposes
 * (mat1 (k,1) or (1,m), mat2 (n,1) or (1,k)), else 0 (padded or other). */
int shape_is_compact(const shape_row *r);
/* The key AutoHeuristic groups measurements by (spec §1.6): m,k,n, dtype,
 * the four strides and using_tf32, "," joined, into buf; returns its length. */
int shape_key(const shape_row *r, char *buf, size_t len);

/* Read a shape list (path "-": standard input); dies naming file:line:
 * field on any error.  Returns the rows in file order (malloc'd, free()),
 * *n their count (>= 0; a header without rows is an empty list). */
shape_row *shape_list_read(const char *path, int64_t *n);

/* The writer: one header line, then one line per row, columns
 *   m k n dtype tf32 layout mat1_stride_0 mat1_stride_1 mat2_stride_0 mat2_stride_1 source
 * (the strides explicit, layout the derived code, source "-" if empty). */
extern const char shape_list_header[];
void shape_write(FILE *fp, const shape_row *r);

#endif
