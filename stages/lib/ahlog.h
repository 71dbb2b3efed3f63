/* ahlog.h — AutoHeuristic log reader (spec §1).
 *
 * A log is: line 1 a JSON metadata object, line 2 the CSV header (feature
 * names in context order, then "choice", then "feedback"), then one CSV row
 * per measurement.  The reader is strict where the reference is silent
 * (spec §5.1 skips malformed lines): every problem is fatal and names
 * file:line and the field.  Rejected: missing/invalid metadata, duplicate
 * JSON keys, a header that disagrees with the metadata, short or long rows,
 * CRLF line ends, a byte-order mark, non-numeric or negative numeric
 * features, NaN/negative/zero feedback (inf is allowed: a failed choice),
 * and a second metadata block appended mid-file.  Blank lines are skipped
 * and counted, as pandas skips them.
 *
 * Streaming: rows are read one at a time from a buffered FILE, so memory is
 * bounded by the longest line, not the file size.
 */
#ifndef MMRANK_AHLOG_H
#define MMRANK_AHLOG_H

#include <stdint.h>
#include <stdio.h>

#define AH_MAX_FEATURES 64

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

typedef struct {
	const char *path;
	FILE *fp;
	int64_t lineno;        /* line number of the current row (1-based) */
	ah_meta meta;
	char *line;            /* current line buffer (getline) */
	size_t cap;
	/* the current row, pointers into line (NUL-terminated): */
	char *field[AH_MAX_FEATURES + 2];
	int64_t num[AH_MAX_FEATURES];   /* numeric features, metadata order */
	const char *cat[AH_MAX_FEATURES]; /* categorical values, metadata order */
	const char *choice;
	double feedback;       /* milliseconds; +inf for a failed choice */
	int missing_newline;   /* last line had no final '\n' */
	int64_t blank_lines;   /* empty lines skipped so far (pandas skips them) */
} ah_reader;

/* Open path and read lines 1–2.  Dies naming the file on any error. */
void ah_open(ah_reader *r, const char *path);
/* Read the next row into r; returns 1 on a row, 0 at end of file.
 * Dies with "path:line: field 'name': ..." on a malformed row. */
int ah_next(ah_reader *r);
void ah_close(ah_reader *r);

#endif
