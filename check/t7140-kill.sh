#!/usr/bin/env bash
# check/t7140-kill.sh — interrupted runs: SIGKILL each CPU stage (featurize,
# merge, fit, prune, emit: those present in $BIN) at random moments and check
# that (1) its output folder then holds no partial or temporary file (every
# file there is a complete output, byte-identical to an uninterrupted run's)
# and (2) a rerun produces outputs byte-identical to the uninterrupted run.
# Inputs: the official H100 log (${DATASET_MIRROR:-../shared/datasets}/
# h100_mm.zip, unzipped into $TMP) and a synthetic full tree, so that every
# stage runs >= 50 ms.  KILL_TRIALS trials per stage (default 5, 25 in all),
# KILL_SEED seeds the delays (default: random, printed on failure).
. check/lib.sh
TRIALS=${KILL_TRIALS:-5}
SEED=${KILL_SEED:-$((RANDOM * 32768 + RANDOM))}
RANDOM=$SEED
test_require DATASET,UNZIP kill
ZIP=$DATASET_DIR/h100_mm.zip
IN=$TMP/in
mkdir -p "$IN"
unzip -q -o -j "$ZIP" h100/h100_mm.txt h100/h100_timm_train_mm.txt -d "$IN" ||
	{ fail kill-setup "cannot unzip $ZIP"; finish; }

now_ms() { echo $(($(date +%s%N) / 1000000)); }

# stage_cmd STAGE DIR — set CMD (array) for STAGE writing into DIR, and
# OUTS (output file names).  Returns 1 if the stage (or its input) is absent.
stage_cmd() {
	local d=$2
	[ -x "$BIN/$1" ] || return 1
	case $1 in
	featurize) CMD=("$BIN/featurize" -o "$d/main.feat.tsv" "$IN/h100_mm.txt"); OUTS=(main.feat.tsv) ;;
	merge) CMD=("$BIN/merge" -o "$d/merged.txt" "$IN/h100_timm_train_mm.txt" "$IN/h100_timm_train_mm.txt" "$IN/h100_mm.txt")
		OUTS=(merged.txt) ;;
	fit) [ -s "$IN/timm.feat.tsv" ] || return 1
		CMD=("$BIN/fit" "$IN/main.feat.tsv" --data train_timm "$IN/timm.feat.tsv" --grid mm
		     -o "$d/tree.tsv" --metrics "$d/metrics.tsv")
		OUTS=(tree.tsv metrics.tsv) ;;
	prune) [ -s "$IN/big.tree.tsv" ] || return 1
		CMD=("$BIN/prune" --ranking 10 -o "$d/pruned.tsv" "$IN/big.tree.tsv"); OUTS=(pruned.tsv) ;;
	emit) [ -s "$IN/big.tree.tsv" ] || return 1
		CMD=("$BIN/emit" --heuristic-name MMRankingH100 --format c --templates "$ROOT/templates"
		     -o "$d/_MMRankingH100.c" "$IN/big.tree.tsv"); OUTS=(_MMRankingH100.c) ;;
	esac
}

# Inputs of the later stages: the main and TIMM feat TSVs, and a full binary tree of
# depth 14 over the real tree's features and classes (numeric features only,
# so emit accepts every split).
"$BIN/featurize" -o "$IN/main.feat.tsv" "$IN/h100_mm.txt" 2>/dev/null &&
	"$BIN/featurize" --categories "$IN/main.feat.tsv" -o "$IN/timm.feat.tsv" "$IN/h100_timm_train_mm.txt" 2>/dev/null
if [ -x "$BIN/fit" ] && "$BIN/fit" "$IN/main.feat.tsv" -o "$IN/tree.tsv" --metrics "$IN/m.tsv" >/dev/null 2>&1; then
	awk -F'\t' -v D=14 '
	# every node: 16 classes at p = 1/16 (exact), n_labels 16 >= k, so
	# pruning at k = 10 keeps the whole tree
	function gen(d,   i, l, r) {
		i = nid++
		if (d == D) { row[i] = sprintf("-1\t-2\t-1\t-1\t1\t1\t16\t%s", P); return 1 }
		l = nid; a = gen(d + 1); r = nid; b = gen(d + 1)
		row[i] = sprintf("%d\t%d.5\t%d\t%d\t%d\t%d\t16\t%s", i % 11, i, l, r, a + b, a + b, P)
		return a + b
	}
	$1 != "node" { print; if ($1 == "class") nc++ }
	END { P = "0:0.0625"; for (c = 1; c < 16; c++) P = P "," c ":0.0625"
	      gen(0); for (i = 0; i < nid; i++) printf "node\t%d\t%s\n", i, row[i] }' \
		"$IN/tree.tsv" > "$IN/big.tree.tsv"
fi

total=0
for stage in featurize merge fit prune emit; do
	ref=$TMP/ref/$stage; d=$TMP/run/$stage
	mkdir -p "$ref" "$d"
	if ! stage_cmd "$stage" "$ref"; then skip "kill-$stage" "no $BIN/$stage or its input"; continue; fi
	t0=$(now_ms)
	if ! "${CMD[@]}" >/dev/null 2>"$TMP/err"; then
		fail "kill-$stage" "uninterrupted run failed: $(head -c 300 "$TMP/err")"; continue; fi
	dur=$(($(now_ms) - t0))
	[ "$dur" -ge 50 ] || echo "# kill-$stage: the uninterrupted run took only $dur ms"
	stage_cmd "$stage" "$d"
	killed=0 done=0 bad=
	for ((t = 1; t <= TRIALS; t++)); do
		rm -rf "$d"; mkdir -p "$d"
		delay=$((RANDOM % (dur + 1)))
		"${CMD[@]}" >/dev/null 2>&1 &
		pid=$!
		sleep "$(printf '%d.%03d' $((delay / 1000)) $((delay % 1000)))"
		kill -KILL "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		rc=$?
		if [ $rc -eq 137 ]; then killed=$((killed + 1))
		elif [ $rc -eq 0 ]; then done=$((done + 1))
		else bad+="trial $t: exit status $rc; "; continue; fi
		# (1) nothing partial: every file is a complete, identical output
		for f in "$d"/* "$d"/.[!.]*; do
			[ -e "$f" ] || continue
			n=${f##*/}
			if [[ " ${OUTS[*]} " != *" $n "* ]]; then bad+="trial $t (kill at ${delay} ms): stray file $n; "
			elif ! cmp -s "$f" "$ref/$n"; then bad+="trial $t (kill at ${delay} ms): partial $n; "; fi
		done
		# (2) a rerun gives the uninterrupted run's outputs
		if ! "${CMD[@]}" >/dev/null 2>"$TMP/err"; then
			bad+="trial $t: rerun failed: $(head -c 200 "$TMP/err"); "; continue; fi
		for n in "${OUTS[@]}"; do
			cmp -s "$d/$n" "$ref/$n" || bad+="trial $t (kill at ${delay} ms): rerun $n differs; "
		done
	done
	total=$((total + TRIALS))
	if [ -n "$bad" ]; then fail "kill-$stage" "KILL_SEED=$SEED: $bad"
	else ok "kill-$stage ($TRIALS trials: $killed killed, $done finished first; run $dur ms)"; fi
done
[ $total -ge 20 ] || echo "# kill: only $total trials"
finish
