#!/usr/bin/env bash
# GPU tests of bench (run on a machine with an NVIDIA GPU; skipped without
# one).  Every NVRTC candidate against cuBLAS (extern_mm) on random non-zero
# data, for all dtypes (float32, float32+tf32, float16, bfloat16) x all
# four transpose combinations, at shapes including odd and degenerate ones
# (bench --verify-all: relative Frobenius error within the dtype tolerance,
# output poisoned with NaN before each call).  Then:
#   * a deliberately wrong kernel is rejected (check/gpu/test_bench_bug.sh:
#     the test-only build bench-bug gives every NVRTC row inf, extern_mm not);
#   * the metadata line is what Python's json.dumps writes for the device
#     (shared_memory = opt-in shared memory per block, device_capa);
#   * feedback values are Python str(float) and positive;
#   * a run killed with SIGKILL resumes to a complete log with the same rows
#     (choices and features; times differ between runs; --fast-reject 0, as
#     adaptive repetitions make the row set depend on the times);
#   * adaptive repetitions (default --fast-reject 1.5): the log obeys the
#     rule (check/adaptive_reps.py), both kinds of candidates occur, and a
#     killed run resumes to a log that obeys it too.
# Environment: BIN (default build/bin), DEVICE (default 0), RESULTS (a
# folder for the logs, default: the scratch folder), CUBIN_CACHE (default
# build/cubin), BENCH_BUG (the test-only bench-bug, default BIN's
# ../test/bench-bug, else build/test/bench-bug), BAD_CUBIN_CACHE (bench-bug's cubins, default a fresh
# folder: compiled here; a carried one saves that, perf/experiments/final_call.sh).
. check/lib.sh
B=$BIN/bench
BB=${BENCH_BUG:-${BIN%/bin}/test/bench-bug}
[ -n "${BENCH_BUG:-}" ] || [ -x "$BB" ] || BB=$ROOT/build/test/bench-bug
DEV=${DEVICE:-0}
RES=${RESULTS:-$TMP}
mkdir -p "$RES"
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	skip bench-gpu "no NVIDIA GPU here"; finish
fi
[ -x "$B" ] || { fail bench-gpu-built "$B missing"; finish; }
K0="--kernels $ROOT/kernels --cache ${CUBIN_CACHE:-$ROOT/build/cubin} --device $DEV"
# BENCH_TEMPLATE=mma tests the tensor-core template (kernels/mma.cu); the
# deliberately broken kernel below exists in mm.cu only, so that check
# always uses the default template.
K="$K0 ${BENCH_TEMPLATE:+--template $BENCH_TEMPLATE}"

# the edge inputs (check/gpu/edge_shapes.sh)
bash "$ROOT/check/gpu/edge_shapes.sh" > "$TMP/shapes.tsv"
NIN=$(($(wc -l < "$TMP/shapes.tsv") - 1))

rm -f "$RES/gpu_verify.txt" "$RES/gpu_verify.txt.part"
start=$(date +%s)
"$B" $K --verify-all --reps 1 --stats "$RES/gpu_verify_stats.tsv" "$TMP/shapes.tsv" "$RES/gpu_verify.txt" 2> "$RES/gpu_verify.err"
rc=$?
echo "  verify run: $NIN inputs in $(( $(date +%s) - start )) s, exit $rc"
[ $rc -eq 0 ] && ok bench-gpu-verify-run || fail bench-gpu-verify-run "exit $rc: $(tail -3 "$RES/gpu_verify.err")"
nw=$(grep -c 'wrong result' "$RES/gpu_verify.err")
ni=$(grep -c ',inf$' "$RES/gpu_verify.txt")
nrows=$(($(wc -l < "$RES/gpu_verify.txt") - 2))
[ "$nw" = 0 ] && [ "$ni" = 0 ] && [ "$nrows" -gt $((NIN * 20)) ] && ok bench-gpu-all-candidates-correct \
	|| fail bench-gpu-all-candidates-correct "$nw wrong, $ni inf of $nrows rows: $(grep -m3 -E 'wrong|NVRTC|Launch|launch' "$RES/gpu_verify.err" | tr '\n' '|')"
nv=$(awk -F'\t' '$1 == "verifications" { print $2 }' "$RES/gpu_verify_stats.tsv")
nn=$(grep -vc ',extern_mm,' <(tail -n +3 "$RES/gpu_verify.txt"))
[ "$nv" = "$nn" ] && ok bench-gpu-every-candidate-verified || fail bench-gpu-every-candidate-verified "$nv verifications for $nn candidate rows"
for dt in float32 float16 bfloat16; do
	for t in True,True False,True True,False False,False; do
		c=$(grep -c "torch.$dt,torch.$dt,[0-9]*,[0-9]*,[0-9]*,[0-9]*,$t,.*type=nvrtc" "$RES/gpu_verify.txt")
		[ "$c" -gt 0 ] && ok "bench-gpu-covered-$dt-$t" || fail "bench-gpu-covered-$dt-$t" "no rows"
	done
done

# metadata as Python's json.dumps writes it, from the device's values
if command -v python3 >/dev/null; then
	python3 - "$RES/gpu_verify.txt" > "$TMP/py.out" 2>&1 <<'EOF' && ok bench-gpu-log-python || fail bench-gpu-log-python "$(tail -3 "$TMP/py.out")"
import json, sys
lines = open(sys.argv[1]).read().split('\n')
meta = json.loads(lines[0])
assert json.dumps(meta) == lines[0], "metadata is not json.dumps output"
assert list(meta) == ["shared_memory", "device_capa", "name", "numerical_features", "categorical_features"]
try:
    import torch
    p = torch.cuda.get_device_properties(0)
    cap = list(torch.cuda.get_device_capability(0))
    assert meta["device_capa"] == cap, (meta["device_capa"], cap)
    smem = getattr(p, "shared_memory_per_block_optin", None)
    if smem is not None:
        assert meta["shared_memory"] == smem, (meta["shared_memory"], smem)
    print("torch agrees: capability", cap, "smem", smem)
except ImportError:
    print("no torch: capability not cross-checked")
for l in lines[2:]:
    if not l:
        continue
    fb = l.rsplit(',', 1)[1]
    v = float(fb)
    assert v > 0 and repr(v) == fb, l
print("ok")
EOF
	cat "$TMP/py.out" | sed 's/^/  /'
else
	skip bench-gpu-log-python "no python3"
fi

# a wrong kernel must be caught (its own file, to run alone)
BENCH_BUG=$BB RESULTS=$RES bash "$ROOT/check/gpu/test_bench_bug.sh" || _failed=1

# kill -9 and resume on the GPU
awk -F'\t' 'NR == 1 || $3 == 2048' "$TMP/shapes.tsv" > "$TMP/mid.tsv"
rm -f "$TMP/k.txt" "$TMP/k.txt.part"
# kill_when_rows PID FILE N: SIGKILL PID once FILE has more than N lines (or
# after 20 s), and reap it
kill_when_rows() {
	for i in $(seq 200); do
		[ "$( { wc -l < "$2"; } 2>/dev/null || echo 0)" -gt "$3" ] && break
		sleep 0.1
	done
	kill -9 "$1" 2>/dev/null; wait "$1" 2>/dev/null
}
"$B" $K --fast-reject 0 --reps 20 "$TMP/mid.tsv" "$TMP/k.txt" 2>/dev/null &
# kill once at least one input is written (the rows of one input, 20 reps)
kill_when_rows $! "$TMP/k.txt.part" 300
[ -e "$TMP/k.txt" ] && echo "  (the run finished before the kill)"
before=$(($( { wc -l < "$TMP/k.txt.part"; } 2>/dev/null || echo 2) - 2))
"$B" $K --fast-reject 0 --reps 20 "$TMP/mid.tsv" "$TMP/k.txt" 2> "$TMP/k.err"; rc=$?
"$B" $K --fast-reject 0 --reps 20 "$TMP/mid.tsv" "$TMP/k2.txt" 2>/dev/null
cut -d, -f1-13 "$TMP/k.txt" > "$TMP/k.rows"; cut -d, -f1-13 "$TMP/k2.txt" > "$TMP/k2.rows"
[ $rc -eq 0 ] && [ "$before" -gt 0 ] && cmp -s "$TMP/k.rows" "$TMP/k2.rows" && ok bench-gpu-kill-resume \
	|| fail bench-gpu-kill-resume "exit $rc, $before rows before the kill: $(tail -2 "$TMP/k.err" | tr '\n' '|')"
echo "  kill/resume: $before rows were written before SIGKILL; $(grep -c . "$TMP/k.rows") rows after resume"

# adaptive repetitions on the GPU: killed and resumed, the log obeys the rule
rm -f "$TMP/a.txt" "$TMP/a.txt.part"
"$B" $K "$TMP/mid.tsv" "$TMP/a.txt" 2>/dev/null &
kill_when_rows $! "$TMP/a.txt.part" 60
"$B" $K "$TMP/mid.tsv" "$TMP/a.txt" 2> "$TMP/a.err"; rc=$?
if command -v python3 >/dev/null; then
	r=$(python3 "$ROOT/check/adaptive_reps.py" "$TMP/a.txt" 1.5); prc=$?
	set -- $r
	[ $rc -eq 0 ] && [ $prc -eq 0 ] && [ "${1:-0}" -gt 0 ] && [ "${2:-0}" -gt 0 ] \
		&& ok bench-gpu-adaptive-reps || fail bench-gpu-adaptive-reps "exit $rc, rule: $r"
	echo "  adaptive: $1 candidates with 3 repetitions, $2 with one"
else
	skip bench-gpu-adaptive-reps "no python3"
fi
finish
