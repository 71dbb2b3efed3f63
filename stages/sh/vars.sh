#!/usr/bin/env bash
# vars.sh — check the make variables a user sets, before any stage runs.
#
# usage: stages/sh/vars.sh [--goals "GOALS"] NAME=VALUE...
# The Makefile runs it once, at parse time, with every variable below: a bad
# value is refused before a rule runs, so it never rewrites a parameter stamp
# or makes Make delete the previous good outputs (nothing in out/ changes).
# Prints one line per bad setting on stderr ("make: SELECT='foo': expected
# top1, regret or hit (fit --select)") and the word "bad" on stdout; prints
# nothing when all are fine.  GOALS (MAKECMDGOALS) decide the checks that
# concern some targets only: a GPU with data (training goals), LOG (eval),
# HELDOUT (compare), CUBLASLT (collect), DATASET_MIRROR (fetching an
# official dataset).
# The ranges are those of the stage options the variables feed (fit, prune,
# eval, sample, bench); check/t3110-vars.sh checks that they agree.
set -u
shopt -s extglob
goals=
if [ "${1:-}" = --goals ]; then goals=$2; shift 2; fi
declare -A v
for a in "$@"; do v[${a%%=*}]=${a#*=}; done
bad=0
err() { echo "make: $*" >&2; bad=1; }
has() { [ -n "${v[$1]+x}" ]; }
goal() { local g; for g in $goals; do [ "$g" = "$1" ] && return 0; done; return 1; }

# a <= b for integers written as digits without leading zeros (any length)
le() { [ ${#1} -lt ${#2} ] || { [ ${#1} -eq ${#2} ] && [[ ! $1 > $2 ]]; }; }
# an integer in [lo, hi] (digits only; compared as text, so hi = 2^63-1 works)
int_in() { # VALUE LO HI
	[[ $1 =~ ^[0-9]+$ ]] || return 1
	local x=$1
	while [ ${#x} -gt 1 ] && [ "${x:0:1}" = 0 ]; do x=${x:1}; done
	le "$2" "$x" && le "$x" "$3"
}
need_int() { # NAME LO HI WHAT
	has "$1" || return 0
	int_in "${v[$1]}" "$2" "$3" || err "$1='${v[$1]}': expected an integer in [$2, $3] ($4)"
}
need_enum() { # NAME WHAT VALUE...
	has "$1" || return 0
	local n=$1 what=$2 x; shift 2
	for x; do [ "${v[$n]}" = "$x" ] && return 0; done
	local list=$*
	list=${list// /, }
	[ $# -lt 2 ] || list="${list%, *} or ${list##*, }"
	err "$n='${v[$n]}': expected $list ($what)"
}
number() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ || $1 =~ ^[0-9]*\.[0-9]+$ ]]; }
I64=9223372036854775807

# ---- learning (fit, prune, eval) ---------------------------------------------
need_int RANKING 1 100000 "top-k size: fit, prune and eval --ranking"
need_int SEED 0 $I64 "fit and sample --seed"
need_enum SPLIT "fit --split" rows group none
need_enum SELECT "fit --select" top1 regret hit curve
ranks=(freq greedy prefix joint head-12 head-q0)
b0=$bad bad=0
need_enum LEAF_RANK "fit --leaf-rank" "${ranks[@]}"
# SELECT_RANK's default is LEAF_RANK (or greedy): a bad LEAF_RANK is said once
if [ $bad = 0 ] || [ "${v[SELECT_RANK]-}" != "${v[LEAF_RANK]-}" ]; then
	need_enum SELECT_RANK "fit --select-rank" "${ranks[@]}"
fi
bad=$((b0 | bad))
need_int LEAF_PAD 0 100000 "fit --leaf-pad"
need_enum LEAF_FILL "fit --leaf-fill" none all
if has FOLDS; then
	if ! int_in "${v[FOLDS]}" 0 100 || [ "${v[FOLDS]}" = 1 ]; then
		err "FOLDS='${v[FOLDS]}': expected 0 (off) or an integer in [2, 100] (fit --folds)"
	fi
fi
# fit --topk-eps: 0 (off) or a number in (0, 0.5]
if has TOPK_EPS && ! { number "${v[TOPK_EPS]}" &&
	awk -v e="${v[TOPK_EPS]}" 'BEGIN { exit !(e >= 0 && e <= 0.5) }'; }; then
	err "TOPK_EPS='${v[TOPK_EPS]}': expected 0 (off) or a number in (0, 0.5], e.g. 0.005 (fit --topk-eps: each leaf's k has out-of-fold regret <= 1 + TOPK_EPS)"
fi
# " (PROFILE=reference's)" when the profile, not the user, set LEAF_RANK
# (LEAF_RANK_ORIGIN: make's $(origin LEAF_RANK))
by_profile() {
	[ "${v[PROFILE]:-}" = reference ] && [[ ${v[LEAF_RANK_ORIGIN]:-} != @(command line|environment) ]] &&
		printf ' (PROFILE=reference sets it)'
}
# fit's checks across options (stages/fit.c check_options)
if has FOLDS && has SPLIT && int_in "${v[FOLDS]}" 2 100 && [[ ${v[SPLIT]} == @(rows|none) ]]; then
	err "FOLDS=${v[FOLDS]} needs SPLIT=group (folds are sets of whole inputs), not SPLIT=${v[SPLIT]}"
fi
if has LEAF_PAD && has LEAF_RANK && int_in "${v[LEAF_PAD]}" 1 100000 && [ "${v[LEAF_RANK]}" = freq ]; then
	err "LEAF_PAD=${v[LEAF_PAD]} needs a LEAF_RANK other than freq (the reference's lists are not padded), not LEAF_RANK=${v[LEAF_RANK]}$(by_profile)"
fi
if has LEAF_FILL && has LEAF_RANK && [ "${v[LEAF_FILL]}" = all ] && [ "${v[LEAF_RANK]}" = freq ]; then
	err "LEAF_FILL=all needs a LEAF_RANK other than freq (the reference's lists are not filled), not LEAF_RANK=freq$(by_profile)"
fi
if has SELECT_RANK && has LEAF_RANK && { [ "${v[SELECT_RANK]}" = freq ] || [ "${v[LEAF_RANK]}" = freq ]; } &&
	[ "${v[SELECT_RANK]}" != "${v[LEAF_RANK]}" ]; then
	err "SELECT_RANK=${v[SELECT_RANK]} with LEAF_RANK=${v[LEAF_RANK]}: freq goes only with freq (fit --select-rank)"
fi
if goal compare && has HOLDOUT && { ! number "${v[HOLDOUT]}" ||
	! awk -v x="${v[HOLDOUT]}" 'BEGIN { exit !(x > 0 && x <= 0.5) }'; }; then
	err "HOLDOUT='${v[HOLDOUT]}': expected a number in (0, 0.5] (fit --test-fraction, make compare)"
fi
# the one name rule (stages/formats/emittable.c emittable_name_problem; its
# list of reserved names read from there; the Makefile restates it in pure make)
if has HEURISTIC_NAME; then
	hn=${v[HEURISTIC_NAME]}
	reserved=$(awk '/BEGIN reserved names/ { f = 1; next } /END reserved names/ { f = 0 } f' \
		"$(dirname "$0")/../formats/emittable.c" | grep -o '"[^"]*"' | tr -d '"')
	if ! [[ $hn =~ ^[A-Za-z_][A-Za-z0-9_]{0,63}$ ]] || [[ $hn == m4_* || $hn == MMR_* ]] ||
		grep -qxF -- "$hn" <<<"$reserved"; then
		err "HEURISTIC_NAME='$hn': expected an identifier of 1 to 64 characters ([A-Za-z_][A-Za-z0-9_]*: the class name, emit --heuristic-name) that is no Python keyword, no m4 builtin (m4_...) and no template macro (MMR_...) (stages/FORMATS.md \"names\")"
	fi
fi
need_enum CROSS_DEVICE "make eval: 1 evaluates a LOG of another device on purpose" 0 1
need_enum V "1 shows full commands" 0 1

# ---- collection (sample, bench) ----------------------------------------------
need_int SAMPLES 1 $I64 "sample --samples"
need_int REPS 1 1000 "bench --reps"
# NEAR_BEST_RATIO (stages/formats/rules.h) and 1 / it, for the factors below
nb=$(awk '$1 == "#define" && $2 == "NEAR_BEST_RATIO" { print $3 }' "$(dirname "$0")/../formats/rules.h")
inb=$(awk -v r="$nb" 'BEGIN { printf "%.8g", 1 / r }')
# cut_factor VALUE: 0 (off) or in (1/NEAR_BEST_RATIO, 100] (a choice >= it x
# the best is then never near-best)
cut_factor() { number "$1" && awk -v f="$1" -v r="$nb" 'BEGIN { exit !(f == 0 || (f > 1 / r && f <= 100)) }'; }
is_zero() { awk -v f="$1" 'BEGIN { exit !(f == 0) }'; }
# 0 or >= 1/NEAR_BEST_RATIO ("fast reject"; bench checks the same)
if has FAST_REJECT; then
	if ! number "${v[FAST_REJECT]}" ||
		! awk -v f="${v[FAST_REJECT]}" -v r="$nb" 'BEGIN { exit !(f == 0 || f >= 1 / r) }'; then
		err "FAST_REJECT='${v[FAST_REJECT]}': expected 0 (off) or a factor >= 1/$nb = $inb (a smaller one would cut a near-best choice to one repetition: stages/formats/rules.h) (bench --fast-reject)"
	fi
fi
# bench --loser-ratio checks the same
if has LOSER_RATIO && ! cut_factor "${v[LOSER_RATIO]}"; then
	err "LOSER_RATIO='${v[LOSER_RATIO]}': expected 0 (off) or a factor > 1/$nb = $inb and <= 100 (a smaller one could cut a near-best choice to one launch: stages/formats/rules.h) (bench --loser-ratio)"
fi
# bench --verify-cut; when on, bench also requires LOSER_RATIO in (0, it],
# WARM_FROM_VERIFY=1 and LONG_MS > 0: checked here too (an unset
# LOSER_RATIO, WARM_FROM_VERIFY is off; LONG_MS only when given), so a bad
# mix stops before anything is written
if has VERIFY_CUT; then
	vc=${v[VERIFY_CUT]} lr=${v[LOSER_RATIO]:-0}
	if ! cut_factor "$vc"; then
		err "VERIFY_CUT='$vc': expected 0 (off) or a factor > 1/$nb = $inb and <= 100, >= LOSER_RATIO (bench --verify-cut)"
	elif is_zero "$vc"; then
		:
	elif ! number "$lr" || ! awk -v f="$vc" -v l="$lr" 'BEGIN { exit !(l > 0 && f >= l) }'; then
		err "VERIFY_CUT='$vc': expected 0 (off) or a factor >= LOSER_RATIO='$lr' > 0 (the cut is the loser cut decided without its probe) (bench --verify-cut)"
	elif [ "${v[WARM_FROM_VERIFY]:-0}" != 1 ]; then
		err "VERIFY_CUT='$vc': needs WARM_FROM_VERIFY=1 (it decides on the verification call taken as the warm-up) (bench --verify-cut)"
	elif has LONG_MS && number "${v[LONG_MS]}" && is_zero "${v[LONG_MS]}"; then
		err "VERIFY_CUT='$vc': needs LONG_MS > 0 (its floor: a cut call is >= LONG_MS ms), got LONG_MS='${v[LONG_MS]}' (bench --verify-cut)"
	fi
fi
need_int VERIFY_CUT_AUDIT 0 1000000 "bench --verify-cut-audit"
# 0 or 1 (bench --warm-from-verify: off or on)
if has WARM_FROM_VERIFY && ! [[ ${v[WARM_FROM_VERIFY]} =~ ^[01]$ ]]; then
	err "WARM_FROM_VERIFY='${v[WARM_FROM_VERIFY]}': expected 0 (off) or 1 (on) (bench --warm-from-verify)"
fi
if has GPUS; then
	if ! [[ ${v[GPUS]} =~ ^[0-9]+(,[0-9]+)*$ ]]; then
		err "GPUS='${v[GPUS]}': expected device ordinals, comma-separated without spaces (e.g. 0,1)"
	else
		seen=,
		for d in ${v[GPUS]//,/ }; do
			if ! int_in "$d" 0 1023; then
				err "GPUS='${v[GPUS]}': device $d: expected an ordinal in [0, 1023] (bench --device)"; break
			elif [[ $seen == *,$((10#$d)),* ]]; then
				err "GPUS='${v[GPUS]}': device $d listed twice (one shard per GPU)"; break
			fi
			seen+=$((10#$d)),
		done
	fi
fi
need_int ONLINE_SEED 0 $I64 "make evaluate-online: sample --seed"
need_int GPU_MEM_BYTES 1 $I64 "sample --gpu-mem-bytes"
has SAMPLE_MAX_GFLOP && [ -n "${v[SAMPLE_MAX_GFLOP]}" ] && need_int SAMPLE_MAX_GFLOP 1 $I64 "sample --max-gflop; empty: off"
if has COLLECT_TIME_LIMIT && [ -n "${v[COLLECT_TIME_LIMIT]}" ] &&
	! { number "${v[COLLECT_TIME_LIMIT]}" && [[ ${v[COLLECT_TIME_LIMIT]} == *[1-9]* ]]; }; then
	err "COLLECT_TIME_LIMIT='${v[COLLECT_TIME_LIMIT]}': expected seconds > 0 (bench --time-limit; empty: none)"
fi
need_int FUZZ_SECONDS 1 $I64 "make fuzz: seconds per harness"
if goal collect && has CUBLASLT && [ -n "${v[CUBLASLT]}" ] && [ ! -f "${v[CUBLASLT]}" ]; then
	err "CUBLASLT='${v[CUBLASLT]}': no such file (a cuBLASLt algorithm list, e.g. kernels/cublaslt_algos.tsv)"
fi

# ---- toolchain, folders ------------------------------------------------------
if has CC && ! command -v "${v[CC]%% *}" >/dev/null; then
	err "CC='${v[CC]}': no such command (a C11 compiler, e.g. cc, gcc, clang)"
fi
if has BUILD && ! [[ ${v[BUILD]} =~ ^[^[:space:]:]+$ ]]; then
	err "BUILD='${v[BUILD]}': a folder name without spaces or ':' expected (build or build/san)"
fi

# ---- files a goal reads --------------------------------------------------------
if goal eval && has LOG && [ -n "${v[LOG]}" ] && [ ! -f "${v[LOG]}" ]; then
	err "LOG='${v[LOG]}': no such file (an AutoHeuristic mm log to evaluate on)"
fi
# (REFERENCE_DIR and EVAL_TREE reach here only when given: their defaults
# are ../shared/reference, which may be absent, and a tree make builds)
if goal compare && has REFERENCE_DIR && [ ! -d "${v[REFERENCE_DIR]}" ]; then
	err "REFERENCE_DIR='${v[REFERENCE_DIR]}': no such folder (torch's autoheuristic artifacts folder, holding the shipped _MMRanking<GPU>.py)"
fi
if goal eval && has EVAL_TREE && [ ! -f "${v[EVAL_TREE]}" ]; then
	err "EVAL_TREE='${v[EVAL_TREE]}': no such file (a tree TSV: out/<gpu>/pruned.tsv, tree.tsv, or import's output)"
fi
if goal compare && has HELDOUT; then
	for h in ${v[HELDOUT]}; do
		[ -f "$h" ] || err "HELDOUT: '$h': no such file (AutoHeuristic mm logs held out of training)"
	done
fi

# ---- GPU: a data set for the training goals ---------------------------------------
# Known: the official datasets (datasets/MANIFEST.tsv), the committed
# collections (datasets/MANIFEST.<gpu>.tsv) and collections made here
# (OUT/<gpu>/merged.txt).
known_gpus() {
	local here=${0%/*} f
	awk -F'\t' 'NR > 1 { print $2 }' "$here/../../datasets/MANIFEST.tsv"
	for f in "$here"/../../datasets/MANIFEST.*.tsv; do
		[ -f "$f" ] || continue
		f=${f##*/MANIFEST.}; echo "${f%.tsv}"
	done
	for f in "${v[OUT]:-out}"/*/merged.txt; do
		[ -f "$f" ] || continue
		f=${f%/merged.txt}; echo "${f##*/}"
	done
}
data_goal=0
for g in heuristic featurize fit prune emit eval report compare promote fetch unpack \
	evaluate-online install-artifact; do goal "$g" && data_goal=1; done
# an official GPU (read with builtins: this runs on every make heuristic)
official() {
	local f g
	{ read -r _; while IFS=$'\t' read -r f g _; do [ "$g" = "$1" ] && return 0; done; } \
		<"${0%/*}/../../datasets/MANIFEST.tsv"
	return 1
}
if has GPU && [ $data_goal = 1 ] && ! goal collect &&
	[ ! -f "${0%/*}/../../datasets/MANIFEST.${v[GPU]}.tsv" ] &&
	[ ! -f "${v[OUT]:-out}/${v[GPU]}/merged.txt" ] && ! official "${v[GPU]}"; then
	mapfile -t known < <(known_gpus | sort -u)
	if :; then
		hint=
		lc=${v[GPU],,}
		for k in "${known[@]}"; do [ "$k" = "$lc" ] && hint=" (did you mean $lc? GPU names are lower case)"; done
		err "no data for GPU '${v[GPU]}'$hint: known GPUs: ${known[*]} (official: datasets/MANIFEST.tsv; committed: datasets/MANIFEST.<gpu>.tsv; collected: ${v[OUT]:-out}/<gpu>/merged.txt); to collect one: make collect GPU=${v[GPU]} GPUS=0 SAMPLES=N"
	fi
fi

# the mirror, where an official dataset is fetched (a typo would silently
# download instead)
if [ $data_goal = 1 ] && has GPU && official "${v[GPU]}" && has DATASET_MIRROR &&
	[ -n "${v[DATASET_MIRROR]}" ] && [ ! -d "${v[DATASET_MIRROR]}" ]; then
	err "DATASET_MIRROR='${v[DATASET_MIRROR]}': no such folder (empty: download from the manifest's URL)"
fi

[ $bad = 0 ] || echo bad
exit 0
