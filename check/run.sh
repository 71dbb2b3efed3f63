#!/usr/bin/env bash
# check/run.sh — run every check/test_*.sh (or the ones named) and print the
# closing line "N passed, N failed, N skipped".  Exit status 1 if any failed.
# Environment: BIN (stage binaries), passed through to the tests.
set -u
cd "$(dirname "$0")/.."
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(check/test_*.sh)
pass=0 failn=0 skipn=0
for t in "${tests[@]}"; do
	start=$(date +%s%N)
	out=$(bash "$t" 2>&1); rc=$?
	p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out"); s=$(grep -c '^skip ' <<<"$out")
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; out+=$'\n'"FAIL $t: exited with status $rc"; fi
	pass=$((pass + p)) failn=$((failn + f)) skipn=$((skipn + s))
	ms=$((($(date +%s%N) - start) / 1000000))
	printf '%-34s %3d ok %2d failed %2d skipped  %4d.%03ds\n' "$t" "$p" "$f" "$s" \
		$((ms / 1000)) $((ms % 1000))
	grep -E '^(FAIL|skip) ' <<<"$out" | sed 's/^/    /'
	if [ "$f" -gt 0 ]; then grep -vE '^(ok|FAIL|skip) ' <<<"$out" | tail -20 | sed 's/^/    | /'; fi
done
echo "$pass passed, $failn failed, $skipn skipped"
[ "$failn" -eq 0 ]
