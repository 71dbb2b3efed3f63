#!/usr/bin/env bash
# vars.sh — check the make variables a user sets, before any stage runs.
#
# usage: stages/sh/vars.sh [--goals "GOALS"] [--given "NAMES"] NAME=VALUE...
# The Makefile runs it once, at parse time, with every variable of the
# registry mk/variables.tsv: a bad value is refused before a rule runs, so it
# never rewrites a parameter stamp or makes Make delete the previous good
# outputs (nothing in out/ changes).  mk/vars.mk has already checked, in
# pure make, the characters of every value given on the command line or in
# the environment; this checks the values.
# Prints one line per bad setting on stderr ("make: SELECT='foo': expected
# top1, regret, hit or curve (fit --select)") and the word "bad" on stdout;
# prints nothing when all are fine.
#  - Each value against its row of the registry: its kind (int, number, enum,
#    ...) and range; an empty value only where the default is empty; a flags
#    value whose range is @SOURCE against the option table of SOURCE (the
#    stage's own, so FIT_EXTRA=--bogus stops make before fit runs).
#  - Then the rules across variables and the ranges the registry leaves to a
#    rule ("rule"): the folds, leaf lists and freq; FAST_REJECT, LOSER_RATIO
#    and VERIFY_CUT with the near-best margin of stages/formats/rules.h; GPUS;
#    the heuristic name; CC.
#  - GOALS (MAKECMDGOALS) decide the checks that concern some targets only: a
#    GPU with data (training goals), LOG (eval), HELDOUT, REFERENCE_DIR
#    (compare), CUBLASLT (collect), DATASET_MIRROR (fetching an official
#    dataset).  NAMES (those given on the command line or in the environment;
#    default: every NAME) decide the checks of a file a default may lack
#    (REFERENCE_DIR, EVAL_TREE) and whose the profile's LEAF_RANK is.
# Called with NAME=VALUE alone (the tests), it checks those.
set -u
shopt -s extglob
here=${0%/*}; [ "$here" != "$0" ] || here=.
root=$here/../..
goals= given=
while [ $# -gt 0 ]; do
	case $1 in
	--goals) goals=$2; shift 2 ;;
	--given) given=" $2 "; shift 2 ;;
	*) break ;;
	esac
done
declare -A v kind range dflt flag help
for a in "$@"; do v[${a%%=*}]=${a#*=}; done
[ -n "$given" ] || given=" ${!v[*]} "
order=()
# (cells split at \037: read would merge the empty cells of a tab-split line)
while IFS=$'\037' read -r n k r d f _ h; do
	[[ $n == @(|\#*|name) ]] && continue
	kind[$n]=$k range[$n]=$r dflt[$n]=$d flag[$n]=$f help[$n]=$h
	order+=("$n")
done < <(tr '\t' '\037' <"$root/mk/variables.tsv")
bad=0
err() { echo "make: $*" >&2; bad=1; }
has() { [ -n "${v[$1]+x}" ]; }
given() { [[ $given == *" $1 "* ]]; }
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
number() { [[ $1 =~ ^[0-9]+(\.[0-9]+)?$ || $1 =~ ^[0-9]*\.[0-9]+$ ]]; }
# "a, b or c" (each argument one item)
or_list() {
	local out=$1 i
	for ((i = 2; i <= $#; i++)); do [ $i -lt $# ] && out+=", ${!i}" || out+=" or ${!i}"; done
	printf '%s' "$out"
}
I64=9223372036854775807
# a range's alternatives: LO..HI (HI empty: none), an interval (0,0.5], [1,inf)
re_int='^([0-9]+)\.\.([0-9]*)$'
re_iv='^([[(])([^,]*),([^])]*)([])])$'
# The numeric comparisons are decided together by one awk, after every test
# is known: ntest ID EXPR (an awk expression over numbers the caller has
# checked with number(), or the registry's bounds), then nrun; ntrue ID.
declare -A numexpr=() numres=()
ntest() { numexpr[$1]=$2; }
nrun() { # (and numres[inb] = 1 / NB, NB the near-best ratio, to 8 digits)
	local prog="BEGIN { printf \"inb %.8g\\n\", 1 / $1;" id r
	for id in "${!numexpr[@]}"; do prog+=" print \"$id\", ((${numexpr[$id]}) ? 1 : 0);"; done
	while read -r id r; do numres[$id]=$r; done < <(awk "$prog }")
}
ntrue() { [ "${numres[$1]:-0}" = 1 ]; }

# ---- each value against its row ---------------------------------------------------
# alts NAME: the range's alternatives, less "empty" (which allows an empty value)
alts() {
	local IFS='|' a
	alts=()
	for a in ${range[$1]}; do [ "$a" = empty ] || alts+=("$a"); done
}
# describe NAME: what the range allows ("0 (off) or an integer in [2, 100]")
describe() {
	local n=$1 alt out=() lo hi alts
	alts "$n"
	case ${kind[$n]} in
	enum | path | word | words)
		for alt in "${alts[@]}"; do [ "$alt" = FILE ] && out+=("an existing file") || out+=("$alt"); done
		[ "${kind[$n]}" = words ] && printf 'words among ' ;;
	*)
		for alt in "${alts[@]}"; do
			if [[ $alt =~ $re_int ]]; then
				lo=${BASH_REMATCH[1]} hi=${BASH_REMATCH[2]}
				[ -n "$hi" ] && out+=("an integer in [$lo, $hi]") || out+=("an integer >= $lo")
			elif [[ $alt =~ $re_iv ]]; then
				if [ "${BASH_REMATCH[3]}" = inf ]; then
					[ "${BASH_REMATCH[1]}" = '[' ] && out+=("a number >= ${BASH_REMATCH[2]}") ||
						out+=("a number > ${BASH_REMATCH[2]}")
				else out+=("a number in ${BASH_REMATCH[1]}${BASH_REMATCH[2]}, ${BASH_REMATCH[3]}${BASH_REMATCH[4]}"); fi
			elif [ "$alt" = 0 ]; then out+=("0 (off)")
			else out+=("$alt"); fi
		done ;;
	esac
	or_list "${out[@]}"
}
# what the value feeds, for the message: "fit --select", else its help
feeds() {
	local f=${flag[$1]%% !*}
	if [ -n "$f" ]; then printf '%s' "${f//,/, }"; else printf '%s' "${help[$1]}"; fi
}
# num_expr NAME VALUE: nexpr = the awk expression "VALUE is one of NAME's
# alternatives" (in a variable: no subshell per row)
num_expr() {
	local n=$1 x=$2 alt alts e=
	alts "$n"
	for alt in "${alts[@]}"; do
		if [[ $alt =~ $re_iv ]]; then
			local lo=">" hi="<"
			[ "${BASH_REMATCH[1]}" = "(" ] || lo=">="
			[ "${BASH_REMATCH[4]}" = ")" ] || hi="<="
			e+="${e:+ || }(($x) $lo (${BASH_REMATCH[2]})"
			[ "${BASH_REMATCH[3]}" = inf ] || e+=" && ($x) $hi (${BASH_REMATCH[3]})"
			e+=")"
		else e+="${e:+ || }($x) == ($alt)"; fi
	done
	nexpr=${e:-1}
}
# in_range NAME VALUE: 0 if VALUE is one of the range's alternatives (not for
# numbers: num_expr)
in_range() {
	local n=$1 x=$2 alt alts
	alts "$n"
	[ ${#alts[@]} -gt 0 ] || return 0
	for alt in "${alts[@]}"; do
		case ${kind[$n]} in
		int)
			if [[ $alt =~ $re_int ]]; then
				int_in "$x" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]:-$I64}" && return 0
			elif [ "$x" = "$alt" ]; then return 0; fi ;;
		*)
			{ [ "$x" = "$alt" ] || { [ "$alt" = FILE ] && [ -f "$x" ]; }; } && return 0 ;;
		esac
	done
	return 1
}
# options NAME VALUE: VALUE's words are options of the table in ${range[NAME]#@}
# (OPT_... rows: a flag takes no value, a list its count, any other one), each
# numeric one with a number
options() {
	local n=$1 src=$root/${range[$1]#@} line o t w i=0 need
	declare -A arity=() type=()
	while IFS= read -r line; do
		if [[ $line =~ OPT_([A-Z0-9]+)\(\"(-[-a-z0-9]*)\" ]]; then
			o=${BASH_REMATCH[2]} t=${BASH_REMATCH[1]}
			case $t in FLAG) arity[$o]=0 ;; LIST) [[ $line =~ \"[^\"]*\",\ *([0-9]+) ]] && arity[$o]=${BASH_REMATCH[1]} ;; *) arity[$o]=1 ;; esac
			type[$o]=$t
		elif [[ $line =~ OPT_OUT\( ]]; then arity[-o]=1 type[-o]=OUT; fi
	done <"$src"
	# shellcheck disable=SC2206
	local words=($2)
	while [ $i -lt ${#words[@]} ]; do
		w=${words[i]}
		if [ -z "${arity[$w]+x}" ]; then
			[[ $w == -* ]] && err "$n: unknown option '$w' (${src#"$root"/}'s option table)" ||
				err "$n: '$w' is no option (${src#"$root"/}'s option table)"
			return
		fi
		need=${arity[$w]}
		if [ $((i + need)) -ge ${#words[@]} ] && [ "$need" -gt 0 ]; then
			err "$n: option '$w' needs $need value$([ "$need" = 1 ] || echo s)"; return
		fi
		if [[ ${type[$w]} == @(INT|I64|DOUBLE) ]] && ! [[ ${words[i + 1]} =~ ^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]; then
			err "$n: option '$w' expects a number, got '${words[i + 1]}'"; return
		fi
		i=$((i + 1 + need))
	done
}
check_row() {
	local n=$1 x=${v[$1]}
	if [ -z "$x" ]; then
		[ -n "${dflt[$n]}" ] && [[ "|${range[$n]}|" != *"|empty|"* ]] && err "$n is empty: expected $(r=$(describe "$n"); printf '%s' "${r:+$r }")(${help[$n]})"
		return
	fi
	case ${range[$n]} in
	'' | rule) ;;
	@*) options "$n" "$x" ;;
	*)
		if [ "${kind[$n]}" = number ]; then
			# (decided with the other numeric tests: the messages below)
			if number "$x"; then num_expr "$n" "$x"; ntest "row:$n" "$nexpr"
			else err "$n='$x': expected $(describe "$n") ($(feeds "$n"))"; fi
		elif [ "${kind[$n]}" = words ]; then
			local w
			for w in $x; do in_range "$n" "$w" || { err "$n='$x': '$w': expected $(describe "$n") ($(feeds "$n"))"; return; }; done
		elif ! in_range "$n" "$x"; then
			err "$n='$x': expected $(describe "$n") ($(feeds "$n"))"
		fi ;;
	esac
}
# The given ones first: a default that is a refused value of one of them
# (SELECT_RANK's LEAF_RANK, LEAF_PAD's RANKING, SLURM_JOBS' SHARDS) is not
# said again under its own name.
declare -A refused=()
for n in "${order[@]}"; do
	has "$n" && given "$n" || continue
	was=$bad bad=0
	check_row "$n"
	[ "$bad" = 0 ] || refused[v:${v[$n]}]=1
	bad=$((was | bad))
done
for n in "${order[@]}"; do
	has "$n" && ! given "$n" || continue
	[ -n "${refused[v:${v[$n]}]+x}" ] && continue
	check_row "$n"
done

# ---- learning (fit): the rules across options (stages/fit.c check_options) ------
# " (PROFILE=reference's)" when the profile, not the user, set LEAF_RANK
by_profile() {
	[ "${v[PROFILE]:-}" = reference ] && ! given LEAF_RANK && printf ' (PROFILE=reference sets it)'
}
if has FOLDS && has SPLIT && int_in "${v[FOLDS]}" 2 100 && [[ ${v[SPLIT]} == @(rows|none) ]]; then
	err "FOLDS=${v[FOLDS]} needs SPLIT=group (folds are sets of whole inputs), not SPLIT=${v[SPLIT]}"
fi
if has TOPK_EPS && has FOLDS && number "${v[TOPK_EPS]}" && [[ ${v[TOPK_EPS]} == *[1-9]* ]] &&
	[[ ${v[FOLDS]} =~ ^0*$ ]]; then
	err "TOPK_EPS=${v[TOPK_EPS]} needs FOLDS >= 2 (each node's k is sized out of fold), not FOLDS=${v[FOLDS]}"
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
# the one name rule (stages/formats/emittable.c emittable_name_problem; its
# list of reserved names read from there)
if has HEURISTIC_NAME; then
	hn=${v[HEURISTIC_NAME]}
	reserved=' ' f=0
	while IFS= read -r line; do
		case $line in *'BEGIN reserved names'*) f=1; continue ;; *'END reserved names'*) f=0 ;; esac
		[ $f = 1 ] || continue
		while [[ $line =~ \"([^\"]*)\"(.*) ]]; do reserved+="${BASH_REMATCH[1]} " line=${BASH_REMATCH[2]}; done
	done <"$here/../formats/emittable.c"
	if ! [[ $hn =~ ^[A-Za-z_][A-Za-z0-9_]{0,63}$ ]] || [[ $hn == m4_* || $hn == MMR_* ]] ||
		[[ $reserved == *" $hn "* ]]; then
		err "HEURISTIC_NAME='$hn': expected an identifier of 1 to 64 characters ([A-Za-z_][A-Za-z0-9_]*: the class name, emit --heuristic-name) that is no Python keyword, no m4 builtin (m4_...) and no template macro (MMR_...) (stages/FORMATS.md \"names\")"
	fi
fi

# ---- collection (sample, bench): the factors of the near-best margin -------------
# NEAR_BEST_RATIO (stages/formats/rules.h); 1 / it is computed with the tests
nb=
while read -r d name val _; do
	[ "$d $name" = "#define NEAR_BEST_RATIO" ] && nb=$val && break
done <"$here/../formats/rules.h"
[[ $nb =~ ^[0-9]*\.?[0-9]+$ ]] || { echo "vars.sh: no NEAR_BEST_RATIO in stages/formats/rules.h" >&2; echo bad; exit 0; }
# cut: 0 (off) or in (1/NEAR_BEST_RATIO, 100] (a choice >= it x the best is
# then never near-best); fast reject: 0 or >= 1/NEAR_BEST_RATIO (bench checks
# the same)
number "${v[FAST_REJECT]-x}" && ntest fr "(${v[FAST_REJECT]}) == 0 || (${v[FAST_REJECT]}) >= 1 / $nb"
number "${v[LOSER_RATIO]-x}" && ntest lr "(${v[LOSER_RATIO]}) == 0 || ((${v[LOSER_RATIO]}) > 1 / $nb && (${v[LOSER_RATIO]}) <= 100)"
vc=${v[VERIFY_CUT]-x} lr=${v[LOSER_RATIO]:-0}
if number "$vc"; then
	ntest vc "($vc) == 0 || (($vc) > 1 / $nb && ($vc) <= 100)"
	ntest vc0 "($vc) == 0"
	number "$lr" && ntest vclr "($lr) > 0 && ($vc) >= ($lr)"
fi
number "${v[LONG_MS]-x}" && ntest long0 "(${v[LONG_MS]}) == 0"
nrun "$nb"
inb=${numres[inb]-}
# the generic rows' numbers (check_row)
for n in "${order[@]}"; do
	[ -n "${numexpr[row:$n]+x}" ] && ! ntrue "row:$n" && err "$n='${v[$n]}': expected $(describe "$n") ($(feeds "$n"))"
done
if has FAST_REJECT && ! ntrue fr; then
	err "FAST_REJECT='${v[FAST_REJECT]}': expected 0 (off) or a factor >= 1/$nb = $inb (a smaller one would cut a near-best choice to one repetition: stages/formats/rules.h) (bench --fast-reject)"
fi
# bench --loser-ratio checks the same
if has LOSER_RATIO && ! ntrue lr; then
	err "LOSER_RATIO='${v[LOSER_RATIO]}': expected 0 (off) or a factor > 1/$nb = $inb and <= 100 (a smaller one could cut a near-best choice to one launch: stages/formats/rules.h) (bench --loser-ratio)"
fi
# bench --verify-cut; when on, bench also requires LOSER_RATIO in (0, it],
# WARM_FROM_VERIFY=1 and LONG_MS > 0: checked here too (an unset
# LOSER_RATIO, WARM_FROM_VERIFY is off; LONG_MS only when given), so a bad
# mix stops before anything is written
if has VERIFY_CUT; then
	if ! ntrue vc; then
		err "VERIFY_CUT='$vc': expected 0 (off) or a factor > 1/$nb = $inb and <= 100, >= LOSER_RATIO (bench --verify-cut)"
	elif ntrue vc0; then
		:
	elif ! ntrue vclr; then
		err "VERIFY_CUT='$vc': expected 0 (off) or a factor >= LOSER_RATIO='$lr' > 0 (the cut is the loser cut decided without its probe) (bench --verify-cut)"
	elif [ "${v[WARM_FROM_VERIFY]:-0}" != 1 ]; then
		err "VERIFY_CUT='$vc': needs WARM_FROM_VERIFY=1 (it decides on the verification call taken as the warm-up) (bench --verify-cut)"
	elif has LONG_MS && ntrue long0; then
		err "VERIFY_CUT='$vc': needs LONG_MS > 0 (its floor: a cut call is >= LONG_MS ms), got LONG_MS='${v[LONG_MS]}' (bench --verify-cut)"
	fi
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

# ---- toolchain ------------------------------------------------------------------
if has CC && ! command -v "${v[CC]%% *}" >/dev/null; then
	err "CC='${v[CC]}': no such command (a C11 compiler, e.g. cc, gcc, clang)"
fi

# ---- files a goal reads ----------------------------------------------------------
if has SHAPES && [ -n "${v[SHAPES]}" ] && [ ! -f "${v[SHAPES]}" ]; then
	err "SHAPES=${v[SHAPES]}: no such file (a shape list, stages/FORMATS.md \"shape list\")"
fi
if goal collect && has CUBLASLT && [ -n "${v[CUBLASLT]}" ] && [ ! -f "${v[CUBLASLT]}" ]; then
	err "CUBLASLT='${v[CUBLASLT]}': no such file (a cuBLASLt algorithm list, e.g. kernels/cublaslt_algos.tsv)"
fi
if goal eval && has LOG && [ -n "${v[LOG]}" ] && [ ! -f "${v[LOG]}" ]; then
	err "LOG='${v[LOG]}': no such file (an AutoHeuristic mm log to evaluate on)"
fi
# (REFERENCE_DIR and EVAL_TREE only when given: their defaults are
# ../shared/reference, which may be absent, and a tree make builds)
if goal compare && has REFERENCE_DIR && given REFERENCE_DIR && [ ! -d "${v[REFERENCE_DIR]}" ]; then
	err "REFERENCE_DIR='${v[REFERENCE_DIR]}': no such folder (torch's autoheuristic artifacts folder, holding the shipped _MMRanking<GPU>.py)"
fi
if goal eval && has EVAL_TREE && given EVAL_TREE && [ ! -f "${v[EVAL_TREE]}" ]; then
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
	local f
	awk -F'\t' 'NR > 1 { print $2 }' "$root/datasets/MANIFEST.tsv"
	for f in "$root"/datasets/MANIFEST.*.tsv; do
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
		<"$root/datasets/MANIFEST.tsv"
	return 1
}
if has GPU && [ -n "${v[GPU]}" ] && [ $data_goal = 1 ] && ! goal collect &&
	[ ! -f "$root/datasets/MANIFEST.${v[GPU]}.tsv" ] &&
	[ ! -f "${v[OUT]:-out}/${v[GPU]}/merged.txt" ] && ! official "${v[GPU]}"; then
	mapfile -t known < <(known_gpus | sort -u)
	hint=
	lc=${v[GPU],,}
	# (a known GPU in another case: that one, not a collection of this name)
	todo="to collect one: make collect GPU=${v[GPU]} GPUS=0 SAMPLES=N"
	for k in "${known[@]}"; do
		[ "$k" = "$lc" ] && hint=" (did you mean $lc? GPU names are lower case)" todo="give GPU=$lc instead"
	done
	err "no data for GPU '${v[GPU]}'$hint: known GPUs: ${known[*]} (official: datasets/MANIFEST.tsv; committed: datasets/MANIFEST.<gpu>.tsv; collected: ${v[OUT]:-out}/<gpu>/merged.txt); $todo"
fi

# the mirror, where an official dataset is fetched (a typo would silently
# download instead)
if [ $data_goal = 1 ] && has GPU && official "${v[GPU]}" && has DATASET_MIRROR &&
	[ -n "${v[DATASET_MIRROR]}" ] && [ ! -d "${v[DATASET_MIRROR]}" ]; then
	err "DATASET_MIRROR='${v[DATASET_MIRROR]}': no such folder (empty: download from the manifest's URL)"
fi

[ $bad = 0 ] || echo bad
exit 0
