/* lt.h — cuBLASLt algorithms as bench choices.
 *
 * cuBLAS's first pick (extern_mm) is not always its fastest.  bench asks
 * cublasLtMatmulAlgoGetHeuristic for its top candidates (`bench
 * --lt-discover`), a list of the most frequent ones is committed
 * (kernels/cublaslt_algos.tsv), and `bench --cublaslt FILE` times each
 * listed algorithm as a choice of its own, next to extern_mm.
 *
 * An algorithm is identified by its configuration attributes
 * (cublasLtMatmulAlgoConfigAttributes_t), so the same choice id means the
 * same kernel configuration on every shape and can be rebuilt at run time
 * with cublasLtMatmulAlgoInit + cublasLtMatmulAlgoConfigSetAttribute (for
 * the input's data and compute types).  Values are the numeric cublasLt.h
 * enum values of CUDA 13 (e.g. tile 20 = CUBLASLT_MATMUL_TILE_128x128).
 *
 * Choice id (Inductor-style, no commas or spaces, fixed key order):
 *   type=cublaslt_algo=A_tile=T_stages=S_splitk=K_reduction=R_swizzle=W_custom=C_inner=I_cluster=L
 * (decimal; algo and splitk are signed: cuBLASLt's heuristic returns split-K
 * -1 for some algorithms, e.g. "splitk=-1").
 *
 * This half is GPU independent (linked into bench and bench-fake); the
 * CUDA half is cuda_lt.c (cuda_lt.h).  Format of the list file:
 * stages/FORMATS.md "cuBLASLt algorithm list".
 */
#ifndef MMRANK_BENCH_LT_H
#define MMRANK_BENCH_LT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Data/compute type classes an algorithm applies to (bit set).  float32
 * with and without TF32 are different classes: the compute type differs
 * (CUBLAS_COMPUTE_32F_FAST_TF32 vs CUBLAS_COMPUTE_32F). */
enum { LT_F32 = 1, LT_TF32 = 2, LT_F16 = 4, LT_BF16 = 8, LT_ALL = 15 };

/* The configuration attributes of one cuBLASLt matmul algorithm. */
typedef struct {
	int32_t algo;          /* CUBLASLT_ALGO_CONFIG_ID */
	uint32_t tile;         /* CUBLASLT_ALGO_CONFIG_TILE_ID (cublasLtMatmulTile_t) */
	uint32_t stages;       /* CUBLASLT_ALGO_CONFIG_STAGES_ID (cublasLtMatmulStages_t) */
	int32_t splitk;        /* CUBLASLT_ALGO_CONFIG_SPLITK_NUM */
	uint32_t reduction;    /* CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME */
	uint32_t swizzle;      /* CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING */
	uint32_t custom;       /* CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION */
	uint32_t inner;        /* CUBLASLT_ALGO_CONFIG_INNER_SHAPE_ID (uint16_t in cuBLASLt) */
	uint32_t cluster;      /* CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID (uint16_t in cuBLASLt) */
} lt_algo;

/* One line of the list file: an algorithm, the type classes it is offered
 * for, and the discovery counts (informational: inputs whose top-N held
 * it, inputs where it was the heuristic's first pick). */
typedef struct {
	lt_algo a;
	unsigned dtypes;       /* LT_* bits, at least one */
	int64_t inputs, rank1;
} lt_entry;

/* Longest choice id lt_format_id writes, NUL included (fits bench_cand.id). */
#define LT_ID_MAX 128
/* Most algorithms a list file may hold. */
#define LT_MAX_LIST 64

/* The type class (LT_F32, LT_TF32, LT_F16 or LT_BF16) of an input's dtype
 * (DT_* of plan.h) and tf32 flag (0/1, float32 only). */
unsigned lt_dtype_class(int dtype, int tf32);

/* "f32", "tf32", "f16" or "bf16" for one class bit; "?" otherwise. */
const char *lt_class_name(unsigned bit);

/* Write the choice id of a into buf (n bytes, n >= LT_ID_MAX suffices).
 * Returns its length; dies if it does not fit (never for n >= LT_ID_MAX). */
int lt_format_id(const lt_algo *a, char *buf, size_t n);

/* Parse a choice id written by lt_format_id into *a.  Strict: the keys in
 * lt_format_id's order, decimal values without '+' or leading zeros ('-'
 * only for algo and splitk, never "-0"), within each attribute's type.  Returns 0, or -1 (then *a is unspecified)
 * and, if why is not NULL, *why = the name of the first bad key. */
int lt_parse_id(const char *s, lt_algo *a, const char **why);

/* Print the list's nine attribute column names (header line) and a's
 * values (one line), tab separated, to fp: bench --lt-decode. */
void lt_print_attrs(FILE *fp, const lt_algo *a);

/* 1 if a and b are the same algorithm configuration, else 0. */
int lt_same(const lt_algo *a, const lt_algo *b);

/* Read a list file (stages/FORMATS.md): '#' lines are comments, the first
 * other line is the header, then one algorithm per line.  Dies naming
 * "file:line: field 'name'" on a malformed value, and on a wrong header,
 * a wrong field count, a duplicate algorithm, a carriage return, no
 * algorithms or more than LT_MAX_LIST.  Returns the entries in file order
 * (malloc'd), *n their count. */
lt_entry *lt_list_read(const char *path, int *n);

/* Discovery tally: how often each algorithm appears in the heuristic's
 * top-N over a set of inputs. */
typedef struct lt_tally lt_tally;

/* A new, empty tally (free with lt_tally_free). */
lt_tally *lt_tally_new(void);

/* Count one input's heuristic answer: algos[0..n) best first, for an input
 * of type class cls.  Each distinct algorithm counts once per input
 * ("inputs"), algos[0] also as a first pick ("rank1"); cls is added to the
 * algorithm's type classes. */
void lt_tally_add(lt_tally *t, const lt_algo *algos, int n, unsigned cls);

/* Number of distinct algorithms counted so far. */
int lt_tally_count(const lt_tally *t);

/* Write the tally as a list file to fp: the comment lines given (each
 * written as "# <line>"; NULL-terminated array, may be NULL), the header,
 * then one line per algorithm sorted by inputs (descending), then rank1
 * (descending), then the choice id (byte order) — deterministic.  keep <= 0
 * writes every algorithm; keep > 0 only those among the keep most frequent
 * of at least one type class (ranked by that class's inputs, ties in the
 * order above), so every class gets up to keep algorithms; an algorithm
 * kept is offered for every class it was seen for (its dtypes column).
 * Returns the number of algorithm lines written. */
int lt_tally_write(const lt_tally *t, FILE *fp, const char *const *comments, int keep);

/* Free a tally (NULL is allowed). */
void lt_tally_free(lt_tally *t);

/* The list file's header line (no newline). */
extern const char lt_list_header[];

#endif
