#!/usr/bin/env bash
# perf/pipeline/run.sh — the training-time table: `make heuristic` (PROFILE=reference
# and the default) per GPU against PyTorch's trainer, and where the time goes
# (featurize per set and as make runs it, fit, prune, emit) against the
# inflate floors.  Not a test: it prints the table (markdown).
#
# usage: perf/pipeline/run.sh [-n REPS] [GPU...]    (default: 3, a100 h100)
# Every figure is the median of REPS runs, interleaved: each repetition runs
# every command once, in a fixed order, so a load change on the machine hits
# all of them alike.  Wall time and max RSS from GNU time (/usr/bin/time,
# Debian package time).  `make heuristic` runs from an empty OUT (the zip
# fetched from DATASET_MIRROR and its sha256 checked, as a user's first run);
# the stage lines run the stage alone on that run's files, with the options
# `make` gives them (`make fit-args`), THREADS as make's (default: the online
# CPUs; set THREADS=N to change it).
# Floors: `unzip -p` of the three logs into `wc -l`, and the
# same read in-process (perf/pipeline/zipcat.c): through libzip's own
# decoder (zlib), and as featurize --zip reads them (libzip + ISA-L).
# PyTorch's trainer: quoted (PT_S below) unless TORCHGEN_AH names a
# PyTorch checkout's torchgen/_autoheuristic folder (with python3, pandas and
# scikit-learn), then it is timed interleaved with ours, in a scratch copy
# (it writes its artifact to ../../../torch/_inductor/autoheuristic/artifacts).
set -euo pipefail
cd "$(dirname "$0")/../.."
reps=3
while getopts n: o; do
	case $o in
	n) reps=$OPTARG ;;
	*) sed -n '7p' "$0" | sed 's/^# //' >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
case $reps in ''|*[!0-9]*|0) echo "run.sh: -n $reps: expected a count >= 1" >&2; exit 2 ;; esac
gpus=("$@"); [ ${#gpus[@]} -gt 0 ] || gpus=(a100 h100)
[ -x /usr/bin/time ] || { echo "run.sh: /usr/bin/time missing (apt-get install time)" >&2; exit 1; }
TH=${THREADS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
make -s all >/dev/null
T=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-pipe.XXXXXX"); trap 'rm -rf "$T"' EXIT
cc -std=c11 -D_GNU_SOURCE -O2 -iquote stages -o "$T/zipcat" perf/pipeline/zipcat.c \
	stages/formats/zipmember.c stages/core/util.c -lzip -lisal
mkdir -p "$T/r"
load() { cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'; }
load0=$(load)

# Quoted reference figures: PyTorch's train_decision_mm.py on this
# 2-core machine kind, 2026-12-01, median of 3 (wall s, max RSS MB).
declare -A PT_S=([a100]=158.5 [h100]=59.2) PT_MB=([a100]=451 [h100]=272)

# measure KEY CMD... — run CMD under GNU time, append "wall maxrss_kb" to KEY
measure() {
	local key=$1; shift
	if ! /usr/bin/time -f '%e %M' -o "$T/tv" "$@" >"$T/out" 2>&1; then
		cat "$T/out" >&2; echo "run.sh: failed: $*" >&2; exit 1
	fi
	tail -1 "$T/tv" >>"$T/r/$key"
}
mk() { env -u MAKEFLAGS -u MAKELEVEL make -s --no-print-directory "$@"; }
members() { echo "$1/$1_mm.txt $1/$1_timm_train_mm.txt $1/$1_hf_train_mm.txt"; }

# the zips, once (make's rule: mirror or URL, sha256 checked)
for g in "${gpus[@]}"; do
	mk "$T/z/$g/${g}_mm.zip" GPU="$g" OUT="$T/z" >/dev/null
done
if [ -n "${TORCHGEN_AH:-}" ]; then
	[ -f "$TORCHGEN_AH/mm/train_decision_mm.py" ] ||
		{ echo "run.sh: TORCHGEN_AH=$TORCHGEN_AH has no mm/train_decision_mm.py" >&2; exit 1; }
	P=$T/pt/torchgen/_autoheuristic
	mkdir -p "$T/pt/torch/_inductor/autoheuristic/artifacts" "$P"
	cp -r "$TORCHGEN_AH"/. "$P/"
	for g in "${gpus[@]}"; do unzip -q -o "$T/z/$g/${g}_mm.zip" -d "$P/mm"; done
fi

for ((rep = 1; rep <= reps; rep++)); do
	for g in "${gpus[@]}"; do
		Z=$T/z/$g/${g}_mm.zip M=($(members "$g")) G=$(echo "$g" | tr a-z A-Z)
		for p in reference ours; do
			rm -rf "$T/o"
			measure "heur_${p}_$g" env -u MAKEFLAGS -u MAKELEVEL make -s heuristic GPU="$g" \
				PROFILE="$p" THREADS="$TH" OUT="$T/o"
		done
		O=$T/o/$g
		measure "floor_unzip_$g" bash -c "for m in ${M[*]}; do unzip -p '$Z' \$m; done | wc -l"
		measure "floor_zlib_$g" "$T/zipcat" --libzip "$Z" "${M[@]}"
		measure "floor_lib_$g" "$T/zipcat" "$Z" "${M[@]}"
		# featurize as make runs it: main, then train_timm and train_hf at once
		rm -rf "$T/f"; mkdir -p "$T/f/$g"; cp -p "$Z" "$T/f/$g/"
		measure "feat_stage_$g" env -u MAKEFLAGS -u MAKELEVEL make -s featurize GPU="$g" THREADS="$TH" OUT="$T/f"
		measure "feat_main_$g" build/bin/featurize --zip "$Z" -o "$T/m.tsv" "${M[0]}"
		measure "feat_train_timm_$g" build/bin/featurize --zip "$Z" --categories "$T/m.tsv" -o "$T/timm.tsv" "${M[1]}"
		measure "feat_train_hf_$g" build/bin/featurize --zip "$Z" --categories "$T/m.tsv" -o "$T/hf.tsv" "${M[2]}"
		for p in reference ours; do
			a=($(mk fit-args GPU="$g" PROFILE="$p"))
			measure "fit_${p}_$g" build/bin/fit "$O/main.feat.tsv" --data train_timm "$O/train_timm.feat.tsv" \
				--data train_hf "$O/train_hf.feat.tsv" "${a[@]}" --threads "$TH" -o "$T/tree.tsv" --metrics "$T/met.tsv"
		done
		measure "prune_$g" build/bin/prune --ranking 10 -o "$T/pr.tsv" "$O/tree.tsv"
		for f in py c h dot; do
			measure "emit_${f}_$g" build/bin/emit --heuristic-name X --format $f -o "$T/x.$f" "$T/pr.tsv"
		done
		if [ -n "${TORCHGEN_AH:-}" ]; then
			measure "torch_$g" bash -c "cd '$P/mm' && python3 train_decision_mm.py ${M[0]} \
				--heuristic-name MMRanking$G --ranking 10 --save-dot --data train_timm ${M[1]} --data train_hf ${M[2]}"
		fi
	done
done
load1=$(load)

# median wall (s) and median max RSS (MB) of KEY
med() { sort -n | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
wall() { cut -d' ' -f1 "$T/r/$1" | med; }
rss() { cut -d' ' -f2 "$T/r/$1" | med | awk '{printf "%.1f", $1 / 1024}'; }
cell() { printf '%.2f s / %s MB' "$(wall "$1")" "$(rss "$1")"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.0f", a / b}'; }
times() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
row() { # LABEL KEY-PREFIX [suffix function]
	local label=$1 key=$2 g line="| $1 |"
	for g in "${gpus[@]}"; do line+=" $(cell "${key}_$g")${3:+ $($3 "$g" "${key}_$g")} |"; done
	echo "$line"
}
vs_torch() { # GPU KEY: (N×) against PyTorch's trainer
	local ref=${PT_S[$1]:-}
	[ -f "$T/r/torch_$1" ] && ref=$(wall "torch_$1")
	[ -n "$ref" ] && echo "($(ratio "$ref" "$(wall "$2")")×)"
}
vs_floor() { # GPU KEY: against the two floors
	echo "($(times "$(wall "$2")" "$(wall "floor_unzip_$1")")× the unzip floor, $(times "$(wall "$2")" "$(wall "floor_lib_$1")")× the ISA-L floor)"
}
hdr="| |" sep="|---|"
for g in "${gpus[@]}"; do hdr+=" $(echo "$g" | tr a-z A-Z) wall / max RSS |"; sep+="---|"; done

echo "perf/pipeline/run.sh, $(date -u '+%Y-%m-%d %H:%M UTC'), $(getconf _NPROCESSORS_ONLN) CPUs," \
	"load average $load0 before, $load1 after; THREADS=$TH; median of $reps interleaved runs; commit $(git rev-parse --short HEAD)"
echo
echo "$hdr"; echo "$sep"
if [ -n "${TORCHGEN_AH:-}" ]; then
	row "PyTorch's trainer (train_decision_mm.py, measured here)" torch
else
	line="| PyTorch's trainer (quoted: 2026-12-01, this 2-core machine kind) |"
	for g in "${gpus[@]}"; do line+=" ${PT_S[$g]:-?} s / ${PT_MB[$g]:-?} MB |"; done
	echo "$line"
fi
row '`make heuristic PROFILE=reference`' heur_reference vs_torch
row '`make heuristic` (default: 56 models × 5-fold CV)' heur_ours vs_torch
echo
echo "Goals: PROFILE=reference <= 0.8 s A100, <= 0.3 s H100; default <= 3 s A100, <= 1.5 s H100;" \
	"featurize <= 1.5× the floor."
echo
echo "| stage | $(printf '%s | ' "${gpus[@]}" | tr a-z A-Z)"; echo "$sep"
row 'floor: `unzip -p` of the three logs into `wc -l`' floor_unzip
row 'floor: the three logs read in-process by libzip, zlib inflate (zipcat --libzip)' floor_zlib
row 'floor: the same, ISA-L inflate as featurize --zip (zipcat)' floor_lib
row 'featurize, 3 sets as make runs them (main, then train_timm ∥ train_hf)' feat_stage vs_floor
row '  featurize main' feat_main
row '  featurize train_timm' feat_train_timm
row '  featurize train_hf' feat_train_hf
row 'fit (reference: 1 model)' fit_reference
row "fit (default: 56 models × 5 folds + 56, $TH threads)" fit_ours
row 'prune' prune
for f in py c h dot; do row "emit $f" "emit_$f"; done
echo
echo "PyTorch's trainer side by side: TORCHGEN_AH=<pytorch checkout>/torchgen/_autoheuristic perf/pipeline/run.sh" \
	"(needs python3 with pandas and scikit-learn; runs, per GPU, in a scratch copy:" \
	"cd mm && python3 train_decision_mm.py a100/a100_mm.txt --heuristic-name MMRankingA100 --ranking 10 --save-dot" \
	"--data train_timm a100/a100_timm_train_mm.txt --data train_hf a100/a100_hf_train_mm.txt)"
