#!/usr/bin/env bash
# perf/pipeline/vs.sh — `make heuristic` here against the same at another
# commit, on this machine, interleaved.  Not a test: it prints one line per
# run and the medians.
#
# usage: perf/pipeline/vs.sh [-n REPS] [-g GPU] REV [MAKE-ARGS...]
#   e.g. perf/pipeline/vs.sh -n 7 19de27f~1 PROFILE=reference
# REV is extracted (git archive, no worktree) into a scratch folder and built
# there (make all); this checkout is built as it is.  Each repetition runs
# both, in alternating order (a load change hits both alike), from an OUT
# holding only the dataset zip (copied from DATASET_MIRROR, default
# ../shared/datasets): featurize, fit, prune and emit run, as in a user's
# first `make heuristic` after the fetch.  Wall seconds from the clock around
# make, CPU seconds (user + sys, children included) from GNU time.  The ratio
# is median(here) / median(REV).
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=7 gpu=a100
while getopts n:g: o; do
	case $o in
	n) reps=$OPTARG ;;
	g) gpu=$OPTARG ;;
	*) sed -n '6p' "$0" | sed 's/^# //' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || { sed -n '6p' "$0" | sed 's/^# //' >&2; exit 2; }
rev=$1; shift
case $reps in ''|*[!0-9]*|0) echo "vs.sh: -n $reps: expected a count >= 1" >&2; exit 2 ;; esac
case $gpu in ''|*[!a-z0-9]*) echo "vs.sh: -g $gpu: expected a GPU name (a100, h100)" >&2; exit 2 ;; esac
[ -x /usr/bin/time ] || { echo "vs.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
mirror=${DATASET_MIRROR:-../shared/datasets}
case $mirror in /*) ;; *) mirror=$PWD/$mirror ;; esac
zip=$mirror/${gpu}_mm.zip
[ -r "$zip" ] || { echo "vs.sh: no $zip (set DATASET_MIRROR)" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-vs.XXXXXX")
trap 'rm -rf "$T"' EXIT INT TERM HUP
git archive "$rev" | tar -x -C "$T" -f - --one-top-level=old
make -s -C "$T/old" all >/dev/null 2>&1 || { echo "vs.sh: $rev does not build" >&2; exit 1; }
make -s all >/dev/null
here=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- stages templates Makefile mk || echo +)
old=$(git rev-parse --short "$rev")

# one DIR: run make heuristic in DIR from a fresh OUT; prints "wall cpu"
one() {
	local dir=$1 out=$T/out
	shift
	rm -rf "$out"
	mkdir -p "$out/$gpu"
	cp "$zip" "$out/$gpu/"
	local t0 t1
	t0=$(date +%s%N)
	/usr/bin/time -f '%U %S' -o "$T/time" make -s -C "$dir" heuristic GPU="$gpu" OUT="$out" \
		DATASET_MIRROR="$mirror" "$@" >/dev/null 2>"$T/err" ||
		{ echo "vs.sh: make failed in $dir:" >&2; tail -5 "$T/err" >&2; exit 1; }
	t1=$(date +%s%N)
	awk -v w=$(((t1 - t0) / 1000000)) '{ printf "%.3f %.2f\n", w / 1000, $1 + $2 }' "$T/time"
}
med() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }

echo "make heuristic GPU=$gpu $*: $here (this checkout) against $old ($rev), $reps runs each, alternating"
: >"$T/t.here"; : >"$T/t.old"
for ((i = 1; i <= reps; i++)); do
	for w in $( ((i % 2)) && echo "here old" || echo "old here"); do
		d=$PWD; [ $w = old ] && d=$T/old
		r=$(one "$d" "$@")
		echo "$r" >>"$T/t.$w"
		echo "run $i $w: wall $(cut -d' ' -f1 <<<"$r") s, cpu $(cut -d' ' -f2 <<<"$r") s"
	done
done
hw=$(cut -d' ' -f1 "$T/t.here" | med) ow=$(cut -d' ' -f1 "$T/t.old" | med)
hc=$(cut -d' ' -f2 "$T/t.here" | med) oc=$(cut -d' ' -f2 "$T/t.old" | med)
echo "median wall: $here $hw s, $old $ow s, ratio $(awk -v a="$hw" -v b="$ow" 'BEGIN { printf "%.3f", a / b }')"
echo "median cpu:  $here $hc s, $old $oc s, ratio $(awk -v a="$hc" -v b="$oc" 'BEGIN { printf "%.3f", a / b }')"
