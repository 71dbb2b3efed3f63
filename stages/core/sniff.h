/* sniff.h — is the start of a file text, or what is it instead?
 *
 * The one place that tells a compressed or binary file from the text files
 * the stages read (AutoHeuristic logs, feat TSVs, tree TSVs): each reader
 * hands it the first line it read, before any other check, so that a
 * `data.txt.gz` is called a gzip file everywhere, not "fewer than 2 lines"
 * in one stage and "NUL byte" in another.
 */
#ifndef MMRANK_SNIFF_H
#define MMRANK_SNIFF_H
#include <stddef.h>

/* buf[0..n): the first bytes of a file (its first line, or more).  Returns
 * NULL when they may be text, else what the file is and what to do, e.g.
 * "compressed file (gzip): decompress it first (gunzip -k FILE)",
 * "zip archive: extract the log first (unzip FILE)" or "binary data (a NUL
 * or control byte in the first line): not a text file".  Text: no NUL, no
 * control byte other than tab, newline and carriage return (CR is left to
 * the readers' own CRLF message). */
const char *sniff_not_text(const void *buf, size_t n);

/* die("<path>: <what>") if sniff_not_text(buf, n) finds a non-text file. */
void sniff_or_die(const char *path, const void *buf, size_t n);

#endif
