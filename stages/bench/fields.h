/* fields.h — the TSV field readers of bench's input files (shapes.tsv:
 * inputs.c, config lists: configs.c).  Errors name "file:line: field
 * 'name'" and the value (die). */
#ifndef MMRANK_BENCH_FIELDS_H
#define MMRANK_BENCH_FIELDS_H

#include <stdint.h>

/* The text of path (malloc'd), for next_line; dies when it cannot be read,
 * is empty or does not end in a newline. */
char *read_lines(const char *path);

/* The next line of the text at *p, its newline replaced by NUL and *p
 * moved past it, *lineno counted; NULL at the end of the text. */
char *next_line(char **p, int64_t *lineno);

/* Split line (modified in place) at tabs into at most max fields f[].
 * Returns the field count, or max + 1 when there are more. */
int split_tabs(char *line, char **f, int max);

/* Field name of path:line as an integer in [lo, hi]; dies otherwise. */
int64_t field_i64(const char *path, int64_t line, const char *name, const char *s, int64_t lo,
                  int64_t hi);

/* Field name of path:line as Python's True (1) or False (0); dies otherwise. */
int field_bool(const char *path, int64_t line, const char *name, const char *s);

#endif
