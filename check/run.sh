#!/usr/bin/env bash
# check/run.sh — run every check/t[0-9]*.sh (or the ones named) and print the
# closing lines: "N passed, N failed, N skipped" (then ", N known
# breakages" when test_expect_failure found any) and the skips per
# prerequisite ("skipped by prerequisite: TRITON 12, TORCH 5; other 3").
# A check name printed twice (in one file or across files) is a failure.
# Exit status 1 if any failed.
# Environment: BIN (stage binaries), passed through to the tests;
# CHECK_NAMES=FILE: also write every check's name, file and status there
# (NAME<TAB>FILE<TAB>ok|FAIL|skip|todo), to compare two runs by name.
# It writes no temporary file (a killed run leaves nothing in $TMPDIR).
set -u
cd "$(dirname "$0")/.."
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(check/t[0-9][0-9][0-9][0-9]-*.sh)
pass=0 failn=0 skipn=0 todon=0
# every check's NAME<TAB>FILE<TAB>status, and the prerequisite of every
# skip, kept in memory: a killed run leaves no file behind
names= skips=
for t in "${tests[@]}"; do
	start=$(date +%s%N)
	out=$(bash "$t" 2>&1); rc=$?
	p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^FAIL ' <<<"$out"); s=$(grep -c '^skip ' <<<"$out")
	k=$(grep -c '^todo ' <<<"$out")
	if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; out+=$'\n'"FAIL $t: exited with status $rc"; fi
	# the names (the line less its first word, up to a ": "), each with its file
	these=$(grep -E '^(ok|FAIL|skip|todo) ' <<<"$out" | sed -E 's/^([A-Za-z]+) (.*)$/\2\t\1/; s/: [^\t]*//; s/:\t/\t/' |
		awk -F'\t' -v t="$t" -v OFS='\t' '{ print $1, t, $2 }')
	[ -z "$these" ] || names+=$these$'\n'
	dup=$(cut -f1 <<<"$these" | grep . | sort | uniq -d | head -5 | paste -sd'|')
	if [ -n "$dup" ]; then f=$((f + 1)); out+=$'\n'"FAIL $t: check names printed twice: $dup"; fi
	skips+=$(grep -E '^skip ' <<<"$out" | sed -nE 's/^skip [^ ]+ \[(!?[A-Z0-9_]+)\] .*/\1/p; t; s/^skip .*/other/p')$'\n'
	pass=$((pass + p)) failn=$((failn + f)) skipn=$((skipn + s)) todon=$((todon + k))
	ms=$((($(date +%s%N) - start) / 1000000))
	printf '%-34s %3d ok %2d failed %2d skipped  %4d.%03ds\n' "$t" "$p" "$f" "$s" \
		$((ms / 1000)) $((ms % 1000))
	grep -E '^(FAIL|skip|todo) ' <<<"$out" | sed 's/^/    /'
	if [ "$f" -gt 0 ]; then grep -vE '^(ok|FAIL|skip|todo) ' <<<"$out" | tail -20 | sed 's/^/    | /'; fi
done
# a name used by two files
across=$(printf %s "$names" | cut -f1,2 | sort -u | cut -f1 | sort | uniq -d | head -10)
if [ -n "$across" ]; then
	failn=$((failn + 1))
	echo "FAIL check names used by more than one file: $(paste -sd'|' <<<"$across")"
	while IFS= read -r n; do printf %s "$names" | awk -F'\t' -v n="$n" '$1 == n { print "    " n ": " $2 }' | sort -u; done <<<"$across"
fi
[ -z "${CHECK_NAMES:-}" ] || printf %s "$names" >"$CHECK_NAMES"
echo "$pass passed, $failn failed, $skipn skipped$([ $todon -eq 0 ] || echo ", $todon known breakage$([ $todon -eq 1 ] || echo s)")"
skips=$(grep . <<<"$skips")
if [ -n "$skips" ]; then
	echo "skipped by prerequisite: $(grep -v '^other$' <<<"$skips" | sort | uniq -c | sort -k1,1nr -k2 |
		awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')$(n=$(grep -c '^other$' <<<"$skips"); [ "$n" -gt 0 ] && echo "; other $n")"
fi
[ "$failn" -eq 0 ]
