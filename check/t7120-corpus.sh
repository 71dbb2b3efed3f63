#!/usr/bin/env bash
# check/t7120-corpus.sh — malformed-input corpus (check/corpus/, listed with
# the expected exit status and stderr regex in check/corpus/expect.tsv).
# Every case: no crash (signal), no hang (timeout), the exact exit status,
# the message, and on an error no output left behind (expect_error).
# Then value checks for the valid edge cases, and a streaming test: a 10^7-row
# log through merge and featurize within a stated memory bound.
. check/lib.sh
C=$ROOT/check/corpus
TO=${CORPUS_TIMEOUT:-20}

# exact_rc WANT CMD... — run CMD under a timeout; if its status is not WANT,
# say so first on stderr (expect_error shows the start of stderr).
exact_rc() {
	local want=$1; shift
	timeout -k 2 "$TO" "$@" 2>"$TMP/case.err"
	local rc=$?
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
		echo "HANG: no exit after ${TO}s" >&2; cat "$TMP/case.err" >&2; return 124
	fi
	if [ $rc -ne "$want" ] && [ $rc -lt 128 ]; then
		echo "exit status $rc, expected $want:" >&2
	fi
	cat "$TMP/case.err" >&2
	return $rc
}

# case_cmd FILE — set OUT and CMD (array) for a corpus file, by suffix.
case_cmd() {
	local f=$C/$1
	OUT=$TMP/out/$1.out
	case $1 in
	*.feat.tsv) [ -x "$BIN/fit" ] || return 1
		CMD=("$BIN/fit" "$f" --split none -o "$OUT" --metrics "$TMP/out/metrics.tsv") ;;
	*.tree.tsv) [ -x "$BIN/prune" ] || return 1
		CMD=("$BIN/prune" --ranking 10 -o "$OUT" "$f") ;;
	*.shapes.tsv) [ -x "$BIN/shapes" ] || return 1
		CMD=("$BIN/shapes" --from-list -o "$OUT" "$f") ;;
	*.shapes.log) [ -x "$BIN/shapes" ] || return 1
		CMD=("$BIN/shapes" --from-log -o "$OUT" "$f") ;;
	*.models.tsv) [ -x "$BIN/shapes" ] || return 1
		CMD=("$BIN/shapes" --from-models -o "$OUT" "$f") ;;
	*.cats.tsv) [ -x "$BIN/featurize" ] || return 1
		CMD=("$BIN/featurize" --categories "$f" -o "$OUT" "$C/base.log") ;;
	*.merge) [ -x "$BIN/merge" ] || return 1
		CMD=("$BIN/merge" -o "$OUT" "$C/base.log" "$f") ;;
	*.log) [ -x "$BIN/featurize" ] || return 1
		CMD=("$BIN/featurize" -o "$OUT" "$f") ;;
	*.py) [ -x "$BIN/import" ] || return 1
		CMD=("$BIN/import" -o "$OUT" "$f") ;;
	*) return 2 ;;
	esac
}

mkdir -p "$TMP/out"
n=0
while IFS=$'\t' read -r file want pat; do
	case $file in ''|'#'*) continue ;; esac
	n=$((n + 1))
	name=corpus-${file%%.*}
	[ -e "$C/$file" ] || { fail "$name" "missing case file check/corpus/$file"; continue; }
	case_cmd "$file"; st=$?
	[ $st -eq 2 ] && { fail "$name" "unknown suffix"; continue; }
	[ $st -eq 1 ] && { skip "$name" "no ${CMD[0]##*/} stage binary in $BIN"; continue; }
	if [ "$want" -ne 0 ]; then
		expect_error "$name" "$pat" "$OUT" exact_rc "$want" "${CMD[@]}"
		continue
	fi
	rm -f "$OUT"
	exact_rc 0 "${CMD[@]}" >/dev/null 2>"$TMP/stderr"; rc=$?
	if [ $rc -ne 0 ]; then fail "$name" "exit status $rc: $(head -c 300 "$TMP/stderr")"
	elif ! grep -Eq -- "$pat" "$TMP/stderr"; then fail "$name" "stderr does not match /$pat/: $(head -c 300 "$TMP/stderr")"
	elif [ ! -s "$OUT" ]; then fail "$name" "no output"
	else ok "$name"; fi
done < "$C/expect.tsv"
# every corpus file is listed, and vice versa
listed=$(grep -v '^#' "$C/expect.tsv" | cut -f1 | grep . | sort)
present=$(cd "$C" && ls | grep -vx expect.tsv | sort)
[ "$listed" = "$present" ] && ok "corpus-manifest ($n cases)" ||
	fail corpus-manifest "files and expect.tsv differ: $(comm -3 <(echo "$listed") <(echo "$present") | tr '\n' ' ')"

# ---- value checks of the valid edge cases -------------------------------------
O=$TMP/out
col() { # FILE COLUMN-NAME: that column of the data rows, space-separated
	awk -F'\t' -v c="$2" 'NR == 2 {for (i = 1; i <= NF; i++) if ($i == c) k = i}
		NR > 2 {printf "%s ", $k}' "$1"
}
# m*k*n = 1000003*999983*1000033 ~ 1.00002e18 > 2^53: accepted with exact
# arithmetic; m*k etc. are exact 64-bit integers, arith_intensity is the
# correctly rounded quotient of exact integers (Python int / int).
if [ -s "$O/dim-product-2p53.log.out" ]; then
	got="$(col "$O/dim-product-2p53.log.out" 'm*k' | cut -d' ' -f1) $(col "$O/dim-product-2p53.log.out" arith_intensity | cut -d' ' -f1)"
	want="999985999949 333335.4443037053"   # python3: '%.17g' % (m*k*n / (m*k+k*n+m*n))
	[ "$got" = "$want" ] && ok corpus-value-product-2p53 || fail corpus-value-product-2p53 "'$got' != '$want'"
fi
if [ -s "$O/no-final-newline.log.out" ] && [ -s "$O/base.log.out" ]; then
	test_cmp corpus-value-no-final-newline "$O/base.log.out" "$O/no-final-newline.log.out"
fi
if [ -s "$O/feedback-inf.log.out" ]; then
	got="$(col "$O/feedback-inf.log.out" median_ms)/$(col "$O/feedback-inf.log.out" winner)"
	[ "$got" = "0.10000000000000001 inf 1.5 0.5 /1 0 0 1 " ] && ok corpus-value-feedback-inf ||
		fail corpus-value-feedback-inf "median/winner: $got"
fi
if [ -s "$O/all-inf.log.out" ]; then
	got="$(col "$O/all-inf.log.out" median_ms)/$(col "$O/all-inf.log.out" winner)"
	[ "$got" = "inf inf inf /1 0 0 " ] && ok corpus-value-all-inf || fail corpus-value-all-inf "median/winner: $got"
fi
if [ -s "$O/merge-no-final-newline.merge.out" ]; then
	# base.log's 4 rows, then the unterminated file's 4 rows, newline added
	{ cat "$C/base.log"; tail -n +3 "$C/merge-no-final-newline.merge"; echo; } > "$TMP/merge.want"
	test_cmp corpus-value-merge-final-newline "$TMP/merge.want" "$O/merge-no-final-newline.merge.out"
fi

# ---- streaming: a 10^7-row log -------------------------------------------------
# merge streams (constant memory).  featurize keeps one (pair id, time) per
# measurement (16 bytes, arrays grown by doubling) plus 8 bytes per
# measurement for the medians, so its bound is per row: measured 24 B/row
# (242 MB max RSS for 1.024e7 rows, release and ASan builds alike; merge
# 1.5 MB release, 7 MB ASan); asserted: merge < 64 MiB, featurize < 72 B/row
# + 64 MiB.  Set CORPUS_BIG_ROWS to change the size.
ROWS=${CORPUS_BIG_ROWS:-10240000}
if ! test_skip_unless TIME corpus-big-log; then
	:
elif [ ! -x "$BIN/featurize" ] || [ ! -x "$BIN/merge" ]; then
	skip corpus-big-log "no featurize/merge in $BIN"
elif [ "$(df -Pk "$TMP" | awk 'NR == 2 {print $4}')" -lt $((ROWS / 1024 * 200)) ]; then
	skip corpus-big-log "less than $((ROWS / 1024 * 200 / 1024)) MiB free in $TMP"
else
	big=$TMP/big.txt
	# 1000 inputs x 10 choices per block of 10^4 rows, doubled up to ROWS
	{
		head -2 "$C/base.log"   # mm's metadata and header (only mm logs are read)
	} > "$big"
	awk 'BEGIN {for (m = 1; m <= 1000; m++) for (c = 0; c < 10; c++)
		printf "%d,8,16,torch.float32,torch.float32,8,1,16,1,True,True,False,c%d,0.%d\n",
		    m, c, (m * 7 + c) % 9 + 1}' > "$TMP/block"
	rows=10000
	while [ $((rows * 2)) -le "$ROWS" ]; do cat "$TMP/block" "$TMP/block" > "$TMP/block2"; mv "$TMP/block2" "$TMP/block"; rows=$((rows * 2)); done
	cat "$TMP/block" >> "$big"; rm -f "$TMP/block"
	rss() { awk -F': ' '/Maximum resident set size/ {print $2}' "$1"; }  # KiB
	/usr/bin/time -v "$BIN/merge" -o "$TMP/merged.txt" "$big" "$big" 2>"$TMP/merge.time" >/dev/null
	rc=$?; kb=$(rss "$TMP/merge.time")
	lines=$(wc -l < "$TMP/merged.txt" 2>/dev/null)
	if [ $rc -ne 0 ]; then fail corpus-big-merge "exit status $rc: $(head -c 300 "$TMP/merge.time")"
	elif [ "$lines" -ne $((2 + 2 * rows)) ]; then fail corpus-big-merge "$lines lines, expected $((2 + 2 * rows))"
	elif [ "$kb" -ge 65536 ]; then fail corpus-big-merge "max RSS $kb KiB for 2 x $rows rows (bound 64 MiB)"
	else ok "corpus-big-merge (2 x $rows rows, max RSS $kb KiB)"; fi
	rm -f "$TMP/merged.txt"
	/usr/bin/time -v "$BIN/featurize" -o "$TMP/big.tsv" "$big" 2>"$TMP/feat.time"
	rc=$?; kb=$(rss "$TMP/feat.time")
	bound=$((rows * 72 / 1024 + 65536))
	if [ $rc -ne 0 ]; then fail corpus-big-featurize "exit status $rc: $(grep -v '^	' "$TMP/feat.time" | head -c 300)"
	elif ! grep -q "$rows measurements, 1000 inputs (1000 kept), 10 choices" "$TMP/feat.time"; then
		fail corpus-big-featurize "unexpected summary: $(grep '^featurize' "$TMP/feat.time")"
	elif [ "$(wc -l < "$TMP/big.tsv")" -ne 10002 ]; then fail corpus-big-featurize "$(wc -l < "$TMP/big.tsv") output lines, expected 10002"
	elif [ "$kb" -ge "$bound" ]; then fail corpus-big-featurize "max RSS $kb KiB > bound $bound KiB ($rows rows)"
	else ok "corpus-big-featurize ($rows rows, max RSS $kb KiB = $((kb * 1024 / rows)) B/row, bound $bound KiB)"; fi
fi
finish
