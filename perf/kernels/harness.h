/* perf/kernels/harness.h — the small library the kernel harnesses share
 * (mma_harness.c, wgmma_harness.c): configs and dtypes, the mma.cu cubins
 * (its utility module holds the fill and compare kernels both use), parallel
 * precompilation (harness.c); the GPU side (context, modules, cuBLAS
 * references, fill/compare, verdicts, rotating buffers, timing) is
 * harness_gpu.h (harness_gpu.c).  Built with libmmcuda (stages/gpu/cuda/:
 * NVRTC cache, driver entry points, torch.mm on cuBLAS, the wgmma launch
 * contract) and libmmrank (stages/core/util.h) by `make harnesses`
 * (perf/kernels/build.sh).
 * Units: times in ms, sizes in bytes.  Errors: CUDA/driver/cuBLAS/NVRTC
 * failures are fatal (die), except an NVRTC compile error (NULL, log on
 * stderr), which the callers count against the candidate.
 */
#ifndef MMRANK_HARNESS_H
#define MMRANK_HARNESS_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#define INF_MS HUGE_VAL
#define SMEM_OPTIN 232448       /* bytes: H100/H200 opt-in shared memory per block */

/* ---- configurations, dtypes, keys (harness.c) ---------------------------- */

enum { D_F32 = 0, D_F16 = 1, D_BF16 = 2, D_TF32 = 3, ND = 4 };
extern const char *const DNAME[ND];   /* "fp32", "fp16", "bf16", "tf32" */
int d_es(int d);                      /* element size in bytes */
int d_DT(int d);                      /* the templates' DT define (tf32: 0) */

typedef struct {
	int bm, bn, bk, st, nw;
} cfg_t;

typedef struct {
	char list[16];
	cfg_t c;
} cfg_row;

/* One mma.cu cubin: config, dtype, split-K variant. */
typedef struct {
	cfg_t c;
	int d, splitk;
} vkey;

typedef struct {
	vkey *v;
	size_t n, cap;
} keyset;

typedef struct {
	int m, n, k;
} shape3;

typedef struct {
	int d, m, n, k, ta, tb;
	char group[16];
} input_t;

/* kernels/mma.cu's MMA_SMEM_BYTES (bytes) */
long smem_bytes(const cfg_t *c, int d);
/* Configurations of file (header "list\tBLOCK_M...", '#' comments; rows
 * "list BM BN BK stages warps").  Returns a malloc'd array of *n rows;
 * dies on a missing file or a bad row. */
cfg_row *read_configs_file(const char *path, int *n);
/* The NVRTC options both templates share, in this order (part of each
 * cubin's cache key): --gpu-architecture=arch, -DBM, -DBN, -DBK, -DSTAGES,
 * -DNW of c, -DDT=dt; into opt[] with opts[i] = opt[i].  Returns 7. */
int cfg_opts(char (*opt)[64], const char **opts, const char *arch, const cfg_t *c, int dt);
int key_eq(const vkey *a, const vkey *b);
void keyset_add(keyset *s, const vkey *k);
/* The utility module of dtype d (fill and compare kernels). */
vkey util_key(int d);
/* Cubin of source src (hash srch, program name name) compiled by NVRTC with
 * options opts[0..no): from the cache DIR when there, else compiled and
 * stored (temp file + rename, safe for parallel precompile jobs).  Returns a
 * malloc'd image (*len bytes; *compiled = 1 when NVRTC ran), or NULL on a
 * compile error (log on stderr).  Other NVRTC or file errors are fatal. */
char *nvrtc_cubin(const char *src, uint64_t srch, const char *cache, const char *name,
                  const char *const *opts, int no, size_t *len, int *compiled);
/* Cubin for mma.cu key k (see nvrtc_cubin) */
char *get_cubin(const char *src, uint64_t srch, const char *cache, const vkey *k, size_t *len,
                int *compiled);
/* Runs one(ctx, i) for i in [0, n) in jobs forked processes (job j takes
 * i = j, j + jobs, ...); one returns 0 on success.  Returns 0 when every
 * call succeeded, else 1.  fork/waitpid failures are fatal. */
int run_jobs(size_t n, int jobs, int (*one)(void *, size_t), void *ctx);
/* Compiles (NVRTC, jobs processes) every mma.cu cubin of ks missing from
 * the cache.  Returns 0 when all compiled, 1 otherwise. */
int precompile(const char *src, uint64_t srch, const char *cache, const keyset *ks, int jobs);
double tflops(const input_t *x, double ms);

#endif
