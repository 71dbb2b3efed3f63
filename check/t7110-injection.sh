#!/bin/bash
# t7110-injection.sh — nothing from data becomes code.  For every
# path from an input to an artifact, a crafted value must be refused (the
# message checked, no output left: expect_error) or come out inert: the
# marker file the value would create under $TMP does not exist, the .py
# imports and ranks under the torch stand-in (check/stub, via
# check/emit/rank_py.py) and the .c compiles (cc -std=c99 -c).
#
# Paths (P) and their cases:
#   P1 log fields -> featurize -> fit -> prune -> emit: a choice id holding
#      m4 calls (inert in .py, .c, .h); choice ids with ' [ $ ` (refused at
#      file:line); metadata name m4_... (refused)
#   P2 tree TSV fields -> emit: metadata name (m4_esyscmd and
#      m4_ifelse/m4_format variants: refused), a class holding m4 calls
#      (inert), a category holding m4 calls (refused: no dtype), a class
#      with ] (refused), a threshold that is m4 (refused by the reader)
#   P3 heuristic name -> emit, import, make: 13 crafted names, bare
#      builtins, Python keywords (refused by emit with the message; MMR_TREE
#      at once, no recursion), every reserved name of emittable.c refused by
#      make and stages/sh/vars.sh too, a class name of an imported .py
#   P4 make settings -> $(shell) and recipes (make -n): GPU quote injection,
#      GPU/OUT with ';', GPUS, a quote in SCREEN, a newline, HEURISTIC_NAME
#      m4_changequote with an m4 log choice (refused at parse time, marker
#      absent); every user setting is a row of the registry mk/variables.tsv
#      (check/t7190-settings.sh tries each one)
#   P5 feature names: an unknown numeric feature holding m4 (refused by emit
#      before m4 runs, for .c and .py alike); the C template's own failure
#      message quoted (m4 run directly on a crafted definition)
#   P6 file names: emit's input named m4_esyscmd(...) (.h and .c inert),
#      an output named so, a log named so (featurize --label)
#   P7 deep trees: depth 65, 98, 10000, 100000 refused by emit and prune
#      (file:line, no signal), 64 emitted and importable; a .py 65 deep
#      refused by import; fit's grid refuses max_depth 65
#   P8 the sanitizer build (BIN=build/san/bin): prune of an imported tree
#      (UBSan leaves.c memcpy), tree_read's error path (LeakSanitizer)
# Prerequisites: m4, python3, cc (the stages' own); make for P4.
. "$(dirname "$0")/lib.sh"
TPL=$ROOT/templates
E=$ROOT/check/emit
CC=${CC:-cc}
M=$TMP/marker   # every crafted value writes (or names) a file under here
mkdir -p "$M"
emit() { "$BIN/emit" --templates "$TPL" "$@"; }
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="${BIN%/bin}" OUT="$TMP/out")
for b in emit import prune featurize fit; do
	[ -x "$BIN/$b" ] || { fail injection "no $BIN/$b"; finish; }
done
cases=0
# the marker folder is empty: no crafted value ran
no_marker() { [ -z "$(ls -A "$M")" ]; }
refused() { # NAME PATTERN OUTFILE CMD... (expect_error, and no marker)
	cases=$((cases + 1))
	local out=$3
	expect_error "$@"
	no_marker || fail "$1-marker" "a crafted value ran: $(ls "$M" | tr '\n' ' ')"
	rm -f "$M"/*
}
# inert NAME CLASS DIR: DIR/_CLASS.{py,c,h} exist, no marker, the .py imports
# and ranks under the stand-in, the .c compiles against the .h
inert() {
	cases=$((cases + 1))
	local n=$1 c=$2 d=$3
	if ! no_marker; then fail "$n" "a crafted value ran: $(ls "$M" | tr '\n' ' ')"; rm -f "$M"/*; return; fi
	if [ -f "$d/_$c.py" ] && ! stub_python "$E/rank_py.py" "$d/_$c.py" "$c" "$FIX/emit/contexts.tsv" >"$d/rank.out" 2>"$d/py.err"; then
		fail "$n" ".py does not import/rank: $(tail -c 200 "$d/py.err")"; return; fi
	if [ -f "$d/_$c.c" ] && ! $CC -std=c99 -Wall -Werror -c -I"$d" -o "$d/x.o" "$d/_$c.c" 2>"$d/cc.err"; then
		fail "$n" ".c does not compile: $(head -c 200 "$d/cc.err")"; return; fi
	ok "$n"
}
# emit_all CLASS TREE DIR: .py .h .c of TREE into DIR (0 if all three)
emit_all() {
	mkdir -p "$3"
	local f
	for f in py h c; do emit --heuristic-name "$1" --format $f -o "$3/_$1.$f" "$2" 2>>"$3/emit.err" || return 1; done
}

# ---- P1: log fields ---------------------------------------------------------------
L=$FIX/featurize/small.txt
C2='type=triton_BLOCK-M=16_BLOCK-K=16_BLOCK-N=16_numstages=2_numwarps=1'
sed "s/$C2/zz(m4_esyscmd(>$(sed 's/[\/&]/\\&/g' <<<"$M")\/p1))/" "$L" >"$TMP/p1.txt"
mkdir -p "$TMP/p1"
if "$BIN/featurize" -o "$TMP/p1/f.tsv" "$TMP/p1.txt" 2>"$TMP/p1/err" &&
	"$BIN/fit" "$TMP/p1/f.tsv" --split none --ranking 1 --grid "$FIX/fit/grid_d2_entropy.tsv" \
		-o "$TMP/p1/tree.tsv" --metrics "$TMP/p1/m.tsv" >/dev/null 2>>"$TMP/p1/err" &&
	"$BIN/prune" --ranking 1 -o "$TMP/p1/pruned.tsv" "$TMP/p1/tree.tsv" 2>>"$TMP/p1/err" &&
	emit_all P1 "$TMP/p1/pruned.tsv" "$TMP/p1" &&
	grep -qF "self.choices.append('zz(m4_esyscmd(>$M/p1))')" "$TMP/p1/_P1.py" &&
	grep -qF "\"zz(m4_esyscmd(>$M/p1))\"," "$TMP/p1/_P1.c"; then
	inert inj-log-choice-m4 P1 "$TMP/p1"
else cases=$((cases + 1)); fail inj-log-choice-m4 "$(cat "$TMP/p1/err" "$TMP/p1/emit.err" 2>/dev/null | head -3 | tr '\n' '|')"; fi
for c in "'" '[' '$' '`'; do
	sed "s/$C2/zz${c}m4_esyscmd(>x)/" "$L" >"$TMP/p1c.txt"
	refused "inj-log-choice-$(printf %d "'$c")" "p1c\.txt:[0-9]+: field 'choice': .*which emit cannot write" "$TMP/p1c.tsv" \
		"$BIN/featurize" -o "$TMP/p1c.tsv" "$TMP/p1c.txt"
done
sed '1s/"name": "mm"/"name": "m4_esyscmd(>x)"/' "$L" >"$TMP/p1m.txt"
refused inj-log-meta-name "p1m\.txt:1: metadata 'name': expected 'mm'" "$TMP/p1m.tsv" \
	"$BIN/featurize" -o "$TMP/p1m.tsv" "$TMP/p1m.txt"

# ---- P2: tree TSV fields ------------------------------------------------------------
T0=$FIX/emit/tree.tsv
refused inj-tree-meta-esyscmd "metadata 'name': expected 'mm', found 'm4_esyscmd" "$TMP/o.py" \
	emit --heuristic-name X --format py -o "$TMP/o.py" \
	<(sed "1s/\"name\": \"mm\"/\"name\": \"m4_esyscmd(m4_format(id%c>$(sed 's/[\/&]/\\&/g' <<<"$M")\/pwned_id,32))\"/" "$T0")
refused inj-tree-meta-ifelse "metadata 'name': expected 'mm', found 'm4_ifelse" "$TMP/o.py" \
	emit --heuristic-name X --format py -o "$TMP/o.py" \
	<(sed "1s/\"name\": \"mm\"/\"name\": \"m4_ifelse(x,x,m4_format(%c__import__(%cos%c).system(%ctouch x%c)%c,10,39,39,39,39,10))\"/" "$T0")
ncls=$(awk -F'\t' '$1 == "class"' "$T0" | wc -l)
awk -F'\t' -v OFS='\t' -v m="$M" -v last=$((ncls - 1)) '
	$1 == "class" && $2 == last { $3 = "zz(m4_esyscmd(>" m "/p2c))" }
	$1 == "feature" && $3 == "n" { $3 = "n" }
	{ print }' "$T0" >"$TMP/p2c.tsv"
if emit_all P2 "$TMP/p2c.tsv" "$TMP/p2c" && grep -qF "m4_esyscmd(>$M/p2c)" "$TMP/p2c/_P2.py"; then
	inert inj-tree-class-m4 P2 "$TMP/p2c"
else cases=$((cases + 1)); fail inj-tree-class-m4 "$(head -2 "$TMP/p2c/emit.err" | tr '\n' '|')"; fi
# a category (the text after "mat1_dtype_") holding m4: no dtype Inductor
# logs (the one category rule, emittable.h), refused for every format
sed "s/^feature\t\([0-9]*\)\tmat1_dtype_torch.float16$/feature\t\1\tmat1_dtype_m4_esyscmd(>$(sed 's/[\/&]/\\&/g' <<<"$M")\/p2v)/" \
	"$T0" >"$TMP/p2v.tsv"
refused inj-tree-category-m4 "p2v\.tsv:[0-9]+: feature [0-9]+ 'mat1_dtype_m4_esyscmd\(.*\)': category .* of mat1_dtype: unknown dtype" \
	"$TMP/o.py" emit --heuristic-name P2V --format py -o "$TMP/o.py" "$TMP/p2v.tsv"
awk -F'\t' -v OFS='\t' -v last=$((ncls - 1)) '$1 == "class" && $2 == last { $3 = "zz]])m4_dnl" } { print }' "$T0" >"$TMP/p2b.tsv"
refused inj-tree-class-bracket "class $((ncls - 1)) 'zz\]\]\)m4_dnl' cannot be emitted: contains a quote, backslash, backtick, bracket" \
	"$TMP/o.py" emit --heuristic-name X --format py -o "$TMP/o.py" "$TMP/p2b.tsv"
sed 's/^\(node\t0\t[0-9]*\t\)[^\t]*/\1m4_esyscmd(x)/' "$T0" >"$TMP/p2t.tsv"
refused inj-tree-threshold-m4 "p2t\.tsv:[0-9]+: field 'threshold'" "$TMP/o.c" \
	emit --heuristic-name X --format c -o "$TMP/o.c" "$TMP/p2t.tsv"

# ---- P3: heuristic name -------------------------------------------------------------
for n in m4_dnl m4_changequote m4_divert m4_undivert m4___file__ m4___line__ m4_sysval m4_divnum \
	m4_traceon m4_changecom m4_m4exit; do
	for f in py c; do
		refused "inj-name-$n-$f" "--heuristic-name '$n': an m4 name \(m4_\.\.\.\)" "$TMP/o.$f" \
			emit --heuristic-name "$n" --format $f -o "$TMP/o.$f" "$T0"
	done
done
for n in MMR_TREE MMR_CHOICES; do
	for f in py c h; do
		refused "inj-name-$n-$f" "--heuristic-name '$n': a template macro name \(MMR_\.\.\.\)" "$TMP/o.$f" \
			timeout 10 "$BIN/emit" --templates "$TPL" --heuristic-name "$n" --format $f -o "$TMP/o.$f" "$T0"
	done
done
for n in dnl define __file__ __gnu__ class None str; do
	refused "inj-name-$n" "--heuristic-name '$n': a Python keyword, a name the artifact uses or an m4 builtin" "$TMP/o.py" \
		emit --heuristic-name "$n" --format py -o "$TMP/o.py" "$T0"
done
# every name emittable.c reserves, and a prefix of each kind, is refused by
# make's pure-make check and by stages/sh/vars.sh as well (the one rule)
mapfile -t reserved < <(awk '/BEGIN reserved names/ { f = 1; next } /END reserved names/ { f = 0 } f' \
	"$ROOT/stages/formats/emittable.c" | grep -o '"[^"]*"' | tr -d '"')
make_bad=() vars_bad=()
for n in "${reserved[@]}" m4_anything MMR_ANY 9x a-b "$(printf 'A%.0s' $(seq 65))"; do
	"${MK[@]}" -n emit GPU=a100 HEURISTIC_NAME="$n" >/dev/null 2>"$TMP/mk.err" ||
		grep -q "HEURISTIC_NAME='$n': expected an identifier" "$TMP/mk.err" || make_bad+=("$n")
	"${MK[@]}" -n emit GPU=a100 HEURISTIC_NAME="$n" >/dev/null 2>&1 && make_bad+=("$n")
	[ "$("$ROOT/stages/sh/vars.sh" HEURISTIC_NAME="$n" 2>/dev/null)" = bad ] || vars_bad+=("$n")
done
cases=$((cases + 1))
if [ ${#reserved[@]} -gt 90 ] && [ ${#make_bad[@]} -eq 0 ] && [ ${#vars_bad[@]} -eq 0 ]; then ok inj-name-rule-agrees
else fail inj-name-rule-agrees "${#reserved[@]} names; make accepts: ${make_bad[*]:-}; vars.sh accepts: ${vars_bad[*]:-}"; fi
cases=$((cases + 1))
if "${MK[@]}" -n emit GPU=a100 HEURISTIC_NAME=MMRanking_ok9 >/dev/null 2>&1 &&
	[ -z "$("$ROOT/stages/sh/vars.sh" HEURISTIC_NAME=MMRanking_ok9 2>&1)" ]; then ok inj-name-rule-good
else fail inj-name-rule-good "MMRanking_ok9 refused"; fi
sed 's/^class MMRankingTiny(/class m4_changequote(/' "$FIX/import/tiny.py" >"$TMP/p3.py"
refused inj-import-class-name "p3\.py:17: class name 'm4_changequote': an m4 name" "$TMP/p3.tsv" \
	"$BIN/import" -o "$TMP/p3.tsv" "$TMP/p3.py"

# ---- P4: make settings (make -n: nothing may run at parse time) ---------------------
mk_refused() { # NAME PATTERN MAKE-ARGS...
	local n=$1 p=$2; shift 2
	cases=$((cases + 1))
	"${MK[@]}" -n "$@" >"$TMP/mk.out" 2>"$TMP/mk.err"
	local rc=$?
	if [ $rc -eq 0 ]; then fail "$n" "make exit status 0"
	elif ! grep -Eq -- "$p" "$TMP/mk.err"; then fail "$n" "stderr: $(head -c 300 "$TMP/mk.err")"
	elif ! no_marker; then fail "$n" "a setting ran: $(ls "$M" | tr '\n' ' ')"
	else ok "$n"; fi
	rm -f "$M"/*
}
mk_refused inj-make-gpu-quote "GPU: a setting must not hold a quote" heuristic "GPU=x';>$M/pwnedgpu;'"
mk_refused inj-make-gpu-semicolon "GPU: a setting must not hold .*found: ;" heuristic "GPU=a;touch"
mk_refused inj-make-gpu-subst "unterminated variable reference|GPU: a setting must not hold .*found: \\\$" heuristic "GPU=a.\$(touch"
mk_refused inj-make-out-semicolon "OUT: a setting must not hold .*found: ;" heuristic GPU=a100 "OUT=o;x"
mk_refused inj-make-gpus "GPUS: a setting must not hold .*found: ;" collect GPU=zz SAMPLES=1 "GPUS=0;touch"
mk_refused inj-make-screen-quote "SCREEN: a setting must not hold a quote" collect GPU=zz SAMPLES=1 "SCREEN=1';>$M/s;'"
mk_refused inj-make-newline "FIT_EXTRA: a setting must not hold a quote, a newline.*found: newline" heuristic GPU=a100 "FIT_EXTRA=$(printf 'a\nb')"
mk_refused inj-make-nvmmh-quote "NVMMH_DIR: a setting must not hold a quote" compare GPU=a100 "NVMMH_DIR=';>$M/nv;'"
mk_refused inj-make-name-changequote "HEURISTIC_NAME='m4_changequote': expected an identifier" heuristic GPU=a100 HEURISTIC_NAME=m4_changequote
cases=$((cases + 1))
GPU="x';>$M/envgpu;'" "${MK[@]}" -n heuristic >/dev/null 2>"$TMP/mk.err"
if [ $? -ne 0 ] && grep -q "GPU: a setting must not hold a quote" "$TMP/mk.err" && no_marker; then ok inj-make-env-gpu-quote
else fail inj-make-env-gpu-quote "$(head -c 200 "$TMP/mk.err")"; rm -f "$M"/*; fi
# every user setting is a row of the registry mk/variables.tsv, whose kinds
# the character check reads: no `NAME ?=` is left in the Makefile or mk/*.mk,
# and make help-all shows every row
missing=$(grep -ho '^[A-Za-z_0-9]\+ *?=' "$ROOT/Makefile" "$ROOT"/mk/*.mk 2>/dev/null | sed 's/ *?=//' | sort -u)
"${MK[@]}" -s help-all >"$TMP/help-all" 2>&1
for v in $(awk -F'\t' '!/^#/ && $1 != "name" && NF { print $1 }' "$ROOT/mk/variables.tsv"); do
	grep -q "^  $v=" "$TMP/help-all" || missing+=" $v(not in help-all)"
done
cases=$((cases + 1))
[ -z "$missing" ] && ok inj-make-settings-listed || fail inj-make-settings-listed "outside the registry: $(echo $missing)"

# ---- P5: feature names --------------------------------------------------------------
sed "s/^feature\t\([0-9]*\)\tn$/feature\t\1\tm4_syscmd(>$(sed 's/[\/&]/\\&/g' <<<"$M")\/p5)/" "$T0" >"$TMP/p5.tsv"
refused inj-feature-numeric-c "p5\.tsv:[0-9]+: feature [0-9]+ 'm4_syscmd\(>.*p5\)': not an mm feature.*no C counterpart" \
	"$TMP/o.c" emit --heuristic-name X --format c -o "$TMP/o.c" "$TMP/p5.tsv"
# the .py is held to the same rule (its get_value would raise KeyError)
refused inj-feature-numeric-py "p5\.tsv:[0-9]+: feature [0-9]+ 'm4_syscmd\(>.*p5\)': not an mm feature.*KeyError" \
	"$TMP/o.py" emit --heuristic-name P5 --format py -o "$TMP/o.py" "$TMP/p5.tsv"
# the C template's own failure message, m4 run on a crafted definition: the
# name is printed, not expanded
cases=$((cases + 1))
printf 'm4_changequote([[,]])m4_changecom()m4_dnl\nm4_define([[MMR_USED]], [[[[,]]]])m4_dnl\nm4_define([[MMR_TREE]], [[MMR_IF_NUM([[\t]], [[m4_esyscmd(>%s/p5t)]], [[1]], [[1.0]])]])m4_dnl\n' "$M" >"$TMP/p5.defs"
if ! m4 -P - "$TPL/heuristic.c.m4" <"$TMP/p5.defs" >/dev/null 2>"$TMP/p5t.err" && no_marker &&
	grep -qF "numeric feature 'm4_esyscmd(>$M/p5t)' has no C counterpart" "$TMP/p5t.err"; then ok inj-template-fail-quoted
else fail inj-template-fail-quoted "$(head -c 200 "$TMP/p5t.err"; ls "$M")"; rm -f "$M"/*; fi

# ---- P6: file names -----------------------------------------------------------------
mkdir -p "$TMP/p6/d"
cp "$T0" "$TMP/p6/d/m4_esyscmd(>pwned4)"
(cd "$TMP/p6" && for f in h c py; do "$BIN/emit" --templates "$TPL" --heuristic-name P6 --format $f \
	-o "_P6.$f" 'd/m4_esyscmd(>pwned4)' 2>>err || exit 1; done)
if [ $? -eq 0 ] && [ ! -e "$TMP/p6/pwned4" ] && [ ! -e "$TMP/p6/d/pwned4" ] &&
	grep -q 'from m4_esyscmd__pwned4_\.' "$TMP/p6/_P6.h"; then inert inj-file-name-input P6 "$TMP/p6"
else cases=$((cases + 1)); fail inj-file-name-input "$(ls "$TMP/p6" | tr '\n' ' ')"; fi
mkdir -p "$TMP/p6o"
cases=$((cases + 1))
if (cd "$TMP/p6o" && "$BIN/emit" --templates "$TPL" --heuristic-name P6 --format c -o 'm4_esyscmd(>pwned5).c' "$T0") &&
	[ ! -e "$TMP/p6o/pwned5" ] && [ -f "$TMP/p6o/m4_esyscmd(>pwned5).c" ]; then ok inj-file-name-output
else fail inj-file-name-output "$(ls "$TMP/p6o" | tr '\n' ' ')"; fi
cp "$L" "$TMP/p6/m4_esyscmd(>pwned6).txt"
cases=$((cases + 1))
if (cd "$TMP/p6" && "$BIN/featurize" -o p6.feat.tsv 'm4_esyscmd(>pwned6).txt' 2>/dev/null) && [ ! -e "$TMP/p6/pwned6" ]; then
	ok inj-file-name-log
else fail inj-file-name-log "$(ls "$TMP/p6" | tr '\n' ' ')"; fi

# ---- P7: deep trees (TREE_MAX_DEPTH 64) ---------------------------------------------
deep_tree() { # DEPTH OUT: a chain m <= j + 0.5, DEPTH tests deep
	awk -v D="$1" 'BEGIN {
		OFS = "\t"
		print "{\"shared_memory\": 166912, \"device_capa\": [8, 0], \"name\": \"mm\", \"numerical_features\": [\"m\", \"k\", \"n\", \"mat1_stride_0\", \"mat1_stride_1\", \"mat2_stride_0\", \"mat2_stride_1\"], \"categorical_features\": [\"mat1_dtype\", \"mat2_dtype\", \"mat1_iscontig\", \"mat2_iscontig\", \"using_tf32\"]}"
		print "param", "criterion", "entropy"; print "param", "max_depth", (D > 64 ? 64 : D)
		print "param", "min_samples_leaf", 1; print "param", "ranking_k", 1; print "param", "confidence_threshold", 0
		print "feature", 0, "m"; print "class", 0, "c1"; print "class", 1, "extern_mm"
		for (j = 0; j < D; j++) {
			print "node", 2 * j, 0, j + 0.5, 2 * j + 1, 2 * j + 2, 2, 2, 2, "0:0.5,1:0.5"
			print "node", 2 * j + 1, -1, -2, -1, -1, 1, 1, 1, "0:1"
		}
		print "node", 2 * D, -1, -2, -1, -1, 1, 1, 1, "1:1"
	}' >"$2"
}
for d in 65 98 10000 100000; do
	deep_tree $d "$TMP/deep$d.tsv"
	refused "inj-deep-$d-emit" "deep$d\.tsv:139: node 129: depth 65 exceeds the cap of 64" "$TMP/o.py" \
		emit --heuristic-name X --format py -o "$TMP/o.py" "$TMP/deep$d.tsv"
	refused "inj-deep-$d-prune" "deep$d\.tsv:139: node 129: depth 65 exceeds the cap of 64" "$TMP/o.tsv" \
		"$BIN/prune" --ranking 1 -o "$TMP/o.tsv" "$TMP/deep$d.tsv"
done
deep_tree 64 "$TMP/deep64.tsv"
mkdir -p "$TMP/deep64"
if emit_all D64 "$TMP/deep64.tsv" "$TMP/deep64"; then inert inj-deep-64-emitted D64 "$TMP/deep64"
else cases=$((cases + 1)); fail inj-deep-64-emitted "$(head -2 "$TMP/deep64/emit.err" | tr '\n' '|')"; fi
# a .py one level deeper than the cap (emit's 64 with one more test)
python3 - "$TMP/deep64/_D64.py" "$TMP/deep65.py" <<'EOF'
import sys
src = open(sys.argv[1]).read().split("\n")
out = []
for i, line in enumerate(src):
    out.append(line)
    if line.strip().startswith("def get_best_choices("):
        body = i + 1
        break
rest = src[body:]
out.append("        if context.get_value('k') <= 0.5:")
out.append("            return [(1.000, 0)]")
out.append("        else:")
out += ["    " + l if l.strip() else l for l in rest]
open(sys.argv[2], "w").write("\n".join(out))
EOF
refused inj-deep-65-import "deep65\.py:[0-9]+: tree deeper than 64 tests" "$TMP/o.tsv" "$BIN/import" -o "$TMP/o.tsv" "$TMP/deep65.py"
printf 'max_depth\tmin_samples_leaf\tcriterion\n65\t1\tentropy\n' >"$TMP/grid65.tsv"
refused inj-deep-65-fit-grid "grid65\.tsv:2: field 'max_depth': expected 0\.\.64" "$TMP/o.tsv" \
	"$BIN/fit" "$FIX/fit/main.feat.tsv" --split none --ranking 1 --grid "$TMP/grid65.tsv" -o "$TMP/o.tsv" --metrics "$TMP/om.tsv"

# ---- P8: the sanitizer build --------------------------------------------------------
if [[ $BIN == */san/bin ]]; then
	cases=$((cases + 1))
	if "$BIN/import" -o "$TMP/imp.tsv" "$FIX/import/tiny.py" 2>/dev/null &&
		"$BIN/prune" --ranking 1 -o "$TMP/imp.pruned.tsv" "$TMP/imp.tsv" 2>"$TMP/san.err" &&
		! grep -q 'runtime error' "$TMP/san.err"; then ok inj-san-prune-imported
	else fail inj-san-prune-imported "$(grep -m1 'runtime error\|ERROR' "$TMP/san.err")"; fi
	cases=$((cases + 1))
	sed 's/^\(node\t0\t[0-9]*\t[^\t]*\t[0-9]*\t\)[0-9]*/\199/' "$T0" >"$TMP/dangling.tsv"
	ASAN_OPTIONS=detect_leaks=1 "$BIN/prune" --ranking 1 -o "$TMP/o.tsv" "$TMP/dangling.tsv" 2>"$TMP/lsan.err"
	if grep -q 'does not exist (dangling' "$TMP/lsan.err" && ! grep -q 'LeakSanitizer' "$TMP/lsan.err"; then
		ok inj-san-tree-read-no-leak
	else fail inj-san-tree-read-no-leak "$(grep -m2 'dangling\|SUMMARY' "$TMP/lsan.err" | tr '\n' '|')"; fi
else
	skip inj-san-prune-imported "BIN is not a sanitizer build (build/san/bin)"
	skip inj-san-tree-read-no-leak "BIN is not a sanitizer build (build/san/bin)"
fi
echo "# injection: 8 paths, $cases cases"
finish
