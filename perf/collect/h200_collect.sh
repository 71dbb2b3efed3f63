#!/usr/bin/env bash
# perf/collect/h200_collect.sh — one device call of the H200 collection with
# Inductor's ids: bench --template triton on the
# real-model list (datasets/shapes/real.tsv) and then on the reference
# distribution (sample --seed 2026, uncapped), each time-limited and
# resumable, carrying only built binaries and precompiled cubins.
#
#   bash perf/collect/h200_collect.sh --prepare   # here (CPU): build, compile, pack
#   bash perf/collect/h200_collect.sh             # the device call (needs a GPU)
#   bash perf/collect/h200_collect.sh --dry-run   # here: the same with bench-fake
#   bash perf/collect/h200_collect.sh --slice IN OUT   # SAMPLE_SKIP/TAKE's slice of IN
# FC (default build/fccache/cubin): the cubin cache; BENCH: the bench binary
# (default build/bin/bench, --dry-run build/bin/bench-fake).
#
# --prepare writes build/h200c/{real,sample}.tsv (shapes --from-list of
# REAL_LIST, default datasets/shapes/real.tsv; REAL_LIST=datasets/shapes/lora32.tsv
# (earlier lora.tsv): only the GEMMs appended since the committed real log,
# merged after it later, datasets/shapes/README.md; sample
# --seed 2026 --samples 450: 1800 inputs; SAMPLES=N: --samples N, whose
# first 4 x 450 inputs are those, sample's draw being prefix-stable; part 6:
# SAMPLES=470 SAMPLE_SKIP=1800, inputs 1800..1879), compiles the Triton variants of
# the real list and of the first SAMPLE_N (default 300) sampled inputs into
# build/fccache/cubin (python3 -m mmrank.bench.triton_aot; what is there is kept)
# and packs that entry folder into build/h200c/cubins.tar.xz.  The call
# carries build/bin and build/h200c.  C=DIR: another prepared folder of the
# same files, inside the repo (a new sample part).  SAMPLE_SKIP=S,
# SAMPLE_TAKE=T: sample.tsv holds only inputs S..S+T-1 of the 1800 (default
# all of them), SAMPLE_N counting from S; the second sample part is
# C=build/h200s2 SAMPLE_SKIP=98 SAMPLE_TAKE=202 SAMPLE_N=202 (inputs
# 98..299), the third C=build/h200s3 SAMPLE_SKIP=120 SAMPLE_TAKE=180
# SAMPLE_N=180 (inputs 120..299; perf/results/gpu/h200_collect/README.md).
# SAMPLE_LAST="ID ..." (--prepare, --slice): those inputs moved to the slice's end (slice below;
# part 5 from input 1335 on: C=build/h200s7 SAMPLE_SKIP=504 SAMPLE_LAST="1335
# 1772 1773 1774 1775 1384 1385 1386 1387", its nine fp32 giants last).  cubins.tar.xz is
# replaced only when every step succeeded.
#
# The run: bench --template triton --reps 1 (Inductor measures each choice
# once; its timing, triton_timing.h) on real.tsv for at most REAL_S (330 s),
# then on sample.tsv until TOTAL_S (540 s) is used; --time-limit stops after
# the input in flight, so both logs hold complete inputs only.  RESUME=DIR
# (carried): the .part/.plan files of an earlier call, copied in first, so
# bench resumes where that call stopped.  Writes $OUT/collect.tar.xz (the
# logs or their .part and .plan, stats, stderr, versions sidecars) and
# $OUT/summary.txt; exit 1 when a bench run failed (its exit neither 0 nor
# 2, the --time-limit stop, nor a cut at the hard stop), after packing.
# CALL_S (default 590): the seconds the device call leaves the script from
# its start (the device's limit is 600 s a command: less what the command
# runs before the script); bench is cut by `timeout` (TERM, KILL 5 s later)
# at CALL_S - 15 s after the script's start (15 s to pack; at most
# --time-limit + 90 s into a run; a run starting past it is skipped), since
# --time-limit only stops after the input in flight (or before one its rates say will not
# end in time: not a giant with no earlier input of its dtype and scale in the run), and one
# giant (part 2's were 32 and 91 TFLOP) can outlast it by minutes: bench's
# exit 124/137 there is "cut at the hard stop; the .part is resumable" (its
# complete inputs are fsync'd), not a failure (2026-12-01: a call killed at
# the device's 600 s with that input in flight lost all it had measured with
# its /tmp folder).  The work
# folder is build/h200c-work.XXXXXX (not /tmp: kept on a warm machine); it is
# packed into $OUT/collect.tar.xz on every exit, and on TERM, INT or HUP too
# (bench runs in the background under `wait`, so the trap runs at once: bench
# is stopped, the folder packed, exit 143); it is removed only after a clean
# pack on the normal path (a signalled call keeps it).
# Every setting is checked before anything is written (exit 2: whole
# seconds for REAL_S, TOTAL_S, CALL_S >= 20; numbers for LONG_MS,
# LONG_LAUNCHES; LOSER_RATIO, WARM_FROM_VERIFY as make checks them,
# stages/sh/vars.sh; RESUME holding one .part and its .plan), and
# one run at a time writes an OUT (flock on OUT.lock, beside it).
# LONG_MS=T, LONG_LAUNCHES=N: bench --long-ms, --long-launches
# (default bench's, 10 and 2; LONG_MS=0: Inductor's timing exactly, which the
# first sample part and the real-model log were made with;
# perf/results/gpu/h200_collect).
# LOSER_RATIO=L: bench --loser-ratio (default bench's, 0 = off; a part made
# with one L resumes only with the same: its plan sidecar says which).
# WARM_FROM_VERIFY=1: bench --warm-from-verify (default 0; likewise part of
# the plan; measured on the H200, perf/results/gpu/warmverify_h200: 1.3x on
# the giants, no winner moved; used for sample parts 3 to 5).
# CLOCK=C: bench --clock (default inductor; rotate or warm: bench's own
# clock, perf/models/bench_clocks.sh says which agrees with the graph; part
# of the plan, and it goes with none of the cuts above).
# VERIFY_CUT=S, VERIFY_CUT_AUDIT=K: bench --verify-cut, --verify-cut-audit
# (default off; needs LOSER_RATIO <= S and WARM_FROM_VERIFY=1; part of the
# plan; used from sample part 5 on).
set -u
# a write to a dead tee (the device's TERM reaches the whole process group)
# must not end the script before its pack: EPIPE, not SIGPIPE
trap '' PIPE
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
MODE=${1:-run}
bad() { echo "h200_collect.sh: $1; nothing done" >&2; exit 2; }
# every setting is checked before anything is written (a bad one changes
# nothing): LOSER_RATIO, WARM_FROM_VERIFY, VERIFY_CUT and VERIFY_CUT_AUDIT by make's own check
# (stages/sh/vars.sh, their one home), LONG_MS and LONG_LAUNCHES numbers (bench
# judges their ranges before it measures anything), seconds decimal
# integers (no leading 0: bash reads 0590 as octal)
mk=()
for v in LOSER_RATIO WARM_FROM_VERIFY VERIFY_CUT VERIFY_CUT_AUDIT LONG_MS; do [ -z "${!v+x}" ] || mk+=("$v=${!v}"); done
if [ ${#mk[@]} -gt 0 ]; then
	why=$(bash stages/sh/vars.sh "${mk[@]}" 2>&1 >/dev/null)
	[ -z "$why" ] || bad "$(echo "$why" | sed 's/^make: //' | paste -sd ';')"
fi
for v in LONG_MS LONG_LAUNCHES; do
	[ -z "${!v+x}" ] || [[ ${!v} =~ ^[0-9]+(\.[0-9]+)?$ ]] || bad "$v=${!v}: expected a number"
done
for v in REAL_S TOTAL_S CALL_S; do
	[ -z "${!v+x}" ] || [[ ${!v} =~ ^(0|[1-9][0-9]{0,5})$ ]] || bad "$v=${!v}: expected whole seconds (0, 1, 2, ...)"
done
# the list's settings (--prepare and --slice; a run reads the prepared
# folder): SAMPLE_LAST's numbers are checked against the slice in slice()
# (exit 2, nothing written), their form here
case ${CLOCK:-inductor} in inductor|rotate|warm) ;; *) bad "CLOCK=$CLOCK: expected inductor, rotate or warm (bench --clock)" ;; esac
if [ "${CLOCK:-inductor}" != inductor ]; then
	for v in LOSER_RATIO WARM_FROM_VERIFY VERIFY_CUT LONG_MS LONG_LAUNCHES; do
		[ -z "${!v:-}" ] || bad "CLOCK=$CLOCK with $v=${!v}: the cuts and the long-kernel rule shorten Inductor's timing (CLOCK=inductor) only"
	done
fi
[[ ${SAMPLE_LAST:-} =~ ^\ *((0|[1-9][0-9]*)(\ +|$))*$ ]] || bad "SAMPLE_LAST=$SAMPLE_LAST: expected input numbers separated by spaces"
[ -z "${SAMPLES+x}" ] || [[ $SAMPLES =~ ^[1-9][0-9]{0,5}$ ]] || bad "SAMPLES=$SAMPLES: expected a whole number of samples >= 1"
for v in SAMPLE_SKIP SAMPLE_TAKE SAMPLE_N; do
	[ -z "${!v+x}" ] || [[ ${!v} =~ ^(0|[1-9][0-9]{0,6})$ ]] || bad "$v=${!v}: expected a whole number of inputs (0, 1, 2, ...)"
done
[ "${CALL_S:-590}" -ge 20 ] || bad "CALL_S=$CALL_S: expected at least 20 (15 s are kept for the pack)"
# RESUME=DIR: exactly one .part and its .plan, or nothing would be resumed
# and the part measured again from its first input
if [ -n "${RESUME:-}" ]; then
	shopt -s nullglob
	parts=("$RESUME"/*.part)
	shopt -u nullglob
	[ ${#parts[@]} -eq 1 ] && [ -s "${parts[0]}" ] && [ -s "${parts[0]}.plan" ] ||
		bad "RESUME=$RESUME: expected one LOG.part and its LOG.part.plan there (found ${#parts[@]} .part)"
fi
C=${C:-build/h200c}
FC=${FC:-build/fccache/cubin}
SAMPLE_N=${SAMPLE_N:-300}

# slice IN OUT: the header and inputs SAMPLE_SKIP..SAMPLE_SKIP+SAMPLE_TAKE-1
# of the list IN (default all); SAMPLE_LAST="ID ...": those inputs (the
# input column) moved to the end of the slice, in that order (the giants
# measured last, so a session's calls are not spent on a few of them; the
# rest keeps the list's order; part 5's second half, the collection README).
# An ID not in the slice, or given twice, is an error and OUT is not written.
slice() {
	[ -s "$1" ] || { echo "h200_collect.sh: $1: missing or empty (no header line)" >&2; return 1; }
	awk -F'\t' -v s="${SAMPLE_SKIP:-0}" -v t="${SAMPLE_TAKE:-}" -v last="${SAMPLE_LAST:-}" '
	BEGIN { nl = split(last, L, " ")  # their form checked at the top
		for (i = 1; i <= nl; i++) {
			if (L[i] in want) { print "SAMPLE_LAST: " L[i] " given twice" > "/dev/stderr"; bad = 1; exit 2 }
			want[L[i]] = i } }
	NR == 1 { print > out; next }
	NR - 2 >= s && (t == "" || NR - 2 < s + t) {
		if ($1 in want) held[want[$1]] = $0; else print > out }
	END { if (bad) exit 2
		for (i = 1; i <= nl; i++)
			if (!(i in held)) { print "SAMPLE_LAST: input " L[i] " is not in the slice" > "/dev/stderr"; exit 2 }
		for (i = 1; i <= nl; i++) print held[i] > out }' out="$2.tmp" "$1" &&
		mv "$2.tmp" "$2" || { rm -f "$2.tmp"; return 2; }
}

prepare() {
	make -s all build/bin/bench build/bin/bench-fake build/bin/triton_cands build/bin/shapes || return 1
	# the list first, in a folder of its own: a SAMPLE_LAST number not in
	# the slice (exit 2) leaves C as it was
	local tmp rc
	tmp=$(mktemp -d build/h200c-prep.XXXXXX) || return 1
	build/bin/sample --seed 2026 --samples "${SAMPLES:-450}" -o "$tmp/all.tsv" 2>/dev/null ||
		{ rm -rf "$tmp"; return 1; }
	slice "$tmp/all.tsv" "$tmp/sample.tsv" || { rc=$?; rm -rf "$tmp"; return $rc; }
	mkdir -p "$C" "$FC" && mv "$tmp/sample.tsv" "$C/sample.tsv" && rm -rf "$tmp" || return 1
	build/bin/shapes --from-list "${REAL_LIST:-datasets/shapes/real.tsv}" -o "$C/real.tsv" || return 1
	head -n $((SAMPLE_N + 1)) "$C/sample.tsv" > "$C/sample_head.tsv"
	build/bin/triton_cands --variants "$C/real.tsv" "$C/v_real.tsv" &&
		build/bin/triton_cands --variants "$C/sample_head.tsv" "$C/v_sample.tsv" || return 1
	{ cat "$C/v_real.tsv"; tail -n +2 "$C/v_sample.tsv"; } | awk '!seen[$0]++' > "$C/variants.tsv"
	local entry
	entry=$(python3 -m mmrank.bench.triton_aot --cache "$FC" --entry-dir) || return 1
	basename "$entry" > "$C/triton_entry.txt"
	[ "${PREP_COMPILE:-1}" = 0 ] ||
		python3 -m mmrank.bench.triton_aot --cache "$FC" --jobs "${PREP_JOBS:-$(nproc)}" "$C/variants.tsv" ||
		return 1
	tar cJf "$C/cubins.tar.xz.tmp" -C "$FC" "$(cat "$C/triton_entry.txt")" &&
		mv "$C/cubins.tar.xz.tmp" "$C/cubins.tar.xz" || { rm -f "$C/cubins.tar.xz.tmp"; return 1; }
	du -sh build/bin "$C"
}

if [ "$MODE" = --prepare ]; then prepare; exit $?; fi
if [ "$MODE" = --slice ]; then slice "$2" "$3"; exit $?; fi  # for check/t3160-h200-collect.sh
case $MODE in
--dry-run) OUT=${OUT:-out/h200c-dry} BENCH=${BENCH:-build/bin/bench-fake} ;;
run) OUT=${OUT:-out/h200c} BENCH=${BENCH:-build/bin/bench} ;;
*) echo "usage: perf/collect/h200_collect.sh [--prepare | --dry-run | --slice IN OUT]" >&2; exit 2 ;;
esac
# every input first: a missing one is named before anything is written
for f in "$C/cubins.tar.xz" "$C/triton_entry.txt" "$C/real.tsv" "$C/sample.tsv" "$C/variants.tsv" "$BENCH"; do
	[ -e "$f" ] || { echo "missing $f: run perf/collect/h200_collect.sh --prepare here, carry build/bin $C" >&2; exit 1; }
done
T0=$(date +%s)
stamp() { echo "== $(date -u +%T) (+$(($(date +%s) - T0)) s): $*"; }
mkdir -p "$OUT" || exit 1
# one run per OUT: a second one would write the same files (the lock is
# OUT.lock beside it, so nothing extra comes back from $OUT)
exec 9>"${OUT%/}.lock" || exit 1
flock -n 9 || bad "another h200_collect.sh is writing $OUT"
exec > >(tee "$OUT/summary.txt") 2>&1
stamp "h200 collection ($MODE), commit $(git log -1 --format=%h 2>/dev/null || echo '?')"
nvidia-smi --query-gpu=index,name,clocks.sm,temperature.gpu,driver_version --format=csv,noheader 2>/dev/null
mkdir -p "$FC" && tar xJf "$C/cubins.tar.xz" -C "$FC" || { echo "cannot unpack the cubins"; exit 1; }
ED=$FC/$(cat "$C/triton_entry.txt")
nv=$(ls "$ED" 2>/dev/null | grep -c '\.json$')
[ "$nv" -gt 0 ] || { stamp "no Triton variants in $C/cubins.tar.xz (entry $ED): run --prepare again"; exit 1; }
stamp "unpacked $nv Triton variants"
ldd build/bin/* 2>/dev/null | grep 'not found' | sort -u
# what --prepare did not compile (the entry keeps what is there), on all CPUs
if [ "$MODE" = run ] && python3 -c 'import triton' 2>/dev/null; then
	stamp "triton_aot: the variants not carried"
	python3 -m mmrank.bench.triton_aot --cache "$FC" --jobs "$(nproc)" "$C/variants.tsv" | tail -n 3
	stamp "$(ls "$ED" | grep -c '\.json$') Triton variants"
fi
# The work folder is under build/ (kept on a warm machine) and is packed into
# $OUT on every exit, a signal's too: a call killed at its limit (the input in
# flight outlasting --time-limit) still brings back its complete inputs
# (bench fsyncs the .part per input).  On a signal bench (BP, its `timeout`,
# which passes the signal on and kills after 5 s) is stopped first, so the
# pack holds no line being written.  PIPE is ignored there: tee may be dead
# (a TERM to the process group).  Removed only after a clean pack.
mkdir -p build || exit 1
W=$(mktemp -d build/h200c-work.XXXXXX) || exit 1
mkdir -p "$W/c" || exit 1
# pack: the work folder into $OUT/collect.tar.xz, checked (xz -t) before it
# replaces the last one; once (PACKED), and a signal during it waits for the
# tar in flight (PK) instead of starting again; a tar killed by the signal
# (a TERM to the group) is redone
PACKED=0 PK=
pack() {
	[ "$PACKED" = 0 ] || return 0
	local tmp="$OUT/collect.tar.xz.tmp"
	if [ -z "$PK" ]; then
		tar cJf "$tmp" -C "$W" c &
		PK=$!
	fi
	wait "$PK" || { PK=; tar cJf "$tmp" -C "$W" c || return 1; }
	PK=
	xz -t "$tmp" && mv "$tmp" "$OUT/collect.tar.xz" && PACKED=1
}
BP=
# on a signal: bench stopped first (no line half written; every background
# job but the pack's tar, so also one started just before BP was set), then
# the pack; on any other exit (an error) the pack too; INT exits 130,
# TERM/HUP 143
onsig() {
	trap - EXIT
	local j
	for j in $(jobs -p); do
		[ "$j" = "$PK" ] || { kill -TERM "$j" 2>/dev/null; wait "$j"; }
	done
	pack
	stamp "signal: packed what was written into $OUT/collect.tar.xz (work folder $W kept)" 2>/dev/null
	exit "$1"
}
trap 'onsig 143' TERM HUP
trap 'onsig 130' INT
trap 'pack' EXIT
stamp "work folder $W"
if [ -n "${RESUME:-}" ]; then
	cp "$RESUME"/*.part "$RESUME"/*.plan "$W/c/" || { stamp "cannot copy $RESUME into $W/c"; exit 1; }
	stamp "resumed from $RESUME: $(ls "$W/c" | tr '\n' ' ')"
fi
B=("$BENCH" --template triton --reps 1 --kernels kernels --cache "$FC" --triton-cubins "$ED"
	${LONG_MS:+--long-ms "$LONG_MS"} ${LONG_LAUNCHES:+--long-launches "$LONG_LAUNCHES"}
	${LOSER_RATIO:+--loser-ratio "$LOSER_RATIO"})
[ "${WARM_FROM_VERIFY:-0}" = 1 ] && B+=(--warm-from-verify)
[ -z "${CLOCK:-}" ] || B+=(--clock "$CLOCK")
awk -v f="${VERIFY_CUT:-0}" 'BEGIN { exit !(f == 0) }' || B+=(--verify-cut "$VERIFY_CUT" ${VERIFY_CUT_AUDIT:+--verify-cut-audit "$VERIFY_CUT_AUDIT"})
run() {  # NAME LIMIT: bench on $C/NAME.tsv for at most LIMIT s
	[ "$2" -gt 10 ] || { stamp "$1: no time left"; return; }
	stamp "$1: --time-limit $2"
	# the hard stop: CALL_S (590) after the start, less 15 s to pack, so an
	# input in flight past --time-limit is cut, not the whole call
	local hard=$((${CALL_S:-590} - 15 - ($(date +%s) - T0)))
	[ "$hard" -lt $(($2 + 90)) ] || hard=$(($2 + 90))
	# (timeout 0 would never cut; a negative one is an error)
	[ "$hard" -gt 0 ] || { stamp "$1: no time left before the hard stop (CALL_S ${CALL_S:-590})"; return; }
	# in the background, under `wait`: bash runs a trap only when its
	# foreground child ends, but interrupts `wait` for it at once
	timeout --kill-after=5 "$hard" "${B[@]}" --time-limit "$2" --stats "$W/c/stats_$1.tsv" \
		-o "$W/c/$1.txt" "$C/$1.tsv" 2> "$W/c/$1.err" &
	BP=$!
	wait "$BP"
	local rc=$?
	BP=
	stamp "$1: exit $rc ($(grep -v '^bench: type=' "$W/c/$1.err" | tail -n 1))"
	# 0: done; 2: stopped by --time-limit; 124/137: cut by the hard stop (the
	# .part holds complete inputs: resumable); anything else failed
	case $rc in 0 | 2) ;; 124 | 137) stamp "$1: cut at the hard stop ($hard s); the .part is resumable" ;; *) failed=1 ;; esac
}
failed=0
run real "${REAL_S:-330}"
run sample $((${TOTAL_S:-540} - ($(date +%s) - T0)))
for f in "$W"/c/stats_*.tsv; do
	[ -e "$f" ] || continue
	echo "$f: $(awk -F'\t' '$1 ~ /^(inputs_measured|wall_s|rows_written|verify_failures)$/ { printf "%s=%s ", $1, $2 }' "$f")"
done
pack || { stamp "cannot pack $W into $OUT/collect.tar.xz (kept)"; exit 1; }
trap - TERM INT HUP EXIT
rm -rf "$W"
[ $failed -eq 0 ] || { stamp "done, a bench run failed (its .err is in collect.tar.xz)"; exit 1; }
stamp "done"
