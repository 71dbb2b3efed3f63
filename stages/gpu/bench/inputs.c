/* inputs.c — bench's inputs: a shape list (stages/formats/shapes.h,
 * stages/FORMATS.md "shape list"; sample's shapes.tsv is one) read by
 * shape_list_read, which checks every field and dies naming file:line:
 * field, into bench_input (plan.h).  Explicit strides are kept as given
 * (padded leading dimensions, a size-1 dimension's free stride): they are
 * logged as they are and the operands are allocated by their spans.
 * Spec §1.1 (the logged features), §3.4. */
#include <stdlib.h>

#include "plan.h"
#include "formats/shapes.h"
#include "core/util.h"

int dtype_size(int dt) { return shape_dtype_size(dt); }

const char *dtype_torch(int dt) { return shape_dtype_torch(dt); }

bench_input *shapes_read(const char *path, int64_t *n)
{
	shape_row *s = shape_list_read(path, n);
	bench_input *v = xcalloc((size_t)(*n > 0 ? *n : 1), sizeof *v);
	for (int64_t i = 0; i < *n; i++) {
		const shape_row *r = &s[i];
		bench_input *in = &v[i];
		in->id = r->id;
		in->sample = r->sample;
		in->line = r->line;
		in->m = r->m, in->k = r->k, in->n = r->n;
		in->dtype = r->dtype;          /* SHAPE_F32/F16/BF16 = DT_F32/F16/BF16 */
		in->tf32 = r->tf32;
		in->ta = r->ta, in->tb = r->tb;
		in->lda = r->lda, in->ldb = r->ldb;
		in->span1 = r->span1, in->span2 = r->span2;
		in->compact = shape_is_compact(r);
		in->feat = (ah_mm_input){ r->m, r->k, r->n, dtype_torch(r->dtype), r->s1_0, r->s1_1,
		                          r->s2_0, r->s2_1, r->contig1, r->contig2,
		                          shape_using_tf32(r) };
		in->features = ah_mm_features(&in->feat);
	}
	free(s);
	return v;
}

void shapes_free(bench_input *in, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		free(in[i].features);
	free(in);
}
