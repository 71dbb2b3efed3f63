/* ahlog_write.h — AutoHeuristic log *writer* (stages/formats/ahlog_write.c;
 * owner: bench, which collects training data on our own GPUs), spec §1.1,
 * §1.3–§1.5: Python's float format, the mm metadata line and header, one
 * input's logged features, and the resumable appender.  The reader is
 * ahlog.h. */
#ifndef MMRANK_AHLOG_WRITE_H
#define MMRANK_AHLOG_WRITE_H

#include <stddef.h>
#include <stdint.h>

/* Format v exactly like Python str(float) / repr(float): the shortest
 * decimal that round-trips, fixed notation for 1e-4 <= |v| < 1e16 (always
 * with a '.', e.g. "1.0"), else "1.5e-05" / "1e+16"; "inf", "-inf", "nan".
 * Writes at most AH_FLOAT_BUF bytes including the NUL; returns buf. */
#define AH_FLOAT_BUF 40
char *ah_fmt_float(char *buf, double v);

/* The metadata JSON line for name "mm" (spec §1.1), Python json.dumps
 * separators, no trailing newline.  shared_memory in bytes (opt-in maximum
 * per block).  Returns a malloc'd string. */
char *ah_mm_meta_json(int64_t shared_memory, int cap_major, int cap_minor);
/* The mm CSV header line (spec §1.1), without newline. */
const char *ah_mm_header(void);

/* One mm input's logged features (spec §1.1 table), strides in elements. */
typedef struct {
	int64_t m, k, n;
	const char *dtype;          /* "torch.float32" / "torch.float16" / "torch.bfloat16" */
	int64_t s1_0, s1_1, s2_0, s2_1;
	int contig1, contig2;       /* 0/1 -> "False"/"True" */
	const char *using_tf32;     /* "True" / "False" / "not_float_32" */
} ah_mm_input;
/* "m,k,n,mat1_dtype,mat2_dtype,s10,s11,s20,s21,c1,c2,using_tf32" (no
 * trailing comma); returns a malloc'd string. */
char *ah_mm_features(const ah_mm_input *in);

/* Resumable appender for a log (design.md "Resumable").
 * ah_append_open: open or create path.  If the file is missing, or shorter
 * than its two metadata lines (killed while being created), it is
 * (re)written with meta "\n" header "\n" and fsync'd.  If its first two
 * lines differ from meta/header it dies (spec §1.4 InconsistentMetadata).
 * On return *body (malloc'd, NUL-terminated) holds everything after the two
 * lines and *body_len its length, for the caller to decide how much of it
 * is complete.  Dies naming the file on any I/O error. */
typedef struct {
	int fd;
	char *path;
	size_t head_len;            /* bytes of the two metadata lines */
} ah_appender;
void ah_append_open(ah_appender *a, const char *path, const char *meta,
                    const char *header, char **body, size_t *body_len);
/* Keep the first keep bytes of the body (drop a partial trailing input),
 * fsync, and position at the end. */
void ah_append_truncate(ah_appender *a, size_t keep);
/* Append buf[0..len) (whole lines) and fsync before returning. */
void ah_append_block(ah_appender *a, const char *buf, size_t len);
void ah_append_close(ah_appender *a);

#endif
