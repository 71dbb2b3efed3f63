/* kernels/wgmma.cu — Hopper GEMM template compiled at run time by NVRTC
 * (mma.cu reached 45 % of cuBLAS at 8192^3 bf16; the target was 75 %).
 * Self-contained (no #include); compiles only with NVRTC
 * --gpu-architecture=sm_90a (wgmma and setmaxnreg need the "a" target).
 *
 * Computes C[M,N] = A[M,K] @ B[K,N] (torch.mm, fp32 accumulation) for fp16
 * and bf16, with the torch transposes of kernels/mma.cu's harness:
 *   ta = 0: A stored row-major (M,K) (K contiguous, "K-major")
 *   ta = 1: A stored row-major (K,M), used transposed ("M-major")
 *   tb = 0: B stored row-major (K,N) ("N-major")
 *   tb = 1: B stored row-major (N,K), used transposed ("K-major")
 * C is row-major contiguous (C[i*N + j]).  Any M, N, K >= 1 for which the
 * tensor maps exist (see the launch contract).
 *
 * Design:
 *  - one producer warpgroup (warpgroup 0; setmaxnreg.dec to 40) whose
 *    thread 0 loads A and B tiles with TMA (cp.async.bulk.tensor.2d, 128-byte
 *    swizzle) into a STAGES-deep ring of shared-memory stages; each stage has
 *    a "full" mbarrier (TMA transaction bytes) and an "empty" mbarrier (one
 *    arrival per consumer thread);
 *  - NC = NW/4 - 1 consumer warpgroups (setmaxnreg.inc); consumer w owns
 *    rows [w*WM, (w+1)*WM) of the BM x BN tile, WM = BM/NC in {64, 128},
 *    and issues wgmma.mma_async m64nBNk16 (fp32 accumulators in registers,
 *    both operands from shared memory through matrix descriptors); one
 *    wgmma group stays in flight while the next stage is waited for;
 *  - operands keep their global layout in shared memory: K-major tiles are
 *    BK/64 TMA boxes of {64 k, rows} (128-byte rows), MN-major tiles are
 *    BM/64 (BN/64) boxes of {64 m|n, BK k}; the descriptors' transpose bits
 *    (imm-trans-a/b) select MN-major operands;
 *  - TMA zero-fills out-of-bounds box elements, so edge tiles and any K need
 *    no special path; the epilogue stores the accumulators straight to C
 *    with per-element predicates (pairs when N is even);
 *  - the 1-D grid is rasterised in groups of GROUP_M tile rows for L2 reuse.
 *
 * Compile-time defines:
 *   BM BN BK  block tile: BN in {64, 128, 256}, BK a multiple of 64,
 *             BM = NC*WM with WM in {64, 128}
 *   STAGES    shared-memory stages (>= 2)
 *   NW        warps per block, a multiple of 4, >= 8 (NC = NW/4 - 1)
 *   DT        1 float16, 2 bfloat16
 *   GROUP_M   (optional, default 8) raster group height in tiles
 *
 * Launch contract (all kernels extern "C"):
 *   wgmma_kernel_<ta><tb>(const CUtensorMap tmA, const CUtensorMap tmB,
 *                         elem_t *C, int M, int N, int K)
 *     four kernels: wgmma_kernel_00, _01, _10, _11 (ta, tb as above);
 *     the tensor maps are passed by value (128-byte CUtensorMap,
 *     __grid_constant__), built with cuTensorMapEncodeTiled, rank 2,
 *     data type FLOAT16 / BFLOAT16, interleave NONE, swizzle 128B,
 *     element strides 1, OOB fill NONE (zeros):
 *       tmA, ta = 0: dims {K, M}, stride {K*2 B}, box {64, BM}
 *       tmA, ta = 1: dims {M, K}, stride {M*2 B}, box {64, BK}
 *       tmB, tb = 0: dims {N, K}, stride {N*2 B}, box {64, BK}
 *       tmB, tb = 1: dims {K, N}, stride {K*2 B}, box {64, BN}
 *     so the leading dimension in bytes (K*2, M*2, N*2 as above) must be a
 *     multiple of 16 and the base 16-byte aligned; otherwise the candidate
 *     is unavailable for that input.
 *     grid (ceil(M/BM) * ceil(N/BN), 1, 1), block (NW*32),
 *     dynamic shared memory WGMMA_SMEM_BYTES =
 *       STAGES * (BM + BN) * BK * 2 + 16 * STAGES + 1024
 *     (the 1024 aligns the stages for the 128-byte swizzle); the host must
 *     raise CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES to it (at most
 *     232448).  The same value is in the module as the __device__ int
 *     wgmma_smem_bytes (cuModuleGetGlobal).
 *
 * Choice id: type=nvrtc_wgmma_BLOCK-M=<BM>_BLOCK-K=<BK>_BLOCK-N=<BN>_numstages=<STAGES>_numwarps=<NW>
 * Errors: an invalid define combination is a compile-time #error (NVRTC
 * fails; the caller records the candidate as unavailable).
 */

#if !defined(BM) || !defined(BN) || !defined(BK) || !defined(NW) || !defined(STAGES) || !defined(DT)
#error "BM BN BK NW STAGES DT must be defined"
#endif
#ifndef GROUP_M
#define GROUP_M 8
#endif
#if (NW % 4) || NW < 8
#error "NW must be a multiple of 4, >= 8"
#endif
#define NC (NW / 4 - 1)
#if BM % NC
#error "BM must be a multiple of the consumer warpgroup count"
#endif
#define WM (BM / NC)
#if WM != 64 && WM != 128
#error "BM / (NW/4 - 1) must be 64 or 128"
#endif
#define MI (WM / 64)
#if BN != 64 && BN != 128 && BN != 256
#error "BN must be 64, 128 or 256"
#endif
#if (BK % 64) || BK < 64
#error "BK must be a multiple of 64"
#endif
#if STAGES < 2
#error "STAGES must be >= 2"
#endif

#if DT == 1
#define WG_TY "f16"
#define CVT2 "cvt.rn.f16x2.f32"
#define CVT1 "cvt.rn.f16.f32"
#elif DT == 2
#define WG_TY "bf16"
#define CVT2 "cvt.rn.bf16x2.f32"
#define CVT1 "cvt.rn.bf16.f32"
#else
#error "DT must be 1 (float16) or 2 (bfloat16)"
#endif
typedef unsigned short elem_t;

/* the driver's CUtensorMap: 128 opaque bytes, 64-byte aligned (cuda.h) */
struct __align__(64) CUtensorMap_ {
	unsigned long long opaque[16];
};

#define A_STAGE (BM * BK * 2)
#define B_STAGE (BN * BK * 2)
#define STAGE_BYTES (A_STAGE + B_STAGE)
#define WGMMA_SMEM_BYTES (STAGES * STAGE_BYTES + 16 * STAGES + 1024)
#if WGMMA_SMEM_BYTES > 232448
#error "shared memory over 232448 bytes"
#endif
#define REG_PRODUCER 40
#define REG_CONSUMER (NC == 1 ? 240 : NC == 2 ? 232 : 152)

extern "C" __device__ int wgmma_smem_bytes = WGMMA_SMEM_BYTES;

/* ---- PTX wrappers ---------------------------------------------------------- */

__device__ __forceinline__ unsigned smem_u32(const void *p)
{
	return (unsigned)__cvta_generic_to_shared(p);
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
	asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(unsigned bar, unsigned bytes)
{
	asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar), "r"(bytes)
	             : "memory");
}

__device__ __forceinline__ void mbar_arrive(unsigned bar)
{
	asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(bar) : "memory");
}

__device__ __forceinline__ void mbar_wait(unsigned bar, unsigned parity)
{
	unsigned ok;
	do {
		asm volatile("{\n.reg .pred p;\n"
		             "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
		             "selp.u32 %0, 1, 0, p;\n}\n"
		             : "=r"(ok)
		             : "r"(bar), "r"(parity)
		             : "memory");
	} while (!ok);
}

/* 2-D TMA load of one box at coordinates (c0 inner, c1 outer) into smem dst,
 * completing (transaction bytes) on mbarrier bar */
__device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap_ *map, int c0, int c1,
                                            unsigned bar)
{
	asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
	             " [%0], [%1, {%2, %3}], [%4];"
	             ::"r"(dst), "l"((unsigned long long)map), "r"(c0), "r"(c1), "r"(bar)
	             : "memory");
}

__device__ __forceinline__ void wgmma_fence() { asm volatile("wgmma.fence.sync.aligned;" ::: "memory"); }
__device__ __forceinline__ void wgmma_commit() { asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory"); }
template <int N>
__device__ __forceinline__ void wgmma_wait()
{
	asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/* shared-memory matrix descriptor, 128-byte swizzle; addresses/offsets in bytes */
__device__ __forceinline__ unsigned long long desc_sw128(unsigned addr, unsigned lbo, unsigned sbo)
{
	return (unsigned long long)((addr & 0x3FFFF) >> 4) |
	       ((unsigned long long)((lbo & 0x3FFFF) >> 4) << 16) |
	       ((unsigned long long)((sbo & 0x3FFFF) >> 4) << 32) | (1ull << 62);
}

/* ---- wgmma m64nNk16 wrappers (operand lists generated) ---------------------- */

template <int TRA, int TRB>
__device__ __forceinline__ void wgmma_n64(float *d, unsigned long long da, unsigned long long db, int scale_d)
{
	asm volatile("{\n"
	             ".reg .pred p;\n"
	             "setp.ne.b32 p, %34, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n64k16.f32." WG_TY "." WG_TY " "
	             "{"
	             "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
	             "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
	             "}, %32, %33, p, 1, 1, %35, %36;\n"
	             "}\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	               "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	               "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	               "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
	             : "l"(da), "l"(db), "r"(scale_d), "n"(TRA), "n"(TRB));
}

template <int TRA, int TRB>
__device__ __forceinline__ void wgmma_n128(float *d, unsigned long long da, unsigned long long db, int scale_d)
{
	asm volatile("{\n"
	             ".reg .pred p;\n"
	             "setp.ne.b32 p, %66, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n128k16.f32." WG_TY "." WG_TY " "
	             "{"
	             "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
	             "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
	             "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
	             "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
	             "}, %64, %65, p, 1, 1, %67, %68;\n"
	             "}\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	               "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	               "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	               "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	               "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	               "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	               "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	               "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
	             : "l"(da), "l"(db), "r"(scale_d), "n"(TRA), "n"(TRB));
}

template <int TRA, int TRB>
__device__ __forceinline__ void wgmma_n256(float *d, unsigned long long da, unsigned long long db, int scale_d)
{
	asm volatile("{\n"
	             ".reg .pred p;\n"
	             "setp.ne.b32 p, %130, 0;\n"
	             "wgmma.mma_async.sync.aligned.m64n256k16.f32." WG_TY "." WG_TY " "
	             "{"
	             "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15,"
	             "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31,"
	             "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47,"
	             "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63,"
	             "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79,"
	             "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95,"
	             "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111,"
	             "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
	             "}, %128, %129, p, 1, 1, %131, %132;\n"
	             "}\n"
	             : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]),
	               "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]),
	               "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]),
	               "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]),
	               "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]),
	               "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]),
	               "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]),
	               "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]),
	               "+f"(d[64]), "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]),
	               "+f"(d[72]), "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]),
	               "+f"(d[80]), "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]),
	               "+f"(d[88]), "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]),
	               "+f"(d[96]), "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]),
	               "+f"(d[104]), "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
	               "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]), "+f"(d[119]),
	               "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]), "+f"(d[126]), "+f"(d[127])
	             : "l"(da), "l"(db), "r"(scale_d), "n"(TRA), "n"(TRB));
}


/* one m64nBNk16 wgmma for torch transposes (TA, TB): the instruction's
 * transpose bits select MN-major operands, imm-trans-a = 1 for an M-major A
 * (TA = 1), imm-trans-b = 1 for an N-major B (TB = 0: B stored (K, N)) */
template <int TA, int TB>
__device__ __forceinline__ void wgmma_bn(float *d, unsigned long long da, unsigned long long db)
{
#if BN == 256
	wgmma_n256<TA, 1 - TB>(d, da, db, 1);
#elif BN == 128
	wgmma_n128<TA, 1 - TB>(d, da, db, 1);
#else
	wgmma_n64<TA, 1 - TB>(d, da, db, 1);
#endif
}

/* ---- the kernel body --------------------------------------------------------- */

template <int TA, int TB>
__device__ __forceinline__ void gemm_body(const CUtensorMap_ *tmA, const CUtensorMap_ *tmB,
                                          elem_t *__restrict__ C, int M, int N, int K)
{
	extern __shared__ unsigned char smem_raw[];
	const unsigned base = (smem_u32(smem_raw) + 1023u) & ~1023u;
	const unsigned bar_full = base + STAGES * STAGE_BYTES;
	const unsigned bar_empty = bar_full + 8 * STAGES;
	const int tid = threadIdx.x, wg = tid / 128;

	/* grouped raster: GROUP_M tile rows, then across the tile columns */
	const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
	const int per_group = GROUP_M * tiles_n;
	const int grp = blockIdx.x / per_group, first_m = grp * GROUP_M;
	const int gsz = tiles_m - first_m < GROUP_M ? tiles_m - first_m : GROUP_M;
	const int rr = blockIdx.x % per_group;
	const int m0 = (first_m + rr % gsz) * BM, n0 = (rr / gsz) * BN;
	const int nkt = (K + BK - 1) / BK;

	if (tid == 0) {
		for (int s = 0; s < STAGES; s++) {
			mbar_init(bar_full + 8 * s, 1);
			mbar_init(bar_empty + 8 * s, NC * 128);
		}
		asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
		asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
	}
	__syncthreads();

	if (wg == 0) {
		/* producer warpgroup */
		asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(REG_PRODUCER));
		if (tid == 0) {
			asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)tmA) : "memory");
			asm volatile("prefetch.tensormap [%0];" ::"l"((unsigned long long)tmB) : "memory");
			for (int kt = 0; kt < nkt; kt++) {
				const int s = kt % STAGES;
				if (kt >= STAGES)
					mbar_wait(bar_empty + 8 * s, ((kt / STAGES) - 1) & 1);
				const unsigned full = bar_full + 8 * s;
				mbar_expect_tx(full, STAGE_BYTES);
				const unsigned sA = base + s * STAGE_BYTES, sB = sA + A_STAGE;
				const int k0 = kt * BK;
#pragma unroll
				for (int b = 0; b < (TA ? BM / 64 : BK / 64); b++) {
					if (TA)
						tma_load_2d(sA + b * (BK * 128), tmA, m0 + 64 * b, k0, full);
					else
						tma_load_2d(sA + b * (BM * 128), tmA, k0 + 64 * b, m0, full);
				}
#pragma unroll
				for (int b = 0; b < (TB ? BK / 64 : BN / 64); b++) {
					if (TB)
						tma_load_2d(sB + b * (BN * 128), tmB, k0 + 64 * b, n0, full);
					else
						tma_load_2d(sB + b * (BK * 128), tmB, n0 + 64 * b, k0, full);
				}
			}
		}
	} else {
		/* consumer warpgroups */
		asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(REG_CONSUMER));
		const int cw = wg - 1;
		float acc[MI][BN / 2];
#pragma unroll
		for (int mi = 0; mi < MI; mi++)
#pragma unroll
			for (int j = 0; j < BN / 2; j++)
				acc[mi][j] = 0.0f;
		for (int kt = 0; kt < nkt; kt++) {
			const int s = kt % STAGES;
			mbar_wait(bar_full + 8 * s, (kt / STAGES) & 1);
			const unsigned sA = base + s * STAGE_BYTES, sB = sA + A_STAGE;
			wgmma_fence();
#pragma unroll
			for (int kk = 0; kk < BK / 16; kk++) {
				unsigned long long db;
				if (TB)
					db = desc_sw128(sB + (kk / 4) * (BN * 128) + (kk % 4) * 32, 16, 1024);
				else
					db = desc_sw128(sB + kk * 2048, BK * 128, 1024);
#pragma unroll
				for (int mi = 0; mi < MI; mi++) {
					const int r0 = cw * WM + mi * 64; /* first tile row of this m64 block */
					unsigned long long da;
					if (TA)
						da = desc_sw128(sA + (r0 / 64) * (BK * 128) + kk * 2048, BK * 128, 1024);
					else
						da = desc_sw128(sA + (kk / 4) * (BM * 128) + r0 * 128 + (kk % 4) * 32, 16,
						                1024);
					wgmma_bn<TA, TB>(acc[mi], da, db);
				}
			}
			wgmma_commit();
			wgmma_wait<1>();
			if (kt > 0)
				mbar_arrive(bar_empty + 8 * ((kt - 1) % STAGES));
		}
		wgmma_wait<0>();

		/* epilogue: accumulator fragment (wgmma D layout) -> C, predicated */
		const int t = tid % 128, q = t / 32, l = t % 32;
#pragma unroll
		for (int mi = 0; mi < MI; mi++) {
			const int rA = m0 + cw * WM + mi * 64 + q * 16 + l / 4;
#pragma unroll
			for (int h = 0; h < 2; h++) {
				const int r = rA + 8 * h;
				if (r >= M)
					continue;
				elem_t *crow = C + (long long)r * N;
#pragma unroll
				for (int j = 0; j < BN / 8; j++) {
					const int c = n0 + j * 8 + (l % 4) * 2;
					const float v0 = acc[mi][j * 4 + 2 * h], v1 = acc[mi][j * 4 + 2 * h + 1];
					if ((N & 1) == 0) {
						if (c < N) {
							unsigned p;
							asm(CVT2 " %0, %1, %2;" : "=r"(p) : "f"(v1), "f"(v0));
							*(unsigned *)(crow + c) = p;
						}
					} else {
						unsigned short e;
						if (c < N) {
							asm(CVT1 " %0, %1;" : "=h"(e) : "f"(v0));
							crow[c] = e;
						}
						if (c + 1 < N) {
							asm(CVT1 " %0, %1;" : "=h"(e) : "f"(v1));
							crow[c + 1] = e;
						}
					}
				}
			}
		}
	}
}

#define WGMMA_KERNEL(name, ta, tb)                                                                \
	extern "C" __global__ void __launch_bounds__(NW * 32, 1)                                   \
	name(const __grid_constant__ CUtensorMap_ tmA, const __grid_constant__ CUtensorMap_ tmB,  \
	     elem_t *C, int M, int N, int K)                                                       \
	{                                                                                          \
		gemm_body<ta, tb>(&tmA, &tmB, C, M, N, K);                                         \
	}

WGMMA_KERNEL(wgmma_kernel_00, 0, 0)
WGMMA_KERNEL(wgmma_kernel_01, 0, 1)
WGMMA_KERNEL(wgmma_kernel_10, 1, 0)
WGMMA_KERNEL(wgmma_kernel_11, 1, 1)
