#!/bin/bash
# t2100-fit.sh — stage `fit`: ranking expansion (§5.2), weighted CART (cart.c),
# min_samples_leaf as count and fraction, entropy vs gini, §5.9 metrics,
# split sizes (§5.3), atomic outputs.  Fixtures in check/fixtures/fit/ (the
# .feat.tsv files are featurize's output of the .txt logs next to them).
#
# main.txt: 8 inputs m = 1..8 (k = n = 16, everything else equal), 3 choices
#   A = extern_mm, B = ...BLOCK-M=16..., C = ...BLOCK-M=32... (class order
#   0, 1, 2 by strcmp):
#     m = 1..4: B 1.0 ms, A 2.0, C 3.0          -> one row  B  (w 1)
#     m = 5..8: C 1.0 ms, A 1.01, B 2.0         -> rows C (w 1) and A (w 1/1.01
#                                                  = 0.990099..., >= 0.98)
#   12 training rows (--split none), weights A 4/1.01 = 3.960396, B 4, C 4,
#   W = 11.960396: root probs A .331126, B .334437, C .334437.
#   Every feature that varies (m, m*k, m*n, arith_intensity) orders the rows
#   alike, so equal-cost candidates tie and the lowest column, m, wins.
# depth 2, msl 1, entropy (and gini gives the same tree):
#   root: m <= 4.5 isolates the pure B rows (cost 0 + 7.96·H(.4975,.5025) =
#   5.517 nats; m <= 5.5 would cost 5.99·H(.165,.668,.167)+5.97·H(.4975,.5025)
#   = 5.12+4.14); gini: -(16/4 + (3.96²+16)/7.96) = -7.98 vs -(5.99·… ) -6.0.
#   left leaf: B 1.0 (4 rows).  right (8 rows, A .4975 C .5025): every split
#   keeps the same proportions (each input has one A and one C row): zero
#   improvement, yet the best valid split is taken (sklearn semantics), the
#   tie going to the lowest threshold m <= 5.5: leaves of 2 and 6 rows, both
#   A .497512, C .502488.                           -> expect_main_d2.nodes
# depth 1, min_samples_leaf 5 (count) = 0.4 (fraction: ceil(0.4·12) = 5):
#   cumulative rows by m: 1 2 3 4 6 8 10 12; only m <= 5.5 (6 | 6) leaves >= 5
#   rows per side: left A .990099/5.990099 = .165289, B 4/5.990099 = .667769,
#   C 1/5.990099 = .166942; right A .497512, C .502488.
#                                                   -> expect_main_msl5.nodes
# depth 1, min_samples_leaf 0.3 = ceil(3.6) = 4 rows, gini: m <= 4.5 allowed
#   (4 | 8)                                         -> expect_main_msl03.nodes
#
# crit.txt: 6 inputs m = 1..6, one near-best choice each (others 2x slower,
#   dropped), labels A A B C A C, unit weights:
#   split after   entropy W·H sum (nats)       gini W·G sum
#   m <= 2.5      0 + 4·H(¼,¼,½) = 4.1589      0 + 4·(1-6/16) = 2.5   <- gini
#   m <= 3.5      3·H(⅔,⅓)·2     = 3.8191 <-   3·(4/9)·2      = 2.667
#   so entropy splits at 3.5 (leaves A ⅔ B ⅓ | A ⅓ C ⅔) and gini at 2.5
#   (leaves A 1 | A ¼ B ¼ C ½).          -> expect_crit_{entropy,gini}.nodes
#
# probe.txt (an extra --data set), evaluated on the depth-2 tree with K = 1:
#   P1 m=1 (leaf B 1.0): A 1.0 (winner), B 1.5, C 2.0.  top-k list [B] +
#      extern_mm appended = [B, A]: top_k_correct; top-1 B wrong (1.5);
#      default speedup A/B = 1/1.5 = .6667 (< 1: default_better)
#   P2 m=2 (leaf B): C 1.0 (winner), B 1.25, A 3.0.  list [B, A], C missing,
#      best listed 1.25: top_k_wrong (1.25); top-1 wrong (1.25); default 3/1.25
#      = 2.4; regret 1.25
#   P3 m=3 (leaf B): C 1.0 (winner), D 1.2 — neither B nor extern_mm measured:
#      top_k_unsure; top-1 unsure (B not available): speedup 1.0; no regret
#   P4 m=7 (leaf A .4975, C .5025): A 1.3, C 1.0 (winner). list [C, A]:
#      correct; top-1 C correct; default 1.3/1.0 = 1.3
#   => total 4, top_k_correct 2, top_k_wrong 1, top_k_unsure 1,
#      wrong_max_speedup_k = wrong_gmean_speedup_k = 1.25, correct 1, wrong 2,
#      unsure 1, wrong_max_speedup 1.5, wrong_gmean sqrt(1.5·1.25) = 1.369306,
#      speedups over default {.6667, 2.4, 1.0, 1.3}: max 2.4, gmean
#      2.08^(1/4) = 1.200925, min .666667; non_default_predictions 3 (B, B, C),
#      default_better 1; regret {1, 1.25, 1}: n 3, none 1, gmean
#      1.25^(1/3) = 1.077217, p95 1.25, max 1.25.
. check/lib.sh
D=$FIX/fit
T=$TMP
if [ ! -x "$BIN/fit" ]; then fail fit "no $BIN/fit"; finish; fi

# fit_nodes NAME FEAT GRID EXPECTED: fit with --split none, compare node records
fit_nodes() {
	if "$BIN/fit" "$D/$2" --split none --ranking 1 --grid "$3" -o "$T/tree.tsv" \
		--metrics "$T/m.tsv" >"$T/out" 2>"$T/err"; then
		grep '^node' "$T/tree.tsv" >"$T/nodes"
		test_cmp "$1" "$D/$4" "$T/nodes"
	else
		fail "$1" "$2 grid $3: exit non-zero: $(grep -v warning "$T/err" | head -1)"
		rm -f "$T/tree.tsv"
	fi
}
fit_nodes fit-d2-entropy main.feat.tsv "$D/grid_d2_entropy.tsv" expect_main_d2.nodes
[ -e "$T/tree.tsv" ] || : >"$T/tree.tsv"
test_cmp fit-d2-entropy-tree-tsv "$D/expect_main_d2_entropy.tsv" "$T/tree.tsv"
printf '2\t1\tgini\n' >"$T/g.tsv"
fit_nodes fit-d2-gini main.feat.tsv "$T/g.tsv" expect_main_d2.nodes
if grep -q "^param	criterion	gini$" "$T/tree.tsv" 2>/dev/null; then ok fit-gini-param
else fail fit-gini-param "gini tree lacks param criterion gini"; fi
fit_nodes fit-msl5-count main.feat.tsv "$D/grid_msl5.tsv" expect_main_msl5.nodes
printf '1\t0.4\tentropy\n' >"$T/g.tsv"
fit_nodes fit-msl0.4-fraction main.feat.tsv "$T/g.tsv" expect_main_msl5.nodes
fit_nodes fit-msl0.3-gini main.feat.tsv "$D/grid_msl03.tsv" expect_main_msl03.nodes
fit_nodes fit-crit-entropy crit.feat.tsv "$D/grid_d1_entropy.tsv" expect_crit_entropy.nodes
fit_nodes fit-crit-gini crit.feat.tsv "$D/grid_d1_gini.tsv" expect_crit_gini.nodes

# metrics of the probe set (hand-computed above)
if "$BIN/fit" "$D/main.feat.tsv" --data probe "$D/probe.feat.tsv" --split none \
	--ranking 1 --grid "$D/grid_d2_entropy.tsv" -o "$T/tree.tsv" \
	--metrics "$T/m.tsv" >"$T/out" 2>"$T/err"; then ok fit-probe-run
else fail fit-probe-run "$(head -1 "$T/err")"; : >"$T/m.tsv"; : >"$T/out"; fi
if head -1 "$T/m.tsv" | grep -q "^set	criterion	max_depth	min_samples_leaf	selected	total	top_k_correct	top_k_wrong	top_k_unsure	wrong_max_speedup_k	wrong_gmean_speedup_k	correct	wrong	unsure	wrong_max_speedup	wrong_gmean_speedup	max_speedup_over_default	gmean_speedup_over_default	max_speedup_default_over_heuristic	non_default_predictions	default_better"; then
	ok fit-metrics-header
else fail fit-metrics-header "metrics header not in FORMATS.md order"; fi
sets=$(cut -f1 "$T/m.tsv" | tr '\n' ' ')
if [ "$sets" = "set train val test probe " ]; then ok fit-metrics-sets
else fail fit-metrics-sets "metrics sets not train val test probe: $sets"; fi
want="set=probe selected=1 total=4 top_k_correct=2 top_k_wrong=1 top_k_unsure=1
wrong_max_speedup_k=1.25 wrong_gmean_speedup_k=1.25 correct=1 wrong=2 unsure=1
wrong_max_speedup=1.5 wrong_gmean_speedup=1.3693063937629153
max_speedup_over_default=2.4 gmean_speedup_over_default=1.2009248561777692
max_speedup_default_over_heuristic=0.66666666666666667 non_default_predictions=3
default_better=1 regret_n=3 regret_none=1 regret_gmean=1.0772173450159419
regret_p95=1.25 regret_max=1.25"
bad=$(awk -F'\t' -v want="$want" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$1 == "probe" {
		n = split(want, w, /[ \n]+/)
		for (j = 1; j <= n; j++) {
			split(w[j], kv, "=")
			if (!(kv[1] in col)) { print "no column " kv[1]; continue }
			got = $(col[kv[1]])
			if (kv[1] == "set") { if (got != kv[2]) print kv[1] "=" got; continue }
			d = got - kv[2]; if (d < 0) d = -d
			if (d > 1e-12 * (kv[2] < 0 ? -kv[2] : kv[2]) + 1e-15) print kv[1] "=" got " (want " kv[2] ")"
		}
		found = 1
	}
	END { if (!found) print "no probe row" }' "$T/m.tsv" | head -3 | tr '\n' ' ')
if [ -z "$bad" ]; then ok fit-probe-metrics; else fail fit-probe-metrics "$bad"; fi
if grep -q '^probe ' "$T/out"; then ok fit-probe-stdout; else fail fit-probe-stdout "stdout table lacks the probe row"; fi
# the timing line tells elapsed time from task time summed over threads
if grep -q '^fit: time: read [0-9.]* s, grid [0-9.]* s elapsed on [0-9]* threads\{0,1\} (task time summed over threads: fit [0-9.]* s, eval [0-9.]* s)$' "$T/err"; then ok fit-timing-line
else fail fit-timing-line "no timing line on stderr: $(grep 'time:' "$T/err")"; fi
# ... and --help says it as it is (S: seconds, N: threads)
doc=$("$BIN/fit" --help | tr '\n' ' ' | sed -n "s/.*one timing line '\([^']*\)'.*/\1/p" | tr -s ' ')
pat=$(printf '%s' "$doc" | sed 's/[().]/\\&/g; s/ S s/ [0-9.]+ s/g; s/ N threads/ [0-9]+ threads?/')
if [ -n "$doc" ] && grep -Eq "^$pat\$" "$T/err"; then ok fit-timing-help
else fail fit-timing-help "--help: '$doc' does not describe: $(grep 'time:' "$T/err")"; fi
# --ranking above the number of classes: said (every list holds every class)
"$BIN/fit" "$D/main.feat.tsv" --split none --ranking 4 -o "$T/w.tree" --metrics "$T/w.m" >/dev/null 2>"$T/w.err"
grep -q "warning: --ranking 4 is more than the 3 classes (choices) of the training set: every top-4 list holds all of them" "$T/w.err" &&
	ok fit-ranking-above-classes-warned || fail fit-ranking-above-classes-warned "$(head -c 300 "$T/w.err")"
"$BIN/fit" "$D/main.feat.tsv" --split none --ranking 3 -o "$T/w.tree" --metrics "$T/w.m" >/dev/null 2>"$T/w.err"
! grep -q "warning: --ranking" "$T/w.err" && ok fit-ranking-classes-quiet || fail fit-ranking-classes-quiet "$(grep warning "$T/w.err")"

# §5.3 split sizes, by input: 8 inputs -> test ceil(.08) = 1,
# val ceil(.19/.99·7) = 2, train 5 (stderr summary, printed before fitting)
"$BIN/fit" "$D/main.feat.tsv" --split group -o "$T/g.tree" --metrics "$T/g.m" \
	>/dev/null 2>"$T/err"
if grep -q 'sets: train 5 val 2 test 1$' "$T/err"; then ok fit-group-split-sizes
else fail fit-group-split-sizes "$(grep sets: "$T/err")"; fi
# by rows: 12 rows -> test 1, val ceil(.19/.99·11) = 3, train 8 rows
"$BIN/fit" "$D/main.feat.tsv" --split rows -o "$T/r.tree" --metrics "$T/r.m" \
	>/dev/null 2>"$T/err"
if grep -q 'training set 8 rows' "$T/err"; then ok fit-row-split-size
else fail fit-row-split-size "$(grep sets: "$T/err")"; fi

# --test-fold F/K (ours): K = 4 blocks of the 8 inputs' permutation, 2 test
# inputs each (val ceil(.19/.75·6) = 2, train 4); the 4 test sets are
# disjoint and cover every input; 0/4 is --test-fraction 0.25's split
: >"$T/tests"
for f in 0 1 2 3; do
	if "$BIN/fit" "$D/main.feat.tsv" --split group --select hit --test-fold $f/4 --write-split "$T/f$f.split" \
		-o "$T/f.tree" --metrics "$T/f.m" >/dev/null 2>"$T/err"; then
		if grep -q 'sets: train 4 val 2 test 2$' "$T/err"; then ok "fit-test-fold-$f/4-sizes"
		else fail "fit-test-fold-$f/4-sizes" "$(grep sets: "$T/err")"; fi
		awk -F'\t' '$2 == "test" {print $1}' "$T/f$f.split" >>"$T/tests"
	else
		fail "fit-test-fold-$f/4-sizes" "exit non-zero: $(head -1 "$T/err")"
		: >"$T/f$f.split"
	fi
done
folds=$(sort -n "$T/tests" | tr '\n' ' ')
if [ "$folds" = "0 1 2 3 4 5 6 7 " ]; then ok fit-test-fold-partition
else fail fit-test-fold-partition "--test-fold folds do not partition the inputs: $folds"; fi
"$BIN/fit" "$D/main.feat.tsv" --split group --select hit --test-fraction 0.25 --write-split "$T/q.split" \
	-o "$T/f.tree" --metrics "$T/f.m" >/dev/null 2>&1 || : >"$T/q.split"
test_cmp fit-test-fold-0/4-is-test-fraction-0.25 "$T/f0.split" "$T/q.split"
for bad in 4/4 -1/4 1/1 1/ x/4 1/4x " 1/4" "1/ 4" +1/4 1/101; do
	expect_error "fit-test-fold-refuses-'$bad'" "--test-fold: expected F/K" "$T/x.tree" \
		"$BIN/fit" "$D/main.feat.tsv" --split group --test-fold "$bad" -o "$T/x.tree" --metrics "$T/x.m"
done
# 8 inputs in 100 folds: fold 99 = [ceil(792/100), ceil(800/100)) = [8, 8) is empty
expect_error fit-test-fold-empty "--test-fold 99/100: the fold holds no input \(8 inputs for 100 folds\)" "$T/x.tree" \
	"$BIN/fit" "$D/main.feat.tsv" --split group --select hit --test-fold 99/100 -o "$T/x.tree" --metrics "$T/x.m"
expect_error fit-test-fold-needs-group "--test-fold needs --split group" "$T/x.tree" \
	"$BIN/fit" "$D/main.feat.tsv" --test-fold 1/4 -o "$T/x.tree" --metrics "$T/x.m"
expect_error fit-test-fold-and-fraction "give one" "$T/x.tree" \
	"$BIN/fit" "$D/main.feat.tsv" --split group --test-fold 1/4 --test-fraction 0.1 -o "$T/x.tree" --metrics "$T/x.m"

# errors: non-zero exit, file named, nothing left behind (neither output)
no_metrics() { if [ -e "$T/x.m" ]; then fail "$1-no-metrics" "metrics left behind after an error"; else ok "$1-no-metrics"; fi; }
rm -f "$T/x.tree" "$T/x.m"
expect_error fit-missing-input "missing\.feat\.tsv" "$T/x.tree" \
	"$BIN/fit" "$T/missing.feat.tsv" -o "$T/x.tree" --metrics "$T/x.m"
no_metrics fit-missing-input
printf '1\t1\tcart\n' >"$T/bad.grid"
expect_error fit-bad-grid "bad\.grid:1: field 'criterion'" "$T/x.tree" \
	"$BIN/fit" "$D/main.feat.tsv" --grid "$T/bad.grid" -o "$T/x.tree" --metrics "$T/x.m"
no_metrics fit-bad-grid
expect_error fit-log-as-feat "crit\.txt" "$T/x.tree" \
	"$BIN/fit" "$D/main.feat.tsv" --data probe "$D/crit.txt" -o "$T/x.tree" --metrics "$T/x.m"
no_metrics fit-log-as-feat
# no model qualifies: fit dies writing none of its outputs, and a previous
# run's files stay byte for byte (the split and dump are committed with the tree)
for f in x.tree x.m x.split x.dump; do echo old >"$T/$f"; done
"$BIN/fit" "$D/main.feat.tsv" --grid mm -o "$T/x.tree" --metrics "$T/x.m" --write-split "$T/x.split" \
	--dump-train "$T/x.dump" >/dev/null 2>"$T/err"; rc=$?
changed=
for f in x.tree x.m x.split x.dump; do [ "$(cat "$T/$f")" = old ] || changed+=" $f"; done
if [ $rc -ne 1 ] || ! grep -q 'no model qualifies' "$T/err"; then
	fail fit-no-model-writes-nothing "exit status $rc: $(head -c 300 "$T/err")"
elif [ -n "$changed" ]; then fail fit-no-model-writes-nothing "changed:$changed"
else ok fit-no-model-writes-nothing; fi
if "$BIN/fit" --help | grep -q '^usage: fit'; then ok fit-help; else fail fit-help "--help lacks the synopsis"; fi
finish
