#!/usr/bin/env bash
# Make-level user errors, without the official data (make -C the checkout):
# a misspelt PROFILE, GPU/OUT with spaces, an unknown GRID, `make unpack` for
# a non-official GPU and an eval LOG whose set name clashes each get a clear
# message naming the allowed values (not "No rule to make target" or a silent
# default); a damaged dataset zip is named, not read as an empty log.
. check/lib.sh
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out")

# make_error NAME PATTERN ARGS... — make ARGS must fail with PATTERN on stderr
make_error() {
	local name=$1 pat=$2; shift 2
	"${MK[@]}" "$@" >"$TMP/m.out" 2>"$TMP/m.err"
	local rc=$?
	if [ $rc -eq 0 ]; then fail "$name" "exit status 0"
	elif ! grep -Eq -- "$pat" "$TMP/m.err"; then fail "$name" "stderr: $(head -c 300 "$TMP/m.err")"
	else ok "$name"; fi
}
make_error make-profile-typo "PROFILE='refrence': expected ours or reference" heuristic GPU=h100 PROFILE=refrence
make_error make-gpu-space "GPU='h1 00': one word" heuristic 'GPU=h1 00'
make_error make-out-space "OUT='$TMP/o u': a path of letters, digits and '._\+-/@' expected \(no spaces" heuristic GPU=h100 "OUT=$TMP/o u"
make_error make-grid-unknown "GRID='foo': expected mm, reference, search or an existing file" fit GPU=h100 GRID=foo
make_error make-unpack-not-official "make unpack: only for the official datasets \(a100 h100\)" unpack GPU=h200
mkdir -p "$TMP/x" && : >"$TMP/x/main.txt"
make_error make-eval-log-clash "LOG=.*/main.txt would be a second set named 'main'" eval GPU=h100 LOG="$TMP/x/main.txt"
# collection settings are checked before any parameter stamp changes (a
# stamp change removes the finished shards it concerns)
make_error make-screen-bad "SCREEN='0.5': expected 0 \(off\) or a number >= 1 \(bench --screen\)" collect GPU=zz SAMPLES=1 SCREEN=0.5
make_error make-screen-ms-bad "SCREEN_MS='0': expected a number > 0 \(bench --screen-ms\)" collect GPU=zz SAMPLES=1 SCREEN_MS=0
make_error make-long-ms-bad "LONG_MS='-1': expected a number in \[0, 1e9\] \(bench --long-ms\)" collect GPU=zz SAMPLES=1 LONG_MS=-1
make_error make-long-ms-huge "LONG_MS='2000000000': expected a number in \[0, 1e9\] \(bench --long-ms\)" collect GPU=zz SAMPLES=1 LONG_MS=2000000000
make_error make-long-launches-bad "LONG_LAUNCHES='6': expected an integer in \[1, 5\] \(bench --long-launches\)" collect GPU=zz SAMPLES=1 LONG_LAUNCHES=6
make_error make-loser-ratio-margin "LOSER_RATIO='1.02': expected 0 \(off\) or a factor > 1/0.98 = 1.0204082 and <= 100 .*\(bench --loser-ratio\)" collect GPU=zz SAMPLES=1 LOSER_RATIO=1.02
make_error make-loser-ratio-huge "LOSER_RATIO='101': expected 0 \(off\) or a factor > 1/0.98" collect GPU=zz SAMPLES=1 LOSER_RATIO=101
make_error make-loser-ratio-not-a-number "LOSER_RATIO='-1': expected 0 \(off\) or a factor" collect GPU=zz SAMPLES=1 LOSER_RATIO=-1
make_error make-fast-reject-bad "FAST_REJECT='x': expected 0 \(off\) or a factor >= 1/0.98" collect GPU=zz SAMPLES=1 FAST_REJECT=x
[ ! -e "$TMP/out/zz" ] && ok make-bad-settings-touch-nothing || fail make-bad-settings-touch-nothing "$TMP/out/zz created"
# LOSER_RATIO, WARM_FROM_VERIFY and VERIFY_CUT (KERNEL_TEMPLATE=triton only,
# and only when on) are passed to bench and stamped; off (the default), the
# stamp and the command are as before they existed.  stamp_n OPTIONS_RE TEMPLATE VARS...:
# the stamp's bench part and the bench options matching OPTIONS_RE
stamp_n() { "${MK[@]}" -n collect GPU=zz SAMPLES=1 KERNEL_TEMPLATE=$2 BENCH=bench-fake \
	TRITON_CUBINS="$TMP/triton-0000000000000000-3.6.0-sm90" "${@:3}" 2>&1 |
	grep -o -- "template=[a-z]* cublaslt=[^ ]*\( long=[^ ]*\)\?\( loser=[^ ]*\)\?\( warm_from_verify=[^ ]*\)\?\( verify_cut=[^ ]*\)\? gpus\|$1" |
	sort -u | tr '\n' '|'; }
loser_n() { stamp_n '--loser-ratio [^ ]*' "$@"; }
warm_n() { stamp_n '--warm-from-verify' "$@"; }
vcut_n() { stamp_n '--verify-cut [^ ]* --verify-cut-audit [^ ]*' "$@"; }
for v in loser_n warm_n vcut_n; do
	[ "$($v triton)" = "template=triton cublaslt= long=10/2 gpus|" ] || fail make-$v-off "$($v triton)"
done
[ "$(loser_n triton LOSER_RATIO=1.5)" = "--loser-ratio 1.5|template=triton cublaslt= long=10/2 loser=1.5 gpus|" ] &&
	[ "$(loser_n mma LOSER_RATIO=1.5)" = "template=mma cublaslt= gpus|" ] && ok make-loser-ratio-passed-and-stamped ||
	fail make-loser-ratio-passed-and-stamped "on: $(loser_n triton LOSER_RATIO=1.5) mma: $(loser_n mma LOSER_RATIO=1.5)"
[ "$(warm_n triton WARM_FROM_VERIFY=1)" = "--warm-from-verify|template=triton cublaslt= long=10/2 warm_from_verify=1 gpus|" ] &&
	[ "$(warm_n mma WARM_FROM_VERIFY=1)" = "template=mma cublaslt= gpus|" ] && ok make-warm-from-verify-passed-and-stamped ||
	fail make-warm-from-verify-passed-and-stamped "on: $(warm_n triton WARM_FROM_VERIFY=1) mma: $(warm_n mma WARM_FROM_VERIFY=1)"
VC=(LOSER_RATIO=1.5 WARM_FROM_VERIFY=1 VERIFY_CUT=2)
[ "$(vcut_n triton "${VC[@]}")" = "--verify-cut 2 --verify-cut-audit 10|template=triton cublaslt= long=10/2 loser=1.5 warm_from_verify=1 verify_cut=2/10 gpus|" ] &&
	[ "$(vcut_n triton "${VC[@]}" VERIFY_CUT_AUDIT=0)" = "--verify-cut 2 --verify-cut-audit 0|template=triton cublaslt= long=10/2 loser=1.5 warm_from_verify=1 verify_cut=2/0 gpus|" ] &&
	[ "$(vcut_n mma "${VC[@]}")" = "template=mma cublaslt= gpus|" ] && ok make-verify-cut-passed-and-stamped ||
	fail make-verify-cut-passed-and-stamped "on: $(vcut_n triton "${VC[@]}") mma: $(vcut_n mma "${VC[@]}")"
# a bad VERIFY_CUT (below LOSER_RATIO, without WARM_FROM_VERIFY, not a number)
# or VERIFY_CUT_AUDIT stops make at parse time
# NAME|SETTINGS|MESSAGE
for b in "below-loser-ratio|VERIFY_CUT=1.2 LOSER_RATIO=1.5 WARM_FROM_VERIFY=1|>= LOSER_RATIO='1.5'" \
	"no-warm-from-verify|VERIFY_CUT=2 LOSER_RATIO=1.5|needs WARM_FROM_VERIFY=1" \
	"not-a-number|VERIFY_CUT=two|VERIFY_CUT='two': expected 0" \
	"audit-negative|VERIFY_CUT_AUDIT=-1|VERIFY_CUT_AUDIT='-1': expected an integer" \
	"long-ms-zero|VERIFY_CUT=2 LOSER_RATIO=1.5 WARM_FROM_VERIFY=1 LONG_MS=0|needs LONG_MS > 0" \
	"loser-ratio-off|VERIFY_CUT=2 WARM_FROM_VERIFY=1|>= LOSER_RATIO='0' > 0"; do
	n=make-verify-cut-bad-${b%%|*} b=${b#*|}
	set -- ${b%%|*}
	if ! "${MK[@]}" -n collect GPU=zz SAMPLES=1 KERNEL_TEMPLATE=triton "$@" >"$TMP/vc.out" 2>&1 &&
		grep -qF -- "${b#*|}" "$TMP/vc.out"; then ok "$n"
	else fail "$n" "$(head -c 300 "$TMP/vc.out")"; fi
done
# a valid PROFILE and a GRID file still work (make -n: nothing is run)
echo "5	0.01	entropy" >"$TMP/grid.tsv"
if "${MK[@]}" -n fit GPU=h100 PROFILE=reference GRID="$TMP/grid.tsv" >"$TMP/n.out" 2>"$TMP/n.err" &&
	grep -q -- "--grid $TMP/grid.tsv" "$TMP/n.out"; then ok make-valid-profile-and-grid-file
else fail make-valid-profile-and-grid-file "$(head -c 300 "$TMP/n.err")"; fi

# make fit-args prints exactly the options make heuristic gives fit, per profile
for p in ours reference; do
	want=$("${MK[@]}" -s fit-args GPU=h100 PROFILE=$p)
	if "${MK[@]}" -n fit GPU=h100 PROFILE=$p 2>/dev/null | grep -q -- "bin/fit .*$want --write-split"; then
		ok make-fit-args-$p
	else fail make-fit-args-$p "'$want' is not in make -n fit's fit command"; fi
done
[ "$("${MK[@]}" -s fit-args GPU=h100)" = "$("${MK[@]}" -s fit-args GPU=h100 PROFILE=ours)" ] &&
	ok make-fit-args-default-is-ours || fail make-fit-args-default-is-ours "differs"

# make check's build step says nothing of the parts that are up to date
# (make check has just run it: everything is)
if [ "$BUILD" = "$ROOT/build/san" ]; then
	env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" check-build >"$TMP/cb.out" 2>&1
	if grep -q "is up to date\|Nothing to be done" "$TMP/cb.out"; then fail make-check-build-quiet "$(grep -m2 'up to date\|Nothing' "$TMP/cb.out" | tr '\n' '|')"
	else ok make-check-build-quiet; fi
else skip make-check-build-quiet "BIN is not build/san/bin (make check's build)"; fi

# ---- a damaged dataset zip is named ---------------------------------------------
# (a manifest whose sha256 is the damaged zip's, so fetch.sh keeps it)
mkdir -p "$TMP/out/h100"
echo 'not a zip' >"$TMP/out/h100/h100_mm.zip"
awk -F'\t' -v OFS='\t' -v s="$(sha256sum <"$TMP/out/h100/h100_mm.zip" | cut -d' ' -f1)" \
	'$1 == "h100_mm.zip" { $3 = s } { print }' "$ROOT/datasets/MANIFEST.tsv" >"$TMP/manifest.tsv"
MANIFEST=$TMP/manifest.tsv make_error make-damaged-zip "cannot read 'h100/h100_mm.txt' from $TMP/out/h100/h100_mm.zip \(missing or damaged zip" featurize GPU=h100
[ -e "$TMP/out/h100/main.feat.tsv" ] && fail make-damaged-zip-no-output "main.feat.tsv written" || ok make-damaged-zip-no-output
# make unpack on a zip with traversal member names fails and leaves no
# raw.part/ (nor raw/) behind
mkdir -p "$TMP/out/a100"
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("../../evil.txt", "x"); z.writestr("/abs.txt", "y"); z.writestr("a100/a100_mm.txt", "z")' \
	"$TMP/out/a100/a100_mm.zip"
awk -F'\t' -v OFS='\t' -v s="$(sha256sum <"$TMP/out/a100/a100_mm.zip" | cut -d' ' -f1)" \
	'$1 == "a100_mm.zip" { $3 = s } { print }' "$ROOT/datasets/MANIFEST.tsv" >"$TMP/manifest-a.tsv"
MANIFEST=$TMP/manifest-a.tsv make_error make-unpack-traversal "unzip|stripped|skipp" unpack GPU=a100
if [ -e "$TMP/out/a100/raw.part" ] || [ -e "$TMP/out/a100/raw" ] || [ -e "$TMP/evil.txt" ]; then
	fail make-unpack-traversal-clean "$(ls "$TMP/out/a100" | tr '\n' ' ')"
else ok make-unpack-traversal-clean; fi
rm -rf "$TMP/out/a100"
# a zip already in OUT/<gpu>/ is used only if its sha256 still matches the
# manifest's: a changed one is fetched again
MIR=$DATASET_DIR
if [ -f "$MIR/h100_mm.zip" ]; then
	"${MK[@]}" fetch GPU=h100 DATASET_MIRROR="$MIR" >"$TMP/refetch.out" 2>&1
	if grep -q "fetch: $TMP/out/h100/h100_mm.zip: sha256 mismatch (expected .*changed or damaged since it was fetched); fetching it again" "$TMP/refetch.out" &&
		cmp -s "$MIR/h100_mm.zip" "$TMP/out/h100/h100_mm.zip"; then ok make-zip-rechecked
	else fail make-zip-rechecked "$(head -3 "$TMP/refetch.out" | tr '\n' '|')"; fi
	t0=$(stat -c %y "$TMP/out/h100/h100_mm.zip")
	"${MK[@]}" fetch GPU=h100 DATASET_MIRROR="$MIR" >"$TMP/refetch2.out" 2>&1
	if [ "$(stat -c %y "$TMP/out/h100/h100_mm.zip")" = "$t0" ] && ! grep -q 'FETCH\|mismatch' "$TMP/refetch2.out"; then
		ok make-zip-good-untouched
	else fail make-zip-good-untouched "$(head -3 "$TMP/refetch2.out" | tr '\n' '|')"; fi
else
	skip make-zip-rechecked "no $MIR/h100_mm.zip (DATASET_MIRROR)"
	skip make-zip-good-untouched "no $MIR/h100_mm.zip (DATASET_MIRROR)"
fi
finish
