/* featset.h — reader for featurize's output (stages/FORMATS.md, "feat TSV").
 *
 * A feat TSV holds one aggregated row per (input, choice): the input's
 * features, the choice id, its median time in milliseconds and whether it is
 * the input's winner.  featset_read() loads it into dense arrays:
 * features per *input* (rows of one input are contiguous in the file), and
 * (choice, median) per row.
 */
#ifndef MMRANK_FEATSET_H
#define MMRANK_FEATSET_H
#include "ahlog.h"

typedef struct {
	ah_meta meta;        /* from line 1 (metadata JSON) */
	int n_feat;          /* model feature columns: raw numeric, derived, one-hot */
	char **feat;         /* their names, in column order */
	int n_dummy;         /* how many of them (the last ones) are one-hot */
	int n_inputs;
	double *x;           /* [n_inputs * n_feat], row-major, per input */
	char **cat;          /* [n_inputs * meta.n_cat] raw categorical strings (interned, not owned) */
	int *first;          /* [n_inputs + 1]: rows of input i are first[i] .. first[i+1]-1 */
	int *winner;         /* [n_inputs]: row index of the input's winner */
	int n_rows;
	int *choice;         /* [n_rows] index into choices[] */
	double *ms;          /* [n_rows] median time, milliseconds, +inf = failed */
	int n_choices;
	char **choices;      /* distinct choice ids, first-seen order */
	char **strings;      /* interned strings (owned) */
	int n_strings;
} featset;

/* Only lines 1-2 of path (metadata, checked header): fills meta, n_feat,
 * feat and n_dummy; no rows.  Dies naming path:line on a malformed header. */
void featset_read_header(featset *fs, const char *path);
/* Load path.  Dies with "path:line: column 'name': ..." on malformed input:
 * among others a compressed or binary file (sniff.h), metadata that are not
 * mm's (ahmeta.h), a choice id emit cannot write (emittable.h). */
void featset_read(featset *fs, const char *path);
void featset_free(featset *fs);
/* Column index of a feature name in fs->feat, or -1. */
int featset_feature(const featset *fs, const char *name);

#endif
