/* cudrv.c — see cudrv.h. */
#include "cudrv.h"

void cudrv_entry(const char *sym, void **fp)
{
	enum cudaDriverEntryPointQueryResult q;
	cudaError_t e = cudaGetDriverEntryPointByVersion(sym, fp, 12000, cudaEnableDefault, &q);
	if (e != cudaSuccess || q != cudaDriverEntryPointSuccess || !*fp)
		die("cannot resolve driver function %s: %s", sym, cudaGetErrorString(e));
}

void cudrv_open(cudrv *d)
{
	cudrv_entry("cuModuleLoadData", (void **)&d->load);
	cudrv_entry("cuModuleGetFunction", (void **)&d->getfn);
	cudrv_entry("cuModuleGetGlobal", (void **)&d->getglobal);
	cudrv_entry("cuModuleUnload", (void **)&d->unload);
	cudrv_entry("cuFuncSetAttribute", (void **)&d->setattr);
	cudrv_entry("cuLaunchKernel", (void **)&d->launch);
	cudrv_entry("cuGetErrorString", (void **)&d->errstr);
	cudrv_entry("cuGetErrorName", (void **)&d->errname);
	cudrv_entry("cuDeviceGet", (void **)&d->devget);
	cudrv_entry("cuDeviceGetAttribute", (void **)&d->devattr);
	cudrv_entry("cuFuncGetAttribute", (void **)&d->funcattr);
	cudrv_entry("cuFuncSetCacheConfig", (void **)&d->cacheconfig);
	cudrv_entry("cuMemAlloc", (void **)&d->memalloc);
	cudrv_entry("cuMemFree", (void **)&d->memfree);
	cudrv_entry("cuMemsetD32Async", (void **)&d->memsetd32async);
	cudrv_entry("cuEventCreate", (void **)&d->evcreate);
	cudrv_entry("cuEventDestroy", (void **)&d->evdestroy);
	cudrv_entry("cuEventRecord", (void **)&d->evrecord);
	cudrv_entry("cuEventElapsedTime", (void **)&d->evelapsed);
	cudrv_entry("cuStreamSynchronize", (void **)&d->streamsync);
	cudrv_entry("cuCtxSynchronize", (void **)&d->ctxsync);
}

const char *cudrv_name(const cudrv *d, CUresult r)
{
	const char *s = NULL;
	if (d->errname && d->errname(r, &s) == CUDA_SUCCESS && s)
		return s;
	return "CUDA_ERROR_UNKNOWN?";
}

const char *cudrv_err(const cudrv *d, CUresult r)
{
	const char *s = NULL;
	if (d->errstr && d->errstr(r, &s) == CUDA_SUCCESS && s)
		return s;
	return "unknown driver error";
}
