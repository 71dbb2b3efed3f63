#!/usr/bin/env bash
# perf/models/truth.sh OUTDIR — in-graph truth (perf/models/truth.py) of
# model x phase rows: one fresh python process per row, records appended to
# OUTDIR/truth.jsonl, then the AutoHeuristic log and the summary
# (perf/models/truth_log.py): OUTDIR/truth_mm.txt, truth_summary.md,
# truth_summary.json.  Needs a CUDA GPU, torch 2.11, Triton and transformers
# (WHEELS=DIR: pip-installs transformers from DIR first if it does not
# import).  Resumable: truth.py skips the variants a row already has in
# truth.jsonl, so a second call with the same OUTDIR goes on where the first
# stopped (copy truth.jsonl into a fresh OUTDIR on a fresh machine).
# Order: phases in PHASES order, models in list order; each row runs until
# its variants are done (truth.py exit 0), the call's time is up, or it
# fails: exit 3 (the CUDA context broke: the row is run again in a fresh
# process, RESTARTS times at most), 4 (the model could not be set up: next
# row).  truth.py stops by itself before TIME_LIMIT (--time-limit: it starts
# no variant it cannot finish); a process still running at TIME_LIMIT is
# killed (its variant in flight has no record and is redone next call), as
# is one that an INT, TERM or HUP to truth.sh interrupts (exit 130).  One
# writer per OUTDIR (supervise.sh's lock): a process that a SIGKILL or
# SIGQUIT to truth.sh left behind holds it, and a call meanwhile is refused.
# Environment (defaults):
#   MODELS       names from the list, space-separated (all of MODELS_FILE)
#   MODELS_FILE  perf/models/models.tsv      PHASES  "prefill decode"
#   TIME_LIMIT   540 (seconds for this call)  MIN_START  90 (no row starts
#                with less time left)          RESTARTS   3
#   LAYERS       (the list's)  STEPS (100)  REPLAYS (20)  VARIANTS (ranks,mix)
#   MIX          (best,random:1)   DEVICE=cpu BATCH=N SEQ=N: dry runs (tests)
#   CACHE_ROOT   /tmp/mmrank-truth-cache (one Inductor + Triton cache folder
#                per row, kept across calls: truth.py turns Inductor's graph
#                caches off, so only compiled kernels are reused)
#   TRUTH_LOG_EXTRA  more truth_log.py options (e.g. --epilogue attribute;
#                a DEVICE=cpu run's records carry no GPU facts: the log needs
#                --shared-memory N --device-capa X.Y of the GPU it stands for)
#   PYTHON       python3 (truth.py's interpreter; tests pass a stand-in)
# The mmrank package (mmrank.force, mmrank.bench.inductor_log): this
# checkout's python/, put first on PYTHONPATH here.
# Every setting is checked before anything runs: each model of MODELS by
# perf/models/records.py's name rule and looked up in MODELS_FILE (as
# run.sh does), the phases against their words; no word is globbed (set -f).
set -u -f
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
OUT=${1:?usage: perf/models/truth.sh OUTDIR}
MODELS_FILE=${MODELS_FILE:-perf/models/models.tsv}
PHASES=${PHASES:-prefill decode}
TIME_LIMIT=${TIME_LIMIT:-540}
MIN_START=${MIN_START:-90}
RESTARTS=${RESTARTS:-3}
CACHE_ROOT=${CACHE_ROOT:-/tmp/mmrank-truth-cache}
PY=${PYTHON:-python3}
for v in TIME_LIMIT MIN_START RESTARTS; do
	[[ ${!v} =~ ^[0-9]+$ ]] || { echo "truth.sh: $v='${!v}': expected a whole number of seconds/tries" >&2; exit 2; }
done
# the words of a setting, split on blanks without globbing (`*` stays `*`)
read -r -a phase_list <<<"$PHASES"
for ph in "${phase_list[@]}"; do
	case $ph in prefill | decode | train) ;; *) echo "truth.sh: PHASES: '$ph' is none of prefill decode train" >&2; exit 2 ;; esac
done
read -r -a asked <<<"${MODELS:-}"
names=$(python3 perf/models/records.py names --by truth.sh "$MODELS_FILE" "${asked[@]}") || exit 2
mapfile -t model_list <<<"$names"
mkdir -p "$OUT" || exit 1
. perf/models/supervise.sh
lock truth.sh "$OUT"
console "$OUT/console.txt"
guard truth.sh
REC=$OUT/truth.jsonl
start=$(date +%s)
. perf/models/torch_check.sh
torch_check truth.sh
date -u
[ "${DEVICE:-cuda}" = cpu ] || nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv 2>/dev/null
echo "$ver; rows: ${model_list[*]} x ${phase_list[*]}; TIME_LIMIT=${TIME_LIMIT}s"

stopped=0
for ph in "${phase_list[@]}"; do
	for m in "${model_list[@]}"; do
		tries=0
		while :; do
			now=$(date +%s); left=$((TIME_LIMIT - (now - start)))
			if [ "$left" -lt "$MIN_START" ]; then stopped=1; break 3; fi
			echo "== $m $ph (call $((tries + 1)), ${left}s left of ${TIME_LIMIT}s)"
			cache=$CACHE_ROOT/${m}_${ph}
			mkdir -p "$cache/inductor" "$cache/triton"
			# an interrupt stops truth.py as TIME_LIMIT would
			supervise truth.sh "$m $ph: the variant in flight has no record, redone next call" \
				env PYTHONUNBUFFERED=1 TORCHINDUCTOR_CACHE_DIR="$cache/inductor" TRITON_CACHE_DIR="$cache/triton" \
				timeout -k 10 "$left" $PY perf/models/truth.py "$REC" --model "$m" --phase "$ph" \
				--models "$MODELS_FILE" --time-limit $((left > 30 ? left - 15 : left / 2)) \
				${LAYERS:+--layers "$LAYERS"} ${STEPS:+--steps "$STEPS"} ${REPLAYS:+--replays "$REPLAYS"} \
				${VARIANTS:+--variants "$VARIANTS"} ${MIX:+--mix "$MIX"} ${DEVICE:+--device "$DEVICE"} \
				${BATCH:+--batch "$BATCH"} ${SEQ:+--seq "$SEQ"} --trace-dir "$OUT/traces"
			rc=$?
			case $rc in
			0) break ;;
			2) stopped=1; break 3 ;;
			3) tries=$((tries + 1))
			   if [ "$tries" -gt "$RESTARTS" ]; then echo "   $m $ph: the CUDA context broke $tries times; next row"; break; fi ;;
			4) echo "   $m $ph: the model could not be set up (see its \"setup\" record); next row"; break ;;
			124|137) echo "   killed at TIME_LIMIT: the variant in flight has no record, redone next call"; stopped=1; break 3 ;;
			*) echo "   truth.py exited $rc; next row"; break ;;
			esac
		done
	done
done
[ "$stopped" = 1 ] && echo "truth.sh: stopped by TIME_LIMIT=${TIME_LIMIT}s; call again with the same OUTDIR to continue"
if [ -s "$REC" ]; then
	# shellcheck disable=SC2086
	python3 perf/models/truth_log.py "$OUT/truth_mm.txt" "$REC" --summary "$OUT/truth_summary.md" \
		--json "$OUT/truth_summary.json" ${TRUTH_LOG_EXTRA:-} && cat "$OUT/truth_summary.md" ||
		echo "truth.sh: no log written (truth_log.py above)"
fi
date -u
exit 0
