/* kernels/mm.cu — CUDA C GEMM template compiled at run time by NVRTC (bench,
 * spec §3.5).  Self-contained: no #include, so NVRTC needs no header path.
 *
 * Computes C[M,N] = A[M,K] @ B[K,N] with torch.mm semantics: A and B are
 * strided views (A[i,l] = A[i*sam + l*sak], B[l,j] = B[l*sbk + j*sbn]), C is
 * row-major contiguous (C[i,j] = C[i*N + j]), all of element type DT,
 * accumulation in float32 (fmaf on CUDA cores; tf32 is not emulated).
 *
 * Compile-time defines (all required, set by stages/cuda/bench_gpu.c):
 *   BM BN BK   block tile sizes (post-shrink, spec §3.5)
 *   NW         warps per block (NW*32 threads)
 *   STAGES     Triton num_stages; part of the id, accepted but not used: this
 *              kernel is single-buffered (documented limitation)
 *   TR TC      thread grid inside a block, TR*TC == NW*32, BM%TR == BN%TC == 0
 *   DT         0 float32, 1 float16, 2 bfloat16
 *   MMRANK_BUG (optional) drop the last k step: a deliberately wrong kernel
 *              used by check/gpu to prove verification can fail
 *
 * Launch: grid (ceil(N/BN), ceil(M/BM)), block NW*32, dynamic shared memory
 * BK*(BM+1 + BN+1)*4 bytes (float tiles, padded against bank conflicts).
 *
 * Also here (compiled once per DT with BM=BN=BK=16 NW=1 ...): fill_kernel
 * (random non-zero inputs) and cmp_kernel (error norms vs a reference).
 */

#if DT == 0
typedef float elem_t;
__device__ __forceinline__ float to_f(elem_t x) { return x; }
__device__ __forceinline__ elem_t from_f(float f) { return f; }
#elif DT == 1
typedef unsigned short elem_t;
__device__ __forceinline__ float to_f(elem_t x)
{
	float f;
	asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(x));
	return f;
}
__device__ __forceinline__ elem_t from_f(float f)
{
	unsigned short h;
	asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
	return h;
}
#elif DT == 2
typedef unsigned short elem_t;
__device__ __forceinline__ float to_f(elem_t x)
{
	return __uint_as_float(((unsigned)x) << 16);
}
__device__ __forceinline__ elem_t from_f(float f)
{
	unsigned short h;
	asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(f));
	return h;
}
#else
#error "DT must be 0, 1 or 2"
#endif

#define NT (NW * 32)
#define TM (BM / TR)
#define TN (BN / TC)
#define LDA (BM + 1)
#define LDB (BN + 1)

#if (TR * TC) != NT || (BM % TR) != 0 || (BN % TC) != 0
#error "bad thread grid"
#endif

extern "C" __global__ void __launch_bounds__(NT)
mm_kernel(const elem_t *__restrict__ A, const elem_t *__restrict__ B,
          elem_t *__restrict__ C, int M, int N, int K,
          long long sam, long long sak, long long sbk, long long sbn)
{
	extern __shared__ float smem[];
	float *As = smem;             /* [BK][LDA], As[kk*LDA + i] = A[m0+i, k0+kk] */
	float *Bs = smem + BK * LDA;  /* [BK][LDB], Bs[kk*LDB + j] = B[k0+kk, n0+j] */
	const int tid = threadIdx.x;
	const int tc = tid % TC, tr = tid / TC;
	const long long m0 = (long long)blockIdx.y * BM;
	const long long n0 = (long long)blockIdx.x * BN;
#ifdef MMRANK_BUG
	const int Kend = K - 1;
#else
	const int Kend = K;
#endif
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.0f;

	for (int k0 = 0; k0 < Kend; k0 += BK) {
		if (sak == 1) { /* row-major A: consecutive threads along k */
			for (int e = tid; e < BM * BK; e += NT) {
				int kk = e % BK, i = e / BK;
				long long gi = m0 + i, gk = k0 + kk;
				As[kk * LDA + i] = (gi < M && gk < Kend)
					? to_f(A[gi * sam + gk * sak]) : 0.0f;
			}
		} else {        /* column-major A: consecutive threads along m */
			for (int e = tid; e < BM * BK; e += NT) {
				int i = e % BM, kk = e / BM;
				long long gi = m0 + i, gk = k0 + kk;
				As[kk * LDA + i] = (gi < M && gk < Kend)
					? to_f(A[gi * sam + gk * sak]) : 0.0f;
			}
		}
		if (sbn == 1) { /* row-major B: consecutive threads along n */
			for (int e = tid; e < BN * BK; e += NT) {
				int j = e % BN, kk = e / BN;
				long long gj = n0 + j, gk = k0 + kk;
				Bs[kk * LDB + j] = (gj < N && gk < Kend)
					? to_f(B[gk * sbk + gj * sbn]) : 0.0f;
			}
		} else {
			for (int e = tid; e < BN * BK; e += NT) {
				int kk = e % BK, j = e / BK;
				long long gj = n0 + j, gk = k0 + kk;
				Bs[kk * LDB + j] = (gj < N && gk < Kend)
					? to_f(B[gk * sbk + gj * sbn]) : 0.0f;
			}
		}
		__syncthreads();
#pragma unroll 4
		for (int kk = 0; kk < BK; kk++) {
			float a[TM], b[TN];
#pragma unroll
			for (int i = 0; i < TM; i++)
				a[i] = As[kk * LDA + tr + i * TR];
#pragma unroll
			for (int j = 0; j < TN; j++)
				b[j] = Bs[kk * LDB + tc + j * TC];
#pragma unroll
			for (int i = 0; i < TM; i++)
#pragma unroll
				for (int j = 0; j < TN; j++)
					acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
		}
		__syncthreads();
	}
#pragma unroll
	for (int i = 0; i < TM; i++) {
		long long gi = m0 + tr + i * TR;
		if (gi >= M)
			continue;
#pragma unroll
		for (int j = 0; j < TN; j++) {
			long long gj = n0 + tc + j * TC;
			if (gj < N)
				C[gi * N + gj] = from_f(acc[i][j]);
		}
	}
}

/* Fill x[0..n) with pseudo-random values uniform in ±[1/1024, 1) (never
 * zero), a function of (seed, index) only. */
extern "C" __global__ void fill_kernel(elem_t *x, long long n,
                                       unsigned long long seed)
{
	for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	     i < n; i += (long long)gridDim.x * blockDim.x) {
		unsigned long long z = seed + 0x9E3779B97F4A7C15ull * (unsigned long long)(i + 1);
		z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
		z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
		z ^= z >> 31;
		float u = (float)(z >> 40) * (1.0f / 16777216.0f); /* [0,1) */
		u = u * (1.0f - 1.0f / 1024.0f) + 1.0f / 1024.0f;
		x[i] = from_f((z & 1) ? -u : u);
	}
}

/* out[0] += sum (c-r)^2, out[1] += sum r^2 (double), out[2] += number of
 * non-finite c values (as a double).  Launch with 256 threads. */
extern "C" __global__ void cmp_kernel(const elem_t *c, const elem_t *r,
                                      long long n, double *out)
{
	__shared__ double s0[256], s1[256], s2[256];
	double d2 = 0.0, r2 = 0.0, bad = 0.0;
	for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	     i < n; i += (long long)gridDim.x * blockDim.x) {
		float cv = to_f(c[i]), rv = to_f(r[i]);
		if (!isfinite(cv)) {
			bad += 1.0;
			continue;
		}
		double d = (double)cv - (double)rv;
		d2 += d * d;
		r2 += (double)rv * (double)rv;
	}
	s0[threadIdx.x] = d2;
	s1[threadIdx.x] = r2;
	s2[threadIdx.x] = bad;
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if ((int)threadIdx.x < s) {
			s0[threadIdx.x] += s0[threadIdx.x + s];
			s1[threadIdx.x] += s1[threadIdx.x + s];
			s2[threadIdx.x] += s2[threadIdx.x + s];
		}
		__syncthreads();
	}
	if (threadIdx.x == 0) {
		atomicAdd(&out[0], s0[0]);
		atomicAdd(&out[1], s1[0]);
		atomicAdd(&out[2], s2[0]);
	}
}
