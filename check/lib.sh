# check/lib.sh — sourced by every check/test_*.sh (git-style test helpers).
#   BIN      stage binaries (default build/bin)
#   TMP      a fresh scratch folder, removed on exit
# Each check prints one line: "ok NAME", "FAIL NAME: why" or "skip NAME: why";
# run.sh counts them.  A test script exits non-zero if any check failed.
set -u
BIN=${BIN:-build/bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$PWD
FIX=$ROOT/check/fixtures
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-check.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
_failed=0
ok()   { echo "ok $1"; }
fail() { echo "FAIL $1: $2"; _failed=1; }
skip() { echo "skip $1: $2"; }
finish() { exit $_failed; }

# test_cmp NAME EXPECTED ACTUAL — files must be identical.
test_cmp() {
	if cmp -s "$2" "$3"; then ok "$1"; else fail "$1" "$(diff "$2" "$3" | head -5 | tr '\n' '|')"; fi
}

# expect_error NAME PATTERN OUTFILE CMD... — CMD must exit non-zero, its
# stderr must match the extended regex PATTERN, and OUTFILE must not exist
# afterwards (no partial output), nor any OUTFILE.tmp*.
expect_error() {
	local name=$1 pat=$2 out=$3; shift 3
	rm -f "$out"
	"$@" >"$TMP/stdout" 2>"$TMP/stderr"
	local rc=$?
	if [ $rc -eq 0 ]; then fail "$name" "exit status 0"; return; fi
	if [ $rc -ge 128 ]; then fail "$name" "killed by signal $((rc-128)): $(head -c 300 "$TMP/stderr")"; return; fi
	if ! grep -Eq -- "$pat" "$TMP/stderr"; then
		fail "$name" "stderr does not match /$pat/: $(head -c 300 "$TMP/stderr")"; return; fi
	if [ -e "$out" ] || compgen -G "$out.tmp*" >/dev/null; then fail "$name" "partial output left: $out"; return; fi
	ok "$name"
}
