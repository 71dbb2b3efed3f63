/* tsvtext.h — the text layer of the TSV table readers: a file read whole,
 * handed out line by line, a line split at its tabs, with one wording for
 * each fault of the text (design.md "Interchange formats": '\n' line ends,
 * no '\r', no quoting).  Used by the shape-list and model-layer readers
 * (shapes.h, shapes_models.h), the ranks and tree TSV readers, Inductor's
 * config tables (inductor_cands.h), bench's config and cuBLASLt lists and
 * the Triton tools' candidate lists; not by the streaming log and feat TSV
 * readers (ahlog.h, featset.h), which read row by row.
 *
 *	char *buf = tsv_read(path, "a header line"), *pos = buf, *l;
 *	int64_t line = 0;
 *	while ((l = tsv_line(&pos, path, &line))) {
 *		char *f[8];
 *		if (tsv_split(l, f, 8) != 8) die(...);
 *	}
 *	free(buf);
 *
 * The faults, each a die() (exit status 1) naming the file:
 *   PATH: empty file: expected WHAT
 *   PATH: NUL byte in file
 *   PATH: missing final newline (truncated?)
 *   PATH:LINE: carriage return (CRLF line ends are not accepted)
 * Field counts, headers and values are the caller's to check.
 */
#ifndef MMRANK_TSVTEXT_H
#define MMRANK_TSVTEXT_H

#include <stddef.h>
#include <stdint.h>

/* The text of path ("-": standard input), NUL-terminated, malloc'd (free
 * it); dies if it cannot be read or fails tsv_check (what: what the first
 * line should be, for the empty-file message). */
char *tsv_read(const char *path, const char *what);
/* tsv_read's checks on a text already read, buf[0..len): for a reader that
 * looks at the bytes first (sniff.h). */
void tsv_check(const char *path, const char *buf, size_t len, const char *what);
/* The next line of a checked text at *pos, its '\n' replaced by NUL, *pos
 * moved past it and ++*lineno; NULL at the end of the text.  Dies if the
 * line holds a '\r'. */
char *tsv_line(char **pos, const char *path, int64_t *lineno);
/* Split line (modified in place: every tab becomes a NUL) into fields;
 * f[0..max) gets the first max of them.  Returns the number of fields in
 * the line, which may exceed max. */
int tsv_split(char *line, char **f, int max);
/* For a header split into f[0..nf): col[i] = the index of the field equal
 * to names[i] (the last one if two are), or -1, for i in [0, n).  Returns
 * how many of the names were found. */
int tsv_columns(char *const *f, int nf, const char *const *names, int n, int *col);

#endif
