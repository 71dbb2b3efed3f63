#!/usr/bin/env bash
# perf/models/judge.sh OUTDIR — the handler's judge (issue 45) in one
# command: per model, modes MODES back to back (OUTDIR/run1), then mode b
# compiled cold again in OUTDIR/run2 .. run<B_COMPILES> (b's picks vary
# from one cold compile to the next, RESULTS §9.4), so a row's draws sit
# minutes apart, not a call apart; then report.py over every run into
# OUTDIR/report.md (min(a, b) with b pooled, and with b's fastest run).
# Each run is a run.sh OUTDIR (one rep, cold): resumable, so a second call
# with the same OUTDIR continues where the first stopped; a call that runs
# out of time says so; an INT, TERM or HUP to judge.sh stops its run.sh,
# whose interrupted run leaves no record (exit 130).  OUTDIR is the
# caller's; MODELS_FILE and ARTIFACT are the repository root's, as in run.sh.
# Environment (defaults):
#   MODELS, MODELS_FILE, ARTIFACT, LAYERS, PER_RUN_S, PYTHON, CACHE_ROOT,
#   DEVICE      as run.sh (ARTIFACT: the artifact of e and f)
#   PHASES      decode      AUTOTUNE  gemm (GEMM-only max-autotune)
#   MODES       "a f e b"   (b last: run1's b is b's first cold compile)
#   B_COMPILES  2 (cold compiles of b per row, 1..9; 1: run1's alone)
#   TIME_LIMIT  540 (seconds for this call, over all runs)
#   MIN_START   30 (no run starts with less left)
set -u -f
die() { echo "judge.sh: $*; nothing run" >&2; exit 2; }
OUT=${1:?usage: perf/models/judge.sh OUTDIR}
case $OUT in /*) ;; *) OUT=$PWD/$OUT ;; esac
cd "$(dirname "$0")/../.." || exit 1
B_COMPILES=${B_COMPILES:-2} TIME_LIMIT=${TIME_LIMIT:-540} MIN_START=${MIN_START:-30}
[[ $B_COMPILES =~ ^[1-9]$ ]] || die "B_COMPILES='$B_COMPILES': expected 1 to 9"
for v in TIME_LIMIT MIN_START; do
	[[ ${!v} =~ ^[1-9][0-9]{0,8}$ ]] || die "$v='${!v}': expected a number >= 1 (ASCII digits, at most 9)"
done
[[ " ${MODES-a f e b} " == *" b "* ]] || [ "$B_COMPILES" -eq 1 ] || die "MODES='${MODES-}' has no b: B_COMPILES must be 1"
MODELS_FILE=${MODELS_FILE:-perf/models/models.tsv}
read -r -d '' -a asked <<<"${MODELS:-}"
names=$(python3 perf/models/records.py names --by judge.sh "$MODELS_FILE" "${asked[@]}") || exit 2
mapfile -t models <<<"$names"
export MODELS_FILE MIN_START PHASES=${PHASES:-decode} AUTOTUNE=${AUTOTUNE:-gemm} REPS=1 MODES_LATER=
start=$(date +%s)
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
. perf/models/supervise.sh
guard judge.sh
stopped=0
for m in "${models[@]}"; do
	for ((r = 1; r <= B_COMPILES; r++)); do
		left=$((TIME_LIMIT - ($(date +%s) - start)))
		[ "$left" -ge "$MIN_START" ] || { stopped=1; break 2; }
		mo=${MODES-a f e b}; [ "$r" -eq 1 ] || mo=b
		echo "judge.sh: $m, run $r: $mo ($left s left)"
		# run.sh's refusals reach stderr; its console is OUTDIR/run<r>/console.txt
		# a signal to judge.sh alone reaches run.sh too (it stops its run: no record)
		supervise judge.sh "$m, run $r; call again with the same OUTDIR to continue" \
			env MODELS="$m" MODES_FIRST="$mo" TIME_LIMIT="$left" bash perf/models/run.sh "$OUT/run$r" >"$log" ||
			{ echo "judge.sh: run.sh failed on $m, run $r" >&2; exit 1; }
		grep -q '^run.sh: stopped by TIME_LIMIT' "$log" && { stopped=1; break 2; }
	done
done
[ "$stopped" = 0 ] || echo "judge.sh: stopped by TIME_LIMIT=${TIME_LIMIT}s; call again with the same OUTDIR to continue"
runs=()
for ((r = 1; r <= B_COMPILES; r++)); do [ -s "$OUT/run$r/records.jsonl" ] && runs+=("$OUT/run$r/records.jsonl"); done
[ ${#runs[@]} -gt 0 ] || { echo "judge.sh: no records yet (TIME_LIMIT too short?)" >&2; exit 1; }
python3 perf/models/report.py --skip-bad-lines "${runs[@]}" --json "$OUT/report.json" >"$OUT/report.md" || exit 1
cat "$OUT/report.md"
