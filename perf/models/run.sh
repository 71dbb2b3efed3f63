#!/usr/bin/env bash
# perf/models/run.sh OUTDIR — the whole-model judge's matrix: one fresh
# python process (perf/models/run.py) per model x phase x mode x rep,
# records appended to OUTDIR/records.jsonl, then the table
# (perf/models/report.py) in OUTDIR/report.md.  Needs a CUDA GPU, torch and
# transformers (WHEELS=DIR: pip-installs transformers from DIR first if it
# does not import).
# Order: rep 1 of every (phase, model) for MODES_FIRST, phases in PHASES
# order, models in list order, modes in MODES_FIRST order; then rep 1 of
# MODES_LATER; then reps 2.. likewise.  Rep 1 compiles cold: the
# (model, phase, mode) gets fresh TORCHINDUCTOR_CACHE_DIR and TRITON_CACHE_DIR
# under CACHE_ROOT; reps 2.. are fresh processes that reuse those folders
# (their compile is warm: the step time's spread across processes is what
# they add).  Resumable: a (model, phase, mode, rep) already in
# records.jsonl is skipped (any status), so a second call with the same
# OUTDIR continues; a run killed by the remaining TIME_LIMIT leaves no
# record and is redone next call, as is one killed from outside (SIGKILL
# before its limit: the OOM killer) or interrupted (Ctrl-C, SIGTERM or
# SIGHUP to run.sh: it stops the run and exits 130; between runs, it exits
# 130 once the command in the foreground ends); one killed by PER_RUN_S
# gets a "timeout" record.  One writer per OUTDIR (an flock on OUTDIR itself,
# supervise.sh's lock): a run that a SIGKILL or SIGQUIT to run.sh left
# behind holds it until it ends, and a call meanwhile is refused (exit 1).
# Environment (defaults):
#   MODELS       names from the list, space-separated (all of MODELS_FILE)
#   MODELS_FILE  perf/models/models.tsv
#   PHASES       "prefill decode train"
#   MODES_FIRST  "b a e c"        MODES_LATER  "d f"   (empty: none)
#   REPS         3
#   TIME_LIMIT   540 (seconds for this call: no run starts after
#                TIME_LIMIT - MIN_START, and a run is killed at TIME_LIMIT)
#   MIN_START    30   PER_RUN_S  300 (one process at most)
#   ARTIFACT     gen/_MMRankingH200.py (modes d, e, f; one made with another
#                TOPK_EPS: make heuristic GPU=h200 TOPK_EPS=0.002 OUT=DIR)
#   MMRANK_INDUCTOR_EXTRA=1   modes e, f: the handler's extra=True; also
#                MMRANK_INDUCTOR_UNRANKED, MMRANK_INDUCTOR_ATEN (docs/INDUCTOR.md;
#                checked before anything runs; one OUTDIR per setting: a resume
#                knows records by model, phase, mode and rep only)
#   LAYERS       (the list's layers)   STEPS  100 (timed replays, >= 50)
#   DEVICE=cpu BATCH=N SEQ=N   a dry run of the code path (tests)
#   CACHE_ROOT   /tmp/mmrank-models-cache
#   AUTOTUNE     full: modes b..f use max-autotune-no-cudagraphs (max_autotune +
#                coordinate_descent_tuning); nocoordesc: the same without
#                coordinate descent (COORDESC=0 means this); gemm: GEMM-only
#                max-autotune (max_autotune_gemm, no pointwise autotuning, no
#                coordinate descent).  Use one OUTDIR per setting.
#   PYTHON       python3 (the interpreter of run.py; tests pass a stand-in)
#   COLLECT=1    also write AutoHeuristic mm logs of mode b's GEMMs
#                (TORCHINDUCTOR_AUTOHEURISTIC_COLLECT=mm) to
#                OUTDIR/ah_collect/<model>_<phase>.txt
# Writes OUTDIR/records.jsonl, OUTDIR/console.txt, OUTDIR/report.md,
# OUTDIR/report.json.
# Every setting is checked before anything runs: model names by
# perf/models/records.py (the list's, and each of MODELS: [A-Za-z0-9._-]+, no
# leading '.' or '-'; blanks and newlines separate them), phases and modes
# against their words, each once, AUTOTUNE against its words, the
# numbers as ASCII digits.  Records are written by the json library (run.py,
# records.py timeout); a resume names a line of records.jsonl that is not a
# record (file:line), skips it and keeps every other.
set -u -f   # no word of a setting is globbed
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
OUT=${1:?usage: perf/models/run.sh OUTDIR}
MODELS_FILE=${MODELS_FILE:-perf/models/models.tsv}
PHASES=${PHASES:-prefill decode train}
MODES_FIRST=${MODES_FIRST-b a e c}
MODES_LATER=${MODES_LATER-d f}
REPS=${REPS:-3}
TIME_LIMIT=${TIME_LIMIT:-540}
MIN_START=${MIN_START:-30}
PER_RUN_S=${PER_RUN_S:-300}
CACHE_ROOT=${CACHE_ROOT:-/tmp/mmrank-models-cache}
AUTOTUNE=${AUTOTUNE:-full}
[ "${COORDESC:-1}" = 0 ] && [ "$AUTOTUNE" = full ] && AUTOTUNE=nocoordesc
die() { echo "run.sh: $*" >&2; exit 1; }
# the numbers: ASCII digits, at most 9, no leading zero (they reach $(( ))
# and timeout); STEPS, LAYERS, BATCH and SEQ may be unset
for v in REPS TIME_LIMIT MIN_START PER_RUN_S STEPS LAYERS BATCH SEQ; do
	case ${!v-} in
	'') case $v in STEPS | LAYERS | BATCH | SEQ) ;; *) die "$v is empty: expected a number" ;; esac ;;
	*[!0-9]* | 0?* | ??????????*) die "$v='${!v}': expected a number (ASCII digits, at most 9)" ;;
	esac
done
# the words of a setting, split on blanks without globbing (`*` stays `*`)
read -r -a phase_list <<<"$PHASES"
read -r -a first_list <<<"$MODES_FIRST"
read -r -a later_list <<<"$MODES_LATER"
seen=" "
for ph in "${phase_list[@]}"; do
	case $ph in prefill | decode | train) ;; *) die "PHASES: '$ph' is none of prefill decode train" ;; esac
	[[ $seen != *" $ph "* ]] || die "PHASES: '$ph' given twice"; seen+="$ph "
done
seen=" "
for mo in "${first_list[@]}" "${later_list[@]}"; do
	case $mo in [a-f]) ;; *) die "MODES_FIRST/MODES_LATER: '$mo' is none of a b c d e f" ;; esac
	[[ $seen != *" $mo "* ]] || die "MODES_FIRST/MODES_LATER: '$mo' given twice"; seen+="$mo "
done
case $AUTOTUNE in full | nocoordesc | gemm) ;; *) die "AUTOTUNE='$AUTOTUNE': expected full, nocoordesc or gemm" ;; esac
case ${DEVICE:-cuda} in cuda | cpu) ;; *) die "DEVICE='$DEVICE': expected cuda or cpu" ;; esac
[ -n "$CACHE_ROOT" ] || die "CACHE_ROOT: empty"
# the handler's variables (modes e, f read them): checked here, not per run
case " ${first_list[*]} ${later_list[*]} " in *" e "* | *" f "*)   # MMRANK_INDUCTOR itself is unset per run
	env -u MMRANK_INDUCTOR python3 -m mmrank.settings || die "the handler's variables above (docs/INDUCTOR.md)" ;;
esac
read -r -d '' -a asked <<<"${MODELS:-}"   # blanks and newlines separate
names=$(python3 perf/models/records.py names "$MODELS_FILE" "${asked[@]}") || exit 1
mapfile -t model_list <<<"$names"
mkdir -p "$OUT"
. perf/models/supervise.sh
lock run.sh "$OUT"
console "$OUT/console.txt"
guard run.sh
REC=$OUT/records.jsonl
start=$(date +%s)
PY=${PYTHON:-python3}
. perf/models/torch_check.sh
torch_check run.sh
date -u
[ "${DEVICE:-cuda}" = cpu ] || nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv 2>/dev/null
echo "$ver, AUTOTUNE=$AUTOTUNE"

declare -A DONE=()   # "model phase mode rep" of the records already there
while IFS= read -r k; do DONE[$k]=1; done < <(python3 perf/models/records.py done "$REC")

stopped=0
run_one() {   # model phase mode rep
	local m=$1 ph=$2 mo=$3 rep=$4
	[ -n "${DONE["$m $ph $mo $rep"]+x}" ] && return 0
	local now left lim cache state extra=()
	now=$(date +%s); left=$((TIME_LIMIT - (now - start)))
	if [ "$left" -lt "$MIN_START" ]; then stopped=1; return 1; fi
	lim=$PER_RUN_S; [ "$left" -lt "$lim" ] && lim=$left
	cache=$CACHE_ROOT/${m}_${ph}_${mo}_$AUTOTUNE
	if [ "$rep" -eq 1 ]; then rm -rf -- "$cache"; state=cold; else
		if [ -d "$cache" ]; then state=warm; else state=cold; fi
	fi
	mkdir -p "$cache/inductor" "$cache/triton"
	if [ "${COLLECT:-}" = 1 ] && [ "$mo" = b ] && [ "$rep" -eq 1 ]; then
		mkdir -p "$OUT/ah_collect"; extra=(--collect-log "$OUT/ah_collect/${m}_${ph}.txt")
	fi
	echo "== $m $ph $mo rep $rep ($state cache, limit ${lim}s, $(( now - start ))s used)"
	# an interrupt stops run.py as TIME_LIMIT would, leaving no record
	supervise run.sh "$m $ph $mo rep $rep: no record, redone next call" \
		env -u MMRANK_INDUCTOR TORCHINDUCTOR_CACHE_DIR="$cache/inductor" TRITON_CACHE_DIR="$cache/triton" \
		MMRANK_CACHE_STATE=$state timeout -k 10 "$lim" $PY perf/models/run.py \
		--model "$m" --phase "$ph" --mode "$mo" --rep "$rep" --models "$MODELS_FILE" \
		${ARTIFACT:+--artifact "$ARTIFACT"} ${LAYERS:+--layers "$LAYERS"} --steps "${STEPS:-100}" \
		${DEVICE:+--device "$DEVICE"} ${BATCH:+--batch "$BATCH"} ${SEQ:+--seq "$SEQ"} --autotune "$AUTOTUNE" \
		"${extra[@]}" "$REC"
	local rc=$? took=$(( $(date +%s) - now ))
	if [ $rc -eq 137 ] && [ "$took" -lt "$lim" ]; then   # SIGKILL from outside (the OOM killer)
		echo "   killed by SIGKILL after ${took}s, before its limit: no record, redone next call"
		return 0
	fi
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		if [ "$lim" -eq "$PER_RUN_S" ]; then
			python3 perf/models/records.py timeout "$REC" "$m" "$ph" "$mo" "$rep" "$state" \
				"over PER_RUN_S=$PER_RUN_S s"
		else
			echo "   killed at TIME_LIMIT: no record, redone next call"; stopped=1; return 1
		fi
	fi
	return 0
}

sweep() {   # rep modes...
	local rep=$1; shift
	for ph in "${phase_list[@]}"; do for m in "${model_list[@]}"; do for mo in "$@"; do
		run_one "$m" "$ph" "$mo" "$rep" || return 1
	done; done; done
}

for rep in $(seq 1 "$REPS"); do
	sweep "$rep" "${first_list[@]}" || break
	[ ${#later_list[@]} -gt 0 ] && { sweep "$rep" "${later_list[@]}" || break; }
done
[ "$stopped" = 1 ] && echo "run.sh: stopped by TIME_LIMIT=${TIME_LIMIT}s; call again with the same OUTDIR to continue"
python3 perf/models/report.py --skip-bad-lines "$REC" --json "$OUT/report.json" > "$OUT/report.md"
cat "$OUT/report.md"
date -u
