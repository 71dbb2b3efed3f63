#!/usr/bin/env bash
# A stand-in for bench in check/t6190-clocks.sh: writes the truth's own log
# (truth_mm.txt beside -o LOG, bench_clocks.sh's) as this clock's log, its
# feedback changed by --clock: rotate as it is (the truth's clock), inductor
# its reciprocal (the ranking reversed), warm every Triton choice x 3.
clock= out=
while [ $# -gt 0 ]; do
	case $1 in --clock) clock=$2; shift ;; -o) out=$2; shift ;; esac
	shift
done
[ -n "$clock" ] && [ -n "$out" ] || { echo "fake_bench.sh: needs --clock and -o" >&2; exit 1; }
awk -F, -v OFS=, -v c="$clock" 'NR <= 2 { print; next }
	{ a = $(NF - 1) == "extern_mm"
	  if (c == "inductor") $NF = 1 / $NF
	  if (c == "warm" && !a) $NF = $NF * 3
	  print }' "$(dirname "$out")/truth_mm.txt" > "$out"
