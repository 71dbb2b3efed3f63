#!/usr/bin/env bash
# check/t7100-inplace.sh — no stage overwrites its own input: when an output
# (-o, fit's --metrics/--write-split/--save-dot/--dump-train, eval's
# --ranks, merge's OUTPUT) names an input file, under the same spelling, a
# different one (./x) or through a symbolic link, the stage must exit 1 with
# "output '...' is also an input" and leave the input byte for byte as it
# was (util.h check_output_not_input).  Two outputs of one run naming one
# file are refused the same way (check_outputs_distinct), before anything is
# written.  An output that is a device or a FIFO is written in place, never
# replaced by a regular file, and "-o -" is standard output (util.h aout),
# except in fit and eval, whose report is there (opts.h stdout_use).
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

# two outputs at one path: refused, nothing written (not even the other one)
two() { # NAME CMD...: CMD names one file as two outputs (t.tsv or x.tsv)
	local name=$1; shift
	rm -f t.tsv x.tsv m.tsv
	"$@" >"$TMP/stdout" 2>"$TMP/stderr"
	local rc=$?
	if [ $rc -ne 1 ]; then fail "$name" "exit status $rc, expected 1: $(head -c 300 "$TMP/stderr")"
	elif ! grep -Eq "two outputs cannot be one file; nothing written" "$TMP/stderr"; then
		fail "$name" "stderr: $(head -c 300 "$TMP/stderr")"
	elif [ -e t.tsv ] || [ -e x.tsv ] || [ -e m.tsv ]; then fail "$name" "an output was written"
	else ok "$name"; fi
}
two fit-two-dot "$BIN/fit" main.feat.tsv -o t.tsv --save-dot t.tsv --grid mm --metrics m.tsv
two fit-two-metrics "$BIN/fit" main.feat.tsv -o t.tsv --metrics ./t.tsv --grid mm
two fit-two-split "$BIN/fit" main.feat.tsv -o t.tsv --metrics m.tsv --write-split "$W/m.tsv" --grid mm
two fit-two-dump "$BIN/fit" main.feat.tsv -o t.tsv --metrics m.tsv --dump-train t.tsv --grid mm
two eval-two-curve "$BIN/eval" -o x.tsv --curve x.tsv tree.tsv main.feat.tsv
two eval-two-ranks "$BIN/eval" -o x.tsv --ranks ./x.tsv tree.tsv main.feat.tsv
two sample-two-stdout "$BIN/sample" -o - -
grep -q -- "-o and OUTPUT are both '-'" "$TMP/stderr" && ok sample-two-stdout-message ||
	fail sample-two-stdout-message "$(head -c 300 "$TMP/stderr")"
# fit and eval print their report on stdout: none of their outputs may be '-'
for c in "fit main.feat.tsv -o - --metrics m.tsv|-o -: standard output carries fit's report (the table of models)" \
	"fit main.feat.tsv -o t.tsv --metrics -|--metrics -: standard output carries fit's report (the table of models)" \
	"eval -o - tree.tsv main.feat.tsv|-o -: standard output carries eval's table" \
	"eval --ranks - tree.tsv main.feat.tsv|--ranks -: standard output carries eval's table"; do
	n=$((${n:-0} + 1))
	rm -f t.tsv m.tsv
	# shellcheck disable=SC2086
	if "$BIN"/${c%%|*} >"$TMP/stdout" 2>"$TMP/stderr"; then fail "stdout-taken: ${c%%|*}" "exit status 0"
	elif ! grep -q -- "${c#*|}; give a file" "$TMP/stderr" || [ -s "$TMP/stdout" ] || [ -e t.tsv ] || [ -e m.tsv ]; then
		fail "stdout-taken: ${c%%|*}" "$(head -c 300 "$TMP/stderr")"
	else ok "stdout-taken-${c%% *}-$n"; fi
done
: >x.tsv && ln x.tsv hard.tsv && rm -f t.tsv
if "$BIN/eval" -o x.tsv --curve hard.tsv tree.tsv main.feat.tsv >/dev/null 2>"$TMP/stderr"; then
	fail eval-two-hard-link "exit status 0"
else grep -q "one file: two outputs" "$TMP/stderr" && ok eval-two-hard-link ||
	fail eval-two-hard-link "$(head -c 300 "$TMP/stderr")"; fi
rm -f x.tsv hard.tsv

# outputs that are not regular files: written in place, never replaced
"$BIN/prune" --ranking 2 -o want.tsv tree.tsv 2>/dev/null
mkfifo pipe
cat pipe >got.tsv &
reader=$!
"$BIN/prune" --ranking 2 -o pipe tree.tsv 2>"$TMP/stderr"
rc=$?
wait $reader
if [ $rc -ne 0 ]; then fail out-fifo "exit status $rc: $(head -c 300 "$TMP/stderr")"
elif [ "$(stat -c %F pipe)" != fifo ]; then fail out-fifo "pipe is now a $(stat -c %F pipe)"
elif ! cmp -s want.tsv got.tsv; then fail out-fifo "the reader got other bytes than -o FILE"
else ok out-fifo; fi
if mknod null c 1 3 2>/dev/null && [ "$(echo x >null 2>/dev/null && wc -c <null)" = 0 ]; then
	if ! "$BIN/prune" --ranking 2 -o null tree.tsv 2>"$TMP/stderr"; then
		fail out-char-device "$(head -c 300 "$TMP/stderr")"
	elif [ "$(stat -c %F null)" != "character special file" ]; then
		fail out-char-device "the device node is now a $(stat -c %F null)"
	else ok out-char-device; fi
else skip out-char-device "cannot make a working device node here (not root, or nodev)"; fi
# -o -: standard output, no file named '-'
if "$BIN/prune" --ranking 2 -o - tree.tsv >stdout.tsv 2>"$TMP/stderr" && cmp -s want.tsv stdout.tsv && [ ! -e ./- ]; then
	ok out-dash-stdout
else fail out-dash-stdout "$(head -c 300 "$TMP/stderr")$([ -e ./- ] && echo ", a file '-' was made")"; fi
# a regular destination is still replaced atomically (a new inode)
cp want.tsv reg.tsv && ino=$(stat -c %i reg.tsv)
"$BIN/prune" --ranking 2 -o reg.tsv tree.tsv 2>/dev/null
[ "$(stat -c %i reg.tsv)" != "$ino" ] && cmp -s want.tsv reg.tsv && ok out-regular-replaced ||
	fail out-regular-replaced "inode $ino kept or content differs"
# an output whose folder is missing, or that is a folder: refused before
# any work (fit would otherwise train first and fail at the write)
if "$BIN/fit" main.feat.tsv --grid mm -o nodir/t.tsv --metrics m2.tsv >/dev/null 2>"$TMP/stderr"; then
	fail out-missing-folder "exit status 0"
elif ! grep -q "^fit: -o 'nodir/t.tsv': folder 'nodir' does not exist; nothing was run" "$TMP/stderr" ||
	grep -q "heuristic" "$TMP/stderr" || [ -e m2.tsv ]; then
	fail out-missing-folder "$(head -c 300 "$TMP/stderr")"
else ok out-missing-folder; fi
mkdir -p adir
if "$BIN/prune" --ranking 2 -o adir tree.tsv 2>"$TMP/stderr"; then fail out-is-folder "exit status 0"
elif ! grep -q "prune: -o 'adir' is a folder: give a file name; nothing was run" "$TMP/stderr"; then
	fail out-is-folder "$(head -c 300 "$TMP/stderr")"
else ok out-is-folder; fi
finish
