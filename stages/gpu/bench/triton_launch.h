/* triton_launch.h — load and launch our AOT-compiled Triton mm kernels
 * (kernels/triton_mm.py, cubins from python3 -m mmrank.bench.triton_aot) with the
 * CUDA driver API, as Triton's own launcher does (triton 3.6
 * backends/nvidia/driver.c loadBinary and driver.py's launcher):
 *   cuModuleLoadData, cuModuleGetFunction; a kernel whose shared memory
 *   exceeds the device's opt-in limit is refused before loading with
 *   Triton's OutOfResources text ("out of resource: shared memory,
 *   Required: R, Hardware limit: L. ..."), so Inductor's inf follows; above
 *   48 KiB the function gets CU_FUNC_CACHE_PREFER_SHARED and
 *   CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = opt-in - static;
 *   launches are cuLaunchKernel(grid = cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N),
 *   block = 32 * num_warps, shared bytes) with the parameters the metadata
 *   lists (pointers, then the run-time sizes and strides, i32 or i64) and
 *   Triton 3.x's two trailing scratch pointers (allocated when the kernel
 *   asks for scratch: grid * size bytes; else NULL).
 * Every driver call's status is checked; the calls go through
 * stages/gpu/cuda/cudrv.h (cudaGetDriverEntryPointByVersion), so bench starts
 * on a machine without a driver and says so.  A failure that concerns one
 * candidate (load, attribute, out of resources, launch) is returned with a
 * message, so the caller times it as inf; the context may be unusable after
 * a launch failure (tl_launch says so), as after any CUDA fault.
 * Pointers must be 16-byte aligned (the variant is compiled with
 * tt.divisibility 16 on them, as Inductor does). */
#ifndef MMRANK_TRITON_LAUNCH_H
#define MMRANK_TRITON_LAUNCH_H

#include <cuda.h>

#include "gpu/cuda/cudrv.h"
#include "triton_meta.h"

typedef struct {
	const cudrv *d;            /* the driver's functions (tl_load's) */
	tl_meta meta;
	int loaded;
	CUmodule mod;
	CUfunction fn;
	CUdeviceptr gscratch, pscratch;   /* scratch buffers (0 when not needed) */
	size_t gscratch_cap, pscratch_cap;
} tl_kernel;

/* The device's opt-in shared memory per block (bytes), or -1 on error. */
int tl_device_smem(const cudrv *d, CUdevice dev);

/* Read DIR/VARIANT.{json,cubin} and load it into the current context
 * through d (stages/gpu/cuda/cudrv.h: the driver without linking libcuda; k
 * keeps d for tl_launch and tl_unload).
 * Returns 0 when launchable; 1 when the entry is missing (not compiled);
 * -1 when the candidate cannot run (compile failure recorded by triton_aot,
 * out of resources, a CUDA error while loading, a malformed entry): why[]
 * says which, starting with "compile error: ", "out of resource: " or the
 * CUDA call that failed.  k is then unloaded (tl_unload is still safe). */
int tl_load(tl_kernel *k, const cudrv *d, const char *dir, const char *variant, CUdevice dev,
            char *why, size_t whylen);

/* Launch on stream s: C[m, n] = A @ B with the run-time integers arg[] in
 * IC_ARG_* order (stages/gpu/policy/inductor_cands.h ic_args: M, N, K, stride_am,
 * stride_ak, stride_bk, stride_bn; the parameters the variant compiled in
 * are not passed).  Returns 0 or -1 with why[] ("cuLaunchKernel: ...";
 * "out of resource: ..." for CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, which leaves the
 * context usable); a value that does not fit an i32 parameter, or a
 * misaligned pointer, is refused without launching. */
int tl_launch(tl_kernel *k, CUstream s, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C,
              const int64_t arg[7], char *why, size_t whylen);

/* Unload the module and free the scratch buffers; returns 0, or -1 if a
 * driver call failed (k is reset either way). */
int tl_unload(tl_kernel *k);

#endif
