#!/usr/bin/env bash
# t1130-readpath.sh — featurize's fast read path: the log out of
# a zip (libzip for the archive, ISA-L inflate, CRC checked), exact feedback parsing and %.17g medians
# (ahlog.c parse_ms, g17.c) against Python's float() and '%.17g', errors on
# rows whose features repeat the previous row's (not parsed again), the
# block reader's '\r'/NUL checks and a line longer than a block, and
# stages/sh/par.sh (parallel commands, output in order).
. check/lib.sh
[ -x "$BIN/featurize" ] || { fail readpath "no $BIN/featurize"; finish; }
F=$FIX/featurize

# ---- zip members -------------------------------------------------------------
python3 - "$F/small.txt" "$TMP" <<'EOF'
import sys, zipfile
src, tmp = sys.argv[1], sys.argv[2]
with zipfile.ZipFile(f"{tmp}/d.zip", "w", zipfile.ZIP_DEFLATED) as z:
    z.write(src, "g/small.txt")
with zipfile.ZipFile(f"{tmp}/s.zip", "w", zipfile.ZIP_STORED) as z:
    z.write(src, "g/small.txt")
# stored, one feedback digit changed: only the CRC can tell
b = bytearray(open(f"{tmp}/s.zip", "rb").read())
i = b.rfind(b"0.25")
b[i + 3] = ord("6")
open(f"{tmp}/crc.zip", "wb").write(bytes(b))
# deflated (inflated by ISA-L): the CRC in both headers off by one; and
# the compressed data cut short (sizes kept: the stream ends early)
d = bytearray(open(f"{tmp}/d.zip", "rb").read())
for sig, off in ((b"PK\x03\x04", 14), (b"PK\x01\x02", 16)):
    j = d.find(sig) + off
    d[j] ^= 1
open(f"{tmp}/dcrc.zip", "wb").write(bytes(d))
d = bytearray(open(f"{tmp}/d.zip", "rb").read())
lh = d.find(b"PK\x03\x04")
start = lh + 30 + int.from_bytes(d[lh + 26:lh + 28], "little") + int.from_bytes(d[lh + 28:lh + 30], "little")
csize = int.from_bytes(d[lh + 18:lh + 22], "little")
d[start + csize // 2:start + csize] = bytes(csize - csize // 2)  # the second half zeroed
open(f"{tmp}/dcut.zip", "wb").write(bytes(d))
EOF
"$BIN/featurize" -o "$TMP/file.tsv" "$F/small.txt" 2>/dev/null
for z in d s; do
	"$BIN/featurize" --zip "$TMP/$z.zip" -o "$TMP/$z.tsv" g/small.txt 2>"$TMP/$z.err"
	test_cmp readpath-zip-$z "$TMP/file.tsv" "$TMP/$z.tsv"
done
grep -q "^featurize: $TMP/d.zip:g/small.txt: " "$TMP/d.err" && ok readpath-zip-default-name ||
	fail readpath-zip-default-name "$(cat "$TMP/d.err")"
"$BIN/featurize" --zip "$TMP/d.zip" --label 'x.zip:small' -o "$TMP/l.tsv" g/small.txt 2>"$TMP/l.err"
grep -q "^featurize: x.zip:small: " "$TMP/l.err" && ok readpath-zip-label || fail readpath-zip-label "$(cat "$TMP/l.err")"
expect_error readpath-zip-crc "crc.zip:g/small.txt.: CRC error" "$TMP/o.tsv" \
	"$BIN/featurize" --zip "$TMP/crc.zip" -o "$TMP/o.tsv" g/small.txt
expect_error readpath-zip-deflate-crc "dcrc.zip:g/small.txt.: CRC error" "$TMP/o.tsv" \
	"$BIN/featurize" --zip "$TMP/dcrc.zip" -o "$TMP/o.tsv" g/small.txt
expect_error readpath-zip-deflate-damaged "dcut.zip:g/small.txt.: (damaged|CRC error)" "$TMP/o.tsv" \
	"$BIN/featurize" --zip "$TMP/dcut.zip" -o "$TMP/o.tsv" g/small.txt
expect_error readpath-zip-no-member "cannot read 'g/none.txt' from $TMP/d.zip \(missing or damaged zip: No such file" \
	"$TMP/o.tsv" "$BIN/featurize" --zip "$TMP/d.zip" -o "$TMP/o.tsv" g/none.txt
echo 'not a zip' >"$TMP/bad.zip"
expect_error readpath-zip-not-zip "cannot read 'g/small.txt' from $TMP/bad.zip \(missing or damaged zip: Not a zip archive" \
	"$TMP/o.tsv" "$BIN/featurize" --zip "$TMP/bad.zip" -o "$TMP/o.tsv" g/small.txt
expect_error readpath-zip-is-output "" "$TMP/d.zip.x" \
	"$BIN/featurize" --zip "$TMP/d.zip" -o "$TMP/d.zip" g/small.txt
[ -s "$TMP/d.zip" ] && ok readpath-zip-not-overwritten || fail readpath-zip-not-overwritten "d.zip emptied"

# ---- feedback parsing and medians: exact -------------------------------------
# Input i has choices a (one measurement: its text, median = that value) and
# b (two measurements: median = their mean), so featurize's median_ms column
# is %.17g of float(text), resp. of (x + y) / 2, which Python computes
# exactly.  The texts: repr of random doubles of every magnitude, random
# digit strings up to 22 digits (dot anywhere, leading zeros), exponents,
# inf, decimal ties between two doubles (2^53 + 1, ...) and decimals next to
# such ties.
python3 - "$F/small.txt" "$TMP/num.txt" "$TMP/num.expect" <<'EOF'
import random, struct, sys
random.seed(7)
head = open(sys.argv[1]).read().splitlines()[:2]
texts = ["9007199254740993", "9007199254740993.0", "9007199254740993.1", "9007199254740992.9",
         "18014398509481987", "0.30000000000000004", "1e-05", "1.5E+2", "inf", "0.1", "1.", ".5",
         "00012.5", "0.000000000000000000000001", "1234567890123456789", "12345678901234567890",
         "0.99999999999999999999", "4.35", "123456789012345678.9"]
# 19-digit decimals within half a 64-bit ulp of a midpoint between two
# doubles (not on it): a long double rounds them onto the midpoint, so a
# second rounding alone would go to even, right only half of the time
from fractions import Fraction
import math
while len(texts) < 200:
    d = 1 + random.getrandbits(52) / 2 ** 52
    M = Fraction(d) + Fraction(1, 2 ** 53)
    m = round(M * 10 ** 18)
    x = Fraction(m, 10 ** 18)
    if x != M and abs(x - M) < Fraction(1, 2 ** 64):
        t = str(m)
        texts.append(t[0] + "." + t[1:])
for _ in range(3000):
    r = random.random()
    if r < 0.4:
        v = random.uniform(0, 1) * 10 ** random.randint(-8, 18)
        texts.append(repr(v) if v > 0 else "1.0")
    elif r < 0.5:
        bits = random.getrandbits(64) & 0x7fefffffffffffff
        v = struct.unpack("<d", struct.pack("<Q", bits))[0]
        texts.append(repr(v) if v > 1e-300 else "2.0")
    else:
        nd = random.randint(1, 22)
        d = str(random.randint(1, 9)) + "".join(random.choice("0123456789") for _ in range(nd - 1))
        lead = "0" * random.randint(0, 3)
        p = random.randint(0, nd)
        texts.append(lead + d[:p] + "." + d[p:] if p < nd else lead + d)
feat = lambda i: f"{i + 1},{i + 2},{i + 3},torch.float16,torch.float16,{i + 2},1,{i + 3},1,True,True,not_float_32"
out, exp = [*head], []
for i, t in enumerate(texts):
    x, y = random.random() * 10, random.random()
    out += [f"{feat(i)},a,{t}", f"{feat(i)},b,{x!r}", f"{feat(i)},b,{y!r}"]
    exp += ["%.17g" % float(t), "%.17g" % ((x + y) / 2)]
open(sys.argv[2], "w").write("\n".join(out) + "\n")
open(sys.argv[3], "w").write("\n".join(exp) + "\n")
EOF
if "$BIN/featurize" -o "$TMP/num.tsv" "$TMP/num.txt" 2>"$TMP/num.err"; then
	awk -F'\t' 'NR > 2 {print $(NF - 2)}' "$TMP/num.tsv" >"$TMP/num.got"
	test_cmp readpath-feedback-exact "$TMP/num.expect" "$TMP/num.got"
else
	fail readpath-feedback-exact "$(cat "$TMP/num.err")"
fi

# ---- rows whose features repeat the previous row's -----------------------------
head -2 "$F/small.txt" >"$TMP/hdr.txt"
R='4,8,16,torch.float16,torch.float16,8,1,16,1,True,True,not_float_32'
rep() { # NAME PATTERN ROW... (after two good rows of R)
	local name=$1 pat=$2; shift 2
	{ cat "$TMP/hdr.txt"; printf '%s\n' "$R,a,0.1" "$R,b,0.2" "$@"; } >"$TMP/rep.txt"
	expect_error "readpath-repeat-$name" "$pat" "$TMP/rep.tsv" "$BIN/featurize" -o "$TMP/rep.tsv" "$TMP/rep.txt"
}
rep feedback "rep.txt:5: field 'feedback': cannot parse 'x' as a number" "$R,a,x"
rep negative "rep.txt:6: field 'feedback': -0.5 ms is not a positive time" "$R,a,0.3" "$R,a,-0.5"
rep long "rep.txt:5: row has 15 fields, the header has 14 \(long row\)" "$R,a,0.1,7"
rep fused "rep.txt:5: row has 27 fields, the header has 14 \(long row: two rows fused" "$R,a,0.1$R,b,0.2"
rep short "rep.txt:5: row has 13 fields, the header has 14" "$R,a"
rep empty-choice "rep.txt:5: field 'choice': empty" "$R,,0.1"
rep space-choice "rep.txt:5: field 'choice': 'a b' contains white space" "$R,a b,0.1"
rep nan "rep.txt:5: field 'feedback': NaN" "$R,b,nan"
# a feature field changed after repeated rows is parsed again
rep changed "rep.txt:5: field 'mat1_iscontig': 'Yes'" "${R/True/Yes},a,0.1"
# the repeated rows still count as one input with its medians
{ cat "$TMP/hdr.txt"; printf '%s\n' "$R,a,0.1" "$R,b,0.2" "$R,a,0.3" "$R,b,0.4" "$R,a,0.5"; } >"$TMP/rep.txt"
"$BIN/featurize" -o "$TMP/rep.tsv" "$TMP/rep.txt" 2>/dev/null
[ "$(awk -F'\t' 'NR > 2 {print $(NF - 3), $(NF - 2), $(NF - 1), $NF}' "$TMP/rep.tsv" | tr '\n' ' ')" = \
  "a 0.29999999999999999 3 1 b 0.30000000000000004 2 0 " ] && ok readpath-repeat-medians ||
	fail readpath-repeat-medians "$(tail -2 "$TMP/rep.tsv" | tr '\t\n' ' |')"

# ---- blocks: '\r' and NUL far into the file, a line longer than a block ----------
python3 - "$TMP" "$R" <<'EOF'
import sys
tmp, r = sys.argv[1], sys.argv[2]
head = open(f"{tmp}/hdr.txt").read()
rows = [f"{r},c{i % 7},0.{i + 1}" for i in range(30000)]   # ~1.8 MB
open(f"{tmp}/cr.txt", "w").write(head + "\n".join(rows[:25000] + [rows[25000] + "\r"] + rows[25001:]) + "\n")
with open(f"{tmp}/nul.txt", "w") as f:
    f.write(head + "\n".join(rows[:27000] + [rows[27000][:20] + "\0" + rows[27000][20:]] + rows[27001:]) + "\n")
# a line of 1.5 MB: m written with 1500000 leading zeros (still 4, the same
# input), then a choice id of 4095 characters, the longest one emit can write
long = "x" * 4095
open(f"{tmp}/long.txt", "w").write(head + "\n".join(rows[:20000] + ["0" * 1500000 + f"{r},{long},0.5"] + rows[20000:]) + "\n")
EOF
expect_error readpath-cr-late "cr.txt:25003: carriage return" "$TMP/o.tsv" "$BIN/featurize" -o "$TMP/o.tsv" "$TMP/cr.txt"
expect_error readpath-nul-late "nul.txt:27003: NUL byte in line" "$TMP/o.tsv" "$BIN/featurize" -o "$TMP/o.tsv" "$TMP/nul.txt"
if "$BIN/featurize" -o "$TMP/long.tsv" "$TMP/long.txt" 2>"$TMP/long.err" &&
   grep -q "30001 measurements, 1 input (1 kept), 8 choices" "$TMP/long.err" &&
   [ "$(awk -F'\t' 'NR > 2 && length($(NF - 3)) == 4095 {print $(NF - 2), $(NF - 1)}' "$TMP/long.tsv")" = "0.5 1" ]; then
	ok readpath-line-longer-than-block
else
	fail readpath-line-longer-than-block "$(cat "$TMP/long.err")"
fi
# standard input, in blocks too
"$BIN/featurize" -o "$TMP/stdin.tsv" - <"$TMP/long.txt" 2>/dev/null
test_cmp readpath-stdin "$TMP/long.tsv" "$TMP/stdin.tsv"

# ---- stages/sh/par.sh ----------------------------------------------------------------
P=$ROOT/stages/sh/par.sh
for n in 1 2 3; do
	"$P" $n 'sleep 0.3; echo a; echo A >&2' 'echo b; echo B >&2; exit 3' 'echo c' >"$TMP/p.out" 2>"$TMP/p.err"
	rc=$?
	[ $rc -eq 1 ] && [ "$(tr '\n' ' ' <"$TMP/p.out")" = "a b c " ] && [ "$(tr '\n' ' ' <"$TMP/p.err")" = "A B " ] &&
		ok readpath-par-$n || fail readpath-par-$n "rc=$rc out=$(cat "$TMP/p.out") err=$(cat "$TMP/p.err")"
done
"$P" 2 true 'echo ok' >"$TMP/p.out" 2>&1 && [ "$(cat "$TMP/p.out")" = ok ] && ok readpath-par-success ||
	fail readpath-par-success "$(cat "$TMP/p.out")"
"$P" 0 true >/dev/null 2>"$TMP/p.err"; [ $? -eq 2 ] && grep -q "N='0'" "$TMP/p.err" && ok readpath-par-bad-n ||
	fail readpath-par-bad-n "$(cat "$TMP/p.err")"
# an interrupt ends par.sh by that signal (make then says "Interrupt", not
# "Error 130"), its commands stopped.  The signal is sent once both commands
# run: bash defers a SIGINT sent to it alone while a foreground child (mktemp)
# runs, and then goes on.  par.sh starts with SIGINT at its default, as under
# a terminal: a shell that inherits it ignored (make check run in the
# background, `cmd &`) cannot trap it
test_expect_success PYTHON3 'readpath-par-dies-of-sigint' '
	[ "$(python3 -c "
import os, signal, subprocess, sys, time
p = subprocess.Popen([\"$P\", \"2\", \"sleep 30\", \"sleep 30\"],
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
def kids():
    n = 0
    for d in os.listdir(\"/proc\"):
        try:
            if d.isdigit() and open(f\"/proc/{d}/stat\").read().rsplit(\")\", 1)[1].split()[1] == str(p.pid):
                n += 1
        except OSError:
            pass
    return n
end = time.time() + 10
while kids() < 2 and time.time() < end:
    time.sleep(0.05)
p.send_signal(signal.SIGINT); print(p.wait(timeout=10))")" = -2 ]'
finish
