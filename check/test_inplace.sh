#!/usr/bin/env bash
# check/test_inplace.sh — no stage overwrites its own input: when an output
# (-o, fit's --metrics/--write-split/--save-dot/--dump-train, eval's
# --ranks, merge's OUTPUT) names an input file, under the same spelling, a
# different one (./x) or through a symbolic link, the stage must exit 1 with
# "output '...' is also an input" and leave the input byte for byte as it
# was (util.h check_output_not_input).
. check/lib.sh

# same NAME FILE CMD... — FILE is an input of CMD and also named as an
# output; CMD must fail with the message and FILE must be unchanged.
same() {
	local name=$1 file=$2; shift 2
	cp "$file" "$TMP/orig"
	"$@" >"$TMP/stdout" 2>"$TMP/stderr"
	local rc=$?
	if [ $rc -ne 1 ]; then fail "$name" "exit status $rc, expected 1: $(head -c 300 "$TMP/stderr")"
	elif ! grep -Eq "output '[^']*' is also an input" "$TMP/stderr"; then
		fail "$name" "stderr: $(head -c 300 "$TMP/stderr")"
	elif ! cmp -s "$TMP/orig" "$file"; then fail "$name" "the input was changed"
	else ok "$name"; fi
}

W=$TMP/w
mkdir -p "$W"
cd "$W" || exit 1
cp "$FIX/featurize/small.txt" log.txt
cp "$FIX/fit/main.feat.tsv" main.feat.tsv
cp "$FIX/fit/main.feat.tsv" extra.feat.tsv
cp "$FIX/fit/grid_d1_gini.tsv" grid.tsv
cp "$FIX/tree/tree.tsv" tree.tsv
cp "$FIX/import/tiny.py" tiny.py
ln -s log.txt link.txt

same featurize-same log.txt "$BIN/featurize" -o log.txt log.txt
same featurize-dot-slash log.txt "$BIN/featurize" -o ./log.txt log.txt
same featurize-symlink log.txt "$BIN/featurize" -o link.txt log.txt
same featurize-abs-path log.txt "$BIN/featurize" -o "$W/log.txt" log.txt
same featurize-categories main.feat.tsv "$BIN/featurize" --categories main.feat.tsv -o ./main.feat.tsv log.txt
same fit-o main.feat.tsv "$BIN/fit" main.feat.tsv -o ./main.feat.tsv --metrics m.tsv
same fit-metrics main.feat.tsv "$BIN/fit" main.feat.tsv -o t.tsv --metrics main.feat.tsv
same fit-data extra.feat.tsv "$BIN/fit" main.feat.tsv --data timm extra.feat.tsv -o t.tsv --metrics m.tsv --write-split ./extra.feat.tsv
same fit-grid grid.tsv "$BIN/fit" main.feat.tsv --grid grid.tsv -o t.tsv --metrics m.tsv --save-dot grid.tsv
same prune tree.tsv "$BIN/prune" --ranking 2 -o ./tree.tsv tree.tsv
same emit tree.tsv "$BIN/emit" --heuristic-name H --format py --templates "$ROOT/templates" -o tree.tsv ./tree.tsv
same eval-tree tree.tsv "$BIN/eval" -o ./tree.tsv tree.tsv main.feat.tsv
same eval-set main.feat.tsv "$BIN/eval" -o x.tsv --ranks main.feat.tsv tree.tsv m=./main.feat.tsv
same import tiny.py "$BIN/import" -o ./tiny.py tiny.py
same merge log.txt "$BIN/merge" -o ./log.txt "$FIX/featurize/small.txt" log.txt
same merge-symlink log.txt "$BIN/merge" -o link.txt "$FIX/featurize/small.txt" log.txt
# no false alarm: a distinct output next to the input is fine
if "$BIN/featurize" -o log.feat.tsv ./log.txt 2>"$TMP/stderr" && [ -s log.feat.tsv ]; then
	ok featurize-distinct-output
else fail featurize-distinct-output "$(head -c 300 "$TMP/stderr")"; fi
if "$BIN/fit" main.feat.tsv --grid mm --split none --select regret -o mm --metrics m.tsv >/dev/null 2>"$TMP/stderr" && [ -s mm ]; then
	ok fit-output-named-like-builtin-grid
else fail fit-output-named-like-builtin-grid "$(head -c 300 "$TMP/stderr")"; fi
finish
