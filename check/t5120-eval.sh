#!/bin/bash
# t5120-eval.sh — stage `eval` (spec §5.9 ranking metrics, §7.3 use) on a
# hand-made tree and a 3-input log whose metrics are computed by hand.
#   small.tree.tsv  m <= 100 -> leaf 1: type=a .5, type=b .25, type=c .15,
#                   type=d .1 (type=d never measured); else leaf 2 without
#                   probabilities (unsafe).  Class order differs from the
#                   log's first-seen order (matching is by name).
#   small.txt       input 0 (m=10):  c .8, extern 1.0, a .5, b .4 -> winner b
#                   input 1 (m=20):  extern .3, a .6, c .9        -> winner extern
#                   input 2 (m=200): extern 2.0, a 1.0            -> winner a
# By hand (list = first k measured ranked choices + extern_mm):
#   k=1: lists [a,ext] [a,ext] [ext]: hits 1/3; regret .5/.4=1.25, 1, 2
#        (gmean 2.5^(1/3), p95 = max = 2); speedup over extern 1/.5=2, .3/.3=1,
#        2/2=1 (gmean 2^(1/3), max 2)
#   k=2,3: input 0 list [a,b(,c),ext] -> hit, regret 1, speedup 1/.4=2.5:
#        hits 2/3, regret gmean 2^(1/3), speedup gmean 2.5^(1/3), max 2.5
#   input 2 is unsafe and has no ranked measured choice.
# The curve and --ranked: by hand below.
. check/lib.sh
F=$FIX/eval

"$BIN/eval" --help | grep -q '^usage: eval' && ok eval-help || fail eval-help "--help lacks the synopsis"

if ! "$BIN/featurize" -o "$TMP/small.feat.tsv" "$F/small.txt" 2>"$TMP/err"; then
	fail eval-featurize "$(head -1 "$TMP/err")"; finish; fi

if "$BIN/eval" --k 1,2,3 -o "$TMP/e.tsv" --ranks "$TMP/r.tsv" "$F/small.tree.tsv" \
	S="$TMP/small.feat.tsv" >"$TMP/out" 2>"$TMP/err"; then
	ok eval-run
	# columns by name
	check_row() { # NAME K COL=VALUE...
		local name=$1 k=$2; shift 2
		awk -F'\t' -v k="$k" -v want="$*" '
			NR==1 {for(i=1;i<=NF;i++) col[$i]=i; next}
			$3==k {found=1; n=split(want,w," "); for(j=1;j<=n;j++){split(w[j],kv,"=");
				v=$(col[kv[1]]); d=v-kv[2]; if(d<0)d=-d;
				if(!(kv[1] in col) || d>1e-9){print kv[1] "=" v " want " kv[2]; bad=1}}}
			END {if(!found){print "no row k=" k; exit 1} exit bad}' "$TMP/e.tsv" >"$TMP/why" &&
			ok "$name" || fail "$name" "$(tr '\n' ' ' <"$TMP/why")"
	}
	check_row eval-k1 1 inputs=3 skipped=0 unsafe=1 no_ranked=1 hit_rate=0.33333333333333331 \
		regret_gmean=1.3572088082974532 regret_p95=2 regret_max=2 \
		speedup_n=3 speedup_gmean=1.2599210498948732 speedup_max=2 \
		top_k_correct=1 top_k_wrong=2 total=3 correct=0 wrong=2 unsure=1
	check_row eval-k2 2 inputs=3 hit_rate=0.66666666666666663 regret_gmean=1.2599210498948732 \
		regret_max=2 speedup_gmean=1.3572088082974532 speedup_max=2.5 top_k_correct=2
	check_row eval-k3 3 hit_rate=0.66666666666666663 regret_gmean=1.2599210498948732 speedup_max=2.5
	awk -F'\t' 'NR>1{print $1, $2}' "$TMP/e.tsv" | sort -u >"$TMP/names"
	echo "small.tree S" >"$TMP/want"
	test_cmp eval-names "$TMP/want" "$TMP/names"
	# pick: a tree without param leaf_pick picks its list's first class
	printf '%s\n' "small.tree	S	0	1	type=b	1,2,3,4	1" "small.tree	S	1	1	extern_mm	1,2,3,4	1" \
		"small.tree	S	2	2	type=a		-1" >"$TMP/want"
	tail -n +2 "$TMP/r.tsv" >"$TMP/got"
	test_cmp eval-ranks "$TMP/want" "$TMP/got"
	grep -Eq '^small.tree +S +3 +1 +33\.33%' "$TMP/out" && ok eval-table || fail eval-table "$(head -2 "$TMP/out" | tr '\n' '|')"
	# the overlap of choice ids: type=a, b, c of the set are tree classes
	# (type=d is the tree's only), extern_mm aside
	grep -qx "# choices: tree 'small.tree' ranks 3 of the 3 choice ids of set 'S' (extern_mm aside)" "$TMP/out" &&
		ok eval-vocabulary-overlap || fail eval-vocabulary-overlap "$(grep '^# choices' "$TMP/out")"
	# every column is explained: in the legend above the table and in --help
	cols=$(grep -m1 '^tree ' "$TMP/out")
	"$BIN/eval" --help >"$TMP/help"
	why=
	for c in $cols; do
		case $c in tree|set) continue ;; esac
		grep '^# ' "$TMP/out" | grep -q "\b$c\b" || why+=" legend:$c"
		grep -Eq "^  ([a-z0-9_]+, )*$c(,| )" "$TMP/help" || why+=" help:$c"
	done
	[ -z "$why" ] && ok eval-columns-explained || fail eval-columns-explained "not explained:$why"
else
	fail eval-run "exit non-zero: $(head -1 "$TMP/err")"
fi

# default k list is 1, 5, --ranking; two trees side by side
if "$BIN/eval" --ranking 7 -o "$TMP/e2.tsv" --tree one="$F/small.tree.tsv" --tree two="$F/small.tree.tsv" \
	"$TMP/small.feat.tsv" >/dev/null 2>"$TMP/err"; then
	got=$(awk -F'\t' 'NR>1{printf "%s/%s/%s ", $1, $2, $3}' "$TMP/e2.tsv")
	[ "$got" = "one/small/1 one/small/5 one/small/7 two/small/1 two/small/5 two/small/7 " ] &&
		ok eval-klist || fail eval-klist "rows: $got"
else fail eval-klist "exit non-zero: $(head -1 "$TMP/err")"; fi

# a tree that ranks none of a set's choice ids (another candidate family):
# every list would be extern_mm alone, the same at every k -- refused
sed 's/^class\t\([0-9]*\)\ttype=/class\t\1\tother=/' "$F/small.tree.tsv" >"$TMP/other.tsv"
expect_error eval-vocabulary-none "tree 'other' ranks none of the 3 choice ids of set 'small' \(extern_mm aside\): it lists e.g. 'other=a', the set has e.g. 'type=.'; every list would be extern_mm alone" \
	"$TMP/bad.tsv" "$BIN/eval" -o "$TMP/bad.tsv" "$TMP/other.tsv" "$TMP/small.feat.tsv"

# the curve (--curve, stages/learn/curve.h), by hand:
#   first, the pick alone (this tree has none: the first ranked measured
#   choice, extern_mm if none; head the same):
#     input 0 a (.5/.4 = 1.25), input 1 a (.6/.3 = 2), input 2 (unsafe, no
#     list) extern_mm (2/1 = 2): no hit, regret gmean 5^(1/3), max 2
#   k = 1: as eval-k1 (hits 1/3, 2.5^(1/3)); k = 2..10: as eval-k2 (2/3,
#     2^(1/3))
# --ranked r:S (a ranks TSV, stages/FORMATS.md) ranks input 0 c, extern_mm;
# input 1 d (never measured), c; input 2 nothing:
#   first: c (.8/.4 = 2), c (.9/.3 = 3), extern_mm (2): 12^(1/3), no hit
#   k >= 1: [c ext] 2, [c ext] 1 (hit), [ext] 2: 1/3, 4^(1/3)
printf 'input\tm\tk\tn\tranking\n0\t10\t64\t64\ttype=c,extern_mm\n1\t20\t64\t64\ttype=d,type=c\n2\t200\t64\t64\t\n' >"$TMP/r.ranks.tsv"
if "$BIN/eval" --curve "$TMP/c.tsv" --tree t="$F/small.tree.tsv" --ranked r:S="$TMP/r.ranks.tsv" \
	S="$TMP/small.feat.tsv" >"$TMP/cout" 2>"$TMP/err"; then
	curve_row() { # NAME TREE K HIT REGRET [MAX]
		awk -F'\t' -v t="$2" -v k="$3" -v h="$4" -v g="$5" -v m="${6:-}" '
			$1 == t && $3 == k { f = 1; d1 = $5 - h; d2 = $6 - g; d3 = m == "" ? 0 : $7 - m
				if (d1 * d1 + d2 * d2 + d3 * d3 > 1e-18 || $4 != 3) { print $0; bad = 1 } }
			END { exit !f || bad }' "$TMP/c.tsv" >"$TMP/why" && ok "$1" || fail "$1" "$(cat "$TMP/why")"
	}
	curve_row eval-curve-first t first 0 1.7099759466766968 2
	curve_row eval-curve-k1 t 1 0.33333333333333331 1.3572088082974532 2
	curve_row eval-curve-k2 t 2 0.66666666666666663 1.2599210498948732
	curve_row eval-curve-k10 t 10 0.66666666666666663 1.2599210498948732
	curve_row eval-ranked-first r first 0 2.2894284851066637 3
	curve_row eval-ranked-k1 r 1 0.33333333333333331 1.5874010519681994
	curve_row eval-ranked-k10 r 10 0.33333333333333331 1.5874010519681994
	# head, the list head alone: first's own figures here (neither the tree,
	# which has no param leaf_pick, nor the ranks TSV has picks)
	curve_row eval-curve-head t head 0 1.7099759466766968 2
	curve_row eval-ranked-head r head 0 2.2894284851066637 3
	[ "$(wc -l <"$TMP/c.tsv")" = 27 ] && head -1 "$TMP/c.tsv" | grep -qx \
		'tree	set	k	inputs	hit_rate	regret_gmean	regret_max	regret_none	mean_k' &&
		grep -Eq '^r +S +3 +0\.00% +2\.289428' "$TMP/cout" && ok eval-curve-file ||
		fail eval-curve-file "$(head -2 "$TMP/c.tsv" | tr '\n' '|') $(grep '^r ' "$TMP/cout")"
else
	fail eval-curve "exit non-zero: $(head -1 "$TMP/err")"
fi
# a ranks TSV of another set: refused, naming file:line: field
sed '3s/^1\t20\t/1\t21\t/' "$TMP/r.ranks.tsv" >"$TMP/r2.ranks.tsv"
expect_error eval-ranked-other-set "r2.ranks.tsv:3: field 'm': 21, input 1 of set 'S' has 20" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" --tree t="$F/small.tree.tsv" --ranked r:S="$TMP/r2.ranks.tsv" S="$TMP/small.feat.tsv"
head -3 "$TMP/r.ranks.tsv" >"$TMP/r3.ranks.tsv"
expect_error eval-ranked-count "r3.ranks.tsv: 2 inputs, set 'S' has 3" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" --tree t="$F/small.tree.tsv" --ranked r:S="$TMP/r3.ranks.tsv" S="$TMP/small.feat.tsv"
sed '2s/^0/5/' "$TMP/r.ranks.tsv" >"$TMP/r4.ranks.tsv"
expect_error eval-ranked-order "r4.ranks.tsv:2: field 'input': expected 0" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" --tree t="$F/small.tree.tsv" --ranked r:S="$TMP/r4.ranks.tsv" S="$TMP/small.feat.tsv"
expect_error eval-ranked-noset "no set named 'X'" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" --tree t="$F/small.tree.tsv" --ranked r:X="$TMP/r.ranks.tsv" S="$TMP/small.feat.tsv"
expect_error eval-ranked-syntax "expected NAME:SET=FILE" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" --tree t="$F/small.tree.tsv" --ranked r="$TMP/r.ranks.tsv" S="$TMP/small.feat.tsv"

# errors: no partial output
sed 's/^feature\t1\tarith_intensity$/feature\t1\tbogus/' "$F/small.tree.tsv" >"$TMP/bogus.tsv"
expect_error eval-err-feature "tree 'bogus' feature 'bogus'" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" "$TMP/bogus.tsv" "$TMP/small.feat.tsv"
expect_error eval-err-k "--k: expected" "$TMP/bad.tsv" \
	"$BIN/eval" --k 1,x -o "$TMP/bad.tsv" "$F/small.tree.tsv" "$TMP/small.feat.tsv"
expect_error eval-err-noset "no data set" "$TMP/bad.tsv" "$BIN/eval" -o "$TMP/bad.tsv" "$F/small.tree.tsv"
expect_error eval-err-badtree "small.txt:2: unknown record kind" "$TMP/bad.tsv" \
	"$BIN/eval" -o "$TMP/bad.tsv" "$F/small.txt" "$TMP/small.feat.tsv"
# two sets (or trees) of one name would make ambiguous rows: refused
mkdir -p "$TMP/d1" "$TMP/d2"
"$BIN/featurize" -o "$TMP/d1/main.feat.tsv" "$F/small.txt" 2>/dev/null
cp "$TMP/d1/main.feat.tsv" "$TMP/d2/main.feat.tsv"
expect_error eval-duplicate-set-name "two sets named 'main' \\('.*d1/main.feat.tsv' and '.*d2/main.feat.tsv'\\)" "$TMP/dup.tsv" \
	"$BIN/eval" -o "$TMP/dup.tsv" "$F/small.tree.tsv" "$TMP/d1/main.feat.tsv" main="$TMP/d2/main.feat.tsv"
expect_error eval-duplicate-tree-name "two trees named 'a'" "$TMP/dup.tsv" \
	"$BIN/eval" -o "$TMP/dup.tsv" --tree a="$F/small.tree.tsv" --tree a="$F/small.tree.tsv" "$TMP/d1/main.feat.tsv"
# stages/FORMATS.md describes the files eval writes, column for column: the
# eval TSV's own columns (then the metrics TSV's), the ranks and curve headers
fmt_cols() { # SECTION-HEADING-PREFIX: the first column of that section's first table
	awk -F'|' -v h="$1" 'index($0, h) == 1 { on = 1; next } on && /^## / { exit }
		on && /^\| `/ { n = split($2, a, ","); for (i = 1; i <= n; i++) { c = a[i]; gsub(/[ `|]/, "", c); printf "%s ", c } }' \
		"$ROOT/stages/FORMATS.md"
}
mcols=$(fmt_cols "## metrics TSV" | sed 's/^set criterion max_depth min_samples_leaf selected //')
want="$(fmt_cols "## eval TSV")$mcols"
got="$(head -1 "$TMP/e.tsv" | tr '\t' ' ') "
[ "$got" = "$want" ] && ok eval-formats-eval-tsv || fail eval-formats-eval-tsv "FORMATS.md '$want', eval '$got'"
want=$(fmt_cols "## eval ranks TSV"); got="$(head -1 "$TMP/r.tsv" | tr '\t' ' ') "
[ "$got" = "$want" ] && ok eval-formats-ranks-tsv || fail eval-formats-ranks-tsv "FORMATS.md '$want', eval '$got'"
grep -q "^## curve TSV (\`eval --curve\` output" "$ROOT/stages/FORMATS.md" && ok eval-formats-curve ||
	fail eval-formats-curve "no curve TSV section"
# a set that cannot be opened is refused before the table's first line
test_expect_success 'eval-missing-set-before-any-output' '
	! "$BIN/eval" "$F/small.tree.tsv" "$TMP/small.feat.tsv" "$TMP/nope.feat.tsv" >"$TMP/ms.out" 2>"$TMP/ms.err" &&
	grep -q "cannot open .*nope.feat.tsv" "$TMP/ms.err" && [ ! -s "$TMP/ms.out" ]'
finish
