/* configs.c — Triton-style config lists (configs.h; spec §3.5). */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "configs.h"
#include "fields.h"
#include "core/tsvtext.h"
#include "core/util.h"

mm_config *configs_read(const char *path, int *n)
{
	char *buf = tsv_read(path, "a header line"), *p = buf, *l;
	mm_config *v = NULL;
	size_t cap = 0;
	int cnt = 0, header = 0, seen_extra = 0;
	int64_t lineno = 0;
	while ((l = tsv_line(&p, path, &lineno))) {
		char *f[7];
		if (*l == '#' || *l == '\0') {
			continue;
		}
		if (!header) {
			/* kernels/wgmma_configs.tsv spells the columns BLOCK_M ... */
			if (strcasecmp(l, "list\tblock_m\tblock_n\tblock_k\tnum_stages\tnum_warps"))
				die("%s:%" PRId64 ": bad header", path, lineno);
			header = 1;
			continue;
		}
		if (tsv_split(l, f, 6) != 6)
			die("%s:%" PRId64 ": expected 6 fields", path, lineno);
		xgrow((void **)&v, &cap, (size_t)cnt + 1, sizeof *v);
		mm_config *c = &v[cnt];
		if (!strcmp(f[0], "base")) {
			if (seen_extra)
				die("%s:%" PRId64 ": base config after extra ones", path, lineno);
			c->extra = 0;
		} else if (!strcmp(f[0], "extra") || !strcmp(f[0], "big")) {
			/* big (kernels/mma_configs.tsv): larger tiles, offered after
			 * Inductor's extra configs, in the same deduplicated list */
			c->extra = 1;
			seen_extra = 1;
		} else if (!strcmp(f[0], "splitk")) {
			/* split-K needs a workspace and a reduction launch that bench
			 * does not drive yet (perf/kernels/mma_harness.c does) */
			continue;
		} else {
			die("%s:%" PRId64 ": field 'list': '%s' (base or extra)", path, lineno, f[0]);
		}
		c->bm = (int)field_i64(path, lineno, "block_m", f[1], 16, 256);
		c->bn = (int)field_i64(path, lineno, "block_n", f[2], 16, 256);
		c->bk = (int)field_i64(path, lineno, "block_k", f[3], 16, 256);
		c->stages = (int)field_i64(path, lineno, "num_stages", f[4], 1, 8);
		c->warps = (int)field_i64(path, lineno, "num_warps", f[5], 1, 32);
		if (cnt + 2 > BENCH_MAX_CAND - LT_MAX_LIST)
			die("%s: too many configs (at most %d)", path, BENCH_MAX_CAND - LT_MAX_LIST - 2);
		cnt++;
	}
	if (!header || cnt == 0)
		die("%s: no configs", path);
	free(buf);
	*n = cnt;
	return v;
}

int64_t triton_smem(const mm_config *c, int itemsize)
{
	return (int64_t)c->stages * ((int64_t)c->bm * c->bk + (int64_t)c->bk * c->bn) * itemsize;
}

static int64_t next_pow2(int64_t x)
{
	int64_t p = 1;
	while (p < x)
		p *= 2;
	return p;
}

static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }

mm_config shrink_config(mm_config c, int64_t m, int64_t n, int64_t k)
{
	int64_t mp = imax(next_pow2(m), 16), np = imax(next_pow2(n), 16),
	        kp = imax(next_pow2(k), 16);
	c.bm = (int)imax(imin(c.bm, mp), 16);
	c.bn = (int)imax(imin(c.bn, np), 16);
	c.bk = (int)imax(imin(c.bk, kp), 16);
	c.warps = (int)imin(c.warps, (int64_t)c.bm * c.bn / 256);
	return c;
}

int same_config(const mm_config *a, const mm_config *b)
{
	return a->bm == b->bm && a->bn == b->bn && a->bk == b->bk &&
	       a->stages == b->stages && a->warps == b->warps;
}
