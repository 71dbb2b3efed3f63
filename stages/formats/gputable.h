/* gputable.h — one row of the GPU table, datasets/GPUS.tsv (the GPU facts,
 * one row per GPU; make reads the table with mk/gpus.awk, whose header
 * comment and docs/DESIGN.md "GPU facts" describe the columns).  emit reads
 * the row of the GPU an artifact is trained for (emit --gpu-facts FILE
 * --gpu NAME): what the artifact then carries as its GPU.
 */
#ifndef MMRANK_GPUTABLE_H
#define MMRANK_GPUTABLE_H
#include <stdint.h>

typedef struct {
	char name[33];        /* the row's gpu column (emittable_gpu_problem) */
	char device_name[33]; /* what the device name holds (emittable_device_name_problem) */
	int64_t shared_memory;
	int cap_major, cap_minor;
	int64_t line;         /* its line in the file */
} gpu_row;

/* The row of path named name into *r.  Dies, naming the file (and line and
 * field), when name is no GPU name, the file cannot be read or has no
 * gpu, shared_memory, capability or device_name column, it has no row
 * named name (the message lists the names it has), or that row's
 * shared_memory (1..2147483647), capability (MAJOR.MINOR, 1..99 and 0..9)
 * or device_name (the emittable rule; '-' is the '*' row's only) is bad.
 * Lines starting with '#' are comments; other rows are not checked here
 * (mk/gpus.awk checks every row whenever make starts). */
void gpu_row_read(gpu_row *r, const char *path, const char *name);

#endif
