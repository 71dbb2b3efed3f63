#!/usr/bin/env bash
# Mixed devices: a set whose metadata name another device
# (shared_memory, device_capa) than the main set's is refused by
# featurize --categories, fit and eval; featurize and eval take
# --cross-device for a deliberate cross-device evaluation and then say so.
# H100 and H200 report the same metadata (232448, (9, 0)): accepted.
# `make eval LOG=` passes CROSS_DEVICE=1 on, and a tree that ranks none of
# a log's choice ids is refused there too (item 4).
. check/lib.sh
A100_LOG=$FIX/fit/main.txt           # 166912, (8, 0)
H_LOG=$TMP/h.txt                     # its rows as if measured on an H100: 232448, (9, 0)
sed '1s/"shared_memory": 166912, "device_capa": \[8, 0\]/"shared_memory": 232448, "device_capa": [9, 0]/' "$A100_LOG" >"$H_LOG"
"$BIN/featurize" -o "$TMP/a100.feat.tsv" "$A100_LOG" 2>/dev/null &&
	"$BIN/featurize" -o "$TMP/h.feat.tsv" "$H_LOG" 2>/dev/null || { fail device-setup "featurize failed"; finish; }

# featurize --categories: refused, or accepted with --cross-device (said)
expect_error device-featurize-categories \
	"h.txt: collected on another device than the main set .*a100.feat.tsv: shared_memory 232448, device_capa \(9, 0\) \(H100 or H200\), not shared_memory 166912, device_capa \(8, 0\) \(A100\); to evaluate across devices on purpose, give --cross-device" \
	"$TMP/x.feat.tsv" "$BIN/featurize" --categories "$TMP/a100.feat.tsv" -o "$TMP/x.feat.tsv" "$H_LOG"
if "$BIN/featurize" --categories "$TMP/a100.feat.tsv" --cross-device -o "$TMP/x.feat.tsv" "$H_LOG" 2>"$TMP/err" &&
	grep -q "warning: cross-device (--cross-device): .*h.txt (shared_memory 232448, device_capa (9, 0) (H100 or H200)) takes the categories of .*a100.feat.tsv (shared_memory 166912" "$TMP/err" &&
	[ "$(head -1 "$TMP/x.feat.tsv")" = "$(head -1 "$H_LOG")" ]; then ok device-featurize-cross-device
else fail device-featurize-cross-device "$(head -c 300 "$TMP/err")"; fi

# fit: an extra set of another device is never trained on
expect_error device-fit-extra-set \
	"h.feat.tsv: collected on another device than the main set .*a100.feat.tsv: shared_memory 232448, device_capa \(9, 0\) \(H100 or H200\), not shared_memory 166912, device_capa \(8, 0\) \(A100\) \(a heuristic learns one device's timings" \
	"$TMP/t.tsv" "$BIN/fit" "$TMP/a100.feat.tsv" --data train_timm "$TMP/h.feat.tsv" --split none -o "$TMP/t.tsv" --metrics "$TMP/m.tsv"
[ -e "$TMP/m.tsv" ] && fail device-fit-no-metrics "metrics written" || ok device-fit-no-metrics

# eval: a tree of another device is refused, or evaluated on purpose (said
# on stdout, above the rows, and on stderr)
"$BIN/fit" "$TMP/a100.feat.tsv" --split none -o "$TMP/a100.tree.tsv" --metrics "$TMP/am.tsv" >/dev/null 2>&1 ||
	{ fail device-eval-setup "fit failed"; finish; }
expect_error device-eval "set 'h' \(.*h.feat.tsv\): collected on another device than tree 'a100.tree' \(.*a100.tree.tsv\): .* give --cross-device" \
	"$TMP/e.tsv" "$BIN/eval" -o "$TMP/e.tsv" "$TMP/a100.tree.tsv" "$TMP/h.feat.tsv"
"$BIN/featurize" --categories "$TMP/a100.feat.tsv" --cross-device -o "$TMP/hx.feat.tsv" "$H_LOG" 2>/dev/null
if "$BIN/eval" --cross-device -o "$TMP/e.tsv" "$TMP/a100.tree.tsv" "$TMP/hx.feat.tsv" >"$TMP/e.out" 2>"$TMP/err" &&
	grep -q "^# cross-device (--cross-device): tree 'a100.tree' of shared_memory 166912, device_capa (8, 0) (A100) evaluated on set 'hx' of shared_memory 232448, device_capa (9, 0) (H100 or H200)$" "$TMP/e.out" &&
	grep -q "warning: cross-device evaluation: tree 'a100.tree'" "$TMP/err" &&
	[ "$(awk -F'\t' 'NR > 1' "$TMP/e.tsv" | wc -l)" = 3 ] && ! grep -q "^# cross-device" "$TMP/e.tsv"; then ok device-eval-cross-device
else fail device-eval-cross-device "$(head -c 300 "$TMP/err")"; fi

# H100 and H200: one metadata line, one device (the official H100 train_hf
# set next to the committed H200 collection)
MIRROR=$DATASET_DIR
if test_skip_unless DATASET,UNZIP device-h100-h200-accepted; then
	xz -dc "$ROOT/datasets/h200nvrtc/h200_seed2026_uncapped.txt.xz" | "$BIN/featurize" -o "$TMP/h200.feat.tsv" - 2>/dev/null
	unzip -p "$MIRROR/h100_mm.zip" h100/h100_hf_train_mm.txt |
		"$BIN/featurize" --categories "$TMP/h200.feat.tsv" -o "$TMP/h100hf.feat.tsv" - 2>"$TMP/err" &&
		"$BIN/fit" "$TMP/h200.feat.tsv" --data train_hf "$TMP/h100hf.feat.tsv" --split rows -o "$TMP/hh.tree.tsv" \
			--metrics "$TMP/hh.tsv" >/dev/null 2>>"$TMP/err" &&
		grep -q '^train_hf' "$TMP/hh.tsv" && ! grep -q 'another device' "$TMP/err" &&
		ok device-h100-h200-accepted || fail device-h100-h200-accepted "$(head -c 300 "$TMP/err")"
fi

# make eval: CROSS_DEVICE=1 reaches featurize and eval; a log of other
# candidates (triton ids, the tree's are nvrtc) is refused with the overlap
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out" GPU=h200nvrtc PROFILE=reference)
"${MK[@]}" heuristic >"$TMP/h.log" 2>&1 || { fail device-make-setup "$(tail -3 "$TMP/h.log")"; finish; }
# the first inputs of the H200 collection as if measured on an A100
xz -dc "$ROOT/datasets/h200nvrtc/h200_seed2026_uncapped.txt.xz" | head -400 |
	sed '1s/"shared_memory": 232448, "device_capa": \[9, 0\]/"shared_memory": 166912, "device_capa": [8, 0]/' >"$TMP/a100log.txt"
"${MK[@]}" eval LOG="$TMP/a100log.txt" >"$TMP/m.out" 2>"$TMP/m.err" && fail device-make-eval "exit 0" ||
	{ grep -q "a100log.txt: collected on another device than the main set .*give --cross-device (make eval: CROSS_DEVICE=1)" "$TMP/m.err" &&
		ok device-make-eval || fail device-make-eval "$(head -c 300 "$TMP/m.err")"; }
"${MK[@]}" eval LOG="$TMP/a100log.txt" CROSS_DEVICE=1 >"$TMP/m.out" 2>"$TMP/m.err" &&
	grep -q "^# cross-device (--cross-device): tree 'pruned' of shared_memory 232448.* evaluated on set 'a100log' of shared_memory 166912" "$TMP/m.out" &&
	ok device-make-eval-cross-device || fail device-make-eval-cross-device "$(head -c 300 "$TMP/m.err")"
cp "$FIX/featurize/small.txt" "$TMP/triton.txt"
"${MK[@]}" eval LOG="$TMP/triton.txt" >"$TMP/m.out" 2>"$TMP/m.err" && fail device-make-eval-vocabulary "exit 0" ||
	{ grep -q "tree 'pruned' ranks none of the 2 choice ids of set 'triton' (extern_mm aside): it lists e.g. 'type=nvrtc_.*', the set has e.g. 'type=triton_" "$TMP/m.err" &&
		ok device-make-eval-vocabulary || fail device-make-eval-vocabulary "$(head -c 300 "$TMP/m.err")"; }
# make eval's featurized LOG is cached by the log's absolute path: a second
# log of the same name in another folder (older than the first's cache) is
# featurized anew; the first log spelt relative to the checkout reuses its own
mkdir -p "$TMP/la" "$TMP/lb"
xz -dc "$ROOT/datasets/h200nvrtc/h200_seed2026_uncapped.txt.xz" | head -400 >"$TMP/la/x.txt"
xz -dc "$ROOT/datasets/h200nvrtc/h200_seed2026_uncapped.txt.xz" | head -1000 >"$TMP/lb/x.txt"
touch -d '2001-01-01' "$TMP/lb/x.txt"
total() { # eval.tsv's total of set x
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i } $2 == "x" { print $h["total"]; exit }' "$TMP/out/h200nvrtc/eval.tsv"
}
"${MK[@]}" eval LOG="$TMP/la/x.txt" >/dev/null 2>"$TMP/m.err" && ta=$(total) || ta="failed: $(head -c 200 "$TMP/m.err")"
"${MK[@]}" eval LOG="$TMP/lb/x.txt" >/dev/null 2>"$TMP/m.err" && tb=$(total) || tb="failed: $(head -c 200 "$TMP/m.err")"
rel=$(realpath --relative-to="$ROOT" "$TMP/la/x.txt")
"${MK[@]}" eval LOG="$rel" >/dev/null 2>"$TMP/m.err" && tr=$(total) || tr="failed: $(head -c 200 "$TMP/m.err")"
if [[ $ta =~ ^[0-9]+$ && $tb =~ ^[0-9]+$ ]] && [ "$ta" -gt 0 ] && [ "$tb" -gt "$ta" ] && [ "$tr" = "$ta" ]; then
	ok device-make-eval-log-cache-by-path
else fail device-make-eval-log-cache-by-path "totals of x: la '$ta', lb '$tb' (more inputs), la spelt '$rel' '$tr'"; fi
finish
