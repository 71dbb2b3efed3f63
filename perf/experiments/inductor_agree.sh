#!/usr/bin/env bash
# perf/experiments/inductor_agree.sh — ONE device call for the agreement of the
# fast back end with Inductor:
# Inductor's own collection twice (runs A and B, fresh Inductor caches per
# compile) and, when FAST_CMD is given, the fast back end once, on the same
# inputs, sharded over the GPUs (shard i on GPU i, the same in every run);
# then the agreement report (perf/experiments/inductor_agree.py) of B vs A and fast
# vs A, and each run's throughput.
#
# usage: perf/experiments/inductor_agree.sh
# Environment (all optional):
#   SHAPES   inputs (default perf/experiments/inductor_agree_shapes.tsv: 48 inputs,
#            m 2..16384: 24 model-like GEMMs (Llama/GPT-2/BERT/ViT layers,
#            decode m = 2..64, prefill, lm_head, backward transposes) and 24
#            from `sample --seed 5 --samples 400 --max-gflop 20`, samples 0 4
#            5 8 9 10 (2 <= m <= 16384, k, n >= 16), all four layouts;
#            interleaved so a time-limited prefix holds both kinds)
#   GPUS     number of GPUs to shard over (default: all that nvidia-smi lists)
#   A_S, B_S whole seconds for run A (default 200) and run B (default 150): each
#            shard stops after the input in flight (resumable, so a rerun with
#            the same OUT continues); B measures exactly the inputs A finished
#            (--max-inputs), reusing A's compiled Triton kernels (a shared
#            Triton cache: compiled code only, never autotuning results)
#   C_S      seconds (default 0 = skip) for run C: Inductor with a fresh Python
#            process per input on shard 0 (the reference's cost, for the
#            throughput comparison; reported against A too)
#   FAST_CMD the fast back end, one shard: a command with {i} {n} {shapes}
#            {log} {stats} placeholders, e.g.
#            'build/bin/bench --template inductor --device {i} --shard {i}/{n}
#             --stats {stats} {shapes} {log}' (default: none, skipped)
#   FAST_S   its time limit per shard (default 90; the command is killed after)
#   COLLECT_EXTRA  more inductor_collect options for runs A, B, C
#   PYTHON   the interpreter of inductor_collect.py (default python3;
#            "python3 check/inductor/fake_python.py": a CPU dry run of this
#            script, as check/t6120-inductor-agree.sh does)
#   PAIRED=1 runs A and B as the two fresh autotunings of one inductor_collect
#            run (--reps 2: per input, A's compile + autotune, then B's with
#            fresh Inductor caches again, reusing A's compiled Triton kernels),
#            so a run cut short by its time limit still has A and B on the
#            same inputs; the fast back end runs first; A's throughput is
#            its reps' seconds (--rep-times), B's is not reported (its kernels
#            were compiled by A).  The Triton cache is $OUT/triton-cache, so
#            the same command in the next device call (same OUT, kept while
#            the machine is warm) resumes A+B where the last stopped and skips
#            a fast run whose shards are complete.  A_S is then per call.
# Needs torch (2.11) and a GPU; no mmrank binary (the report reads the shard
# logs itself, as merged).
# Writes under $OUT (default out/device): A/ B/ C/ fast/ (data_<i>.txt or
# .part, the .inputs.tsv / .part.done sidecars with per-input seconds, stats,
# stderr), agree_B.txt agree_fast.txt agree_C.txt (+ .json, .per_input.tsv),
# summary.txt, console.txt.  Expected duration: A_S + B_S + C_S + FAST_S plus
# ~40 s of start-up per run (default about 8 minutes).
set -u
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
OUT=${OUT:-out/device}
mkdir -p "$OUT"
exec > >(tee "$OUT/console.txt") 2>&1
SHAPES=${SHAPES:-perf/experiments/inductor_agree_shapes.tsv}
N=${GPUS:-$(nvidia-smi -L 2>/dev/null | wc -l)}
[ "$N" -ge 1 ] || { echo "no GPU (set GPUS=n)"; exit 1; }
COLLECT_EXTRA=${COLLECT_EXTRA:-}
PYTHON=${PYTHON:-python3}
A_S=${A_S:-200} B_S=${B_S:-150} C_S=${C_S:-0} FAST_S=${FAST_S:-90}
FAST_CMD=${FAST_CMD:-}
PAIRED=${PAIRED:-0}
if [ "$PAIRED" = 1 ]; then TRITON_SHARED=$OUT/triton-cache; else TRITON_SHARED=$(mktemp -d)/triton; fi
IC="-m mmrank.bench.inductor_collect"
export TORCHINDUCTOR_COMPILE_THREADS=${TORCHINDUCTOR_COMPILE_THREADS:-$(( $(nproc) / N > 1 ? $(nproc) / N : 1 ))}
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv 2>/dev/null
date -u
echo "shapes $SHAPES ($(($(wc -l <"$SHAPES") - 1)) inputs), $N GPUs, A ${A_S}s B ${B_S}s C ${C_S}s fast ${FAST_S}s, compile threads $TORCHINDUCTOR_COMPILE_THREADS, paired $PAIRED"

# the log of shard i of run dir D: complete or in progress
shard_log() { if [ -e "$1/data_$2.txt" ]; then echo "$1/data_$2.txt"; else echo "$1/data_$2.txt.part"; fi; }
# inputs of shard i that run D finished
shard_done() {
	local f="$1/data_$2.txt.inputs.tsv"
	[ -e "$f" ] || f="$1/data_$2.txt.part.done"
	if [ -e "$f" ]; then echo $(($(wc -l <"$f") - 2)); else echo 0; fi
}

# run_inductor NAME SECONDS [options]: one inductor_collect process per GPU
run_inductor() {
	local name=$1 secs=$2; shift 2
	mkdir -p "$OUT/$name"
	local t0=$(date +%s) pids=() i
	for ((i = 0; i < N; i++)); do
		local extra=()
		[ "$name" = B ] && extra=(--max-inputs "$(shard_done "$OUT/A" $i)")
		[ "$PAIRED" = 1 ] && extra=(--reps 2 --rep-times "$OUT/$name/reps_$i.tsv")
		timeout $((secs + 150)) $PYTHON $IC --device $i --shard $i/$N --time-limit "$secs" \
			--triton-cache "$TRITON_SHARED" --stats "$OUT/$name/stats_$i.tsv" "${extra[@]}" $COLLECT_EXTRA "$@" \
			"$SHAPES" "$OUT/$name/data_$i.txt" 2>>"$OUT/$name/stderr_$i.txt" &
		pids+=($!)
	done
	for ((i = 0; i < N; i++)); do wait ${pids[$i]}; echo "run $name shard $i/$N: exit $? ($(shard_done "$OUT/$name" $i) inputs)"; done
	echo "run $name: $(($(date +%s) - t0)) s wall"
}

# combine NAME: $OUT/NAME/logs (its shard logs, comma-separated) and
# stats.tsv (inputs summed, wall = GPU-seconds summed: inputs/hour per GPU)
combine() {
	local d=$OUT/$1 logs=() i
	for ((i = 0; i < N; i++)); do [ -s "$(shard_log "$d" $i)" ] && logs+=("$(shard_log "$d" $i)"); done
	[ ${#logs[@]} -gt 0 ] || { echo "run $1: no rows"; return 1; }
	(IFS=,; echo "${logs[*]}") >"$d/logs"
	awk -F'\t' 'FNR>1 && $1=="inputs_measured"{n+=$2} FNR>1 && $1=="wall_s"{w+=$2}
		FNR>1 && ($1=="torch"||$1=="triton"||$1=="device"||$1=="process"){v[$1]=$2}
		END{print "key\tvalue"; print "inputs_measured\t" n; print "wall_s\t" w;
		    for (k in v) print k "\t" v[k]}' "$d"/stats_*.tsv >"$d/stats.tsv"
}

report() {  # report NAME [inductor_agree options]: NAME vs A
	local name=$1 a_stats=$OUT/A/stats.tsv; shift
	[ "$PAIRED" = 1 ] && a_stats=$OUT/A/reps.tsv
	python3 perf/experiments/inductor_agree.py "$(cat "$OUT/A/logs")" "$(cat "$OUT/$name/logs")" --name-x "$name" \
		--a-stats "$a_stats" --json "$OUT/agree_$name.json" \
		--per-input "$OUT/agree_$name.per_input.tsv" "$@" | tee "$OUT/agree_$name.txt"
}

run_fast() {  # the fast back end, one shard per GPU; skipped when every shard is complete
	mkdir -p "$OUT/fast"
	local pids=() i c done=0
	for ((i = 0; i < N; i++)); do [ -e "$OUT/fast/data_$i.txt" ] && done=$((done + 1)); done
	[ "$done" -eq "$N" ] && { echo "fast back end: complete, not rerun"; return; }
	for ((i = 0; i < N; i++)); do
		c=${FAST_CMD//\{i\}/$i}; c=${c//\{n\}/$N}; c=${c//\{shapes\}/$SHAPES}
		c=${c//\{log\}/$OUT/fast/data_$i.txt}; c=${c//\{stats\}/$OUT/fast/stats_$i.tsv}
		echo "$c"
		timeout "$FAST_S" bash -c "$c" 2>"$OUT/fast/stderr_$i.txt" &
		pids+=($!)
	done
	for c in "${pids[@]}"; do wait "$c"; echo "fast shard: exit $?"; done
}

paired_runs() {  # A and B as the two reps of one run; the fast back end first
	[ -n "$FAST_CMD" ] && { echo "=== fast back end ==="; run_fast; }
	echo "=== runs A and B: Inductor twice per input, fresh caches per compile ==="
	run_inductor A "$A_S"
	combine A || exit 1
	awk 'FNR > 1 || NR == 1' "$OUT"/A/reps_*.tsv >"$OUT/A/reps.tsv"
	mkdir -p "$OUT/B" && cp "$OUT/A/logs" "$OUT/B/logs"   # B is the same log, rep 2
	report B --a-rep 1/2 --x-rep 2/2
	[ -n "$FAST_CMD" ] && combine fast && report fast --a-rep 1/2 --x-stats "$OUT/fast/stats.tsv"
}

separate_runs() {  # A, then B on A's inputs, then C and the fast back end
	echo "=== run A: Inductor, fresh caches per compile ==="
	run_inductor A "$A_S"
	combine A || exit 1
	echo "=== run B: Inductor again, on A's inputs ==="
	run_inductor B "$B_S"
	combine B && report B --x-stats "$OUT/B/stats.tsv"
	if [ "$C_S" -gt 0 ]; then
		echo "=== run C: Inductor, a fresh process per input (shard 0 only) ==="
		mkdir -p "$OUT/C"
		timeout $((C_S + 150)) $PYTHON $IC --process-per-input --device 0 --shard 0/$N --time-limit "$C_S" \
			--triton-cache "$(mktemp -d)/triton" --stats "$OUT/C/stats_0.tsv" $COLLECT_EXTRA "$SHAPES" "$OUT/C/data_0.txt" \
			2>"$OUT/C/stderr_0.txt"
		echo "run C: exit $? ($(shard_done "$OUT/C" 0) inputs)"
		(N=1 combine C) && report C --x-stats "$OUT/C/stats.tsv"
	fi
	if [ -n "$FAST_CMD" ]; then
		echo "=== fast back end ==="
		run_fast
		combine fast && report fast --x-stats "$OUT/fast/stats.tsv"
	fi
}

if [ "$PAIRED" = 1 ]; then paired_runs; else separate_runs; fi
{
	echo "# inductor_agree summary ($(date -u +%FT%TZ)); versions:"
	grep -h -E '^(torch|triton|device)	' "$OUT/A/stats_0.tsv"
	for r in B C fast; do [ -e "$OUT/agree_$r.txt" ] && cat "$OUT/agree_$r.txt"; done
} >"$OUT/summary.txt"
cat "$OUT/summary.txt"
date -u
