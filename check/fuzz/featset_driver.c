/* featset_driver — fuzz harness for the feat TSV reader (stages/formats/featset.c).
 *
 * usage: featset_driver FILE.feat.tsv
 * Loads FILE with featset_read() (which dies with exit status 1 on malformed
 * input), checks the invariants featset.h promises, prints a one-line
 * summary and frees everything.  An invariant violation aborts, so AFL++
 * reports it as a crash.  Built by check/fuzz/build.sh (AFL++ + ASan) and by
 * check/t7120-corpus.sh (plain cc) for the corpus's feat TSV cases.
 */
#include "formats/featset.h"
#include "core/util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
"usage: featset_driver FILE.feat.tsv\n"
"\n"
"Read FILE with featset_read (stages/FORMATS.md \"feat TSV\"), check its\n"
"invariants, print 'inputs N rows N choices N features N'.\n"
"Exit status: 0 valid, 1 invalid input (message names file:line), abort on\n"
"a broken invariant.\n";

static void check(int ok, const char *what)
{
	if (!ok) {
		fprintf(stderr, "featset_driver: invariant broken: %s\n", what);
		abort();
	}
}

int main(int argc, char **argv)
{
	std_options(argc, argv, usage);
	if (argc != 2)
		die("usage: featset_driver FILE.feat.tsv (see --help)");
	featset fs;
	featset_read(&fs, argv[1]);
	check(fs.n_inputs >= 1 && fs.n_rows >= fs.n_inputs, "counts");
	check(fs.n_feat >= fs.n_dummy && fs.n_dummy >= 0, "feature counts");
	check(fs.first[0] == 0 && fs.first[fs.n_inputs] == fs.n_rows, "first[] bounds");
	for (int i = 0; i < fs.n_inputs; i++) {
		check(fs.first[i] < fs.first[i + 1], "input without rows");
		check(fs.winner[i] >= fs.first[i] && fs.winner[i] < fs.first[i + 1],
		      "winner outside its input");
		for (int f = 0; f < fs.n_feat; f++)
			check(isfinite(fs.x[(size_t)i * fs.n_feat + f]), "non-finite feature");
		for (int j = 0; j < fs.meta.n_cat; j++)
			check(fs.cat[(size_t)i * fs.meta.n_cat + j] != NULL, "categorical value");
	}
	for (int r = 0; r < fs.n_rows; r++) {
		check(fs.choice[r] >= 0 && fs.choice[r] < fs.n_choices, "choice index");
		check(fs.ms[r] > 0 && !isnan(fs.ms[r]), "median_ms");
		check(strlen(fs.choices[fs.choice[r]]) > 0, "empty choice");
	}
	for (int f = 0; f < fs.n_feat; f++)
		check(featset_feature(&fs, fs.feat[f]) >= 0, "feature lookup");
	printf("inputs %d rows %d choices %d features %d\n", fs.n_inputs, fs.n_rows,
	       fs.n_choices, fs.n_feat);
	featset_free(&fs);
	close_stdout();
	return 0;
}
