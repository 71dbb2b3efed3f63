/* grid.c — fit's model grid (spec §5.4); see grid.h. */
#include "grid.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cart.h"
#include "core/tsvtext.h"
#include "core/util.h"

int
grid_builtin(const char *g)
{
	return !strcmp(g, "mm") || !strcmp(g, "reference") || !strcmp(g, "search");
}

const char *
grid_crit_name(int crit)
{
	return crit == CART_ENTROPY ? "entropy" : "gini";
}

void
grid_read(const char *g, model **out, int *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	if (!strcmp(g, "mm")) {
		xgrow((void **)out, &cap, 1, sizeof **out);
		(*out)[(*n)++] = (model){5, 0.01, CART_ENTROPY};
		return;
	}
	if (!strcmp(g, "reference") || !strcmp(g, "search")) {
		/* search (ours): depth 5-8 and a finer min_samples_leaf list */
		static const double ref_msl[] = {1, 5, 10, 0.01, 0.05, 0.02};
		static const double search_msl[] = {1, 5, 10, 0.005, 0.01, 0.02, 0.05};
		int search = !strcmp(g, "search");
		const double *msl = search ? search_msl : ref_msl;
		int nmsl = search ? 7 : 6;
		for (int d = 5; d <= (search ? 8 : 7); d++)
			for (int i = 0; i < nmsl; i++)
				for (int c = 0; c < 2; c++) {
					xgrow((void **)out, &cap, (size_t)*n + 1, sizeof **out);
					(*out)[(*n)++] = (model){d, msl[i],
					    c == 0 ? CART_GINI : CART_ENTROPY};
				}
		return;
	}
	char *buf = tsv_read(g, "grid rows (max_depth, min_samples_leaf, criterion)"), *pos = buf, *p;
	int64_t lineno = 0;
	while ((p = tsv_line(&pos, g, &lineno))) {
		long ln = (long)lineno;
		if (*p == '#' || *p == '\0' || !strncmp(p, "max_depth", 9))
			continue;
		char *f[3];
		int nf = tsv_split(p, f, 3);
		if (nf != 3)
			die("%s:%ld: expected 3 fields (max_depth, min_samples_leaf, "
			    "criterion), got %d", g, ln, nf);
		model m;
		int64_t d;
		if (parse_i64(f[0], strlen(f[0]), &d) || d < 0 || d > TREE_MAX_DEPTH)
			die("%s:%ld: field 'max_depth': expected 0..%d (TREE_MAX_DEPTH), "
			    "got '%s'", g, ln, TREE_MAX_DEPTH, f[0]);
		m.max_depth = (int)d;
		if (parse_f64(f[1], strlen(f[1]), &m.msl) || !(m.msl > 0) ||
		    isinf(m.msl) || (m.msl >= 1 && m.msl != floor(m.msl)))
			die("%s:%ld: field 'min_samples_leaf': expected a count >= 1 "
			    "or a fraction in (0, 1), got '%s'", g, ln, f[1]);
		if (!strcmp(f[2], "gini"))
			m.crit = CART_GINI;
		else if (!strcmp(f[2], "entropy"))
			m.crit = CART_ENTROPY;
		else
			die("%s:%ld: field 'criterion': expected gini or entropy, got "
			    "'%s'", g, ln, f[2]);
		xgrow((void **)out, &cap, (size_t)*n + 1, sizeof **out);
		(*out)[(*n)++] = m;
	}
	free(buf);
	if (*n == 0)
		die("%s: grid has no models", g);
}
