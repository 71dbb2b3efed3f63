/* triton_launch.c — see triton_launch.h. */
#include "triton_launch.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int cu_fail(const cudrv *d, CUresult r, const char *what, char *why, size_t whylen)
{
	snprintf(why, whylen, "%s: %s (%s)", what, cudrv_name(d, r), cudrv_err(d, r));
	return -1;
}

#define CU(call, what)                                                      \
	do {                                                                \
		CUresult r_ = (call);                                       \
		if (r_ != CUDA_SUCCESS) {                                   \
			cu_fail(d, r_, what, why, whylen);                  \
			goto fail;                                          \
		}                                                           \
	} while (0)

int tl_device_smem(const cudrv *d, CUdevice dev)
{
	int v;
	if (d->devattr(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev) != CUDA_SUCCESS)
		return -1;
	return v;
}

int tl_unload(tl_kernel *k)
{
	int rc = 0;
	const cudrv *d = k->d;
	if (k->loaded && k->mod && d->unload(k->mod) != CUDA_SUCCESS)
		rc = -1;
	if (k->gscratch && d->memfree(k->gscratch) != CUDA_SUCCESS)
		rc = -1;
	if (k->pscratch && d->memfree(k->pscratch) != CUDA_SUCCESS)
		rc = -1;
	k->loaded = 0;
	k->mod = NULL;
	k->fn = NULL;
	k->gscratch = k->pscratch = 0;
	k->gscratch_cap = k->pscratch_cap = 0;
	return rc;
}

int tl_load(tl_kernel *k, const cudrv *d, const char *dir, const char *variant, CUdevice dev,
            char *why, size_t whylen)
{
	memset(k, 0, sizeof *k);
	k->d = d;
	int rc = tl_meta_read(dir, variant, &k->meta, why, whylen);
	if (rc != 0)
		return rc;
	if (!k->meta.ok) {
		snprintf(why, whylen, "compile error: %s", k->meta.error);
		return -1;
	}
	/* Triton's CompiledKernel._init_handles: shared memory above the
	 * device's limit is OutOfResources before anything is loaded */
	int optin = tl_device_smem(d, dev);
	if (optin < 0) {
		snprintf(why, whylen, "cuDeviceGetAttribute(MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) failed");
		return -1;
	}
	if (k->meta.shared > optin) {
		snprintf(why, whylen, "out of resource: shared memory, Required: %d, Hardware limit: %d. "
		         "Reducing block sizes or `num_stages` may help.", k->meta.shared, optin);
		return -1;
	}
	size_t len;
	void *img = tl_cubin_read(dir, &k->meta, &len, why, whylen);
	if (!img)
		return -1;
	CUresult r = d->load(&k->mod, img);
	free(img);
	if (r != CUDA_SUCCESS) {
		k->mod = NULL;
		return cu_fail(d, r, "cuModuleLoadData", why, whylen);
	}
	k->loaded = 1;
	CU(d->getfn(&k->fn, k->mod, k->meta.name), "cuModuleGetFunction");
	int maxthr;
	CU(d->funcattr(&maxthr, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, k->fn),
	   "cuFuncGetAttribute(MAX_THREADS_PER_BLOCK)");
	if (k->meta.threads > maxthr) {
		snprintf(why, whylen, "out of resource: threads, Required: %d, Hardware limit: %d. "
		         "Reducing block sizes or `num_stages` may help.", k->meta.threads, maxthr);
		goto fail;
	}
	if (k->meta.shared > 49152 && optin > 49152) {
		int stat;
		CU(d->cacheconfig(k->fn, CU_FUNC_CACHE_PREFER_SHARED), "cuFuncSetCacheConfig");
		CU(d->funcattr(&stat, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, k->fn),
		   "cuFuncGetAttribute(SHARED_SIZE_BYTES)");
		CU(d->setattr(k->fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin - stat),
		   "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)");
	}
	return 0;
fail:
	(void)tl_unload(k);   /* the first error is the one reported */
	return -1;
}

static int scratch(const cudrv *d, CUdeviceptr *p, size_t *cap, int64_t size, int64_t align,
                   uint64_t grid, char *why, size_t whylen)
{
	if (size <= 0)
		return 0;
	size_t need = (size_t)(grid * (uint64_t)size) + (size_t)align;
	if (need > *cap) {
		if (*p)
			CU(d->memfree(*p), "cuMemFree(scratch)");
		*p = 0;
		*cap = 0;
		CU(d->memalloc(p, need), "cuMemAlloc(scratch)");
		*cap = need;
	}
	return 0;
fail:
	return -1;
}

int tl_launch(tl_kernel *k, CUstream s, CUdeviceptr A, CUdeviceptr B, CUdeviceptr C,
              const int64_t arg[7], char *why, size_t whylen)
{
	if (!k->loaded) {
		snprintf(why, whylen, "kernel not loaded");
		return -1;
	}
	if ((A | B | C) & 15) {
		snprintf(why, whylen, "an operand is not 16-byte aligned");
		return -1;
	}
	const tl_meta *m = &k->meta;
	int64_t M = arg[0], N = arg[1];
	uint64_t gx = (uint64_t)((M + m->block_m - 1) / m->block_m) * (uint64_t)((N + m->block_n - 1) / m->block_n);
	if (M < 1 || N < 1 || gx > 0x7fffffffULL) {
		snprintf(why, whylen, "grid of %" PRIu64 " programs for M=%" PRId64 " N=%" PRId64 " out of range", gx, M, N);
		return -1;
	}
	CUdeviceptr ptrs[3] = {A, B, C};
	int32_t i32[TL_MAX_PARAMS];
	int64_t i64[TL_MAX_PARAMS];
	void *params[TL_MAX_PARAMS + 2];
	for (int i = 0; i < m->nparams; i++) {
		const tl_param *p = &m->param[i];
		if (p->type == TL_PTR)
			params[i] = &ptrs[p->what];
		else {
			int64_t v = arg[p->what - TL_M];
			if (p->type == TL_I32) {
				if (v < INT32_MIN || v > INT32_MAX) {
					snprintf(why, whylen, "argument %d (%" PRId64 ") does not fit i32", i, v);
					return -1;
				}
				i32[i] = (int32_t)v;
				params[i] = &i32[i];
			} else {
				i64[i] = v;
				params[i] = &i64[i];
			}
		}
	}
	const cudrv *d = k->d;
	if (scratch(d, &k->gscratch, &k->gscratch_cap, m->gscratch_size, m->gscratch_align, gx, why,
	            whylen) ||
	    scratch(d, &k->pscratch, &k->pscratch_cap, m->pscratch_size, m->pscratch_align, gx, why,
	            whylen))
		return -1;
	CUdeviceptr gs = k->gscratch, ps = k->pscratch;
	if (gs && m->gscratch_align > 1)
		gs = (gs + (CUdeviceptr)m->gscratch_align - 1) / (CUdeviceptr)m->gscratch_align * (CUdeviceptr)m->gscratch_align;
	if (ps && m->pscratch_align > 1)
		ps = (ps + (CUdeviceptr)m->pscratch_align - 1) / (CUdeviceptr)m->pscratch_align * (CUdeviceptr)m->pscratch_align;
	params[m->nparams] = &gs;
	params[m->nparams + 1] = &ps;
	CUresult r = d->launch(k->fn, (unsigned)gx, 1, 1, (unsigned)m->threads, 1, 1,
	                       (unsigned)m->shared, s, params, NULL);
	if (r == CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES) {
		/* too many registers or too much shared memory for the block:
		 * Inductor's OutOfResources, the candidate is inf */
		cu_fail(d, r, "out of resource: cuLaunchKernel", why, whylen);
		return -1;
	}
	CU(r, "cuLaunchKernel");
	return 0;
fail:
	return -1;
}
