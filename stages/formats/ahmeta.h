/* ahmeta.h — what an mm log's metadata and header must be (spec §1.1), and
 * the one comparison of two metadata lines.
 *
 * PyTorch writes other AutoHeuristic problems into the same container:
 * mixed_mm (mm's features without using_tf32), pad_mm (choices orig/pad,
 * 17 or 19 features), flex_attention.  mmrank learns mm only: the log
 * reader (ahlog.h), the feat TSV reader (featset.h) and merge refuse any
 * other metadata before a row is read, naming the file, the field, what
 * was expected and what was found.
 *
 * Metadata are compared as JSON (key order and spacing do not matter):
 * merge (shards of one collection), featurize --categories, fit (extra sets
 * against the main set) and eval (trees against sets).  Two mm logs differ
 * only in their device (shared_memory, device_capa); H100 and H200 report
 * the same (232448, (9, 0)).
 */
#ifndef MMRANK_AHMETA_H
#define MMRANK_AHMETA_H
#include <stddef.h>

#include "ahlog.h"

/* Dies "<where>: metadata 'name': expected 'mm', found 'pad_mm' (...)"
 * (where = "file:1") unless m is mm's: name "mm", numerical_features and
 * categorical_features exactly spec §1.1's lists, in that order. */
void ah_meta_require_mm(const ah_meta *m, const char *where);
/* Dies "<where>: header column 6 is 'x', mm's is 'y' ..." (where =
 * "file:2") unless m->header (already checked by ah_meta_header) is mm's
 * header line, in spec §1.1's column order. */
void ah_header_require_mm(const ah_meta *m, const char *where);
/* 1 if the metadata lines of a and b are equal as JSON values (same keys
 * and values, whatever the key order or white space), else 0. */
int ah_meta_equal(const ah_meta *a, const ah_meta *b);
/* 1 if a and b were collected on the same device: equal shared_memory and
 * device_capa. */
int ah_meta_same_device(const ah_meta *a, const ah_meta *b);
/* "shared_memory 166912, device_capa (8, 0) (A100)" into buf: the device
 * names of the GPU table's rows that report this device (datasets/GPUS.tsv,
 * through the generated gen/gpus.h), each once, joined by " or ", else
 * none; returns buf. */
const char *ah_device_str(const ah_meta *m, char *buf, size_t n);

/* The one check of a set's metadata m (called name in messages) against a
 * reference ref (refname): returns 0 if they are equal as JSON.  If they
 * differ in the device only: dies naming both devices unless cross_ok,
 * then returns 1 (the caller says so in its output); flag, if not NULL, is
 * the option that allows it (e.g. "--cross-device"), named in the message.
 * Any other difference dies, showing both lines. */
int ah_meta_check(const ah_meta *ref, const char *refname, const ah_meta *m,
                  const char *name, int cross_ok, const char *flag);
/* The flag of featurize and eval, as their messages name it (make eval
 * passes it for CROSS_DEVICE=1). */
#define AH_CROSS_FLAG "--cross-device (make eval: CROSS_DEVICE=1)"

#endif
