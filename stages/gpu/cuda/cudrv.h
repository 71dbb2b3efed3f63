/* cudrv.h — the CUDA driver API without linking libcuda, and the error
 * checks every CUDA caller uses (part of libmmcuda, stages/gpu/cuda/: linked by
 * bench and the kernel harnesses of perf/kernels/).
 *
 * The driver functions are reached through cudaGetDriverEntryPointByVersion
 * (CUDA 12.0 ABI), so a program that uses them starts on a machine without
 * the NVIDIA driver and says "no GPU" clearly instead of failing in the
 * dynamic loader.
 */
#ifndef MMRANK_CUDRV_H
#define MMRANK_CUDRV_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cublas_v2.h>

#include "core/util.h"

/* The driver functions bench and the harnesses call (cuda.h signatures). */
typedef struct {
	CUresult (*load)(CUmodule *, const void *);                       /* cuModuleLoadData */
	CUresult (*getfn)(CUfunction *, CUmodule, const char *);          /* cuModuleGetFunction */
	CUresult (*getglobal)(CUdeviceptr *, size_t *, CUmodule, const char *); /* cuModuleGetGlobal */
	CUresult (*unload)(CUmodule);                                     /* cuModuleUnload */
	CUresult (*setattr)(CUfunction, CUfunction_attribute, int);       /* cuFuncSetAttribute */
	CUresult (*launch)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,
	                   unsigned, unsigned, CUstream, void **, void **); /* cuLaunchKernel */
	CUresult (*errstr)(CUresult, const char **);                      /* cuGetErrorString */
	CUresult (*errname)(CUresult, const char **);                     /* cuGetErrorName */
	/* the Triton launcher and timer (stages/gpu/bench/triton_launch.h,
	 * triton_timing.h) */
	CUresult (*devget)(CUdevice *, int);                              /* cuDeviceGet */
	CUresult (*devattr)(int *, CUdevice_attribute, CUdevice);         /* cuDeviceGetAttribute */
	CUresult (*funcattr)(int *, CUfunction_attribute, CUfunction);    /* cuFuncGetAttribute */
	CUresult (*cacheconfig)(CUfunction, CUfunc_cache);                /* cuFuncSetCacheConfig */
	CUresult (*memalloc)(CUdeviceptr *, size_t);                      /* cuMemAlloc */
	CUresult (*memfree)(CUdeviceptr);                                 /* cuMemFree */
	CUresult (*memsetd32async)(CUdeviceptr, unsigned, size_t, CUstream); /* cuMemsetD32Async */
	CUresult (*evcreate)(CUevent *, unsigned);                        /* cuEventCreate */
	CUresult (*evdestroy)(CUevent);                                   /* cuEventDestroy */
	CUresult (*evrecord)(CUevent, CUstream);                          /* cuEventRecord */
	CUresult (*evelapsed)(float *, CUevent, CUevent);                 /* cuEventElapsedTime */
	CUresult (*streamsync)(CUstream);                                 /* cuStreamSynchronize */
	CUresult (*ctxsync)(void);                                        /* cuCtxSynchronize */
} cudrv;

/* *fp = the driver's function sym (e.g. "cuLaunchKernel").  Dies naming sym
 * when the runtime cannot resolve it (no driver, or one too old). */
void cudrv_entry(const char *sym, void **fp);

/* Resolve every function of d (cudrv_entry; dies on a failure). */
void cudrv_open(cudrv *d);

/* The driver's text for r, or "unknown driver error"; its name
 * ("CUDA_ERROR_OUT_OF_MEMORY"), or "CUDA_ERROR_UNKNOWN?". */
const char *cudrv_err(const cudrv *d, CUresult r);
const char *cudrv_name(const cudrv *d, CUresult r);

/* Die naming the call, its error text, file and line unless it succeeds. */
#define CUDA_OK(call) do { cudaError_t e_ = (call); if (e_ != cudaSuccess) \
	die("%s failed: %s (%s:%d)", #call, cudaGetErrorString(e_), __FILE__, __LINE__); } while (0)
#define BLAS_OK(call) do { cublasStatus_t s_ = (call); if (s_ != CUBLAS_STATUS_SUCCESS) \
	die("%s failed: %s (%s:%d)", #call, cublasGetStatusString(s_), __FILE__, __LINE__); } while (0)
#define DRV_OK(d, call) do { CUresult r_ = (call); if (r_ != CUDA_SUCCESS) \
	die("%s failed: %s (%s:%d)", #call, cudrv_err(d, r_), __FILE__, __LINE__); } while (0)

#endif
