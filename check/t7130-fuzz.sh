#!/bin/bash
# t7130-fuzz.sh — the fuzz harnesses (check/fuzz/, `make fuzz`) cannot rot
# unnoticed:
#   fuzz-build       check/fuzz/build.sh builds all five harnesses (featurize,
#                    featset_driver, prune, emit, import) with afl-clang-fast
#                    when AFL++ is installed, else with clang, else with cc
#                    (a plain ASan+UBSan build), into a scratch folder: the
#                    suite's one clang sanitizer build (clang's UBSan flags
#                    NULL + 0, which gcc's build/san does not);
#   fuzz-compiler    that build is clang's (skipped, with the reason, when
#                    neither afl-clang-fast nor clang is installed);
#   fuzz-replay-H    every seed of harness H runs without a signal or a
#                    sanitizer report (check/fuzz/run.sh --replay);
#   fuzz-afl-H       with AFL++ installed: FUZZ_CHECK_SECONDS (default 3) s
#                    of AFL++ on H, 0 crashes, 0 hangs; the ok line carries
#                    run.sh's summary (executions, paths).  Skipped, with the
#                    reason, without AFL++; CI (.ci/run) sets CHECK_REQUIRE=AFL,
#                    CLANG, so there a missing AFL++ or clang fails instead.
# Prerequisites: a C compiler, jansson, libzip, ISA-L (as for the stages), m4
# and python3 (the emit harness).
. "$(dirname "$0")/lib.sh"
H=(featurize featset prune emit import)
SECS=${FUZZ_CHECK_SECONDS:-3}
case $SECS in ''|*[!0-9]*|0) fail fuzz-seconds "FUZZ_CHECK_SECONDS='$SECS': expected seconds >= 1"; finish ;; esac
CCF=afl-clang-fast
command -v "$CCF" >/dev/null || CCF=clang
command -v "$CCF" >/dev/null || CCF=${CC:-cc}
export FUZZ_BUILD=$TMP/fuzz
if ! check/fuzz/build.sh "$CCF" >"$TMP/build.log" 2>&1; then
	fail fuzz-build "check/fuzz/build.sh $CCF: $(grep -m3 -E 'error|undefined' "$TMP/build.log" | tr '\n' '|')"
	finish
fi
ok fuzz-build
case $CCF in
*clang*) ok fuzz-compiler ;;
*) test_skip_unless CLANG fuzz-compiler ;;
esac
check/fuzz/run.sh --replay "${H[@]}" >"$TMP/replay.out" 2>"$TMP/replay.err"
for h in "${H[@]}"; do
	line=$(grep "^replay $h: " "$TMP/replay.out")
	if [[ $line =~ ^replay\ $h:\ ([0-9]+)\ seeds,\ 0\ crashes$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
		ok "fuzz-replay-$h"
	else
		fail "fuzz-replay-$h" "${line:-no summary}: $(grep -m2 ": $h: " "$TMP/replay.err" | tr '\n' '|')"
	fi
done
for h in "${H[@]}"; do
	test_skip_unless AFL "fuzz-afl-$h" || continue
	check/fuzz/run.sh "$SECS" "$h" >"$TMP/afl.out" 2>"$TMP/afl.err"
	line=$(grep "^fuzz $h: " "$TMP/afl.out")
	if [[ $line =~ ^fuzz\ $h:\ ([0-9]+)\ execs.*\ 0\ crashes,\ 0\ hangs$ ]] && [ "${BASH_REMATCH[1]}" -gt 0 ]; then
		ok "fuzz-afl-$h" "$line"
	else
		fail "fuzz-afl-$h" "${line:-no summary}: $(tail -3 "$TMP/afl.err" | tr '\n' '|')"
	fi
done
finish
