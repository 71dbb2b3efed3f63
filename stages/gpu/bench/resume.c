/* resume.c — the resumption scan of a partial log (block.h resume_scan;
 * design.md "Resumable"). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "block.h"
#include "core/util.h"

/* Position of the choice of log line l (features fl bytes) among
 * cand[from..nc), the earliest that matches, or -1.  An id may occur twice
 * in a plan (backend.h); the earliest is right: before the screening gaps
 * (below) only cand[from] is asked, and in a gap the copies of an id share
 * one screening verdict (bench_screen_verdicts), so a copy has a row only
 * if every earlier one has. */
static int row_choice(const char *l, size_t ll, const bench_input *in, size_t fl,
                      const bench_cand *cand, int from, int nc)
{
	if (ll < fl + 3 || memcmp(l, in->features, fl) || l[fl] != ',')
		return -1;
	for (int j = from; j < nc; j++) {
		size_t il = strlen(cand[j].id);
		if (ll >= fl + il + 3 && !memcmp(l + fl + 1, cand[j].id, il) && l[fl + 1 + il] == ',')
			return j;
	}
	return -1;
}

int64_t resume_scan(const char *path, const char *body, size_t len,
                    bench_input *const *todo, int64_t ntodo, const bench_plan *p,
                    int reps, double alpha, double screen, size_t *keep)
{
	bench_cand cand[BENCH_MAX_CAND];
	double t0[BENCH_MAX_CAND];
	unsigned char full[BENCH_MAX_CAND];
	size_t pos = 0;
	int64_t done = 0, line = 2;
	*keep = 0;
	while (done < ntodo && pos < len) {
		const bench_input *in = todo[done];
		int nc = plan_candidates(p, in, cand);
		size_t fl = strlen(in->features);
		for (int r = 0; r < reps; r++) {
			if (r == 1)
				block_full_reps(t0, nc, alpha, full);
			for (int i = 0; i < nc; i++) {
				if (r > 0 && !full[i])
					continue;
				const char *l = body + pos;
				const char *nl = memchr(l, '\n', len - pos);
				if (!nl)
					return done; /* torn last line: input incomplete */
				size_t ll = (size_t)(nl - l);
				/* screening: candidates after a finite extern_mm row may be
				 * absent from the first repetition */
				int gaps = r == 0 && i > 0 && screen > 0 && reps >= 2 && isfinite(t0[0]);
				int j = row_choice(l, ll, in, fl, cand, i, gaps ? nc : i + 1);
				if (j < 0 && gaps) {
					/* the first repetition ended: the rest screened out */
					for (; i < nc; i++)
						t0[i] = NAN;
					break;
				}
				line++;
				if (j < 0)
					die("%s:%" PRId64 ": row does not match the plan (expected input %"
					    PRId64 " '%s', choice '%s', rep %d): the log was made with "
					    "another shapes.tsv, configs.tsv, --reps, --fast-reject, "
					    "--screen, shard or device; remove it to start over", path, line,
					    in->id, in->features, cand[i].id, r + 1);
				for (; i < j; i++)
					t0[i] = NAN;
				size_t il = strlen(cand[i].id);
				const char *v = l + fl + il + 2;
				double fbv;
				if (parse_f64(v, (size_t)(nl - v), &fbv) != 0 || !(fbv > 0))
					die("%s:%" PRId64 ": bad feedback '%.*s'", path, line,
					    (int)(nl - v), v);
				if (r == 0)
					t0[i] = fbv;
				pos = (size_t)(nl - body) + 1;
			}
		}
		done++;
		*keep = pos;
	}
	if (done == ntodo && pos < len)
		die("%s: %zu bytes after the last input of the shard", path, len - pos);
	return done;
}
