/* fields.h — the TSV field reader of bench's config lists (configs.c; the
 * text layer is stages/core/tsvtext.h).  Errors name "file:line: field
 * 'name'" and the value (die). */
#ifndef MMRANK_BENCH_FIELDS_H
#define MMRANK_BENCH_FIELDS_H

#include <stdint.h>

/* Field name of path:line as an integer in [lo, hi]; dies otherwise. */
int64_t field_i64(const char *path, int64_t line, const char *name, const char *s, int64_t lo,
                  int64_t hi);

#endif
