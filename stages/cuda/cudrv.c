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
}

const char *cudrv_err(const cudrv *d, CUresult r)
{
	const char *s = NULL;
	if (d->errstr && d->errstr(r, &s) == CUDA_SUCCESS && s)
		return s;
	return "unknown driver error";
}
