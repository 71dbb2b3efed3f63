/* vcut_print — the C side of check/t4160-ttsched.sh's check of the
 * verification cut's --stats (stages/gpu/policy/vcutstats.h): reads one timing per
 * line from stdin (# comments and blank lines skipped):
 *   VCUT VCUT_AUDITED IS_LOSER RATIO
 * (RATIO: the verification call over the probe, "nan" = none), counts each
 * with tt_vcut_count and prints tt_vcut_print's lines at the end.
 */
#include <stdio.h>

#include "core/util.h"
#include "gpu/policy/vcutstats.h"

int main(void)
{
	char line[256];
	int ln = 0;
	tt_vcut_stats v = { 0 };
	while (fgets(line, sizeof line, stdin)) {
		ln++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		tt_sched s = { 0 };
		double ratio;
		if (sscanf(line, "%d %d %d %lf", &s.vcut, &s.vcut_audited, &s.is_loser, &ratio) != 4)
			die("stdin:%d: expected VCUT VCUT_AUDITED IS_LOSER RATIO", ln);
		tt_vcut_count(&v, &s, ratio);
	}
	tt_vcut_print(stdout, &v);
	return 0;
}
