#!/usr/bin/env bash
# perf/experiments/final_call.sh — the session's final H200 call (bench's
# GPU test, the fast back end's rate and its agreement with Inductor): one
# command, time-bounded inside (FINAL_S, default 545 s of wall time), carrying
# only built binaries and precompiled cubins.
#
#   bash perf/experiments/final_call.sh --prepare   # here (CPU): build, compile, pack
#   bash perf/experiments/final_call.sh             # the device call (needs a GPU)
#   bash perf/experiments/final_call.sh --dry-run   # here: the same sequence with fakes
#
# --prepare builds build/bin (bench, bench-fake, sample, triton_cands, ...),
# writes the inputs (the 48 agreement inputs, perf/experiments/inductor_agree_shapes.tsv;
# the first SAMPLE_N (default 100) inputs of `sample --seed 2026`), compiles
# what the GPU run loads into build/fccache/ (PREP_JOBS processes, default all
# CPUs; what is there already is kept): the Triton variants of both input
# sets (python3 -m mmrank.bench.triton_aot) and the NVRTC cubins of
# check/gpu/test_bench_gpu.sh's inputs (bench --compile-only: mma+wgmma on
# the edge inputs; build/test/bench-bug --compile-only, the test-only build
# of make test-bins, the wrong mm kernel's cubins), and packs them into
# build/devcarry/cubins.tar.xz (+ triton_entry.txt, the inputs).  The device
# call then carries build/bin, build/test (bench-bug) and build/devcarry
# (printed at the end).
# PREP_COMPILE=0 packs what build/fccache holds without compiling (for a dry
# run).
#
# The run, in this order, each step bounded by `timeout`:
#   a. the bench wing's GPU regression test: BENCH_TEMPLATE=mma+wgmma bash
#      check/gpu/test_bench_gpu.sh with the carried NVRTC cubins (A_S, default
#      170 s);
#   b. bench --template triton (reps 3, adaptive repetitions, Inductor's
#      timing) on the 48 agreement inputs with --stats, then on the sample's
#      inputs (--time-limit) for the rest of a fixed budget (FAST_S, default
#      150 s, both parts): inputs/hour from bench's stats (the carried compile
#      excluded);
#   c. Inductor run B (python3 -m mmrank.bench.inductor_collect, fresh Inductor caches
#      per input, a fresh shared Triton cache, as run A; --max-inputs 48) with
#      --time-limit of what remains (it stops after the input in flight;
#      resumable);
#   d. perf/experiments/inductor_agree.py for fast vs A and B vs A (run A:
#      perf/results/gpu/inductor_agree/A, 48 inputs, 45 with rows), and
#      summary.txt.
# Writes to $OUT (default out/final; --dry-run: out/final-dry) 8 files:
# summary.txt, console.txt, agree_fast.txt, agree_B.txt, fast.tar.xz (logs,
# stats, stderr, versions of both fast runs), B.tar.xz (run B's log, sidecar,
# stats, stderr), gpu_test.tar.xz (test_bench_gpu's output and logs),
# agree.tar.xz (the reports' .json and .per_input.tsv).
set -u
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
MODE=${1:-run}
CARRY=build/devcarry
FC=build/fccache
SHAPES_A=perf/experiments/inductor_agree_shapes.tsv
A_DIR=perf/results/gpu/inductor_agree/A
SAMPLE_N=${SAMPLE_N:-100}

prepare() {
	local jobs=${PREP_JOBS:-$(nproc)} t0 i pids=()
	make -s all build/bin/bench build/bin/bench-fake build/bin/triton_cands build/test/bench-bug || return 1
	mkdir -p "$CARRY" "$FC/cubin" "$FC/badcache"
	build/bin/sample --seed 2026 --samples $(((SAMPLE_N + 3) / 4)) "$CARRY/s.tsv" 2>/dev/null || return 1
	head -n $((SAMPLE_N + 1)) "$CARRY/s.tsv" > "$CARRY/sample.tsv" && rm "$CARRY/s.tsv"
	bash check/gpu/edge_shapes.sh > "$CARRY/edge.tsv"
	{ head -n 1 "$CARRY/edge.tsv"; awk -F'\t' 'NR > 1 && ($3 == 17 || $3 == 128) && $8 == 1' "$CARRY/edge.tsv"; } \
		> "$CARRY/few.tsv"
	build/bin/triton_cands --variants "$SHAPES_A" "$CARRY/v_agree.tsv" &&
		build/bin/triton_cands --variants "$CARRY/sample.tsv" "$CARRY/v_sample.tsv" || return 1
	{ cat "$CARRY/v_agree.tsv"; tail -n +2 "$CARRY/v_sample.tsv"; } > "$CARRY/variants.tsv"
	t0=$(date +%s)
	basename "$(python3 -m mmrank.bench.triton_aot --cache "$FC/cubin" --entry-dir)" > "$CARRY/triton_entry.txt" ||
		return 1
	mkdir -p "$FC/cubin/$(cat "$CARRY/triton_entry.txt")"
	if [ "${PREP_COMPILE:-1}" = 0 ]; then   # pack what is there (a dry run before the compile)
		jobs=0
	else
		python3 -m mmrank.bench.triton_aot --cache "$FC/cubin" --jobs "$jobs" "$CARRY/variants.tsv" \
			> "$CARRY/triton_aot.txt" || return 1
		cat "$CARRY/triton_aot.txt"
	fi
	for ((i = 0; i < jobs; i++)); do
		build/bin/bench --compile-only sm_90 --shard $i/$jobs --kernels kernels --template mma+wgmma \
			--cache "$FC/cubin" "$CARRY/edge.tsv" &
		pids+=($!)
		build/test/bench-bug --compile-only sm_90 --shard $i/$jobs --kernels kernels \
			--cache "$FC/badcache" "$CARRY/few.tsv" &
		pids+=($!)
	done
	for i in "${pids[@]}"; do wait "$i" || return 1; done
	echo "compiled (or found) in $(($(date +%s) - t0)) s"
	tar cJf "$CARRY/cubins.tar.xz" --exclude=.triton-cache "$FC" || return 1
	du -sh build/bin build/test "$CARRY" "$CARRY/cubins.tar.xz"
	echo "nvrtc cubins $(ls "$FC/cubin" | grep -c '\.cubin$'), bad-kernel $(ls "$FC/badcache" | grep -c '\.cubin$'), triton variants $(ls "$FC/cubin/$(cat "$CARRY/triton_entry.txt")" | grep -c '\.json$')"
	echo "carry: [\"build/bin\", \"build/test\", \"$CARRY\"]  ($(du -cb build/bin build/test "$CARRY" | tail -1 | cut -f1) bytes)"
}

if [ "$MODE" = --prepare ]; then prepare; exit $?; fi
if [ "$MODE" = --dry-run ]; then
	OUT=${OUT:-out/final-dry}
	BENCH=build/bin/bench-fake IC_PY="python3 check/inductor/fake_python.py" IC_EXTRA="--fake-delay-ms ${DRY_DELAY_MS:-400}"
	export TORCHINDUCTOR_COMPILE_THREADS=1
elif [ "$MODE" = run ]; then
	OUT=${OUT:-out/final}
	BENCH=build/bin/bench IC_PY=python3 IC_EXTRA=
	export TORCHINDUCTOR_COMPILE_THREADS=${TORCHINDUCTOR_COMPILE_THREADS:-$(nproc)}
else
	echo "usage: perf/experiments/final_call.sh [--prepare | --dry-run]" >&2; exit 2
fi
T0=$(date +%s)
DEADLINE=$((T0 + ${FINAL_S:-545}))
left() { echo $((DEADLINE - $(date +%s))); }
stamp() { echo "== $(date -u +%T) (+$(($(date +%s) - T0)) s, $(left) s left): $*"; }
W=$(mktemp -d)
mkdir -p "$OUT" "$W/gpu_test" "$W/fast" "$W/B" "$W/agree"
rm -f "$OUT"/*
exec > >(tee "$OUT/console.txt") 2>&1
stamp "final call ($MODE), $(git log -1 --format=%h 2>/dev/null || echo '?')"
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu --format=csv,noheader 2>/dev/null
for f in "$CARRY/cubins.tar.xz" "$CARRY/triton_entry.txt" "$CARRY/sample.tsv" "$BENCH" build/bin/sample; do
	[ -e "$f" ] || { echo "missing $f: run perf/experiments/final_call.sh --prepare here and carry build/bin $CARRY"; exit 1; }
done
tar xJf "$CARRY/cubins.tar.xz" || { echo "cannot unpack $CARRY/cubins.tar.xz"; exit 1; }
ED=$FC/cubin/$(cat "$CARRY/triton_entry.txt")
stamp "unpacked: $(ls "$FC/cubin" | grep -c '\.cubin$') NVRTC cubins, $(ls "$ED" | grep -c '\.json$') Triton variants ($ED)"
ldd build/bin/bench 2>/dev/null | grep 'not found'
declare -A RC
run_step() {  # [RUN_OUT=FILE] run_step NAME SECONDS CMD...: bounded, exit status kept
	local name=$1 secs=$2; shift 2
	stamp "$name (at most $secs s): $*${RUN_OUT:+ > $RUN_OUT}"
	local t=$(date +%s)
	if [ -n "${RUN_OUT:-}" ]; then timeout --kill-after=10 "$secs" "$@" > "$RUN_OUT" 2>&1
	else timeout --kill-after=10 "$secs" "$@"; fi
	RC[$name]=$?
	stamp "$name: exit ${RC[$name]} after $(($(date +%s) - t)) s"
}

# ---- a. the bench wing's GPU regression test --------------------------------
RUN_OUT=$W/gpu_test/test_bench_gpu.txt run_step a_test_bench_gpu "${A_S:-170}" env BIN="$PWD/build/bin" \
	BENCH_TEMPLATE=mma+wgmma CUBIN_CACHE="$PWD/$FC/cubin" BAD_CUBIN_CACHE="$PWD/$FC/badcache" \
	RESULTS="$W/gpu_test" bash check/gpu/test_bench_gpu.sh
grep -E '^(FAIL|skip)|adaptive:|kill/resume:|verify run:' "$W/gpu_test/test_bench_gpu.txt"
GPU_TEST="$(grep -c '^ok ' "$W/gpu_test/test_bench_gpu.txt") ok, $(grep -c '^FAIL ' "$W/gpu_test/test_bench_gpu.txt") failed, $(grep -c '^skip ' "$W/gpu_test/test_bench_gpu.txt") skipped"
echo "test_bench_gpu: $GPU_TEST"

# ---- b. the fast back end: the agreement inputs, then the sample -------------
FAST_S=${FAST_S:-150}
TB=$(date +%s)
FB=("$BENCH" --template triton --kernels kernels --cache "$FC/cubin" --triton-cubins "$ED")
# --time-limit stops after the input in flight (stats written, resumable);
# timeout only if an input hangs
run_step b_fast_agree $((FAST_S + 45)) "${FB[@]}" --time-limit $((FAST_S - 15)) \
	--stats "$W/fast/stats_agree.tsv" -o "$W/fast/agree.txt" "$SHAPES_A" 2> "$W/fast/agree.err"
tail -n 3 "$W/fast/agree.err"
REM=$((FAST_S - ($(date +%s) - TB)))
if [ "$REM" -gt 5 ]; then
	run_step b_fast_sample $((REM + 45)) "${FB[@]}" --time-limit "$REM" --stats "$W/fast/stats_sample.tsv" \
		-o "$W/fast/sample.txt" "$CARRY/sample.tsv" 2> "$W/fast/sample.err"
	tail -n 2 "$W/fast/sample.err"
else
	echo "b_fast_sample: no time left in the ${FAST_S} s budget"
fi

# ---- c. Inductor run B on A's inputs, for what remains ---------------------------
REM=$(($(left) - 30))
B_LIMIT=$((REM - 75)) # an input in flight can take ~60 s (A: up to 60.3 s)
if [ "$B_LIMIT" -gt 10 ]; then
	run_step c_inductor_B "$REM" $IC_PY -m mmrank.bench.inductor_collect --device 0 --shard 0/1 \
		--max-inputs 48 --time-limit "$B_LIMIT" --triton-cache "$W/B/triton-cache" \
		--stats "$W/B/stats_0.tsv" $IC_EXTRA "$SHAPES_A" "$W/B/data_0.txt" 2> "$W/B/stderr_0.txt"
	rm -rf "$W/B/triton-cache"
	grep 'inputs in' "$W/B/stderr_0.txt" | tail -n 1
else
	echo "c_inductor_B: no time left ($REM s)"
fi

# ---- d. the reports --------------------------------------------------------------
stamp "reports"
logof() { if [ -e "$1" ]; then echo "$1"; elif [ -s "$1.part" ]; then echo "$1.part"; fi; }
report() {  # report NAME LOG STATS
	local log
	log=$(logof "$2")
	[ -n "$log" ] || { echo "$1: no log"; echo "$1: no log" > "$OUT/agree_$1.txt"; return; }
	python3 perf/experiments/inductor_agree.py "$A_DIR/data_0.txt" "$log" --name-x "$1" \
		--a-stats "$A_DIR/stats_total.tsv" $([ -s "$3" ] && echo --x-stats "$3") \
		--json "$W/agree/agree_$1.json" --per-input "$W/agree/agree_$1.per_input.tsv" > "$OUT/agree_$1.txt" 2>&1
	cat "$OUT/agree_$1.txt"
}
report fast "$W/fast/agree.txt" "$W/fast/stats_agree.tsv"
report B "$W/B/data_0.txt" "$W/B/stats_0.tsv"
kv() { awk -F'\t' -v k="$2" '$1 == k { print $2; exit }' "$1" 2>/dev/null; }
rate() { local n w; n=$(kv "$1" inputs_measured); w=$(kv "$1" wall_s)
	[ -n "$n" ] && [ -n "$w" ] && awk -v n="$n" -v w="$w" 'BEGIN { printf "%d inputs in %.1f s: %.0f inputs/hour", n, w, (w > 0 ? 3600 * n / w : 0) }'; }
ratio() { local n w; n=$(kv "$1" inputs_measured); w=$(kv "$1" wall_s)
	[ -n "$n" ] && [ -n "$w" ] && awk -v n="$n" -v w="$w" 'BEGIN { printf "%.1fx", (w > 0 ? (3600 * n / w) / 213.9 : 0) }'; }
{
	echo "# final call ($MODE), $(date -u +%FT%TZ), commit $(git log -1 --format=%h 2>/dev/null || echo '?'), $(($(date +%s) - T0)) s"
	nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null
	echo "versions (bench --template triton, agreement run):"
	sed 's/^/  /' "$W/fast/agree.txt.versions.tsv" 2>/dev/null || echo "  (no versions sidecar: the run did not complete)"
	echo "step exit status: a=${RC[a_test_bench_gpu]:-} b_agree=${RC[b_fast_agree]:-} b_sample=${RC[b_fast_sample]:-not run} c_B=${RC[c_inductor_B]:-not run} (124: stopped by timeout; 2: by its --time-limit, resumable)"
	echo "a. test_bench_gpu (mma+wgmma, carried NVRTC cubins): $GPU_TEST"
	echo "b. fast, agreement inputs: $(rate "$W/fast/stats_agree.tsv") ($(ratio "$W/fast/stats_agree.tsv") Inductor run A's 213.9 inputs/hour: 48 inputs in 807.9 s)"
	echo "   fast, sample --seed 2026 (first inputs, the reference distribution): $(rate "$W/fast/stats_sample.tsv")"
	echo "   (bench's wall_s: the measuring loop, carried compile excluded; rows $(kv "$W/fast/stats_agree.tsv" rows_written) + $(kv "$W/fast/stats_sample.tsv" rows_written), inf rows $(cat "$W"/fast/*.txt* 2>/dev/null | grep -c ',inf$'), verify failures $(kv "$W/fast/stats_agree.tsv" verify_failures)+$(kv "$W/fast/stats_sample.tsv" verify_failures))"
	echo "c. Inductor run B: $(rate "$W/B/stats_0.tsv"), $(($(grep -c '^[0-9]' "$W/B/data_0.txt.inputs.tsv" "$W/B/data_0.txt.part.done" 2>/dev/null | awk -F: '{ s += $2 } END { print s + 0 }'))) inputs done"
	echo
	cat "$OUT/agree_fast.txt" "$OUT/agree_B.txt"
} > "$OUT/summary.txt"
cat "$OUT/summary.txt"
tar cJf "$OUT/fast.tar.xz" -C "$W" fast
tar cJf "$OUT/B.tar.xz" -C "$W" B
tar cJf "$OUT/gpu_test.tar.xz" -C "$W" gpu_test
tar cJf "$OUT/agree.tar.xz" -C "$W" agree
rm -rf "$W"
stamp "done: $(ls "$OUT" | tr '\n' ' ')"
