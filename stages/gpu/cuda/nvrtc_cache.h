/* nvrtc_cache.h — NVRTC compilation through an on-disk cubin cache (part of
 * libmmcuda, stages/gpu/cuda/: shared by bench's NVRTC back end,
 * stages/gpu/bench/nvrtc_gpu.c, and the kernel harnesses of perf/kernels/). */
#ifndef MMRANK_NVRTC_CACHE_H
#define MMRANK_NVRTC_CACHE_H

#include <stddef.h>

/* The cubin of source src (program name name, e.g. "mma.cu") compiled with
 * NVRTC options opts[0..no): read from path when that file exists, else
 * compiled and stored at path (folder cache created as needed; written to
 * "<path>.tmp.<pid>" and renamed, so parallel compilers never see a partial
 * file).  Returns a malloc'd image of *len bytes plus a terminating NUL, and
 * *compiled = 1 when NVRTC ran; on a compile error NULL with *why = a
 * malloc'd "NVRTC: <error>: <log>".  Other NVRTC or file errors are fatal
 * (die). */
char *nvrtc_cubin_cached(const char *path, const char *cache, const char *src, const char *name,
                         const char *const *opts, int no, size_t *len, char **why,
                         int *compiled);

/* The NVRTC options of one template config, the defines every template of
 * kernels/ takes, in this order: --gpu-architecture=arch, -DBM=bm, -DBN=bn,
 * -DBK=bk, -DSTAGES=stages, -DNW=warps, -DDT=dt; written into opt[0..7)
 * (64 bytes each) with opts[i] = opt[i].  Returns 7, the count. */
int nvrtc_config_opts(char (*opt)[64], const char **opts, const char *arch, int bm, int bn,
                      int bk, int stages, int warps, int dt);

#endif
