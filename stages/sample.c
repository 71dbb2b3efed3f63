/* sample — draw random mm problems for collection (spec §3.2–§3.4).
 *
 * Input:  none (seeded RNG: --seed).
 * Output: -o OUTPUT, a TSV (written atomically) with one row per *input*: each
 *         sample (dtype, tf32, m, k, n) expands to 4 inputs, one per
 *         (transpose_left, transpose_right) in itertools.product([False,
 *         True], repeat=2) order, as gen_data_mm.py's run_benchmark.
 * Errors: bad options -> exit 1 with a message; write errors -> exit 1.
 *
 * Columns (header row first, tab separated):
 *   input            input id, 0-based (= 4*sample + 2*transpose_left + transpose_right)
 *   sample           sample id, 0-based
 *   m k n            torch.mm(A[m,k], B[k,n]) sizes (elements)
 *   dtype            torch.float32 | torch.float16 | torch.bfloat16 (both operands)
 *   tf32             1 if torch.backends.cuda.matmul.allow_tf32 would be on
 *                    (float32 with precision "high", probability 0.2), else 0
 *   transpose_left   0: A = randn(m,k); 1: A = randn(k,m).t()
 *   transpose_right  0: B = randn(k,n); 1: B = randn(n,k).t()
 *   mat1_stride_0 mat1_stride_1 mat2_stride_0 mat2_stride_1
 *                    the strides Inductor logs (elements): A (k,1) or (1,m);
 *                    B (n,1) or (1,k)
 *   mat1_iscontig mat2_iscontig
 *                    True/False, is_contiguous_strides_for_shape (a size-1
 *                    dimension's stride is ignored, as in torch)
 *   using_tf32       the logged value: True/False for float32, else
 *                    not_float_32 (spec §1.1 row 12)
 *
 * Distribution (spec §3.3): per dimension, mult_128 (p 0.85): p in [10,16],
 * 128*randint(2^p//128, 2^(p+1)//128); pow2 (0.10): 2^randint(0,17);
 * uniform (0.04): randint(1,131072); uniform-between-pow2 (0.01): i in
 * [1,16], randint(2^i+1, 2^(i+1)-1).  Rejection (§3.2): m*k, m*n or k*n >=
 * 2^31, or itemsize*(m*k+k*n+m*n) >= gpu_mem/4 (tested exactly as
 * 4*itemsize*(...) >= gpu_mem).  dtype uniform over {float32, float16,
 * bfloat16}; float32 gets tf32 with probability 0.2.  --max-gflop G (off by
 * default) additionally rejects 2*m*k*n > G*1e9: a documented deviation
 * for collections on a small device budget.  Unlike the reference
 * (clock-seeded), the draw is deterministic for a seed.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/opts.h"
#include "core/rng.h"
#include "core/util.h"
#include "gen/gpus.h"

static const char synopsis[] =
"sample [--seed S] [--samples N] [--gpu-mem-bytes B] [--max-gflop G]\n"
"              -o OUTPUT\n"
"       sample [--seed S] --dims-only N -o OUTPUT";

static const char about[] =
"Draw N random mm samples (spec §3.2-3.3) and write 4*N inputs (one per\n"
"transpose combination) to OUTPUT, a shape list (stages/FORMATS.md \"shape\n"
"list\": columns input sample m k n dtype tf32 transpose_left\n"
"transpose_right, the four strides, mat1_iscontig mat2_iscontig using_tf32).\n"
"Input: none (the seed).\n";

static const char notes[] =
"Exit status: 0 on success; 1 on a bad option or a write error (OUTPUT is\n"
"then left untouched).\n";

/* the default device memory: the GPU table's '*' row (datasets/GPUS.tsv),
 * the facts assumed for a GPU without a row; make passes the GPU's own */
#define STR_(x) #x
#define STR(x) STR_(x)
#define DEFAULT_MEM_BYTES ((int64_t)GPUS_DEFAULT_MEM_MIB << 20)

enum { DT_F32, DT_F16, DT_BF16 };
static const char *const dt_name[] = { "torch.float32", "torch.float16", "torch.bfloat16" };
static const int dt_size[] = { 4, 2, 2 };

/* One dimension from the §3.3 mixture. */
static int64_t random_dim(rng *r)
{
	double u = rng_double(r);
	if (u < 0.85) {
		int64_t p = rng_int(r, 10, 16);
		int64_t lo = (INT64_C(1) << p) / 128, hi = (INT64_C(1) << (p + 1)) / 128;
		return 128 * rng_int(r, lo, hi);
	}
	if (u < 0.95)
		return INT64_C(1) << rng_int(r, 0, 17);
	if (u < 0.99)
		return rng_int(r, 1, 131072);
	int64_t i = rng_int(r, 1, 16);
	return rng_int(r, (INT64_C(1) << i) + 1, (INT64_C(1) << (i + 1)) - 1);
}

static const char *tf(int b) { return b ? "True" : "False"; }

int main(int argc, char **argv)
{
	int64_t seed = 0, samples = 1000, mem = DEFAULT_MEM_BYTES, dims_only = -1, max_gflop = -1;
	const char *outpath = NULL, *old_out = NULL;
	const opt table[] = {
		OPT_I64("--seed", "S", &seed, INT64_MIN, INT64_MAX, 0,
		        "RNG seed (default 0); same seed, same output"),
		OPT_I64("--samples", "N", &samples, 1, INT64_MAX, 0,
		        "number of samples, >= 1 (default 1000)"),
		OPT_I64("--gpu-mem-bytes", "B", &mem, 1, INT64_MAX, 0,
		        "device memory for the fits-in-memory rejection "
		        "itemsize*(mk+kn+mn) < B/4 (default " STR(GPUS_DEFAULT_MEM_MIB)
		        " MiB, datasets/GPUS.tsv's '*' row; make passes the GPU's "
		        "memory, GPU_MEM_BYTES; sample runs on the CPU and queries no "
		        "GPU)"),
		OPT_I64("--max-gflop", "G", &max_gflop, 1, INT64_MAX, 0,
		        "also reject samples with 2*m*k*n > G*1e9 FLOP (NOT in the "
		        "reference; for collections on a small device budget; default: "
		        "no limit)"),
		OPT_I64("--dims-only", "N", &dims_only, 0, INT64_MAX, 0,
		        "instead, write N raw draws of the dimension mixture (spec "
		        "§3.3, before any rejection), one per line under the header "
		        "'dim' (for tests of the distribution)"),
		OPT_OUT("OUTPUT", &outpath, 0, "the inputs TSV, written atomically"),
		OPT_POS("OUTPUT", &old_out, OPT_OUTPUT,
		        "(the old form of -o OUTPUT, for existing scripts: says so on "
		        "stderr)"),
		OPT_END()
	};
	opts_parse(&(opt_prog){synopsis, about, table, notes, 21, NULL}, argc, argv);
	if (outpath && old_out)
		die("two outputs, -o '%s' and '%s': give -o OUTPUT only", outpath, old_out);
	if (old_out) {
		warnf("a positional OUTPUT is the old form: use -o %s (every stage takes "
		      "-o OUT)", old_out);
		outpath = old_out;
	}
	if (!outpath)
		die("missing -o OUTPUT; usage: %.*s (see --help)",
		    (int)strcspn(synopsis, "\n"), synopsis);

	rng r;
	rng_seed(&r, (uint64_t)seed);
	aout ao;
	FILE *fp = aout_open(&ao, outpath);
	if (dims_only >= 0) {
		fprintf(fp, "dim\n");
		for (int64_t i = 0; i < dims_only; i++)
			fprintf(fp, "%" PRId64 "\n", random_dim(&r));
		aout_commit(&ao);
		close_stdout();
		return 0;
	}
	fprintf(fp, "input\tsample\tm\tk\tn\tdtype\ttf32\ttranspose_left\t"
	        "transpose_right\tmat1_stride_0\tmat1_stride_1\tmat2_stride_0\t"
	        "mat2_stride_1\tmat1_iscontig\tmat2_iscontig\tusing_tf32\n");
	const int64_t lim = INT64_C(1) << 31;
	for (int64_t s = 0; s < samples; s++) {
		int dt = (int)rng_int(&r, 0, 2);
		int tf32 = dt == DT_F32 ? rng_double(&r) < 0.2 : 0;
		int64_t m, k, n;
		for (;;) {
			m = random_dim(&r);
			k = random_dim(&r);
			n = random_dim(&r);
			if (m * k >= lim || m * n >= lim || k * n >= lim)
				continue;
			if (max_gflop > 0 && 2.0 * (double)m * (double)k * (double)n > (double)max_gflop * 1e9)
				continue;
			if (4 * dt_size[dt] * (m * k + k * n + m * n) < mem)
				break;
		}
		const char *ut = dt == DT_F32 ? tf(tf32) : "not_float_32";
		for (int c = 0; c < 4; c++) {
			int tl = c >> 1, tr = c & 1;
			int64_t a0 = tl ? 1 : k, a1 = tl ? m : 1;
			int64_t b0 = tr ? 1 : n, b1 = tr ? k : 1;
			/* contiguous iff each non-size-1 dim has the row-major stride */
			int c1 = (m == 1 || a0 == k) && (k == 1 || a1 == 1);
			int c2 = (k == 1 || b0 == n) && (n == 1 || b1 == 1);
			fprintf(fp, "%" PRId64 "\t%" PRId64 "\t%" PRId64 "\t%" PRId64
			        "\t%" PRId64 "\t%s\t%d\t%d\t%d\t%" PRId64 "\t%" PRId64
			        "\t%" PRId64 "\t%" PRId64 "\t%s\t%s\t%s\n",
			        4 * s + c, s, m, k, n, dt_name[dt], tf32, tl, tr,
			        a0, a1, b0, b1, tf(c1), tf(c2), ut);
		}
	}
	aout_commit(&ao);
	close_stdout();
	return 0;
}
