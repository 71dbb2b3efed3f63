/* ranks.h — per-input rankings of a feat TSV's inputs by any ranker that is
 * not a tree (today NVIDIA's analytic nvMatmulHeuristics, stage
 * nvmmh), for eval --ranked to score like a tree (spec §5.9, §7.3).
 * Format: stages/FORMATS.md "ranks TSV".
 *
 * One row per input of the feat TSV it was made from, in input order:
 * input index, m, k, n (so that eval can check that the file belongs to the
 * set it scores) and the ranking, choice ids best first, comma separated
 * (may be empty: the ranker ranks nothing for the input, and the top-k
 * list is extern_mm alone).
 */
#ifndef MMRANK_RANKS_H
#define MMRANK_RANKS_H
#include <stdint.h>
#include <stdio.h>

typedef struct {
	int n_inputs;
	int64_t *mkn;      /* [3 n_inputs] m, k, n per input */
	int *off;          /* [n_inputs + 1]: input i's ids are id[off[i] .. off[i+1]) */
	char **id;         /* choice ids, owned */
	int n_id;
} ranks;

/* The header line of a ranks TSV (without the newline). */
extern const char ranks_header[];
/* Write one row; dies on an id that holds a tab, a comma or a newline. */
void ranks_write_row(FILE *fp, int input, int64_t m, int64_t k, int64_t n,
                     const char *const *ids, int n_ids);
/* Read and validate path (header, input numbers 0, 1, ... in order,
 * integers, non-empty ids); dies naming path:line and the field. */
void ranks_read(ranks *r, const char *path);
void ranks_free(ranks *r);

#endif
