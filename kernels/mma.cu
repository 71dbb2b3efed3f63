/* kernels/mma.cu — tensor-core GEMM template compiled at run time by NVRTC
 * (a kernel family for bench to choose from).  Self-contained: no #include;
 * compiles with NVRTC --gpu-architecture=sm_90 (and nvcc -arch=sm_90 -cubin).
 *
 * Computes C[M,N] = A[M,K] @ B[K,N] with torch.mm semantics, the same
 * convention as kernels/mm.cu: A and B are strided views
 * (A[i,l] = A[i*sam + l*sak], B[l,j] = B[l*sbk + j*sbn], strides in
 * elements, any values), C is row-major contiguous (C[i,j] = C[i*N + j]),
 * all of element type DT; accumulation in float32.  Any M, N, K >= 1.
 *
 * Compile-time defines:
 *   BM BN BK  block tile (post-shrink, spec §3.5); BM, BN, BK multiples of
 *             16, BM % (16*WM) == 0 and BN % (8*WN) == 0 for the warp grid
 *             WM x WN chosen below (always possible for Inductor's configs
 *             shrunk by §3.5, which keeps NW <= BM*BN/256).
 *   NW        warps per block (NW*32 threads)
 *   STAGES    cp.async pipeline depth (shared-memory stages), >= 1
 *   DT        0 float32, 1 float16, 2 bfloat16
 *   TF32      (optional, default 0; only with DT 0) 1 = float32 through the
 *             tensor cores as tf32 (mma m16n8k8, operands rounded with
 *             cvt.rna.tf32.f32), as torch with allow_tf32; 0 = exact float32
 *             FFMA path on the CUDA cores
 *   SPLITK    (optional, default 0) 1 = split-K variant: gridDim.z = S > 1
 *             slices of the k-tiles; slice z writes its float32 partial sum
 *             to the workspace W[z][M][N] (deterministic, no atomics) and
 *             mma_splitk_reduce sums the S slices into C.
 *
 * Paths: DT 1/2 -> mma.sync m16n8k16 f16/bf16 (fp32 accumulate), fragments
 * through ldmatrix (.trans for m-major A / n-major B); DT 0 TF32 1 -> mma.sync
 * m16n8k8 tf32, fragments by conflict-free 32-bit shared loads; DT 0 TF32 0
 * -> FFMA register tiles.  Shared memory is padded (16 B per k-major row,
 * 8 elements per m/n-major row) so ldmatrix and the scalar loads are free of
 * bank conflicts.  Each operand tile is kept in the layout of its global
 * memory (k-major when its k stride is 1, or when neither stride is 1;
 * m/n-major when that stride is 1): four instantiations, chosen per launch.
 * Global -> shared: a STAGES-deep cp.async pipeline.  Per operand and launch
 * the widest copy that alignment allows is used: 16 bytes (or 4 bytes
 * for float32) (base
 * pointer and leading stride in bytes multiples of the width, contiguous
 * stride 1); edge chunks use cp.async's src-size (zero fill, nothing read
 * out of bounds); otherwise (non-unit strides, odd leading dimension of a
 * 16-bit operand) predicated element loads.
 *
 * Launch contract (all kernels extern "C"):
 *   mma_kernel(const elem_t *A, const elem_t *B, void *C, int M, int N, int K,
 *              long long sam, long long sak, long long sbk, long long sbn)
 *     grid (ceil(N/BN), ceil(M/BM), SPLITK ? S : 1), block (NW*32),
 *     dynamic shared memory MMA_SMEM_BYTES bytes =
 *       STAGES * (max(BM*(BK+16/es), BK*(BM+8)) + max(BN*(BK+16/es), BK*(BN+8))) * es
 *     with es = sizeof(elem_t) (4 for DT 0, else 2); above 48 KiB the host
 *     must raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES (the device
 *     allows 232448 B).  The same value is in the module as the __device__
 *     int mma_smem_bytes (cuModuleGetGlobal).
 *     C: elem_t[M*N] when SPLITK is 0; float W[S*M*N] workspace otherwise
 *     (S*M*N*4 bytes), every element of it written.
 *   mma_splitk_reduce(const float *W, elem_t *C, long long MN, int S)
 *     (SPLITK modules only) C[i] = sum_z W[z*MN + i]; block 256, any grid
 *     (grid-stride loop), e.g. min(ceil(MN/256), 4096).
 *   fill_kernel(elem_t *x, long long n, unsigned long long seed)
 *     uniform random non-zero values in ±[1/1024, 1), as in mm.cu.
 *   cmp_kernel(const elem_t *c, const float *r, long long n, double *out)
 *     block 256: out[0] += sum (c-r)^2, out[1] += sum r^2, out[2] += count of
 *     non-finite c; out[3] = max |c-r|, out[4] = max |r| (as doubles,
 *     updated with 64-bit integer atomicMax: non-negative doubles order as
 *     their bit patterns).  out must be zeroed first.
 *
 * Choice id (spec §1.2 style, M K N order):
 *   type=nvrtc_mma_BLOCK-M=<BM>_BLOCK-K=<BK>_BLOCK-N=<BN>_numstages=<STAGES>_numwarps=<NW>
 *   plus _splitk=<S> for split-K launches (S = gridDim.z).
 * Errors: an invalid define combination is a compile-time #error /
 * static_assert (NVRTC fails; the caller records inf).
 */

#ifndef TF32
#define TF32 0
#endif
#ifndef SPLITK
#define SPLITK 0
#endif
#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(NW) || !defined(STAGES) || !defined(DT)
#error "BM BN BK NW STAGES DT must be defined"
#endif
#if (BM % 16) || (BN % 16) || (BK % 16) || STAGES < 1 || NW < 1
#error "BM, BN, BK must be multiples of 16, STAGES >= 1, NW >= 1"
#endif
#if TF32 && DT != 0
#error "TF32 needs DT 0"
#endif

#if DT == 0
typedef float elem_t;
#define ES 4
__device__ __forceinline__ float to_f(elem_t x) { return x; }
__device__ __forceinline__ elem_t from_f(float f) { return f; }
#elif DT == 1
typedef unsigned short elem_t;
#define ES 2
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
#define ES 2
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
#define USE_MMA (DT != 0 || TF32)

__host__ __device__ constexpr int imax_(int a, int b) { return a > b ? a : b; }
__host__ __device__ constexpr int iabs_(int a) { return a < 0 ? -a : a; }

/* shared-memory layout (elements): k-major rows of LK, m/n-major rows of LR */
constexpr int PADK = 16 / ES;
constexpr int PADR = 8;
constexpr int LKA = BK + PADK;   /* A k-major: As[i][k] */
constexpr int LRA = BM + PADR;   /* A m-major: As[k][i] */
constexpr int LKB = BK + PADK;   /* B k-major: Bs[j][k] */
constexpr int LRB = BN + PADR;   /* B n-major: Bs[k][j] */
constexpr int A_STAGE = imax_(BM * LKA, BK * LRA);
constexpr int B_STAGE = imax_(BN * LKB, BK * LRB);
constexpr int SMEM_BYTES = STAGES * (A_STAGE + B_STAGE) * ES;

extern "C" __device__ int mma_smem_bytes = SMEM_BYTES;

#if USE_MMA
/* warp grid for the mma path: WM x WN warps, warp tile as square as possible */
__host__ __device__ constexpr int pick_wm()
{
	int best = 0, bs = 1 << 30;
	for (int wm = 1; wm <= NW; wm *= 2) {
		int wn = NW / wm;
		if (wm * wn != NW || BM % (wm * 16) || BN % (wn * 8))
			continue;
		int s = iabs_(BM / wm - BN / wn);
		if (s < bs) {
			bs = s;
			best = wm;
		}
	}
	return best;
}
constexpr int WM = pick_wm();
constexpr int WN = WM ? NW / WM : 1;
constexpr int WTM = WM ? BM / WM : 16;
constexpr int WTN = BN / WN;
constexpr int MI = WTM / 16;
constexpr int NI = WTN / 8;
#else

/* thread grid for the FFMA path: TR x TC threads, TM x TN outputs each */
constexpr int FP = (BM * BN) / NT;
__host__ __device__ constexpr int pick_tm()
{
	int best = 0, bs = 1 << 30;
	for (int tm = 1; tm <= 64; tm *= 2) {
		if (FP % tm)
			continue;
		int tn = FP / tm;
		if (tm > BM || tn > BN || BM % tm || BN % tn)
			continue;
		int s = iabs_(tm - tn) * 2 + (tm < tn);
		if (s < bs) {
			bs = s;
			best = tm;
		}
	}
	return best;
}
constexpr int TM = pick_tm();
constexpr int TN = TM ? FP / TM : 1;
constexpr int TR = TM ? BM / TM : 1;
constexpr int TC = BN / TN;
#endif

#if USE_MMA
static_assert(WM > 0, "no warp grid fits BM, BN, NW");
#else
static_assert((BM * BN) % NT == 0 && TM > 0 && TR * TC == NT, "no thread grid fits BM, BN, NW");
#endif

/* ---- PTX helpers ---------------------------------------------------------- */

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

template <int VW>
__device__ __forceinline__ void cp_async(unsigned dst, const void *src, int bytes)
{
	if (VW == 16)
		asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n"
		             :: "r"(dst), "l"(src), "r"(bytes) : "memory");
	else
		asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n"
		             :: "r"(dst), "l"(src), "n"(VW), "r"(bytes) : "memory");
}

__device__ __forceinline__ void cp_commit()
{
	asm volatile("cp.async.commit_group;\n" ::: "memory");
}

template <int N_>
__device__ __forceinline__ void cp_wait()
{
	asm volatile("cp.async.wait_group %0;\n" :: "n"(N_) : "memory");
}

__device__ __forceinline__ void ldsm_x4(unsigned addr, unsigned &r0, unsigned &r1,
                                        unsigned &r2, unsigned &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x4_t(unsigned addr, unsigned &r0, unsigned &r1,
                                          unsigned &r2, unsigned &r3)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
	             : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x2(unsigned addr, unsigned &r0, unsigned &r1)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
	             : "=r"(r0), "=r"(r1) : "r"(addr));
}
__device__ __forceinline__ void ldsm_x2_t(unsigned addr, unsigned &r0, unsigned &r1)
{
	asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
	             : "=r"(r0), "=r"(r1) : "r"(addr));
}

__device__ __forceinline__ void mma16816(float *d, const unsigned *a, const unsigned *b)
{
#if DT == 1
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
#else
	asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
#endif
	             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ void mma1688tf32(float *d, const unsigned *a, const unsigned *b)
{
	asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
	             "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
	             : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

__device__ __forceinline__ unsigned to_tf32(float f)
{
	unsigned r;
	asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(f));
	return r;
}

/* ---- global -> shared tile loads ------------------------------------------
 * Operand X[r, k] = X[r*sr + k*sk], r < NR (rows: M for A, N for B), k < K.
 * Tile rows r0 .. r0+R-1, columns k0 .. k0+BK-1.  KM: layout Xs[r*(BK+PADK)+k]
 * (k-major) else Xs[k*(R+PADR)+r].  Out-of-range elements become 0. */

template <int R, bool KM, int VW>
__device__ __forceinline__ void load_vec(elem_t *Xs, const elem_t *X, long long sr,
                                         long long sk, int NR, int K, long long r0, int k0)
{
	constexpr int CE = VW / ES;             /* elements per chunk */
	if (KM && NT % (BK / CE) == 0) {        /* sk == 1: pointer steps */
		constexpr int CPR = BK / CE;
		constexpr int TOT = R * CPR;
		constexpr int RSTEP = NT / CPR;
		const int rf = (int)threadIdx.x / CPR, kc = ((int)threadIdx.x % CPR) * CE;
		const int gk = k0 + kc;
		int v = K - gk;
		v = v < 0 ? 0 : (v > CE ? CE : v);
		const int kb = v * ES;
		const elem_t *p = X + (r0 + rf) * sr + gk;
		const long long step = (long long)RSTEP * sr;
		const unsigned dst = smem_u32(Xs + rf * (BK + PADK) + kc);
#pragma unroll
		for (int it = 0; it < (TOT + NT - 1) / NT; it++) {
			const int r = rf + it * RSTEP;
			if (TOT % NT == 0 || r < R) {
				const int bytes = r0 + r < NR ? kb : 0;
				cp_async<VW>(dst + it * RSTEP * (BK + PADK) * ES, bytes ? p : X, bytes);
			}
			p += step;
		}
	} else if (!KM && NT % (R / CE) == 0) { /* sr == 1: pointer steps */
		constexpr int CPK = R / CE;
		constexpr int TOT = BK * CPK;
		constexpr int KSTEP = NT / CPK;
		const int kf = (int)threadIdx.x / CPK, rc = ((int)threadIdx.x % CPK) * CE;
		const long long gr = r0 + rc;
		long long v = (long long)NR - gr;
		v = v < 0 ? 0 : (v > CE ? CE : v);
		const int vb = (int)v * ES;
		const elem_t *p = X + (long long)(k0 + kf) * sk + gr;
		const long long step = (long long)KSTEP * sk;
		const unsigned dst = smem_u32(Xs + kf * (R + PADR) + rc);
#pragma unroll
		for (int it = 0; it < (TOT + NT - 1) / NT; it++) {
			const int kk = kf + it * KSTEP;
			if (TOT % NT == 0 || kk < BK) {
				const int bytes = k0 + kk < K ? vb : 0;
				cp_async<VW>(dst + it * KSTEP * (R + PADR) * ES, bytes ? p : X, bytes);
			}
			p += step;
		}
	} else if (KM) {
		constexpr int CPR = BK / CE;
		constexpr int TOT = R * CPR;
#pragma unroll (VW == 16 ? 16 : 1)
		for (int c0 = 0; c0 < TOT; c0 += NT) {
			int c = c0 + (int)threadIdx.x;
			if (TOT % NT == 0 || c < TOT) {
				int r = c / CPR, kc = (c % CPR) * CE;
				long long gr = r0 + r;
				int gk = k0 + kc;
				int v = K - gk;
				v = v < 0 ? 0 : (v > CE ? CE : v);
				int bytes = gr < NR ? v * ES : 0;
				const elem_t *src = bytes ? X + gr * sr + gk : X;
				cp_async<VW>(smem_u32(Xs + r * (BK + PADK) + kc), src, bytes);
			}
		}
	} else {                                /* sr == 1 */
		constexpr int CPK = R / CE;
		constexpr int TOT = BK * CPK;
#pragma unroll (VW == 16 ? 16 : 1)
		for (int c0 = 0; c0 < TOT; c0 += NT) {
			int c = c0 + (int)threadIdx.x;
			if (TOT % NT == 0 || c < TOT) {
				int kk = c / CPK, rc = (c % CPK) * CE;
				long long gr = r0 + rc;
				int gk = k0 + kk;
				long long v = (long long)NR - gr;
				v = v < 0 ? 0 : (v > CE ? CE : v);
				int bytes = gk < K ? (int)v * ES : 0;
				const elem_t *src = bytes ? X + (long long)gk * sk + gr : X;
				cp_async<VW>(smem_u32(Xs + kk * (R + PADR) + rc), src, bytes);
			}
		}
	}
}

template <int R, bool KM>
__device__ __forceinline__ void load_elem(elem_t *Xs, const elem_t *X, long long sr,
                                          long long sk, int NR, int K, long long r0, int k0)
{
	for (int e = threadIdx.x; e < R * BK; e += NT) {
		int r, kk;
		if (KM) {
			r = e / BK;
			kk = e % BK;
		} else {
			kk = e / R;
			r = e % R;
		}
		long long gr = r0 + r;
		int gk = k0 + kk;
		elem_t v = (elem_t)0;
		if (gr < NR && gk < K)
			v = X[gr * sr + (long long)gk * sk];
		if (KM)
			Xs[r * (BK + PADK) + kk] = v;
		else
			Xs[kk * (R + PADR) + r] = v;
	}
}

template <int R, bool KM>
__device__ __forceinline__ void load_tile(int vw, elem_t *Xs, const elem_t *X, long long sr,
                                          long long sk, int NR, int K, long long r0, int k0)
{
	if (vw == 16)
		load_vec<R, KM, 16>(Xs, X, sr, sk, NR, K, r0, k0);
#if ES == 4
	else if (vw == 4)
		load_vec<R, KM, 4>(Xs, X, sr, sk, NR, K, r0, k0);
#endif
	else
		load_elem<R, KM>(Xs, X, sr, sk, NR, K, r0, k0);
}

/* widest cp.async width (16 bytes; 4 for float32) usable for an operand whose tile
 * rows are contiguous with stride sc == 1 and lead stride sl over nl rows;
 * 0 = element loads. */
__device__ __forceinline__ int pick_vw(const void *p, long long sc, long long sl, long long nl)
{
	if (sc != 1)
		return 0;
	unsigned long long a = (unsigned long long)p;
	if (a % 16 == 0 && (nl == 1 || ((sl * ES) % 16) == 0))
		return 16;
	return ES == 4 ? 4 : 0;  /* float32 elements are always 4-byte aligned */
}

/* ---- compute on one shared-memory stage ----------------------------------- */

#if USE_MMA
template <bool AKM, bool BKM, int K0, int K1>
__device__ __forceinline__ void compute_stage(const elem_t *As, const elem_t *Bs,
                                              float (&acc)[MI][NI][4], int wm0, int wn0, int lane)
{
#if DT != 0
#pragma unroll
	for (int kk = K0; kk < K1; kk += 16) {
		unsigned af[MI][4], bf[NI][2];
#pragma unroll
		for (int mi = 0; mi < MI; mi++) {
			if (AKM) {
				const elem_t *p = As + (wm0 + mi * 16 + (lane & 15)) * LKA + kk + (lane >> 4) * 8;
				ldsm_x4(smem_u32(p), af[mi][0], af[mi][1], af[mi][2], af[mi][3]);
			} else {
				const elem_t *p = As + (kk + (lane & 7) + (lane >> 4) * 8) * LRA
				                  + wm0 + mi * 16 + ((lane >> 3) & 1) * 8;
				ldsm_x4_t(smem_u32(p), af[mi][0], af[mi][1], af[mi][2], af[mi][3]);
			}
		}
#pragma unroll
		for (int ni = 0; ni + 1 < NI; ni += 2) {
			if (BKM) {
				const elem_t *p = Bs + (wn0 + ni * 8 + (lane & 7) + (lane >> 4) * 8) * LKB
				                  + kk + ((lane >> 3) & 1) * 8;
				ldsm_x4(smem_u32(p), bf[ni][0], bf[ni][1], bf[ni + 1][0], bf[ni + 1][1]);
			} else {
				const elem_t *p = Bs + (kk + (lane & 7) + ((lane >> 3) & 1) * 8) * LRB
				                  + wn0 + ni * 8 + (lane >> 4) * 8;
				ldsm_x4_t(smem_u32(p), bf[ni][0], bf[ni][1], bf[ni + 1][0], bf[ni + 1][1]);
			}
		}
		if (NI & 1) {
			constexpr int ni = NI - 1;
			if (BKM) {
				const elem_t *p = Bs + (wn0 + ni * 8 + (lane & 7)) * LKB + kk + ((lane >> 3) & 1) * 8;
				ldsm_x2(smem_u32(p), bf[ni][0], bf[ni][1]);
			} else {
				const elem_t *p = Bs + (kk + (lane & 7) + ((lane >> 3) & 1) * 8) * LRB + wn0 + ni * 8;
				ldsm_x2_t(smem_u32(p), bf[ni][0], bf[ni][1]);
			}
		}
#pragma unroll
		for (int mi = 0; mi < MI; mi++)
#pragma unroll
			for (int ni = 0; ni < NI; ni++)
				mma16816(acc[mi][ni], af[mi], bf[ni]);
	}
#else /* tf32 */
	const int g = lane >> 2, t = lane & 3;
#pragma unroll
	for (int kk = K0; kk < K1; kk += 8) {
		unsigned af[MI][4], bf[NI][2];
#pragma unroll
		for (int mi = 0; mi < MI; mi++) {
			int r = wm0 + mi * 16 + g;
			if (AKM) {
				af[mi][0] = to_tf32(As[r * LKA + kk + t]);
				af[mi][1] = to_tf32(As[(r + 8) * LKA + kk + t]);
				af[mi][2] = to_tf32(As[r * LKA + kk + t + 4]);
				af[mi][3] = to_tf32(As[(r + 8) * LKA + kk + t + 4]);
			} else {
				af[mi][0] = to_tf32(As[(kk + t) * LRA + r]);
				af[mi][1] = to_tf32(As[(kk + t) * LRA + r + 8]);
				af[mi][2] = to_tf32(As[(kk + t + 4) * LRA + r]);
				af[mi][3] = to_tf32(As[(kk + t + 4) * LRA + r + 8]);
			}
		}
#pragma unroll
		for (int ni = 0; ni < NI; ni++) {
			int c = wn0 + ni * 8 + g;
			if (BKM) {
				bf[ni][0] = to_tf32(Bs[c * LKB + kk + t]);
				bf[ni][1] = to_tf32(Bs[c * LKB + kk + t + 4]);
			} else {
				bf[ni][0] = to_tf32(Bs[(kk + t) * LRB + c]);
				bf[ni][1] = to_tf32(Bs[(kk + t + 4) * LRB + c]);
			}
		}
#pragma unroll
		for (int mi = 0; mi < MI; mi++)
#pragma unroll
			for (int ni = 0; ni < NI; ni++)
				mma1688tf32(acc[mi][ni], af[mi], bf[ni]);
	}
#endif
}
#else /* FFMA */
template <bool AKM, bool BKM, int K0, int K1>
__device__ __forceinline__ void compute_stage(const elem_t *As, const elem_t *Bs,
                                              float (&acc)[TM][TN], int tr, int tc)
{
#pragma unroll 4
	for (int kk = K0; kk < K1; kk++) {
		float a[TM], b[TN];
#pragma unroll
		for (int i = 0; i < TM; i++)
			a[i] = AKM ? As[(tr + i * TR) * LKA + kk] : As[kk * LRA + tr + i * TR];
#pragma unroll
		for (int j = 0; j < TN; j++)
			b[j] = BKM ? Bs[(tc + j * TC) * LKB + kk] : Bs[kk * LRB + tc + j * TC];
#pragma unroll
		for (int i = 0; i < TM; i++)
#pragma unroll
			for (int j = 0; j < TN; j++)
				acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
	}
}
#endif

/* ---- output ---------------------------------------------------------------- */

#if SPLITK
typedef float out_t;
__device__ __forceinline__ void store2(out_t *p, float x, float y)
{
	*(float2 *)p = make_float2(x, y);
}
__device__ __forceinline__ out_t cvt_out(float f) { return f; }
#else
typedef elem_t out_t;
__device__ __forceinline__ out_t cvt_out(float f) { return from_f(f); }
__device__ __forceinline__ void store2(out_t *p, float x, float y)
{
#if DT == 0
	*(float2 *)p = make_float2(x, y);
#else
	unsigned v = (unsigned)from_f(x) | ((unsigned)from_f(y) << 16);
	*(unsigned *)p = v;
#endif
}
#endif

/* k split of one stage around the next stage's load issue */
constexpr int KH = DT != 0 ? (BK >= 32 ? 16 : BK) : BK / 2;

/* ---- the kernel -------------------------------------------------------------- */

#if USE_MMA
#define ACC_T float (&acc)[MI][NI][4]
#define COMPUTE(st, K0_, K1_) compute_stage<AKM, BKM, K0_, K1_>(As0 + (st) * A_STAGE, Bs0 + (st) * B_STAGE, acc, wm0, wn0, lane)
#else
#define ACC_T float (&acc)[TM][TN]
#define COMPUTE(st, K0_, K1_) compute_stage<AKM, BKM, K0_, K1_>(As0 + (st) * A_STAGE, Bs0 + (st) * B_STAGE, acc, tr, tc)
#endif
#define LOAD_STAGE(st, kt) do { \
		load_tile<BM, AKM>(vwA, As0 + (st) * A_STAGE, A, sam, sak, M, K, m0, (kt) * BK); \
		load_tile<BN, BKM>(vwB, Bs0 + (st) * B_STAGE, B, sbn, sbk, N, K, n0, (kt) * BK); \
	} while (0)

/* k-tiles kt0 .. kt0+nk-1 of the block's tile into acc (one instantiation
 * per tile layout; the epilogue is shared). */
template <bool AKM, bool BKM>
__device__ __forceinline__ void mainloop(ACC_T, const elem_t *__restrict__ A,
                                         const elem_t *__restrict__ B, int M, int N, int K,
                                         long long sam, long long sak, long long sbk,
                                         long long sbn, int vwA, int vwB, long long m0,
                                         long long n0, int kt0, int nk, int wm0, int wn0,
                                         int lane, int tr, int tc)
{
	extern __shared__ __align__(16) unsigned char smem_raw[];
	elem_t *As0 = (elem_t *)smem_raw;
	elem_t *Bs0 = As0 + STAGES * A_STAGE;
	(void)wm0; (void)wn0; (void)lane; (void)tr; (void)tc;
#if STAGES == 1
	for (int i = 0; i < nk; i++) {
		LOAD_STAGE(0, kt0 + i);
		cp_commit();
		cp_wait<0>();
		__syncthreads();
		COMPUTE(0, 0, BK);
		__syncthreads();
	}
#else
#pragma unroll
	for (int s = 0; s < STAGES - 1; s++) {
		if (s < nk)
			LOAD_STAGE(s, kt0 + s);
		cp_commit();
	}
	int st = 0, ld = STAGES - 1;
	for (int i = 0; i < nk; i++) {
		cp_wait<STAGES - 2>();
		__syncthreads();
		/* first k-step of this stage, then the next stage's loads, then
		 * the rest: the copies issue while the tensor cores work */
		COMPUTE(st, 0, KH);
		if (i + STAGES - 1 < nk)
			LOAD_STAGE(ld, kt0 + i + STAGES - 1);
		cp_commit();
		COMPUTE(st, KH, BK);
		st = st + 1 == STAGES ? 0 : st + 1;
		ld = ld + 1 == STAGES ? 0 : ld + 1;
	}
#endif
}
#undef LOAD_STAGE
#undef COMPUTE

extern "C" __global__ void __launch_bounds__(NT)
mma_kernel(const elem_t *__restrict__ A, const elem_t *__restrict__ B, void *__restrict__ Cv,
           int M, int N, int K, long long sam, long long sak, long long sbk, long long sbn)
{
	out_t *C = (out_t *)Cv;
	const int tid = threadIdx.x;
	const long long m0 = (long long)blockIdx.y * BM;
	const long long n0 = (long long)blockIdx.x * BN;
	const int nkt = (K + BK - 1) / BK;
	int kt0 = 0, nk = nkt;
#if SPLITK
	{
		int per = (nkt + gridDim.z - 1) / gridDim.z;
		kt0 = blockIdx.z * per;
		int e = kt0 + per < nkt ? kt0 + per : nkt;
		nk = e > kt0 ? e - kt0 : 0;
		C += (long long)blockIdx.z * M * N;
	}
#endif
	const int lane = tid & 31, warp = tid >> 5;
#if USE_MMA
	const int wm0 = (warp / WN) * WTM, wn0 = (warp % WN) * WTN;
	const int tr = 0, tc = 0;
	float acc[MI][NI][4];
#pragma unroll
	for (int i = 0; i < MI; i++)
#pragma unroll
		for (int j = 0; j < NI; j++)
#pragma unroll
			for (int q = 0; q < 4; q++)
				acc[i][j][q] = 0.0f;
#else
	const int wm0 = 0, wn0 = 0;
	const int tr = tid / TC, tc = tid % TC;
	float acc[TM][TN];
#pragma unroll
	for (int i = 0; i < TM; i++)
#pragma unroll
		for (int j = 0; j < TN; j++)
			acc[i][j] = 0.0f;
#endif
	(void)warp;

	/* tile layout per operand: k-major when k stride is 1 or no stride is 1 */
	const bool akm = sak == 1 || sam != 1;
	const bool bkm = sbk == 1 || sbn != 1;
	const int vwA = akm ? pick_vw(A, sak, sam, M) : pick_vw(A, sam, sak, K);
	const int vwB = bkm ? pick_vw(B, sbk, sbn, N) : pick_vw(B, sbn, sbk, K);
#define ARGS acc, A, B, M, N, K, sam, sak, sbk, sbn, vwA, vwB, m0, n0, kt0, nk, wm0, wn0, lane, tr, tc
	if (akm) {
		if (bkm)
			mainloop<true, true>(ARGS);
		else
			mainloop<true, false>(ARGS);
	} else {
		if (bkm)
			mainloop<false, true>(ARGS);
		else
			mainloop<false, false>(ARGS);
	}
#undef ARGS

	/* epilogue: predicated stores; pairs when N is even */
#if USE_MMA
	const bool pair = (N & 1) == 0;
	const int g = lane >> 2, t = lane & 3;
#pragma unroll
	for (int mi = 0; mi < MI; mi++) {
#pragma unroll
		for (int h = 0; h < 2; h++) {
			long long gi = m0 + wm0 + mi * 16 + g + h * 8;
			if (gi >= M)
				continue;
			out_t *row = C + gi * N;
#pragma unroll
			for (int ni = 0; ni < NI; ni++) {
				long long gj = n0 + wn0 + ni * 8 + 2 * t;
				float x = acc[mi][ni][2 * h], y = acc[mi][ni][2 * h + 1];
				if (pair && gj + 1 < N) {
					store2(row + gj, x, y);
				} else {
					if (gj < N)
						row[gj] = cvt_out(x);
					if (gj + 1 < N)
						row[gj + 1] = cvt_out(y);
				}
			}
		}
	}
#else
#pragma unroll
	for (int i = 0; i < TM; i++) {
		long long gi = m0 + tr + i * TR;
		if (gi >= M)
			continue;
#pragma unroll
		for (int j = 0; j < TN; j++) {
			long long gj = n0 + tc + j * TC;
			if (gj < N)
				C[gi * N + gj] = cvt_out(acc[i][j]);
		}
	}
#endif
}

#if SPLITK
extern "C" __global__ void mma_splitk_reduce(const float *__restrict__ W, elem_t *__restrict__ C,
                                             long long MN, int S)
{
	for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < MN;
	     i += (long long)gridDim.x * blockDim.x) {
		float s = 0.0f;
		for (int z = 0; z < S; z++)
			s += W[(long long)z * MN + i];
		C[i] = from_f(s);
	}
}
#endif

/* ---- test helpers ------------------------------------------------------------ */

extern "C" __global__ void fill_kernel(elem_t *x, long long n, unsigned long long seed)
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

extern "C" __global__ void cmp_kernel(const elem_t *c, const float *r, long long n, double *out)
{
	__shared__ double s0[256], s1[256], s2[256], s3[256], s4[256];
	double d2 = 0.0, r2 = 0.0, bad = 0.0, md = 0.0, mr = 0.0;
	for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
	     i < n; i += (long long)gridDim.x * blockDim.x) {
		float cv = to_f(c[i]), rv = r[i];
		double ar = fabs((double)rv);
		mr = ar > mr ? ar : mr;
		if (!isfinite(cv)) {
			bad += 1.0;
			continue;
		}
		double d = (double)cv - (double)rv;
		d2 += d * d;
		r2 += (double)rv * (double)rv;
		md = fabs(d) > md ? fabs(d) : md;
	}
	const int x = threadIdx.x;
	s0[x] = d2; s1[x] = r2; s2[x] = bad; s3[x] = md; s4[x] = mr;
	__syncthreads();
	for (int s = 128; s > 0; s >>= 1) {
		if (x < s) {
			s0[x] += s0[x + s];
			s1[x] += s1[x + s];
			s2[x] += s2[x + s];
			s3[x] = s3[x] > s3[x + s] ? s3[x] : s3[x + s];
			s4[x] = s4[x] > s4[x + s] ? s4[x] : s4[x + s];
		}
		__syncthreads();
	}
	if (x == 0) {
		atomicAdd(&out[0], s0[0]);
		atomicAdd(&out[1], s1[0]);
		atomicAdd(&out[2], s2[0]);
		atomicMax((unsigned long long *)&out[3], (unsigned long long)__double_as_longlong(s3[0]));
		atomicMax((unsigned long long *)&out[4], (unsigned long long)__double_as_longlong(s4[0]));
	}
}
