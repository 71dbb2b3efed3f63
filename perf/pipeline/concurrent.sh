#!/usr/bin/env bash
# concurrent.sh — makes at once: the measurements behind "one make at a time
# in one OUT/GPU" and "build outputs written under a temporary name"
# (docs/VARIABLES.md).
#
# usage: perf/pipeline/concurrent.sh pairs N [GPU]
#          N pairs of `make heuristic GPU=GPU` (default a100) started at once
#          in one OUT, one with the default settings and one with SEED=7 (the
#          first of each pair alternating); prints each pair's exit statuses
#          and whether the artifact set is mixed (an artifact that is not what
#          emit writes for pruned.tsv, or a pruned.tsv that is not prune's of
#          tree.tsv), then "pairs: N, failed runs: F, mixed sets: X".
#        perf/pipeline/concurrent.sh clones N [RUNS]
#          N fresh `git clone`s of this checkout's HEAD under $TMPDIR, then in
#          all of them at once RUNS (default 1) `make heuristic` each (RUNS=2:
#          GPU=a100 and GPU=h100 side by side in each clone, sharing its
#          fresh build/); prints "runs: R, passed: P" and the failures' last
#          lines.
# Environment: DATASET_MIRROR (default ../shared/datasets), KEEP=1 keeps the
# scratch folder.  Run from the repository root; nice it on a shared machine.
set -u
cd "$(dirname "$0")/../.."
ROOT=$PWD
MIRROR=${DATASET_MIRROR:-$ROOT/../shared/datasets}
case $MIRROR in /*) ;; *) MIRROR=$ROOT/$MIRROR ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-concurrent.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$T"' EXIT
mk() { env -u MAKEFLAGS -u MAKELEVEL -u MMR_LOCK_HELD make --no-print-directory "$@"; }

case ${1:-} in
pairs)
	n=${2:?pairs N [GPU]} gpu=${3:-a100}
	O=$T/out/$gpu
	mk -s all >/dev/null || exit 1
	name=MMRanking$(tr a-z A-Z <<<"$gpu")
	k=$(mk -s fit-args GPU="$gpu" | sed 's/.*--ranking \([0-9]*\).*/\1/')
	mixed=0 failed=0
	for ((i = 1; i <= n; i++)); do
		if [ $((i % 2)) = 1 ]; then first=() second=(SEED=7); else first=(SEED=7) second=(); fi
		mk heuristic GPU="$gpu" OUT="$T/out" DATASET_MIRROR="$MIRROR" "${first[@]}" >"$T/a.log" 2>&1 &
		a=$!
		mk heuristic GPU="$gpu" OUT="$T/out" DATASET_MIRROR="$MIRROR" "${second[@]}" >"$T/b.log" 2>&1 &
		b=$!
		wait $a; ra=$?
		wait $b; rb=$?
		[ $ra = 0 ] || failed=$((failed + 1))
		[ $rb = 0 ] || failed=$((failed + 1))
		why=
		build/bin/prune --ranking "$k" -o "$T/p.tsv" "$O/tree.tsv" 2>/dev/null && cmp -s "$T/p.tsv" "$O/pruned.tsv" ||
			why+=" pruned.tsv"
		for f in py c h dot; do
			case $f in dot) art=$O/$name.dot ;; *) art=$O/_$name.$f ;; esac
			build/bin/emit --heuristic-name "$name" --format $f -o "$T/e.$f" "$O/pruned.tsv" 2>/dev/null &&
				cmp -s "$T/e.$f" "$art" || why+=" ${art##*/}"
		done
		[ -z "$why" ] || mixed=$((mixed + 1))
		echo "pair $i: exit $ra $rb; ${why:+mixed:}${why:-consistent}$(grep -q 'waiting for it' "$T/a.log" "$T/b.log" && echo '; one waited')"
	done
	echo "pairs: $n, failed runs: $failed, mixed sets: $mixed"
	;;
clones)
	n=${2:?clones N [RUNS]} runs=${3:-1}
	for ((i = 1; i <= n; i++)); do
		git clone -q "$ROOT" "$T/c$i" && git -C "$T/c$i" checkout -q "$(git rev-parse HEAD)" || exit 1
	done
	pids=()
	for ((i = 1; i <= n; i++)); do
		for g in a100 h100; do
			[ $runs = 2 ] || [ $g = a100 ] || continue
			mk -C "$T/c$i" heuristic GPU=$g DATASET_MIRROR="$MIRROR" >"$T/c$i.$g.log" 2>&1 &
			pids+=("$!:$T/c$i.$g.log")
		done
	done
	passed=0
	for p in "${pids[@]}"; do
		if wait "${p%%:*}"; then passed=$((passed + 1)); else echo "FAILED ${p#*:}: $(tail -3 "${p#*:}" | tr '\n' '|')"; fi
	done
	echo "runs: ${#pids[@]}, passed: $passed"
	;;
*) sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
