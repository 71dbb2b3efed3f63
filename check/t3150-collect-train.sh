#!/usr/bin/env bash
# The README's own workflow: make collect, then make heuristic on the merged
# log.  Training must use the collected log as it is -- never re-sample,
# re-benchmark or re-merge it (that would cost hours on a GPU) -- and an
# unknown GPU name must be an error, not a new collection.  CPU back end.
. check/lib.sh
test_have_bins collect-train bench-fake || finish
BUILD=${BIN%/bin}
MK=(make --no-print-directory BUILD="$BUILD" OUT="$TMP/out" GPU=zz100 BENCH=bench-fake)
"${MK[@]}" -j2 collect GPUS=0,1 SAMPLES=3 SEED=1 >"$TMP/c.log" 2>&1 ||
	{ fail collect-train-collect "$(tail -3 "$TMP/c.log")"; finish; }
# the versions of the merged log are written quietly (no shell loop echoed)
if grep -q 'for f in\|versions.tsv ]' "$TMP/c.log"; then fail collect-versions-quiet "$(grep -m1 'for f in' "$TMP/c.log" | cut -c1-120)"
elif [ ! -s "$TMP/out/zz100/merged.txt.versions.tsv" ]; then fail collect-versions-quiet "no merged.txt.versions.tsv"
else ok collect-versions-quiet; fi
sum=$(md5sum < "$TMP/out/zz100/merged.txt")
"${MK[@]}" heuristic >"$TMP/h.log" 2>&1 || { fail collect-train-heuristic "$(tail -3 "$TMP/h.log")"; finish; }
if grep -qE 'bin/(sample|bench|merge)|bench-fake' "$TMP/h.log"; then
	fail collect-train-no-recollect "$(grep -E 'sample|bench|merge' "$TMP/h.log" | head -2)"
elif [ "$(md5sum < "$TMP/out/zz100/merged.txt")" != "$sum" ]; then
	fail collect-train-no-recollect "merged.txt changed"
else ok collect-train-no-recollect; fi
[ -s "$TMP/out/zz100/_MMRankingZZ100.py" ] && ok collect-train-artifacts || fail collect-train-artifacts "no _MMRankingZZ100.py"
# the collection's default family reaches bench (mma+wgmma: wgmma.cu choices
# for eligible fp16/bf16 inputs); CUBLASLT adds the cuBLASLt choices and, being
# a parameter of the shards, re-measures them
grep -q ',type=nvrtc_wgmma_' "$TMP/out/zz100/merged.txt" && ok collect-train-wgmma-default \
	|| fail collect-train-wgmma-default "no wgmma.cu choice in merged.txt"
"${MK[@]}" -j2 collect GPUS=0,1 SAMPLES=3 SEED=1 CUBLASLT="$ROOT/kernels/cublaslt_algos.tsv" >"$TMP/l.log" 2>&1 &&
	grep -q ',type=cublaslt_algo=' "$TMP/out/zz100/merged.txt" && ok collect-train-cublaslt \
	|| fail collect-train-cublaslt "$(tail -2 "$TMP/l.log")"
# the committed NVRTC collection (datasets/MANIFEST.h200nvrtc.tsv, first row):
# make heuristic GPU=h200nvrtc trains on it without a GPU -- checksum verified,
# 2080 inputs read, the single-choice ones (screened to extern_mm alone)
# dropped as spec §5.1 drops them -- and emits a tree with the NVRTC
# families (not one fixed leaf)
make --no-print-directory BUILD="$BUILD" OUT="$TMP/o2" GPU=h200nvrtc heuristic >"$TMP/h2.log" 2>&1 &&
	grep -q 'h200_seed2026_uncapped.txt.xz: 55208 measurements, 2080 inputs (1640 kept)' "$TMP/h2.log" &&
	grep -q 'nvrtc_wgmma_' "$TMP/o2/h200nvrtc/_MMRankingH200NVRTC.py" && grep -q 'nvrtc_mma_' "$TMP/o2/h200nvrtc/_MMRankingH200NVRTC.c" &&
	[ "$(awk -F'\t' '$1 == "node" && $3 == -1' "$TMP/o2/h200nvrtc/pruned.tsv" | wc -l)" -ge 2 ] \
	&& ok collect-train-committed-h200nvrtc || fail collect-train-committed-h200nvrtc "$(tail -3 "$TMP/h2.log")"
# the committed H200 collection with Inductor's ids (datasets/MANIFEST.h200.tsv):
# row 2 is the main log (sampled, part 1) and the later rows whose set column is
# main its parts 2 to 6, merged after it in order (main.parts.txt); the row of train_models
# (the real-model list) is featurized against main's categories and trained
# on 3x (fit --data train_models); every checksum verified; the tree ranks
# Inductor's triton_ ids and extern_mm only
make --no-print-directory BUILD="$BUILD" OUT="$TMP/o3" GPU=h200 heuristic >"$TMP/h3.log" 2>&1 &&
	grep -q 'merge: wrote .*/o3/h200/main.parts.txt: 55690 rows from 6 files' "$TMP/h3.log" &&
	grep -q '/o3/h200/main.parts.txt: 55690 measurements, 1818 inputs (1818 kept)' "$TMP/h3.log" &&
	grep -q 'h200_inductor_real.txt.xz: 16418 measurements, 561 inputs (561 kept)' "$TMP/h3.log" &&
	grep -q 'training set 6369 rows .*train_models 561' "$TMP/h3.log" &&
	grep -q "type=triton_BLOCK-M=" "$TMP/o3/h200/_MMRankingH200.py" &&
	! grep -q "nvrtc" "$TMP/o3/h200/_MMRankingH200.py" \
	&& ok collect-train-committed-h200 || fail collect-train-committed-h200 "$(tail -3 "$TMP/h3.log")"
# the committed H100 collection with Inductor's ids (datasets/MANIFEST.h100own.tsv):
# the same arrangement, its eight sample parts main (1 822 inputs) and the
# real-model list last as train_models
make --no-print-directory BUILD="$BUILD" OUT="$TMP/o5" GPU=h100own heuristic >"$TMP/h5.log" 2>&1 &&
	grep -q 'merge: wrote .*/o5/h100own/main.parts.txt: 55814 rows from 8 files' "$TMP/h5.log" &&
	grep -q '/o5/h100own/main.parts.txt: 55814 measurements, 1822 inputs (1822 kept)' "$TMP/h5.log" &&
	grep -q 'h100own_inductor_real.txt.xz: 16418 measurements, 561 inputs (561 kept)' "$TMP/h5.log" &&
	grep -q 'training set 7613 rows .*train_models 561' "$TMP/h5.log" &&
	grep -q "type=triton_BLOCK-M=" "$TMP/o5/h100own/_MMRankingH100OWN.py" \
	&& ok collect-train-committed-h100own || fail collect-train-committed-h100own "$(tail -3 "$TMP/h5.log")"
# row 2 of a manifest is the main log whatever its set says, so a set other
# than main there is refused, naming file, line and field, before anything
# runs: the real list first as train_models would be trained on as main, its
# 3x weight dropped (a copy of the tree whose datasets/ has that manifest,
# the rest linked)
F=$TMP/farm && mkdir -p "$F/datasets" && for e in "$ROOT"/* "$ROOT"/datasets/*; do
	case ${e#"$ROOT"/} in datasets | out | build | datasets/MANIFEST.h100own.tsv) ;; *) ln -s "$e" "$F/${e#"$ROOT"/}" ;; esac
done
awk -F'\t' 'NR == 1 { print; next } { r[NR] = $0 } END { print r[NR]; for (i = 2; i < NR; i++) print r[i] }' \
	"$ROOT/datasets/MANIFEST.h100own.tsv" >"$F/datasets/MANIFEST.h100own.tsv"
# refused NAME OUT MESSAGE: make heuristic in the copy fails with MESSAGE
# and writes nothing under OUT but its lock
refused() {
	make --no-print-directory -C "$F" BUILD="$BUILD" OUT="$TMP/$2" GPU=h100own heuristic >"$TMP/$2.log" 2>&1 &&
		{ fail "$1" "exit 0"; return; }
	grep -q "$3" "$TMP/$2.log" && [ -z "$(find "$TMP/$2" -type f ! -name '.lock*' 2>/dev/null)" ] &&
		ok "$1" || fail "$1" "$(tail -2 "$TMP/$2.log")"
}
refused manifest-row2-main o6 "datasets/MANIFEST.h100own.tsv line 2, field set: 'train_models': the first row is the main log"
# a manifest with CRLF line ends is refused too: its header's last field
# would be "set\r", no set column, and the build would train on row 2 alone
sed 's/$/\r/' "$ROOT/datasets/MANIFEST.h100own.tsv" >"$F/datasets/MANIFEST.h100own.tsv"
refused manifest-crlf o7 "datasets/MANIFEST.h100own.tsv line 1: a carriage return"
# the data a tree was made from is part of what make checks: a merged.txt
# put in place with an older mtime (cp -p) is trained on, and deleting it
# goes back to the committed collection (not "up to date" on stale data)
ninputs() { awk -F'\t' 'NR > 2 { print $1 }' "$TMP/o3/h200/main.feat.tsv" | sort -u | wc -l; }
xz -dc "$ROOT/datasets/h200nvrtc/h200_seed1_probe.txt.xz" >"$TMP/o3/h200/merged.txt" &&
	touch -d 2001-01-01 "$TMP/o3/h200/merged.txt"
make --no-print-directory BUILD="$BUILD" OUT="$TMP/o3" GPU=h200 heuristic >"$TMP/h4.log" 2>&1
n_merged=$(ninputs)
rm -f "$TMP/o3/h200/merged.txt"
make --no-print-directory BUILD="$BUILD" OUT="$TMP/o3" GPU=h200 heuristic >"$TMP/h5.log" 2>&1
n_back=$(ninputs)
[ "$n_merged" = 12 ] && [ "$n_back" = 1818 ] && ok collect-train-data-source-change ||
	fail collect-train-data-source-change "inputs trained on: $n_merged with an old merged.txt (want 12), $n_back after deleting it (want 1818)"
# a committed log that no longer matches its manifest sha256: make says
# which file and how to restore it, nothing trained (in a copy of the tree,
# so the checkout's datasets/ are never touched)
R=$TMP/repo
mkdir -p "$R" && cp -a "$ROOT/Makefile" "$ROOT/mk" "$ROOT/stages" "$ROOT/templates" "$ROOT/kernels" "$ROOT/datasets" "$R/"
printf 'x' >>"$R/datasets/h200/h200_inductor_real.txt.xz"
if make --no-print-directory -C "$R" BUILD="$BUILD" OUT="$TMP/o6" GPU=h200 heuristic >"$TMP/h6.log" 2>&1; then
	fail collect-train-committed-sha "exit status 0"
elif ! grep -q "^make: datasets/h200/h200_inductor_real.txt.xz does not match its sha256 in datasets/MANIFEST.h200.tsv (changed or damaged: git checkout datasets/h200/h200_inductor_real.txt.xz)" "$TMP/h6.log" ||
	[ -e "$TMP/o6/h200/tree.tsv" ]; then
	fail collect-train-committed-sha "$(tail -3 "$TMP/h6.log" | tr '\n' '|')"
else ok collect-train-committed-sha; fi
# the same for a part of the main set (its part 2): named, nothing merged or trained
cp "$ROOT/datasets/h200/h200_inductor_real.txt.xz" "$R/datasets/h200/" && printf 'x' >>"$R/datasets/h200/h200_inductor_seed2026_p2.txt.xz"
if make --no-print-directory -C "$R" BUILD="$BUILD" OUT="$TMP/o7" GPU=h200 heuristic >"$TMP/h7.log" 2>&1; then
	fail collect-train-committed-sha-part "exit status 0"
elif ! grep -q "^make: datasets/h200/h200_inductor_seed2026_p2.txt.xz does not match its sha256 in datasets/MANIFEST.h200.tsv" "$TMP/h7.log" ||
	[ -e "$TMP/o7/h200/main.parts.txt" ] || [ -e "$TMP/o7/h200/main.feat.tsv" ]; then
	fail collect-train-committed-sha-part "$(tail -3 "$TMP/h7.log" | tr '\n' '|')"
else ok collect-train-committed-sha-part; fi
# train_models trains: the same set under another name is only evaluated
"$BIN/fit" "$TMP/o3/h200/main.feat.tsv" --data other "$TMP/o3/h200/train_models.feat.tsv" --grid reference \
	--split none -o "$TMP/t.tsv" --metrics "$TMP/m.tsv" 2>"$TMP/fo.log" >/dev/null &&
	grep -q 'training set 2441 rows' "$TMP/fo.log" && ok collect-train-models-weight ||
	fail collect-train-models-weight "$(grep 'training set' "$TMP/fo.log")"
# an unknown GPU: a clear error, no collection started
"${MK[@]}" heuristic GPU=nosuchgpu >"$TMP/u.log" 2>&1 && fail collect-train-unknown-gpu "exit 0" || {
	grep -q "no data for GPU 'nosuchgpu'" "$TMP/u.log" && ! grep -q 'sample' "$TMP/u.log" &&
		ok collect-train-unknown-gpu || fail collect-train-unknown-gpu "$(head -3 "$TMP/u.log")"; }

# ---- a collection's prerequisites, checked before anything runs --------------
# No CUDA device (CUDA_VISIBLE_DEVICES empty hides any): make collect stops at
# once, naming the prerequisite, before sample or the Triton compiles (9 065
# cubins for KERNEL_TEMPLATE=triton), with nothing in the collection's
# folder; the CPU dry run (BENCH=bench-fake) and make -n still work.
C=(env -u MAKEFLAGS -u MAKELEVEL CUDA_VISIBLE_DEVICES= timeout 120 make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/og" GPU=zz300 SAMPLES=2)
start=$(date +%s)
if "${C[@]}" collect KERNEL_TEMPLATE=triton >"$TMP/g.log" 2>&1; then fail collect-no-gpu-early "exit 0"
elif grep -q "make collect: needs a CUDA device for each of GPUS=0 .*nvidia-smi -L.*BENCH=bench-fake for a CPU dry run.*nothing was run" "$TMP/g.log" &&
	grep -q "no CUDA device visible" "$TMP/g.log" && [ ! -e "$TMP/og/zz300/collect" ] && [ $(($(date +%s) - start)) -lt 60 ]; then
	ok collect-no-gpu-early
else fail collect-no-gpu-early "$(find "$TMP/og" -type f | head -3 | tr '\n' ' ') $(head -c 300 "$TMP/g.log")"; fi
"${C[@]}" evaluate-online GPU=h200 >"$TMP/g2.log" 2>&1 && fail collect-no-gpu-online "exit 0" ||
	{ grep -q "make evaluate-online: needs a CUDA device" "$TMP/g2.log" && [ ! -e "$TMP/og/h200/online" ] && ok collect-no-gpu-online ||
		fail collect-no-gpu-online "$(head -c 300 "$TMP/g2.log")"; }
"${C[@]}" collect BENCH=bench-fake >"$TMP/g3.log" 2>&1 && [ -s "$TMP/og/zz300/merged.txt" ] && ok collect-no-gpu-fake-runs ||
	fail collect-no-gpu-fake-runs "$(tail -2 "$TMP/g3.log" | tr '\n' '|')"
"${C[@]}" -n collect GPU=zz301 >"$TMP/g4.log" 2>&1 && grep -q 'bin/bench --device 0' "$TMP/g4.log" && ok collect-no-gpu-dry-run ||
	fail collect-no-gpu-dry-run "$(tail -2 "$TMP/g4.log" | tr '\n' '|')"
# the check itself: the devices nvidia-smi -L lists, as CUDA_VISIBLE_DEVICES narrows them
mkdir -p "$TMP/smi" && printf '#!/bin/sh\necho "GPU 0: NVIDIA H200 (UUID: GPU-a)"\necho "GPU 1: NVIDIA H200 (UUID: GPU-b)"\n' >"$TMP/smi/nvidia-smi" &&
	chmod +x "$TMP/smi/nvidia-smi"
gc() { env -u CUDA_VISIBLE_DEVICES PATH="$TMP/smi:$PATH" "$@" "$ROOT/stages/sh/gpu-check.sh" "$ids" 2>"$TMP/gc.err"; }
ids=0,1 gc env && ids=0,2 gc env; r=$?
grep -q "GPUS=0,2: no CUDA device 2 (nvidia-smi -L lists 2: devices 0..1)" "$TMP/gc.err" && [ $r = 1 ] &&
	ids=0 gc env CUDA_VISIBLE_DEVICES=1 && ! ids=0,1 gc env CUDA_VISIBLE_DEVICES=1 && ! ids=0 gc env CUDA_VISIBLE_DEVICES= &&
	ok collect-gpu-check || fail collect-gpu-check "rc $r: $(cat "$TMP/gc.err")"
# Triton not importable (python3 -S: no site-packages): KERNEL_TEMPLATE=triton
# names the prerequisite when make starts, nothing compiled, no stamp left;
# the compiler itself says it too instead of a traceback
if env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/ot" GPU=zz300 SAMPLES=2 \
	KERNEL_TEMPLATE=triton PYTHON="python3 -S" triton-cubins >"$TMP/t.log" 2>&1; then fail collect-no-triton-named "exit 0"
elif grep -q "KERNEL_TEMPLATE=triton: 'python3 -S -c \"import triton\"' fails: .*pip install triton==3.6.0 .*TRITON_CUBINS=DIR; nothing was run" "$TMP/t.log" &&
	! grep -q Traceback "$TMP/t.log" && [ -z "$(find "$TMP/ot" -name '*stamp*' -o -name shapes.tsv)" ]; then ok collect-no-triton-named
else fail collect-no-triton-named "$(head -c 300 "$TMP/t.log")"; fi
python3 -S -m mmrank.bench.triton_aot --entry-dir >/dev/null 2>"$TMP/ta.err" && fail collect-no-triton-aot "exit 0" ||
	{ grep -q "^triton_aot.py: Triton is not importable by .*pip install triton==3.6.0" "$TMP/ta.err" && ! grep -q Traceback "$TMP/ta.err" &&
		ok collect-no-triton-aot || fail collect-no-triton-aot "$(head -c 300 "$TMP/ta.err")"; }
finish
