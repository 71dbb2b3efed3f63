#!/usr/bin/env bash
# check/t1200-gpus.sh — the GPU facts as data: datasets/GPUS.tsv, one row per
# GPU, read by make (mk/gpus.awk through mk/gpus.mk) and given to C as the
# generated gen/gpus.h (docs/DESIGN.md "GPU facts"):
#   1. each GPU with a row gets its row's defaults (CUBIN_ARCH, TRITON_ARCH,
#      GPU_MEM_BYTES = mem_mib MiB) and its profile (PROFILES' row its
#      profile column names); a GPU without a row the '*' row's (today's:
#      an H200's 143771 MiB and sm_90) and the profile of its own name, else
#      PROFILES' '*' row; a value on the command line wins; the committed
#      table gives h100own the H100 truth and the H200's rule;
#   2. a bad table is refused, naming FILE:LINE and the field, by the reader
#      and by make (nothing run): a bad number, arch, name or pattern, a
#      quote or a make or shell metacharacter, a duplicate row, a short row,
#      a wrong header, no '*' row;
#   3. adding a GPU is one row: a table with an l40s row gives l40s its
#      defaults, its C header has its row;
#   4. the C header: one X() per named row, the '*' row's defaults, and
#      what the C side shows from it (the device names of a log's device,
#      sample's and bench-fake's defaults);
#   5. (DATASET) gen/ is a pure function of the repository: make heuristic
#      GPU=a100, h100, h200 reproduces gen/'s artifacts byte for byte, each
#      carrying its row's GPU data; HEURISTIC_NAME=Foo carries it too; a GPU
#      without a row (a collection of one's own) emits no GPU data.
. check/lib.sh
T=$ROOT/datasets/GPUS.tsv
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out")

# $(1)'s value in make help-all for GPU=$2 (more settings after)
val() { local n=$1; shift; "${MK[@]}" -s help-all "$@" 2>&1 | sed -n "s/^  $n=\([^ ]*\) .*/\1/p"; }
# the row's column C for GPU G, from the table itself
col() { awk -F'\t' -v g="$2" -v c="$1" 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next } $1 == g { print $h[c] }' "$T"; }

# ---- 1. the defaults of each row, and of a GPU without one --------------------
for g in a100 h100 h200 h200nvrtc; do
	arch=$(col arch $g) mib=$(col mem_mib $g)
	got="$(val CUBIN_ARCH GPU=$g) $(val TRITON_ARCH GPU=$g) $(val GPU_MEM_BYTES GPU=$g)"
	if [ -n "$arch" ] && [ "$got" = "$arch ${arch#sm_} $((mib * 1048576))" ]; then ok gpus-row-defaults-$g
	else fail gpus-row-defaults-$g "got '$got', the row says $arch, $mib MiB"; fi
done
# the rows' values pinned: a100 is an sm_80 (make cubins used sm_90 for it
# before the table), h200 keeps the defaults it had
[ "$(val CUBIN_ARCH GPU=a100) $(val GPU_MEM_BYTES GPU=h200)" = "sm_80 150754820096" ] &&
	ok gpus-row-values || fail gpus-row-values "a100 $(val CUBIN_ARCH GPU=a100), h200 $(val GPU_MEM_BYTES GPU=h200)"
# a GPU without a row: the '*' row, i.e. what every GPU got before the table
got="$(val CUBIN_ARCH GPU=l40s) $(val TRITON_ARCH GPU=l40s) $(val GPU_MEM_BYTES GPU=l40s) $(val SELECT GPU=l40s) $(val LEAF_RANK GPU=l40s)"
[ "$got" = "sm_90 90 150754820096 hit joint" ] && ok gpus-unknown-defaults || fail gpus-unknown-defaults "$got"
# the command line wins over the row
[ "$(val CUBIN_ARCH GPU=a100 CUBIN_ARCH=sm_90) $(val GPU_MEM_BYTES GPU=a100 GPU_MEM_BYTES=1000)" = "sm_90 1000" ] &&
	ok gpus-command-line-wins || fail gpus-command-line-wins "$(val CUBIN_ARCH GPU=a100 CUBIN_ARCH=sm_90)"
# the profile: the row's profile column names PROFILES' row (h200nvrtc: '*'),
# a GPU without a row its own name's row, else '*'
printf 'gpu\tselect\tleaf_rank\twhy\nh200\tcurve\thead-q0\tx\nl40s\tregret\tprefix\tx\n*\thit\tjoint\tx\n' >"$TMP/profiles.tsv"
got="$(val SELECT GPU=h200 PROFILES="$TMP/profiles.tsv")/$(val LEAF_RANK GPU=h200nvrtc PROFILES="$TMP/profiles.tsv")/$(val \
	SELECT GPU=l40s PROFILES="$TMP/profiles.tsv")/$(val SELECT GPU=zz PROFILES="$TMP/profiles.tsv")"
[ "$got" = "curve/joint/regret/hit" ] && ok gpus-profile-column || fail gpus-profile-column "$got"
# the truth column: the GPU's path ('-' or no column: none, TRUTH empty);
# PROFILE=reference never takes it; a path leaving the tree is refused
printf 'gpu\tselect\tleaf_rank\ttruth\twhy\nh200\tcurve\thead-q0\tdatasets/README.md\tx\n*\thit\tjoint\t-\tx\n' >"$TMP/ptruth.tsv"
got="$(val TRUTH GPU=h200 PROFILES="$TMP/ptruth.tsv")/$(val TRUTH GPU=zz PROFILES="$TMP/ptruth.tsv")/$(val TRUTH GPU=h200 \
	PROFILES="$TMP/profiles.tsv")/$(val TRUTH GPU=h200 PROFILE=reference PROFILES="$TMP/ptruth.tsv")/$(val TRUTH GPU=h100)"
[ "$got" = "datasets/README.md////datasets/truth/h100_ingraph.txt.xz" ] && ok gpus-profile-truth || fail gpus-profile-truth "$got"
# the committed table: the own H100 collection prunes with the H100's truth
# (row h100own, the H200's rule); the H200 prunes with its own, the A100
# has none
got="$(val TRUTH GPU=h100own) $(val SELECT GPU=h100own) $(val LEAF_RANK GPU=h100own) $(val TRUTH GPU=h200) [$(val TRUTH GPU=a100)]"
[ "$got" = "datasets/truth/h100_ingraph.txt.xz curve head-q0 datasets/truth/h200_ingraph.txt.xz []" ] && ok gpus-h100own-truth || fail gpus-h100own-truth "$got"
# a TRUTH naming no file stops make before anything runs
if ! "${MK[@]}" -s -n heuristic GPU=a100 TRUTH="$TMP/nope.txt" >"$TMP/mo" 2>"$TMP/err" &&
	grep -q "TRUTH=$TMP/nope.txt: no such file" "$TMP/err" && [ ! -s "$TMP/mo" ]; then ok gpus-truth-missing-refused
else fail gpus-truth-missing-refused "$(head -c 300 "$TMP/err")"; fi
sed 's|datasets/README.md|../x.txt|' "$TMP/ptruth.tsv" >"$TMP/pbad.tsv"
if ! awk -v mode=make -v gpu=h200 -f "$ROOT/mk/gpus.awk" "$ROOT/datasets/GPUS.tsv" "$TMP/pbad.tsv" >/dev/null 2>"$TMP/err" &&
	grep -q "pbad.tsv:2: field 'truth': '../x.txt'" "$TMP/err"; then ok gpus-profile-truth-dotdot-refused
else fail gpus-profile-truth-dotdot-refused "$(cat "$TMP/err")"; fi
# every profile column names a row of datasets/PROFILES.tsv
miss=$(awk -F'\t' 'FNR == 1 { next } FILENAME ~ /PROFILES/ { p[$1] = 1; next } !/^#/ && !($8 in p) { print $1 ": " $8 }' \
	"$ROOT/datasets/PROFILES.tsv" "$T")
[ -z "$miss" ] && ok gpus-profiles-exist || fail gpus-profiles-exist "$miss"

# ---- 2. a bad table: FILE:LINE: field 'NAME', refused by the reader and make --
# bad NAME FIELD LINE SED: the table edited by SED is refused at LINE, FIELD
bad() {
	local f=$TMP/$1.tsv
	sed "$4" "$T" >"$f"
	if awk -v mode=check -f "$ROOT/mk/gpus.awk" "$f" 2>"$TMP/err"; then fail gpus-bad-$1 "accepted"
	elif grep -q "^$f:$3: field '$2': " "$TMP/err"; then ok gpus-bad-$1
	else fail gpus-bad-$1 "$(cat "$TMP/err")"; fi
}
bad mem mem_mib 3 '3s/\t81089\t/\t81x89\t/'
bad mem-zero mem_mib 2 '2s/\t81049\t/\t0\t/'
bad arch arch 2 '2s/\tsm_80\t/\tsm80\t/'
bad smem shared_memory 4 '4s/\t232448\t/\t2324480000000\t/'
bad capability capability 2 '2s/\t8\.0\t/\t8\t/'
bad name gpu 3 '3s/^h100\t/H100\t/'
bad device-name device_name 4 '4s/\tH200\t/\tH200"\t/'
bad device-name-lower device_name 2 '2s/\tA100\t/\ta100\t/'
bad device-name-none device_name 2 '2s/\tA100\t/\t-\t/'
bad nvmmh-code nvmmh 3 '3s/\tH100_SXM\t/\tH100_SXM);system(1\t/'
bad profile-make profile 3 '3s/\th100\tNVIDIA/\t$(shell touch x)\tNVIDIA/'
bad duplicate gpu 4 '4s/^h200\t/h100\t/'
bad short what 3 '3s/\t[^\t]*$//'
bad header arch 1 '1s/\tarch\t/\tsm\t/'
bad what-control what 2 "2s/\$/$(printf '\r')/"
sed '/^\*/d' "$T" >"$TMP/nostar.tsv"
awk -v mode=check -f "$ROOT/mk/gpus.awk" "$TMP/nostar.tsv" 2>"$TMP/err" && fail gpus-bad-no-star "accepted" ||
	{ grep -q "nostar.tsv: no '\*' row" "$TMP/err" && ok gpus-bad-no-star || fail gpus-bad-no-star "$(cat "$TMP/err")"; }
# make: the same message, nothing run, no out/ folder of the GPU
if "${MK[@]}" heuristic GPU=h100 GPU_FACTS="$TMP/mem.tsv" >"$TMP/m.out" 2>&1; then fail gpus-make-refuses-bad-table "exit 0"
elif grep -q "$TMP/mem.tsv:3: field 'mem_mib': '81x89'" "$TMP/m.out" && grep -q 'nothing was run' "$TMP/m.out" &&
	[ ! -e "$TMP/out/h100/main.feat.tsv" ]; then ok gpus-make-refuses-bad-table
else fail gpus-make-refuses-bad-table "$(head -c 300 "$TMP/m.out")"; fi
# a metacharacter in a field reaches neither make nor the shell
cd "$TMP" || exit 1
"${MK[@]}" -s help GPU=h100 GPU_FACTS="$TMP/profile-make.tsv" >/dev/null 2>&1
[ ! -e "$ROOT/x" ] && [ ! -e "$TMP/x" ] && ok gpus-make-no-code-from-table || fail gpus-make-no-code-from-table "x was made"
cd "$ROOT" || exit 1

# ---- 3. a new GPU is one row ----------------------------------------------------
{ cat "$T"; printf 'l40s\tsm_89\t45596\t101376\t8.9\tL40S\tL40S\t*\tNVIDIA L40S\n'; } >"$TMP/l40s.tsv"
got="$(val CUBIN_ARCH GPU=l40s GPU_FACTS="$TMP/l40s.tsv") $(val TRITON_ARCH GPU=l40s GPU_FACTS="$TMP/l40s.tsv") $(val \
	GPU_MEM_BYTES GPU=l40s GPU_FACTS="$TMP/l40s.tsv")"
[ "$got" = "sm_89 89 $((45596 * 1048576))" ] && ok gpus-new-row-defaults || fail gpus-new-row-defaults "$got"
awk -v mode=header -f mk/gpus.awk "$TMP/l40s.tsv" >"$TMP/l40s.h" &&
	grep -q 'X("l40s", "sm_89", 45596, 101376, 8, 9, "L40S", "L40S")' "$TMP/l40s.h" &&
	grep -q 'X("l40s", 101376, 8, 9, L40S)' "$TMP/l40s.h" && ok gpus-new-row-header || fail gpus-new-row-header "$(grep l40s "$TMP/l40s.h")"

# ---- 4. the C header and what C shows of it -----------------------------------
H=$BUILD/gen/gpus.h
if [ ! -f "$H" ]; then fail gpus-header "no $H (make check builds it)"
else
	awk -v mode=header -f mk/gpus.awk datasets/GPUS.tsv >"$TMP/gpus.h" && test_cmp gpus-header "$TMP/gpus.h" "$H"
	n=$(grep -c '^	X("' "$TMP/gpus.h") rows=$(grep -vc '^gpu\|^#\|^\*' "$T")
	# one X() per named row in each list (every row has a descriptor today)
	[ "$n" = $((2 * rows)) ] && grep -q '^#define GPUS_DEFAULT_MEM_MIB 143771$' "$TMP/gpus.h" &&
		grep -q '^#define GPUS_DEFAULT_SHARED_MEMORY 232448$' "$TMP/gpus.h" && ok gpus-header-rows ||
		fail gpus-header-rows "$n X() lines for $rows rows"
	# its C compiles on its own (a header without the table would not)
	printf '#include "gen/gpus.h"\n#define R(n, a, m, s, j, i, d, v) n,\nconst char *const r[] = {GPUS_ROWS(R) 0};\n' >"$TMP/use.c"
	${CC:-cc} -std=c11 -Wall -Wextra -Werror -fsyntax-only -iquote "$BUILD" "$TMP/use.c" 2>"$TMP/cc.err" &&
		ok gpus-header-compiles || fail gpus-header-compiles "$(head -c 300 "$TMP/cc.err")"
fi
# the C side: a device's names come from the rows (merge's message), the
# stages' defaults from the '*' row
sed '1s/232448/101376/; 1s/\[9, 0\]/[8, 9]/' check/corpus/base.log >"$TMP/l.log"
"$BIN/merge" -o "$TMP/m.txt" check/corpus/base.log "$TMP/l.log" 2>"$TMP/merge.err"
grep -q 'shared_memory 232448, device_capa (9, 0) (H100 or H200)' "$TMP/merge.err" &&
	grep -q 'shared_memory 101376, device_capa (8, 9),' "$TMP/merge.err" && ok gpus-c-device-names ||
	fail gpus-c-device-names "$(head -c 300 "$TMP/merge.err")"
"$BIN/sample" --help | tr -s ' \n' ' ' | grep -q "default 143771 MiB, datasets/GPUS.tsv's '\*' row" &&
	ok gpus-c-sample-default || fail gpus-c-sample-default "$("$BIN/sample" --help | grep -A2 gpu-mem)"

# ---- 5. gen/ reproduced by make heuristic (DATASET) ----------------------------
for g in a100 h100 h200; do
	G=$(tr a-z A-Z <<<"$g")
	[ $g = h200 ] || test_skip_unless DATASET gpus-gen-reproduced-$g || continue
	if ! "${MK[@]}" -s heuristic GPU=$g >"$TMP/h.$g" 2>&1; then fail gpus-gen-reproduced-$g "$(tail -3 "$TMP/h.$g")"; continue; fi
	d=
	for f in _MMRanking$G.py _MMRanking$G.c _MMRanking$G.h MMRanking$G.dot; do
		cmp -s "$TMP/out/$g/$f" "$ROOT/gen/$f" || d="$d $f"
	done
	[ -z "$d" ] && ok gpus-gen-reproduced-$g || fail gpus-gen-reproduced-$g "differ from gen/:$d"
	want="    gpu = {\"name\": \"$g\", \"device_name\": \"$(col device_name $g)\", \"shared_memory\": $(col shared_memory $g), \"capability\": ($(col capability $g | sed 's/\./, /'))}"
	grep -qxF "$want" "$ROOT/gen/_MMRanking$G.py" && grep -qx "#define MMRanking${G}_GPU \"$g\"" "$ROOT/gen/_MMRanking$G.h" &&
		ok gpus-gen-data-$g || fail gpus-gen-data-$g "$(grep -m1 '  gpu = ' "$ROOT/gen/_MMRanking$G.py")"
done
# HEURISTIC_NAME=Foo: the artifact still carries its GPU (the class name no
# longer says it); a GPU without a row: none, the artifact as before
if "${MK[@]}" -s emit GPU=h200 HEURISTIC_NAME=Foo >"$TMP/foo.out" 2>&1 &&
	grep -q '^    gpu = {"name": "h200", "device_name": "H200", ' "$TMP/out/h200/_Foo.py"; then ok gpus-make-heuristic-name
else fail gpus-make-heuristic-name "$(tail -2 "$TMP/foo.out")"; fi
mkdir -p "$TMP/out/zz9" && xz -dc "$ROOT/datasets/h200/h200_inductor_seed2026_p2.txt.xz" >"$TMP/out/zz9/merged.txt"
if "${MK[@]}" -s heuristic GPU=zz9 PROFILE=reference >"$TMP/zz.out" 2>&1 && [ -f "$TMP/out/zz9/_MMRankingZZ9.py" ] &&
	! grep -q 'gpu = \|_GPU' "$TMP/out/zz9/_MMRankingZZ9.py" "$TMP/out/zz9/_MMRankingZZ9.h"; then ok gpus-make-no-row-no-data
else fail gpus-make-no-row-no-data "$(tail -2 "$TMP/zz.out")"; fi
finish
