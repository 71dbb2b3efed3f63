#!/usr/bin/env bash
# perf/models/judge.sh OUTDIR — the handler's judge (issue 45) in one
# command: per model, modes MODES back to back (OUTDIR/run1), then mode b
# compiled cold again in OUTDIR/run2 .. run<B_COMPILES> (b's picks vary
# from one cold compile to the next, RESULTS §9.4), so a row's draws sit
# minutes apart, not a call apart; then report.py over every run into
# OUTDIR/report.md (min(a, b) with b pooled, and with b's fastest run).
# Each run is a run.sh OUTDIR (one rep, cold): resumable, so a second call
# with the same OUTDIR continues where the first stopped.
# Environment (defaults):
#   MODELS, MODELS_FILE, ARTIFACT, LAYERS, MIN_START, PER_RUN_S, PYTHON,
#   CACHE_ROOT, DEVICE  as run.sh (ARTIFACT: the artifact of e and f)
#   PHASES      decode      AUTOTUNE  gemm (GEMM-only max-autotune)
#   MODES       "a f e b"   (b last: run1's b is b's first cold compile)
#   B_COMPILES  2 (cold compiles of b per row; 1: run1's alone)
#   TIME_LIMIT  540 (seconds for this call, over all runs)
set -u -f
cd "$(dirname "$0")/../.." || exit 1
OUT=${1:?usage: perf/models/judge.sh OUTDIR}
die() { echo "judge.sh: $*; nothing run" >&2; exit 2; }
B_COMPILES=${B_COMPILES:-2} TIME_LIMIT=${TIME_LIMIT:-540}
for v in B_COMPILES TIME_LIMIT; do
	case ${!v} in *[!0-9]* | 0* | ??????????*) die "$v='${!v}': expected a number >= 1 (ASCII digits)" ;; esac
done
[[ " ${MODES-a f e b} " == *" b "* ]] || [ "$B_COMPILES" -eq 1 ] || die "MODES='${MODES-}' has no b: B_COMPILES must be 1"
MODELS_FILE=${MODELS_FILE:-perf/models/models.tsv}
read -r -a asked <<<"${MODELS:-}"
names=$(python3 perf/models/records.py names "$MODELS_FILE" "${asked[@]}") || exit 2
mapfile -t models <<<"$names"
export MODELS_FILE PHASES=${PHASES:-decode} AUTOTUNE=${AUTOTUNE:-gemm} REPS=1 MODES_LATER=
start=$(date +%s)
left() { echo $((TIME_LIMIT - ($(date +%s) - start))); }
for m in "${models[@]}"; do
	for r in $(seq 1 "$B_COMPILES"); do
		[ "$(left)" -ge "${MIN_START:-30}" ] || break 2
		mo=${MODES-a f e b}; [ "$r" -eq 1 ] || mo=b
		echo "judge.sh: $m, run $r: $mo ($(left) s left)"
		MODELS=$m MODES_FIRST=$mo TIME_LIMIT=$(left) bash perf/models/run.sh "$OUT/run$r" >/dev/null 2>&1 ||
			{ echo "judge.sh: run.sh failed on $m, run $r (its console: $OUT/run$r/console.txt)" >&2; exit 1; }
	done
done
runs=()
for r in $(seq 1 "$B_COMPILES"); do [ -s "$OUT/run$r/records.jsonl" ] && runs+=("$OUT/run$r/records.jsonl"); done
[ ${#runs[@]} -gt 0 ] || { echo "judge.sh: no records (no time?)" >&2; exit 1; }
python3 perf/models/report.py --skip-bad-lines "${runs[@]}" --json "$OUT/report.json" >"$OUT/report.md" || exit 1
cat "$OUT/report.md"
