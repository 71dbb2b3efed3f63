#!/usr/bin/env bash
# t7170-artifact-rules.sh — no artifact breaks its compiler, and every format
# holds to one set of rules (stages/formats/emittable.h, stages/FORMATS.md
# "names"):
#   rules-cat-*        a category an artifact cannot hold (a C comment opener
#                      '/*' or closer, a quote, a backslash, '??=', non-ASCII,
#                      m4 quotes, '$', a using_tf32 neither True, False nor
#                      not_float_32, a dtype Inductor never logs, an iscontig
#                      not True/False) is refused by every format and by
#                      --out-dir, naming TREE:line, the feature and why, with
#                      nothing written
#   rules-numeric-unknown   a numeric feature that is no mm context value:
#                      every format refuses it (the .py would raise KeyError)
#   rules-class-*      a choice id over 4095 characters: refused by its first
#                      reader (featurize, fit, tree_read, import); 4095 passes
#   rules-name-ah-mm   the heuristic name AH_MM_TYPES (the C types' guard)
#   rules-formats-agree  every tree above and the fixtures: the four formats
#                      all succeed or all fail
#   rules-c-*          the emitted C passes -Wall -Wextra -Werror: emit checks
#                      it so (a template with an unused function is refused),
#                      a tree without a safe leaf compiles
#   rules-import-*     an imported PyTorch artifact is held to the same rules
#                      (the reproducer: 'False' -> 'x/*y')
#   rules-out-dir-*    emit --out-dir writes what the four single runs write,
#                      and all or none; not with --format
#   rules-tmp-*        emit's private folder is gone after a normal run, a
#                      refusal, SIGTERM and SIGKILL
#   rules-zip-duplicate-member   a zip holding one member name twice is
#                      refused, naming the zip and the member
# Prerequisites: the stages' own (m4, python3, cc); REFERENCE for the
# shipped artifacts; PYTHON3 to write the zip.
. "$(dirname "$0")/lib.sh"
TPL=$ROOT/templates
FE=$FIX/emit
T0=$FE/tree.tsv
CC=${CC:-cc}
emit() { "$BIN/emit" --templates "$TPL" "$@"; }
test_have_bins rules emit import featurize fit prune || finish
# the fixture's feature f is on line 7 + f (metadata, 5 params)
fl() { echo $((7 + $1)); }

# set_feature TREE F NAME OUT: TREE with feature F renamed NAME
# (the name through ENVIRON: awk -v would read its backslashes as escapes)
set_feature() {
	N=$3 awk -F'\t' -v OFS='\t' -v f="$2" '$1 == "feature" && $2 == f { $3 = ENVIRON["N"] } { print }' "$1" >"$4"
}
# set_class TREE C NAME OUT: TREE with class C renamed NAME
set_class() {
	N=$3 awk -F'\t' -v OFS='\t' -v c="$2" '$1 == "class" && $2 == c { $3 = ENVIRON["N"] } { print }' "$1" >"$4"
}
TREES=()   # every crafted tree, for rules-formats-agree
# refused_everywhere NAME PATTERN TREE: --format py, c, h, dot and --out-dir
# each refuse TREE, stderr matching PATTERN, nothing written
refused_everywhere() {
	local name=$1 pat=$2 tree=$3 f why=
	TREES+=("$tree")
	mkdir -p "$TMP/od-$name"
	for f in py c h dot; do
		rm -f "$TMP/o.$f"
		if emit --heuristic-name R --format $f -o "$TMP/o.$f" "$tree" 2>"$TMP/e.err"; then why+="$f: exit 0; "
		elif ! grep -Eq -- "$pat" "$TMP/e.err"; then why+="$f: $(head -c 300 "$TMP/e.err"); "
		elif [ -e "$TMP/o.$f" ]; then why+="$f: output left; "; fi
	done
	if emit --heuristic-name R --out-dir "$TMP/od-$name" "$tree" 2>"$TMP/e.err"; then why+="out-dir: exit 0; "
	elif ! grep -Eq -- "$pat" "$TMP/e.err"; then why+="out-dir: $(head -c 300 "$TMP/e.err"); "
	elif [ -n "$(ls -A "$TMP/od-$name")" ]; then why+="out-dir: files left; "; fi
	[ -z "$why" ] && ok "$name" || fail "$name" "$why"
}

# ---- categories ------------------------------------------------------------------
# feature 8 is using_tf32_False, feature 5 mat1_dtype_torch.float16, 6
# mat1_dtype_torch.float32
cat_case() { # NAME FEATURE-INDEX NEW-NAME PATTERN-TAIL
	set_feature "$T0" "$2" "$3" "$TMP/$1.tsv"
	refused_everywhere "$1" "$1\\.tsv:$(fl "$2"): feature $2 '.*': category .*: $4" "$TMP/$1.tsv"
}
cat_case rules-cat-comment-open 8 'using_tf32_x/*y' 'expected True, False or not_float_32'
cat_case rules-cat-comment-close 8 'using_tf32_x*/y' 'expected True, False or not_float_32'
cat_case rules-cat-tf32-other 8 'using_tf32_maybe' 'expected True, False or not_float_32'
cat_case rules-cat-dtype-comment 5 'mat1_dtype_torch.x/*y' 'unknown dtype'
cat_case rules-cat-dtype-upper 5 'mat1_dtype_torch.Float16' 'unknown dtype'
cat_case rules-cat-dtype-quote 5 "mat1_dtype_torch.fl'oat" 'unknown dtype'
cat_case rules-cat-dtype-dquote 5 'mat1_dtype_torch.fl"oat' 'unknown dtype'
cat_case rules-cat-dtype-backslash 5 'mat1_dtype_torch.a\b' 'unknown dtype'
cat_case rules-cat-dtype-trigraph 5 'mat1_dtype_torch.a??=b' 'unknown dtype'
cat_case rules-cat-dtype-non-ascii 5 "mat1_dtype_torch.fl$(printf '\303\266')at" 'unknown dtype'
cat_case rules-cat-dtype-m4-quote 5 'mat1_dtype_torch.a[[b]]' 'unknown dtype'
cat_case rules-cat-dtype-dollar 5 'mat1_dtype_torch.a$1' 'unknown dtype'
cat_case rules-cat-iscontig-other 6 'mat1_iscontig_yes' 'expected True or False'

# ---- features ----------------------------------------------------------------------
set_feature "$T0" 3 flops "$TMP/numeric.tsv"
refused_everywhere rules-numeric-unknown "numeric\\.tsv:$(fl 3): feature 3 'flops': not an mm feature.*KeyError" "$TMP/numeric.tsv"

# ---- choice ids: 4095 characters at most, refused by the first reader -------------
# (type=zzz...: the last class in byte order stays last)
long4095=type=$(printf 'z%.0s' $(seq 4090))
long4096=${long4095}b
last=$(awk -F'\t' '$1 == "class"' "$T0" | wc -l)
last=$((last - 1))
set_class "$T0" "$last" "$long4096" "$TMP/c4096.tsv"
refused_everywhere rules-class-4096 "c4096\\.tsv:[0-9]+: class $last 'type=zzz.*\\.\\.\\.' cannot be emitted: longer than 4095 characters" "$TMP/c4096.tsv"
set_class "$T0" "$last" "$long4095" "$TMP/c4095.tsv"
TREES+=("$TMP/c4095.tsv")
mkdir -p "$TMP/c4095"
if emit --heuristic-name R --out-dir "$TMP/c4095" "$TMP/c4095.tsv" 2>"$TMP/c4095.err" &&
	grep -qF "\"$long4095\"," "$TMP/c4095/_R.c" &&
	$CC -std=c99 -pedantic-errors -Wall -Wextra -Werror -c -o "$TMP/c4095/r.o" "$TMP/c4095/_R.c" 2>>"$TMP/c4095.err"; then
	ok rules-class-4095
else fail rules-class-4095 "$(head -c 300 "$TMP/c4095.err")"; fi
L=$FIX/featurize/small.txt
C2='type=triton_BLOCK-M=16_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=1'
sed "s/$C2/$long4096/" "$L" >"$TMP/long.txt"
expect_error rules-class-log-4096 "long\\.txt:[0-9]+: field 'choice': 'type=zzz.*\\.\\.\\.' longer than 4095 characters" \
	"$TMP/long.feat.tsv" "$BIN/featurize" -o "$TMP/long.feat.tsv" "$TMP/long.txt"
"$BIN/featurize" -o "$TMP/ok.feat.tsv" "$L" 2>/dev/null
sed "s/$C2/$long4096/" "$TMP/ok.feat.tsv" >"$TMP/long.feat.tsv"
expect_error rules-class-feat-4096 "long\\.feat\\.tsv:[0-9]+: column 'choice': 'type=zzz.*\\.\\.\\.' longer than 4095" \
	"$TMP/long.tree.tsv" "$BIN/fit" "$TMP/long.feat.tsv" --split none -o "$TMP/long.tree.tsv" --metrics "$TMP/long.m.tsv"
expect_error rules-class-prune-4096 "c4096\\.tsv:[0-9]+: class $last .* longer than 4095" \
	"$TMP/p.tsv" "$BIN/prune" --ranking 2 -o "$TMP/p.tsv" "$TMP/c4096.tsv"
sed "s/append('type=b')/append('$long4096')/" "$FIX/import/tiny.py" >"$TMP/long.py"
expect_error rules-class-import-4096 "long\\.py:[0-9]+: choice 'type=zzz.*' cannot be emitted: longer than 4095" \
	"$TMP/long.i.tsv" "$BIN/import" -o "$TMP/long.i.tsv" "$TMP/long.py"

# ---- the heuristic name ------------------------------------------------------------
why=
for f in py c h dot; do
	emit --heuristic-name AH_MM_TYPES --format $f -o "$TMP/n.$f" "$T0" 2>"$TMP/n.err" && why+="$f: exit 0; "
	grep -q "'AH_MM_TYPES': a name of the C twin's shared types" "$TMP/n.err" || why+="$f: $(head -c 200 "$TMP/n.err"); "
done
[ -z "$why" ] && ok rules-name-ah-mm || fail rules-name-ah-mm "$why"

# ---- the C passes -Wall -Wextra -Werror ------------------------------------------------
# emit's own check holds the C to it: a template that writes an unused
# variable (as the using_tf32 'tf32' was for a category neither True nor
# False) is refused
mkdir -p "$TMP/wtpl"
cp "$TPL"/heuristic.*.m4 "$TMP/wtpl/"
printf 'int unused_helper(void);\nint unused_helper(void) { int tf32 = 1; return 0; }\n' >>"$TMP/wtpl/heuristic.c.m4"
expect_error rules-c-wall-checked "the generated \\.c does not compile \\(.*-Wall -Wextra -Werror.*nothing written" "$TMP/w.c" \
	"$BIN/emit" --templates "$TMP/wtpl" --heuristic-name R --format c -o "$TMP/w.c" "$T0"
# a tree whose only leaf is unsafe (return None): no leaf table, no copy
# function, and the C compiles without a warning
{ head -6 "$T0"; printf 'feature\t0\tm\nclass\t0\textern_mm\nnode\t0\t-1\t-2\t-1\t-1\t10\t10\t0\t\n'; } >"$TMP/none.tsv"
TREES+=("$TMP/none.tsv")
mkdir -p "$TMP/none"
if emit --heuristic-name R --out-dir "$TMP/none" "$TMP/none.tsv" 2>"$TMP/none.err" &&
	$CC -std=c99 -pedantic-errors -Wall -Wextra -Werror -c -o "$TMP/none/r.o" "$TMP/none/_R.c" 2>>"$TMP/none.err" &&
	grep -q 'return -1;	/\* unsafe leaf: no decision \*/' "$TMP/none/_R.c" && ! grep -q '_copy' "$TMP/none/_R.c"; then
	ok rules-c-none-leaves
else fail rules-c-none-leaves "$(head -c 300 "$TMP/none.err")"; fi

# ---- one rule for every format -------------------------------------------------------
TREES+=("$T0" "$FE/tree_topk.tsv" "$FIX/tree/tree.tsv" "$FIX/tree/pruned_k2.tsv")
why=
for t in "${TREES[@]}"; do
	n=0
	for f in py c h dot; do
		emit --heuristic-name R --format $f -o "$TMP/agree.$f" "$t" 2>/dev/null && n=$((n + 1))
	done
	[ $n = 0 ] || [ $n = 4 ] || why+="${t##*/}: $n of 4 formats; "
done
[ -z "$why" ] && ok "rules-formats-agree" || fail rules-formats-agree "$why"

# ---- imported artifacts: the same rules ------------------------------------------------
# (tiny.py's line 48 tests using_tf32 != 'False')
sed "s/!= 'False':/!= 'x\\/*y':/" "$FIX/import/tiny.py" >"$TMP/imp-comment.py"
expect_error rules-import-category-comment "imp-comment\\.py:48: category 'x/\\*y' of using_tf32 cannot be emitted: expected True, False or not_float_32" \
	"$TMP/imp.tsv" "$BIN/import" -o "$TMP/imp.tsv" "$TMP/imp-comment.py"
sed "s/!= 'False':/!= 'maybe':/" "$FIX/import/tiny.py" >"$TMP/imp-tf32.py"
expect_error rules-import-tf32-other "imp-tf32\\.py:48: category 'maybe' of using_tf32 cannot be emitted" \
	"$TMP/imp.tsv" "$BIN/import" -o "$TMP/imp.tsv" "$TMP/imp-tf32.py"
# the 'x/*y' reproducer on PyTorch's own artifact, and every shipped
# artifact imported and emitted compiles with -Wall -Wextra -Werror
if test_skip_unless REFERENCE rules-import-reference-comment; then
	sed "0,/'False'/s//'x\\/*y'/" "$REFERENCE_DIR/_MMRankingA100.py" >"$TMP/refA.py"
	expect_error rules-import-reference-comment "refA\\.py:[0-9]+: category 'x/\\*y' of using_tf32 cannot be emitted" \
		"$TMP/refA.tsv" "$BIN/import" -o "$TMP/refA.tsv" "$TMP/refA.py"
fi
if test_skip_unless REFERENCE rules-import-reference-wall; then
	why=
	for a in "$REFERENCE_DIR"/_MMRanking*.py; do
		c=$(basename "$a" .py); c=${c#_}
		mkdir -p "$TMP/ref-$c"
		"$BIN/import" -o "$TMP/ref-$c/t.tsv" "$a" 2>/dev/null &&
			emit --heuristic-name "$c" --out-dir "$TMP/ref-$c" "$TMP/ref-$c/t.tsv" 2>"$TMP/ref.err" &&
			$CC -std=c99 -pedantic-errors -Wall -Wextra -Werror -c -o "$TMP/ref-$c/x.o" "$TMP/ref-$c/_$c.c" 2>>"$TMP/ref.err" ||
			why+="$c: $(head -c 200 "$TMP/ref.err"); "
	done
	[ -z "$why" ] && ok rules-import-reference-wall || fail rules-import-reference-wall "$why"
fi

# ---- --out-dir: the four single runs' bytes, all or none ---------------------------------
mkdir -p "$TMP/od" "$TMP/od1"
why=
emit --heuristic-name R --out-dir "$TMP/od" "$T0" 2>"$TMP/od.err" || why="exit status: $(head -c 200 "$TMP/od.err")"
for f in py c h dot; do
	n=_R.$f; [ $f = dot ] && n=R.dot
	emit --heuristic-name R --format $f -o "$TMP/od1/$n" "$T0" 2>/dev/null
	cmp -s "$TMP/od/$n" "$TMP/od1/$n" || why+="$n differs; "
done
[ "$(ls "$TMP/od" | wc -l)" = 4 ] || why+="$(ls "$TMP/od" | tr '\n' ' ')"
[ -z "$why" ] && ok rules-out-dir-same-bytes || fail rules-out-dir-same-bytes "$why"
expect_error rules-out-dir-usage "give --format FMT \(one artifact\) or --out-dir DIR \(all four\), not both" "$TMP/od/x.py" \
	"$BIN/emit" --heuristic-name R --format py --out-dir "$TMP/od" "$T0"
mkdir -p "$TMP/odn"
if emit --heuristic-name R --cc false --out-dir "$TMP/odn" "$T0" 2>"$TMP/odn.err"; then
	fail rules-out-dir-none "exit status 0"
elif [ -n "$(ls -A "$TMP/odn")" ] || ! grep -q "nothing written" "$TMP/odn.err"; then
	fail rules-out-dir-none "left: $(ls -A "$TMP/odn" | tr '\n' ' '); $(head -c 200 "$TMP/odn.err")"
else ok rules-out-dir-none; fi

# ---- the private folder goes however emit ends -------------------------------------------
mkdir -p "$TMP/tmpd"
TMPDIR=$TMP/tmpd emit --heuristic-name R --out-dir "$TMP/od" "$T0" 2>/dev/null
TMPDIR=$TMP/tmpd emit --heuristic-name R --cc false --out-dir "$TMP/odn" "$T0" 2>/dev/null
[ -z "$(ls -A "$TMP/tmpd")" ] && ok rules-tmp-normal || fail rules-tmp-normal "left: $(ls "$TMP/tmpd")"
# a --cc that waits: emit is killed while its folder holds the artifacts
cat >"$TMP/slowcc" <<EOF
#!/bin/sh
echo \$\$ >"$TMP/slowcc.pid"
exec sleep 30
EOF
chmod +x "$TMP/slowcc"
for sig in TERM KILL; do
	rm -f "$TMP/slowcc.pid"
	TMPDIR=$TMP/tmpd "$BIN/emit" --templates "$TPL" --heuristic-name R --cc "$TMP/slowcc" \
		--format c -o "$TMP/k.c" "$T0" 2>/dev/null &
	ep=$!
	for _ in $(seq 200); do [ -s "$TMP/slowcc.pid" ] && break; sleep 0.05; done
	held=$(ls "$TMP/tmpd")
	kill -$sig $ep; wait $ep 2>/dev/null
	[ -s "$TMP/slowcc.pid" ] && kill -TERM "$(cat "$TMP/slowcc.pid")" 2>/dev/null
	for _ in $(seq 100); do [ -z "$(ls -A "$TMP/tmpd")" ] && break; sleep 0.05; done
	name=rules-tmp-$(tr A-Z a-z <<<"$sig")
	if [ -z "$held" ]; then fail "$name" "no private folder while cc ran"
	elif [ -n "$(ls -A "$TMP/tmpd")" ]; then fail "$name" "left after SIG$sig: $(ls "$TMP/tmpd" | tr '\n' ' ')"
	else ok "$name"; fi
	rm -rf "${TMP:?}"/tmpd/*
done

# ---- zips: one name, one member ----------------------------------------------------------
if test_skip_unless PYTHON3 rules-zip-duplicate-member; then
	python3 - "$TMP/dup.zip" "$L" <<'EOF'
import sys, warnings, zipfile
warnings.simplefilter('ignore')   # zipfile warns about the duplicate name
log = open(sys.argv[2]).read()
with zipfile.ZipFile(sys.argv[1], 'w') as z:
    z.writestr('x/log.txt', log)
    z.writestr('x/log.txt', log.replace('extern_mm', 'other_mm'))
EOF
	expect_error rules-zip-duplicate-member "cannot read 'x/log\\.txt' from .*dup\\.zip .*two members named 'x/log\\.txt' \\(entries 0 and 1\\)" \
		"$TMP/dup.feat.tsv" "$BIN/featurize" --zip "$TMP/dup.zip" -o "$TMP/dup.feat.tsv" x/log.txt
fi
finish
