#!/usr/bin/env bash
# perf/experiments/agree_lease.sh — the agreement run (Inductor runs A and B
# and the fast back end on the same inputs) in ONE machine lease of several
# device calls, each resuming where the last stopped.
#
#   bash perf/experiments/agree_lease.sh --prepare   # here (CPU): build, compile, pack
#   bash perf/experiments/agree_lease.sh             # each device call (needs a GPU)
#
# --prepare builds build/bin, lists the Triton variants of SHAPES
# (triton_cands --variants), compiles the missing ones into build/fccache/cubin
# (python3 -m mmrank.bench.triton_aot, all CPUs) and packs exactly those into
# build/agreecarry/triton.tar.xz (+ entry.txt).  Each device call carries
# build/bin and build/agreecarry.
#
# The device call unpacks the variants once, then runs
# perf/experiments/inductor_agree.sh with PAIRED=1 in STATE (default build/agreerun,
# an ignored folder the machine keeps between calls while it is warm): the
# fast back end (bench --template triton --reps 1, as the H200 collection)
# first, then Inductor with --reps 2 per input (rep 1 = run A, rep 2 = run B,
# fresh Inductor caches each; B reuses A's compiled Triton kernels), stopped
# by CALL_S (default 540 s of this call; the input in flight is finished and
# may take ~60 s more).  The next call with the same STATE continues.  Each
# call copies the summary, the reports and a tar of STATE's logs to $OUT (8
# files at most come back), so a machine lost between calls can be resumed by
# unpacking that tar into STATE here and carrying it.
# A CPU dry run: STATE=/tmp/s CALL_S=130 PYTHON="python3 check/inductor/fake_python.py"
# COLLECT_EXTRA="--fake-delay-ms 500" FAST_CMD="python3 check/inductor/fake_python.py
# -m mmrank.bench.inductor_collect --stats {stats} {shapes} {log}" bash
# perf/experiments/agree_lease.sh (twice: the second resumes).
set -u
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
SHAPES=${SHAPES:-perf/experiments/inductor_agree_shapes.tsv}
CARRY=${CARRY:-build/agreecarry}
FC=build/fccache/cubin
STATE=${STATE:-build/agreerun}

if [ "${1:-}" = --prepare ]; then
	make -s all build/bin/bench build/bin/triton_cands || exit 1
	mkdir -p "$CARRY" "$FC"
	build/bin/triton_cands --variants "$SHAPES" "$CARRY/variants.tsv" || exit 1
	entry=$(python3 -m mmrank.bench.triton_aot --cache "$FC" --entry-dir) || exit 1
	python3 -m mmrank.bench.triton_aot --cache "$FC" --jobs "$(nproc)" "$CARRY/variants.tsv" || exit 1
	basename "$entry" >"$CARRY/entry.txt"
	tail -n +2 "$CARRY/variants.tsv" | cut -f1 | sort -u |
		awk -v e="$(basename "$entry")" '{ print e "/" $1 ".json"; print e "/" $1 ".cubin" }' |
		while read -r f; do [ -e "$FC/$f" ] && echo "$f"; done >"$CARRY/files.txt"
	tar cJf "$CARRY/triton.tar.xz" -C "$FC" -T "$CARRY/files.txt" || exit 1
	echo "$(grep -c '\.json$' "$CARRY/files.txt") variants packed ($(du -h "$CARRY/triton.tar.xz" | cut -f1));" \
		"carry: [\"build/bin\", \"$CARRY\"]"
	exit 0
fi

T0=$(date +%s)
OUT=${OUT:-out/agree}
BENCH=${BENCH:-build/bin/bench}
[ -e "$CARRY/triton.tar.xz" ] && [ -x "$BENCH" ] ||
	{ echo "missing $CARRY/triton.tar.xz or $BENCH: run perf/experiments/agree_lease.sh --prepare here and carry build/bin $CARRY"; exit 1; }
# (checked before anything is unpacked or run)
for d in "$OUT" "$STATE"; do
	mkdir -p "$d" 2>/dev/null && [ -w "$d" ] || { echo "agree_lease: $d: cannot create or write to it (OUT, STATE)"; exit 1; }
done
ED=$FC/$(cat "$CARRY/entry.txt")
if [ ! -e "$STATE/unpacked" ]; then
	mkdir -p "$FC" && tar xJf "$CARRY/triton.tar.xz" -C "$FC" && touch "$STATE/unpacked" || exit 1
fi
echo "$(ls "$ED" | grep -c '\.json$') Triton variants in $ED; state $STATE: $(ls "$STATE" | tr '\n' ' ')"
A_S=$((${CALL_S:-540} - ($(date +%s) - T0) - 60))
[ -e "$STATE/fast/data_0.txt" ] || A_S=$((A_S - 60))   # the fast run comes first
[ -n "${FAST_CMD:-}" ] || FAST_CMD="$BENCH --template triton --reps 1 --kernels kernels --cache $FC --triton-cubins $ED --device {i} --shard {i}/{n} --stats {stats} -o {log} {shapes}"
OUT=$STATE PAIRED=1 GPUS=1 A_S=$A_S FAST_S=300 FAST_CMD=$FAST_CMD SHAPES=$SHAPES bash perf/experiments/inductor_agree.sh
rc=$?
cp "$STATE/summary.txt" "$STATE/console.txt" "$OUT/" 2>/dev/null
tar cJf "$OUT/state.tar.xz" --exclude=triton-cache --exclude=unpacked -C "$STATE" . 2>/dev/null
tar cJf "$OUT/reports.tar.xz" -C "$STATE" $(cd "$STATE" && ls agree_* 2>/dev/null) 2>/dev/null
echo "agree_lease: inductor_agree.sh exit $rc after $(($(date +%s) - T0)) s; done:" \
	"A+B $(cat "$STATE"/A/data_0.txt.part.done "$STATE"/A/data_0.txt.inputs.tsv 2>/dev/null | grep -c '^[0-9]') inputs"
