/* util.h — errors, checked allocation, strict number parsing, atomic output.
 *
 * One error vocabulary for every stage (git style): die() prints
 * "<stage>: <message>" on stderr and exits with status 1; warnf() prints the
 * same without exiting.  Messages say what is wrong first and quote the
 * subject, e.g. "cannot parse 'feedback' at data.txt:812: 'abc'".
 *
 * Atomic output (design.md "Make conventions"): aout_open() returns a stream
 * onto an *unnamed* file (O_TMPFILE) in the destination's folder; only
 * aout_commit() gives it the destination name (an out-of-date destination is
 * removed, then the file is linked under its name).  A stage that dies, or
 * is killed with SIGKILL, therefore never leaves a partial output or a stray
 * temporary file behind.  On file systems without O_TMPFILE it falls
 * back to "<path>.tmp.<pid>", removed by aout_abort().
 *
 * Only regular files are replaced.  An existing destination that is a
 * character or block device, a FIFO or a socket (`-o /dev/null`, a named
 * pipe) is opened and written in place, never replaced; the path "-" is
 * standard output.  Neither can be atomic: a stage that dies midway has
 * written part of its output there (a reader of a pipe sees the stage's
 * non-zero exit status, not a complete-looking file).
 */
#ifndef MMRANK_UTIL_H
#define MMRANK_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stddef.h>

#define MMRANK_VERSION "0.1.0"

#if defined(__GNUC__)
#define PRINTF_LIKE(a, b) __attribute__((format(printf, a, b)))
#else
#define PRINTF_LIKE(a, b)
#endif

/* FNV-1a, 64 bit: fold n bytes at p into h (start with FNV1A64_INIT).
 * Used for content hashes (cubin cache keys) and hash tables. */
#define FNV1A64_INIT 0xcbf29ce484222325ULL
uint64_t fnv1a64(uint64_t h, const void *p, size_t n);
/* Seconds on the monotonic clock (for durations only). */
double mono_s(void);
/* mkdir -p: create path and its missing parents (mode 0755); dies naming
 * the folder that cannot be created. */
void mkdir_p(const char *path);
/* qsort comparator for doubles, ascending. */
int cmp_double(const void *a, const void *b);

/* Print "<stage>: <fmt...>\n" to stderr and exit(1). */
_Noreturn void die(const char *fmt, ...) PRINTF_LIKE(1, 2);
/* A count's plural ending: "%d column%s", n, plural_s(n) ("1 column",
 * "2 columns"). */
static inline const char *plural_s(long long n) { return n == 1 ? "" : "s"; }
/* Print "<stage>: warning: <fmt...>\n" to stderr. */
void warnf(const char *fmt, ...) PRINTF_LIKE(1, 2);

/* Allocation that never returns NULL: out of memory is fatal (die). */
void *xmalloc(size_t n);
void *xcalloc(size_t count, size_t size);
void *xrealloc(void *p, size_t n);
/* Grow *p (element size elem) so it holds at least need elements; *cap is
 * the current capacity in elements and is updated (doubling). */
void xgrow(void **p, size_t *cap, size_t need, size_t elem);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);

/* Strict parsers over s[0..len): the whole span must be the number.
 * parse_i64: optional '-', decimal digits; returns 0 ok, -1 not a number,
 *            -2 out of int64 range.
 * parse_f64: strtod syntax ("1.5", "1e-3", "inf", "-inf", "nan"); returns 0
 *            ok, -1 not a number or out of double range ("1e999"; the
 *            literal "inf" is fine).  NaN is returned as NaN: callers decide. */
int parse_i64(const char *s, size_t len, int64_t *out);
int parse_f64(const char *s, size_t len, double *out);

/* Atomic output file. */
typedef struct {
	FILE *fp;
	char *path;     /* destination */
	char *tmpname;  /* named fallback, or NULL when O_TMPFILE is used */
	int fd;
	int direct;     /* "-" (stdout), a device or FIFO: written in place */
} aout;
/* Open an output for path ("-": standard output); dies naming path on
 * failure. */
FILE *aout_open(aout *o, const char *path);
/* Flush, check for write errors, name the file `path` (readers see the old
 * file, briefly none, or the complete new one, never a partial one; the
 * O_TMPFILE-less fallback renames "<path>.tmp.<pid>" over path).  No fsync:
 * every aout output is re-derivable by Make; precious data (bench logs) are
 * appended and fsynced by their own writer.  Dies (and removes the
 * temporary) on any error, e.g. a full disk. */
void aout_commit(aout *o);
/* Drop the output without naming it. */
void aout_abort(aout *o);

/* Die with "output 'OUT' is also an input" (naming the input's spelling
 * when it differs) if the output path out names the same file as in: by
 * st_dev/st_ino when both exist (so "a.txt", "./a.txt" and a link to it are
 * one file), by spelling otherwise.  NULL or "-" (stdin/stdout) on either
 * side is never a clash.  Call before any output is opened, once per
 * (output, input) pair, so no stage overwrites what it reads. */
void check_output_not_input(const char *out, const char *in);
/* Die with "-o and --metrics are both 't.tsv': two outputs cannot be one
 * file" if outputs a and b (given by options opt_a, opt_b) name one file:
 * same_file(), and "-" twice (both standard output) is one file too.  Call
 * before any output is opened, once per pair of outputs. */
/* Die naming the option unless output path can be written where it is:
 * not a folder, its folder exists and is writable ("-" passes).  Called by
 * opts_parse() for every OPT_OUTPUT, so nothing is computed first. */
void check_output_writable(const char *opt_name, const char *path);
void check_outputs_distinct(const char *opt_a, const char *a, const char *opt_b, const char *b);
/* 1 iff paths a and b name one file: the same spelling, the same
 * st_dev/st_ino when both exist, or (neither exists yet) the same name in
 * the same folder ("t.tsv" and "./t.tsv"). */
int same_file(const char *a, const char *b);

/* Read a whole file into a NUL-terminated buffer; *len gets its size in
 * bytes.  Dies naming the file on error. */
char *read_file(const char *path, size_t *len);

/* Close stdout and die if any write to it failed (sbase style). */
void close_stdout(void);

/* Standard --help / --version handling: if argv[1] is "--help" or "-h",
 * print usage to stdout and exit 0; if "--version", print
 * "<stage> (mmrank) <version>" and exit 0. */
void std_options(int argc, char **argv, const char *usage);

#endif
