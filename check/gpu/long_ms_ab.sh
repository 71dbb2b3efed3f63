#!/usr/bin/env bash
# check/gpu/long_ms_ab.sh — what the long-kernel rule (bench --long-ms,
# kernels/INDUCTOR_MM.md section 5) costs in accuracy and gains in speed:
# the same inputs timed by bench --template triton --reps 1 with --long-ms 0
# (Inductor's method) and --long-ms T, twice each, interleaved (0, T, 0, T),
# then check/gpu/inductor_agree.py: run 0b against 0a (the noise floor of
# Inductor's own method) and the T runs against 0a (the rule's effect), and
# each run's wall time, timed launches, long_choices and long_fallbacks.
#
#   SHAPES=list.tsv ENTRY=build/.../triton-<hash>-3.6.0-sm90 [T=10] [N=2] \
#     bash check/gpu/long_ms_ab.sh        # needs a GPU; carry build/bin, ENTRY
#
# Writes $OUT (default out/long_ms_ab)/{log,st,err}_{0a,Ta,0b,Tb}.*, agree_*.txt.
set -u
cd "$(dirname "$0")/../.." || exit 1
: "${SHAPES:?SHAPES=a shape list}" "${ENTRY:?ENTRY=the Triton cubin folder}"
T=${T:-10} N=${N:-2} OUT=${OUT:-out/long_ms_ab}
mkdir -p "$OUT"
nvidia-smi --query-gpu=name,clocks.sm,temperature.gpu,power.draw --format=csv,noheader 2>/dev/null
for run in 0a Ta 0b Tb; do
	L=0; [ "${run%?}" = T ] && L=$T
	t0=$(date +%s.%N)
	build/bin/bench --template triton --reps 1 --kernels kernels --triton-cubins "$ENTRY" \
		--long-ms "$L" --long-launches "$N" --stats "$OUT/st_$run.tsv" -o "$OUT/log_$run.txt" \
		"$SHAPES" 2> "$OUT/err_$run.txt" || { echo "$run: bench failed: $(tail -1 "$OUT/err_$run.txt")"; exit 1; }
	echo "$run (--long-ms $L): $(awk -v t0="$t0" -v t1="$(date +%s.%N)" 'BEGIN { printf "%.1f s", t1 - t0 }') $(awk -F'\t' \
		'$1 ~ /^(inputs_measured|inputs_per_hour|timing_nvrtc_s|timing_extern_s|verify_s|timed_launches|long_choices|long_fallbacks|verify_failures)$/ { printf "%s=%s ", $1, $2 }' "$OUT/st_$run.tsv")"
done
for x in 0b Ta Tb; do
	python3 check/gpu/inductor_agree.py "$OUT/log_0a.txt" "$OUT/log_$x.txt" --name-x "$x" \
		--a-stats "$OUT/st_0a.tsv" --x-stats "$OUT/st_$x.tsv" --per-input "$OUT/agree_$x.tsv" > "$OUT/agree_$x.txt"
	echo "== $x vs 0a"; cat "$OUT/agree_$x.txt"
done
