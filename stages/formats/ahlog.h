/* ahlog.h — AutoHeuristic log reader (spec §1).
 *
 * A log is: line 1 a JSON metadata object, line 2 the CSV header (feature
 * names in context order, then "choice", then "feedback"), then one CSV row
 * per measurement.  The reader is strict where the reference is silent
 * (spec §5.1 skips malformed lines): every problem is fatal and names
 * file:line and the field.  Rejected: a compressed or binary file (sniff.h),
 * missing/invalid metadata, duplicate JSON keys, metadata or a header that
 * are not mm's (ahmeta.h), a header that disagrees with the metadata, a
 * choice id that emit cannot write (emittable.h), short or long rows,
 * CRLF line ends, a byte-order mark, non-numeric or negative numeric
 * features, NaN/negative/zero feedback (inf is allowed: a failed choice),
 * and a second metadata block appended mid-file.  Blank lines are skipped
 * and counted, as pandas skips them.
 *
 * Streaming, for speed: the log is read in blocks into one fixed buffer
 * (it grows only for a line longer than the buffer), lines are tokenised
 * in place, and nothing is allocated per row or field.  A row whose
 * feature fields are byte for byte those of the previous row (the common
 * case: every choice and repetition of an input is one row) is not parsed
 * again, and each distinct choice id is checked and interned once.  The
 * log comes from a file, standard input, or a zip archive's member
 * (zipmember.h: libzip for the archive, ISA-L inflate, CRC checked; on a
 * second thread, a few blocks ahead of the parse), so memory is bounded
 * by the longest line, not the file size.
 *
 * The writer (Python's float format, the mm metadata and header, the
 * resumable appender) is ahlog_write.h.
 */
#ifndef MMRANK_AHLOG_H
#define MMRANK_AHLOG_H

#include <stdint.h>
#include <stdio.h>

#include "core/intern.h"

#define AH_MAX_FEATURES 64
/* The longest line a log may have: a longer one is refused at file:line
 * (the reader searches each byte once, so a huge line costs linear time
 * and at most this much memory). */
#define AH_MAX_LINE (16 << 20)
#define AH_BLANK_SHOWN 5   /* blank lines whose numbers a warning names */

typedef struct {
	char *json;            /* line 1 verbatim, without its '\n' */
	char *name;            /* "mm" */
	int64_t shared_memory; /* bytes, opt-in shared memory per block */
	int cap_major, cap_minor;
	int n_num;             /* numerical features, metadata order */
	char *num[AH_MAX_FEATURES];
	int n_cat;             /* categorical features, metadata order */
	char *cat[AH_MAX_FEATURES];
	char *header;          /* line 2 verbatim, without its '\n' */
	int n_feat;            /* header feature columns (before choice) */
	char *feat[AH_MAX_FEATURES];
	/* feat_kind[i] >= 0: numeric feature index into num[];
	 * feat_kind[i] <  0: categorical, index -1-feat_kind[i] into cat[]. */
	int feat_kind[AH_MAX_FEATURES];
} ah_meta;

/* Parse a metadata JSON line (jansson).  where = "file:line" for messages.
 * Dies on invalid JSON, duplicate keys, missing keys or wrong types. */
void ah_meta_parse(ah_meta *m, const char *json, const char *where);
/* Check a CSV header against the metadata: every numeric and categorical
 * feature exactly once, then "choice", "feedback".  Fills feat/feat_kind. */
void ah_meta_header(ah_meta *m, const char *header, const char *where);
void ah_meta_free(ah_meta *m);
/* A one-hot column name "<categorical>_<value>" (spec §4.3): returns the
 * index in m->cat of the categorical feature whose name, followed by '_',
 * is the longest prefix of col, and sets *value to the rest; -1 if none. */
int ah_meta_onehot(const ah_meta *m, const char *col, const char **value);

typedef struct {
	const char *path;      /* the log's name in messages */
	char *path_buf;        /* path when made here ("zip:member") */
	FILE *fp;              /* the log, or NULL when reading a zip member */
	struct zipmember *zm;  /* a zip member (zipmember.h), or NULL */
	struct readahead *ahead; /* the member inflated on a second thread */
	int64_t lineno;        /* line number of the current row (1-based) */
	ah_meta meta;
	char *buf;             /* block buffer; unread bytes buf[pos, end) */
	size_t cap, pos, end;
	size_t clean;          /* buf[0, clean) holds no '\r' or NUL (checked) */
	int eof;               /* the source has no more bytes */
	char *line;            /* current line (NUL-terminated, in buf) */
	/* the current row, pointers into line (NUL-terminated); on a row with
	 * same_features only cat[] is set anew, the feature field[]s not: */
	char *field[AH_MAX_FEATURES + 2];
	int64_t num[AH_MAX_FEATURES];   /* numeric features, metadata order */
	const char *cat[AH_MAX_FEATURES]; /* categorical values, metadata order */
	const char *choice;
	size_t choice_len;
	double feedback;       /* milliseconds; +inf for a failed choice */
	/* 1: the row's feature fields are byte for byte the previous row's,
	 * so num[] and the cat[] strings are unchanged (featurize does not
	 * look the input up again) */
	int same_features;
	int choice_id;         /* index of choice in choices (first seen first) */
	intern choices;        /* every distinct choice of the log, checked */
	int *succ;             /* [choices.n] the choice that followed it last:
	                          tried before the hash table */
	size_t succ_cap;
	char *prev;            /* previous row's feature fields with their commas */
	size_t prev_len, prev_cap;
	size_t foff[AH_MAX_FEATURES + 1]; /* offsets of those fields in a line */
	int catcol[AH_MAX_FEATURES];   /* header column of each categorical */
	int missing_newline;   /* last line had no final '\n' */
	int64_t blank_lines;   /* empty lines skipped so far (pandas skips them) */
	int64_t blank_at[AH_BLANK_SHOWN]; /* the first ones' line numbers */
} ah_reader;

/* Open path and read lines 1–2.  Dies naming the file on any error: a
 * compressed or binary file (sniff.h), metadata or a header that are not
 * mm's (ahmeta.h: other AutoHeuristic problems are refused before a row is
 * read). */
void ah_open(ah_reader *r, const char *path);
/* The same for file ("-": standard input, e.g. `unzip -p` piped in), with
 * messages naming `name` instead (NULL: file), e.g. "a100_mm.zip:a100_mm.txt". */
void ah_open_named(ah_reader *r, const char *file, const char *name);
/* The same for member `member` of zip archive `zip` (zipmember.h:
 * inflated in-process, CRC checked at its end); messages name `name`
 * (NULL: "zip:member").  A missing or damaged archive or member dies with
 * "cannot read 'member' from zip (missing or damaged zip: ...)". */
void ah_open_zip(ah_reader *r, const char *zip, const char *member, const char *name);
/* Read the next row into r; returns 1 on a row, 0 at end of file.
 * Dies with "path:line: field 'name': ..." on a malformed row. */
int ah_next(ah_reader *r);
void ah_close(ah_reader *r);
/* After the last row: warn "<path>: 2 blank lines skipped (lines 5, 9)"
 * if any were skipped (at most AH_BLANK_SHOWN numbers, then "..."). */
void ah_warn_blank_lines(const ah_reader *r);
/* The log readers' one CRLF rule: die "<path>:<lineno>: carriage return in
 * line (CRLF line ends are not accepted; ...)" if line[0..n) holds a '\r'.
 * Used by ah_next's line reader and by merge, which copies rows unparsed. */
void ah_reject_cr(const char *path, long long lineno, const char *line, size_t n);

#endif
