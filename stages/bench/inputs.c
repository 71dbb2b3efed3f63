/* inputs.c — bench's inputs: shapes.tsv (sample's output, columns in
 * stages/sample.c) read into bench_input, checked field by field (plan.h).
 * Spec §3.4. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fields.h"
#include "plan.h"
#include "util.h"

int dtype_size(int dt) { return dt == DT_F32 ? 4 : 2; }

const char *dtype_torch(int dt)
{
	static const char *const n[] = { "torch.float32", "torch.float16", "torch.bfloat16" };
	return n[dt];
}

static const char shapes_header[] =
	"input\tsample\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\t"
	"mat1_stride_0\tmat1_stride_1\tmat2_stride_0\tmat2_stride_1\t"
	"mat1_iscontig\tmat2_iscontig\tusing_tf32";

bench_input *shapes_read(const char *path, int64_t *n)
{
	char *buf = read_lines(path), *p = buf, *l;
	bench_input *v = NULL;
	size_t cap = 0;
	int64_t cnt = 0, lineno = 0;
	while ((l = next_line(&p, &lineno))) {
		char *f[17];
		if (strchr(l, '\r'))
			die("%s:%" PRId64 ": carriage return", path, lineno);
		if (lineno == 1) {
			if (strcmp(l, shapes_header))
				die("%s:1: not a shapes.tsv header (see stages/sample.c)", path);
			continue;
		}
		if (split_tabs(l, f, 16) != 16)
			die("%s:%" PRId64 ": expected 16 fields", path, lineno);
		xgrow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v);
		bench_input *in = &v[cnt];
		memset(in, 0, sizeof *in);
		const int64_t big = INT64_C(1) << 40;
		in->id = field_i64(path, lineno, "input", f[0], 0, INT64_MAX);
		in->sample = field_i64(path, lineno, "sample", f[1], 0, INT64_MAX);
		in->m = field_i64(path, lineno, "m", f[2], 1, big);
		in->k = field_i64(path, lineno, "k", f[3], 1, big);
		in->n = field_i64(path, lineno, "n", f[4], 1, big);
		if (!strcmp(f[5], "torch.float32"))
			in->dtype = DT_F32;
		else if (!strcmp(f[5], "torch.float16"))
			in->dtype = DT_F16;
		else if (!strcmp(f[5], "torch.bfloat16"))
			in->dtype = DT_BF16;
		else
			die("%s:%" PRId64 ": field 'dtype': unknown '%s'", path, lineno, f[5]);
		in->tf32 = (int)field_i64(path, lineno, "tf32", f[6], 0, 1);
		in->ta = (int)field_i64(path, lineno, "transpose_left", f[7], 0, 1);
		in->tb = (int)field_i64(path, lineno, "transpose_right", f[8], 0, 1);
		in->feat.m = in->m;
		in->feat.k = in->k;
		in->feat.n = in->n;
		in->feat.dtype = dtype_torch(in->dtype);
		in->feat.s1_0 = field_i64(path, lineno, "mat1_stride_0", f[9], 0, big);
		in->feat.s1_1 = field_i64(path, lineno, "mat1_stride_1", f[10], 0, big);
		in->feat.s2_0 = field_i64(path, lineno, "mat2_stride_0", f[11], 0, big);
		in->feat.s2_1 = field_i64(path, lineno, "mat2_stride_1", f[12], 0, big);
		in->feat.contig1 = field_bool(path, lineno, "mat1_iscontig", f[13]);
		in->feat.contig2 = field_bool(path, lineno, "mat2_iscontig", f[14]);
		const char *want = in->dtype != DT_F32 ? "not_float_32"
		                   : in->tf32 ? "True" : "False";
		if (strcmp(f[15], want))
			die("%s:%" PRId64 ": field 'using_tf32': '%s' disagrees with dtype/tf32 (expected '%s')",
			    path, lineno, f[15], want);
		in->feat.using_tf32 = want;
		/* the strides must describe the layout the transposes give */
		if (in->feat.s1_0 != (in->ta ? 1 : in->k) || in->feat.s1_1 != (in->ta ? in->m : 1) ||
		    in->feat.s2_0 != (in->tb ? 1 : in->n) || in->feat.s2_1 != (in->tb ? in->k : 1))
			die("%s:%" PRId64 ": strides disagree with the transposes", path, lineno);
		in->features = ah_mm_features(&in->feat);
		cnt++;
	}
	free(buf);
	*n = cnt;
	return v;
}

void shapes_free(bench_input *in, int64_t n)
{
	for (int64_t i = 0; i < n; i++)
		free(in[i].features);
	free(in);
}
