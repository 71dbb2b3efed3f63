/* triton_meta.h — one entry of the Triton cubin cache written by
 * python3 -m mmrank.bench.triton_aot: DIR/<variant>.json (the launch metadata,
 * stages/FORMATS.md "Triton cubin metadata") and DIR/<variant>.cubin.
 * No CUDA here (CPU-testable); stages/gpu/bench/triton_launch.h loads and
 * launches what this reads. */
#ifndef MMRANK_TRITON_META_H
#define MMRANK_TRITON_META_H

#include <stddef.h>
#include <stdint.h>

#define TL_MAX_PARAMS 16

/* what a kernel parameter is bound to at launch */
enum { TL_A, TL_B, TL_C, TL_M, TL_N, TL_K, TL_SAM, TL_SAK, TL_SBK, TL_SBN };
/* its type */
enum { TL_PTR, TL_I32, TL_I64 };

typedef struct {
	int what;     /* TL_A ... TL_SBN */
	int type;     /* TL_PTR, TL_I32, TL_I64 */
	int elem;     /* pointers: element bytes (2 or 4) */
} tl_param;

typedef struct {
	char variant[192];
	int ok;                    /* status "ok"; 0: "error" (compile failure) */
	char error[1024];          /* the compiler's message when !ok */
	char name[128];            /* kernel symbol in the cubin */
	int shared;                /* dynamic shared memory, bytes */
	int num_warps, threads, num_stages, num_ctas;
	int block_m, block_n;      /* grid = cdiv(M, block_m) * cdiv(N, block_n) */
	int64_t gscratch_size, gscratch_align, pscratch_size, pscratch_align;
	int nparams;
	tl_param param[TL_MAX_PARAMS];   /* the kernel's own parameters, in order;
	                                  * the two scratch pointers follow */
	char triton_version[32];
	int arch;
	char source_hash[24];
	int64_t cubin_bytes;
	uint64_t cubin_fnv;
	double compile_s;
} tl_meta;

/* Read DIR/VARIANT.json into *m.  Returns 0 on success (m->ok tells a
 * compiled entry from a recorded compile failure), 1 when the entry does not
 * exist (not compiled yet), -1 when it is malformed or unsupported (why[]
 * says what: "DIR/VARIANT.json: field 'shared': ...").  Unsupported: a
 * format other than "mmrank-triton-cubin 1", num_ctas != 1, PDL or
 * cooperative launches, extra parameters other than Triton 3.x's two scratch
 * pointers, a parameter this launcher cannot bind. */
int tl_meta_read(const char *dir, const char *variant, tl_meta *m, char *why, size_t whylen);

/* The cubin of a compiled entry: DIR/VARIANT.cubin checked against the
 * metadata's size and FNV-1a 64 hash.  Returns a malloc'd image, or NULL
 * with why[] set. */
void *tl_cubin_read(const char *dir, const tl_meta *m, size_t *len, char *why, size_t whylen);

#endif
