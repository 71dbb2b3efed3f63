#!/usr/bin/env bash
# GPU test of the Triton back end (the H200 machine: torch 2.11, triton 3.6).
#
#   bash check/gpu/test_triton.sh --build   # here (needs cc, jansson, CUDA
#                                           # headers): build/triton/ binaries
#                                           # and the 500-input sample
#   bash check/gpu/test_triton.sh           # on the GPU machine, carrying
#                                           # build/triton
#
# On the GPU machine it
#  1. lists Inductor's candidates for a matrix of inputs covering every
#     variant class (fp16, bf16, fp32, fp32+TF32 x the four transpose
#     layouts x EVEN_K and not x odd and aligned sizes, m from 2 to 4096,
#     K trip counts compiled in and not) and compiles their variants for
#     the GPU's arch with triton_aot.py in a pool of all CPUs (the compile
#     cost on this machine: variants, seconds, seconds per variant);
#  2. runs every distinct Triton candidate of every input against cuBLAS on
#     random non-zero data (triton_gpu_test: relative Frobenius error within
#     bench's dtype tolerances; configs over the shared memory limit are
#     'inf', as in Inductor) — a failure fails the test;
#  3. times, on 6 inputs, every candidate with Inductor's method next to
#     extern_mm and next to the static (literal-size) kernel of the same
#     config (triton_speccheck.py static), and prints per input the median
#     and range of ours/static and the best choice of each;
#  4. compares the generated code of 48 specialised variants with the
#     static oracle (triton_speccheck.py compare) — a difference fails;
#  5. with torch: the committed tables equal what triton_configs.py --import
#     reads from the installed torch, and the C rule's candidate lists for
#     the first 500 inputs of `sample --seed 2026 --samples 125` equal torch's
#     own (triton_configs.py --check-rule) — a difference fails.
# Results in $OUT (default out/device-triton); the last line is
# "N passed, N failed, N skipped".
. check/lib.sh
OUT=${OUT:-out/device-triton}
T=build/triton
JOBS=${JOBS:-$(nproc)}

if [ "${1:-}" = --build ]; then
	CUDA=${CUDA:-/usr/local/cuda}
	make -s all >/dev/null || { fail triton-gpu-build "make all failed"; finish; }
	mkdir -p "$T"
	W="-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O2 -g -iquote stages -iquote build"
	cc $W -o "$T/triton_cands" stages/gpu/bench/triton_cands.c stages/gpu/policy/inductor_cands.c build/libmmrank.a -ljansson -lm &&
	cc $W -o "$T/triton_metacheck" check/triton/triton_metacheck.c stages/gpu/bench/triton_meta.c build/libmmrank.a -ljansson -lm &&
	cc $W -I"$CUDA/include" -o "$T/triton_gpu_test" check/triton/triton_gpu_test.c stages/gpu/bench/triton_launch.c \
		stages/gpu/bench/triton_timing.c stages/gpu/bench/triton_meta.c stages/gpu/cuda/cudrv.c \
		stages/gpu/policy/inductor_cands.c stages/gpu/policy/ttsched.c build/libmmrank.a \
		-L"$CUDA/lib64" -L"$CUDA/lib64/stubs" -Wl,-rpath,"$CUDA/lib64" -lcublas -lcudart -lcuda -ljansson -lm &&
	build/bin/sample --seed 2026 --samples 125 "$T/sample500.tsv" &&
	"$T/triton_cands" "$T/sample500.tsv" "$T/sample500.cands.tsv" &&
	"$T/triton_cands" --summary "$T/sample500.tsv" "$T/sample500.summary.tsv" &&
	ok triton-gpu-build || fail triton-gpu-build "see above"
	du -sh "$T"
	finish
fi

mkdir -p "$OUT"
exec > >(tee "$OUT/console.txt") 2>&1
if ! command -v nvidia-smi >/dev/null || ! nvidia-smi -L >/dev/null 2>&1; then
	skip triton-gpu "no NVIDIA GPU here"; echo "0 passed, 0 failed, 1 skipped"; finish
fi
for b in triton_cands triton_metacheck triton_gpu_test; do
	[ -x "$T/$b" ] || { fail triton-gpu-built "$T/$b missing: run 'bash check/gpu/test_triton.sh --build' and carry build/triton"; echo "0 passed, 1 failed"; finish; }
done
nvidia-smi --query-gpu=name,compute_cap,clocks.sm,temperature.gpu --format=csv,noheader
# cuBLAS for the harness (built elsewhere): /usr/local/cuda/lib64 (rpath), else torch's wheels
if ldd "$T/triton_gpu_test" | grep -q 'not found'; then
	extra=$(python3 -c 'import os, nvidia.cublas as c; print(os.path.join(list(c.__path__)[0], "lib"))' 2>/dev/null)
	[ -n "$extra" ] && export LD_LIBRARY_PATH=$extra${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
	ldd "$T/triton_gpu_test" | grep 'not found' && echo "triton_gpu_test: libraries missing (above)"
fi
python3 -c 'import triton; print("triton", triton.__version__)'
ARCH=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')
CACHE=${CUBIN_CACHE:-build/cubin}
export TRITON_CACHE_DIR=$TMP/triton-own-cache
npass=0 nfail=0 nskip=0
res() { case $1 in ok) npass=$((npass + 1)); ok "$2" ;; fail) nfail=$((nfail + 1)); fail "$2" "$3" ;;
	skip) nskip=$((nskip + 1)); skip "$2" "$3" ;; esac; }

# ---- 1. the check matrix and its compile -------------------------------------------
# 8 shape classes; each (dtype, layout) gets two of them, each class meets
# every dtype
S=("2 1024 512" "37 1000 264" "256 512 768" "4096 256 1024" "129 77 33" "64 40 2048" "1000 4104 72" "3 2048 4099")
DT=("torch.float16 0" "torch.bfloat16 0" "torch.float32 0" "torch.float32 1")
{
	printf 'input\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\n'
	i=0
	for d in 0 1 2 3; do for l in 0 1 2 3; do for j in 0 4; do
		set -- ${S[$(((d + 2 * l + j) % 8))]}
		set -- "$@" ${DT[$d]}
		printf '%d\t%d\t%d\t%d\t%s\t%d\t%d\t%d\n' $i $1 $2 $3 $4 $5 $((l / 2)) $((l % 2))
		i=$((i + 1))
	done; done; done
} > "$OUT/check_shapes.tsv"
"$T/triton_cands" "$OUT/check_shapes.tsv" "$OUT/check_cands.tsv"
"$T/triton_cands" --variants "$OUT/check_shapes.tsv" "$OUT/check_variants.tsv"
"$T/triton_cands" --summary "$OUT/check_shapes.tsv" "$OUT/check_summary.tsv"
echo "== compile: $(($(wc -l < "$OUT/check_variants.tsv") - 1)) variants, $JOBS jobs, sm_$ARCH"
if python3 -m mmrank.bench.triton_aot --cache "$CACHE" --arch "$ARCH" --jobs "$JOBS" "$OUT/check_variants.tsv" \
	> "$OUT/compile_check.txt"; then res ok triton-gpu-compile
else res fail triton-gpu-compile "triton_aot.py exited $?"; fi
cat "$OUT/compile_check.txt"
ED=$(awk -F'\t' '$1 == "entry" { print $2 }' "$OUT/compile_check.txt")

# ---- 2. every candidate against cuBLAS ------------------------------------------
echo "== check against cuBLAS"
if "$T/triton_gpu_test" --cubins "$ED" "$OUT/check_cands.tsv" > "$OUT/check_results.tsv" 2> "$OUT/check_stderr.txt"; then
	res ok triton-gpu-vs-cublas
else
	res fail triton-gpu-vs-cublas "$(tail -3 "$OUT/check_stderr.txt" | tr '\n' '|')"
	awk -F'\t' '$11 == "FAIL" || $11 == "missing"' "$OUT/check_results.tsv" | head -20
fi
cat "$OUT/check_stderr.txt"
awk -F'\t' 'NR > 1 { n[$5 " tf32=" $6 " " $7 " " $11]++ } END { for (k in n) print "   ", k, n[k] }' \
	"$OUT/check_results.tsv" | sort

# ---- 3. timing: ours vs the static kernel vs extern_mm ------------------------------
printf 'input\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\n0\t4096\t4096\t4096\ttorch.float16\t0\t0\t0\n1\t8\t4096\t4096\ttorch.bfloat16\t0\t0\t1\n2\t1000\t1000\t1000\ttorch.float32\t1\t1\t0\n3\t2048\t1024\t8192\ttorch.float16\t0\t1\t1\n4\t64\t1024\t256\ttorch.float16\t0\t0\t0\n5\t1024\t1152\t2048\ttorch.float32\t0\t0\t0\n' \
	> "$OUT/time_shapes.tsv"
"$T/triton_cands" "$OUT/time_shapes.tsv" "$OUT/time_cands.tsv"
"$T/triton_cands" --variants "$OUT/time_shapes.tsv" "$OUT/time_variants.tsv"
python3 -m mmrank.bench.triton_aot --cache "$CACHE" --arch "$ARCH" --jobs "$JOBS" "$OUT/time_variants.tsv" > "$OUT/compile_time.txt"
python3 check/triton/triton_speccheck.py static --jobs "$JOBS" --cache "$CACHE" "$OUT/time_cands.tsv" > "$OUT/compile_static.txt"
cat "$OUT/compile_time.txt" "$OUT/compile_static.txt"
RD=$(awk -F'\t' '$1 == "entry" { print $2 }' "$OUT/compile_static.txt")
echo "== timing (Inductor's method: min over launches, L2 flushed before each)"
if "$T/triton_gpu_test" --cubins "$ED" --ref-cubins "$RD" --time "$OUT/time_cands.tsv" \
	> "$OUT/time_results.tsv" 2> "$OUT/time_stderr.txt"; then
	res ok triton-gpu-timing
else res fail triton-gpu-timing "$(tail -3 "$OUT/time_stderr.txt" | tr '\n' '|')"; fi
cat "$OUT/time_stderr.txt"
awk -F'\t' 'NR > 1 { printf "%s %sx%sx%s %s tf32=%s %-70s ours %9s static %9s extern %9s %s\n", $1, $2, $3, $4, $5, $6, $9, $14, $15, $16, $11 }' \
	"$OUT/time_results.tsv"
python3 - "$OUT/time_results.tsv" <<'EOF'
import csv, math, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
by = {}
for r in rows:
    by.setdefault(r["input"], []).append(r)
print("per input: ours/static (median, min, max over Triton choices), best choice by each, extern_mm")
for i, rs in by.items():
    t = [r for r in rs if r["variant"] != "-" and r["status"] == "ok"]
    rat = [float(r["ours_ms"]) / float(r["static_ms"]) for r in t
           if r["static_ms"] not in ("nan", "-") and math.isfinite(float(r["ours_ms"]))]
    ext = float(rs[0]["extern_ms"])
    r0 = rs[0]
    if not t or not rat:
        print(f"  input {i}: no timed Triton choice with a static twin")
        continue
    bo = min(t, key=lambda r: float(r["ours_ms"]))
    bs = min((r for r in t if r["static_ms"] not in ("nan", "-")), key=lambda r: float(r["static_ms"]))
    print(f"  {r0['m']}x{r0['k']}x{r0['n']} {r0['dtype']} tf32={r0['tf32']} {r0['layout']}: ours/static median "
          f"{statistics.median(rat):.3f} [{min(rat):.3f}, {max(rat):.3f}] over {len(rat)}; best ours "
          f"{bo['id'][12:]} {float(bo['ours_ms']):.4g} ms, best static {bs['id'][12:]} {float(bs['static_ms']):.4g} ms, "
          f"extern_mm {ext:.4g} ms")
EOF

# ---- 4. generated code vs the static oracle ---------------------------------------
echo "== specialisation check (48 cases)"
if python3 check/triton/triton_speccheck.py compare --jobs "$JOBS" --every 17 --limit 48 "$OUT/check_cands.tsv" \
	> "$OUT/speccheck.txt" 2>&1; then res ok triton-gpu-speccheck
else res fail triton-gpu-speccheck "$(tail -1 "$OUT/speccheck.txt")"; fi
grep -v '^equal' "$OUT/speccheck.txt" | head -20

# ---- 5. the tables and the rule against the installed torch --------------------------
if python3 -c 'import torch' 2>/dev/null; then
	python3 -m mmrank.bench.triton_configs --import --configs > "$OUT/torch_configs.tsv" 2> "$OUT/torch_err.txt" &&
		cmp -s "$OUT/torch_configs.tsv" kernels/inductor_mm_configs.tsv && res ok triton-gpu-torch-configs ||
		res fail triton-gpu-torch-configs "$(diff kernels/inductor_mm_configs.tsv "$OUT/torch_configs.tsv" | head -3 | tr '\n' '|') $(tail -2 "$OUT/torch_err.txt")"
	python3 -m mmrank.bench.triton_configs --import --params > "$OUT/torch_params.tsv" 2>> "$OUT/torch_err.txt" &&
		cmp -s "$OUT/torch_params.tsv" kernels/inductor_mm_params.tsv && res ok triton-gpu-torch-params ||
		res fail triton-gpu-torch-params "$(diff kernels/inductor_mm_params.tsv "$OUT/torch_params.tsv" | head -3 | tr '\n' '|') $(tail -2 "$OUT/torch_err.txt")"
	for f in "$OUT/check_cands.tsv" "$T/sample500.cands.tsv"; do
		if python3 -m mmrank.bench.triton_configs --check-rule "$f" > "$OUT/rule_$(basename "$f" .tsv).txt" 2>&1; then
			res ok "triton-gpu-rule-$(basename "$f" .tsv)"
		else res fail "triton-gpu-rule-$(basename "$f" .tsv)" "$(tail -4 "$OUT/rule_$(basename "$f" .tsv).txt" | tr '\n' '|')"; fi
		tail -1 "$OUT/rule_$(basename "$f" .tsv).txt"
	done
else
	res skip triton-gpu-torch "torch not importable here"
fi
cat "$T/sample500.summary.tsv" 2>/dev/null
echo "$npass passed, $nfail failed, $nskip skipped"
finish
