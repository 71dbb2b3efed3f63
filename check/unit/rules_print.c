/* rules_print — the C side of check/t1170-rules.sh: evaluates the rules of
 * stages/formats/rules.h on the cases read from stdin, one per line, and prints
 * one result line per case (check/rules_print.py prints the same from
 * python/mmrank/rules.py):
 *   const                          -> const NEAR_BEST_RATIO DEFAULT_CHOICE
 *   near_best T BEST               -> near_best T BEST 0|1
 *   topk K RANKING NAME=MS,...     -> topk K LISTED REGRET
 * RANKING: names best first, comma separated; NAME=MS: the available
 * choices and their times (inf allowed); LISTED: the top-k list, comma
 * separated; REGRET (%.17g) of the list against the best available time,
 * or "none" if the list has no finite time. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "formats/rules.h"
#include "core/util.h"

enum { MAXC = 64 };

/* Index of name in names[0..*n), added if missing. */
static int
index_of(char names[][64], int *n, const char *name)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(names[i], name))
			return i;
	if (*n == MAXC)
		die("too many choices");
	snprintf(names[*n], 64, "%s", name);
	return (*n)++;
}

static void
case_topk(int k, char *ranking, char *times)
{
	char names[MAXC][64];
	double time[MAXC], prob[MAXC];
	int rank[MAXC], list[MAXC + 1], n = 0, nr = 0;
	double best = INFINITY;
	for (char *tok = strtok(times, ","); tok; tok = strtok(NULL, ",")) {
		char *eq = strchr(tok, '=');
		if (!eq)
			die("bad time '%s'", tok);
		*eq = '\0';
		int c = index_of(names, &n, tok);
		time[c] = strtod(eq + 1, NULL);
		if (time[c] < best)
			best = time[c];
	}
	for (char *tok = strtok(ranking, ","); tok; tok = strtok(NULL, ",")) {
		int before = n, c = index_of(names, &n, tok);
		if (c == before)
			time[c] = NAN; /* ranked, not available */
		rank[nr] = c;
		prob[nr++] = 1.0;
	}
	int before = n, def = index_of(names, &n, DEFAULT_CHOICE);
	if (def == before)
		time[def] = NAN;
	topk_list l;
	topk(&l, list, rank, prob, nr, time, k, def, -1);
	printf("topk %d ", k);
	for (int i = 0; i < l.n; i++)
		printf("%s%s", i ? "," : "", names[list[i]]);
	if (isfinite(l.best))
		printf(" %.17g\n", regret(l.best, best));
	else
		printf(" none\n");
}

int
main(void)
{
	char line[4096], a[2048], b[2048];
	double t, best;
	int k;
	while (fgets(line, sizeof line, stdin)) {
		if (!strncmp(line, "const", 5))
			printf("const %.17g %s\n", NEAR_BEST_RATIO, DEFAULT_CHOICE);
		else if (sscanf(line, "near_best %lf %lf", &t, &best) == 2)
			printf("near_best %.17g %.17g %d\n", t, best, near_best(t, best));
		else if (sscanf(line, "topk %d %2047s %2047s", &k, a, b) == 3)
			case_topk(k, a, b);
		else
			die("bad case '%s'", line);
	}
	close_stdout();
	return 0;
}
