#!/usr/bin/env bash
# t0120-opts.sh — the table-driven option parser (stages/core/opts.h) through
# check/unit/opts_demo.c, which has one option of every kind: values and
# defaults, range and enum checks with their messages, repeatable and
# positional lists, required arguments, the output-is-input check, the
# generated --help text with a heading (check/fixtures/opts/help.txt, byte
# exact).
. check/lib.sh
D=${BIN%/bin}/unit/opts_demo
[ -x "$D" ] || { fail opts "no $D (make units)"; finish; }
cd "$TMP"

# vals NAME EXPECTED-LINES ARGS...: the printed values must contain EXPECTED
vals() {
	local name=$1 want=$2; shift 2
	if ! "$D" "$@" >out 2>err; then fail "$name" "exit $?: $(head -1 err)"; return; fi
	printf '%s\n' "$want" | tr ' ' '\n' >want
	if grep -qvxFf out want; then fail "$name" "missing $(grep -vxFf out want | head -2 | tr '\n' ' ')"
	else ok "$name"; fi
}
vals opts-defaults 'in=a out=(null) flag=0 n=3 big=-5 frac=0.25 name=none mode=group fold=0/0' a
vals opts-values 'in=a out=o flag=1 n=100 big=-9223372036854775808 frac=0.5 name=x mode=none fold=2/5' \
	a --flag --n 100 --big -9223372036854775808 --frac 0.5 --name x --mode none --fold 2/5 -o o
vals opts-last-wins 'n=7' a --n 1 --n 7
vals opts-lists 'data[0]=x data[1]=p1 data[2]=y data[3]=p2 rest[0]=r1 rest[1]=- rest[2]=r2' \
	a --data x p1 r1 --data y p2 - r2
vals opts-int64-max 'big=9223372036854775807' a --big 9223372036854775807

# errors: message, non-zero exit, nothing on stdout
E=no-such-output
expect_error opts-unknown "^opts_demo: unknown option '--nope' \(see --help\)$" $E "$D" a --nope
expect_error opts-needs-value "option '--n' needs a value \(see --help\)" $E "$D" a --n
expect_error opts-needs-2-values "option '--data' needs 2 values" $E "$D" a --data x
expect_error opts-int-range "^opts_demo: --n: expected an integer in \[1, 100\], got '0'$" $E "$D" a --n 0
expect_error opts-int-syntax "--n: expected an integer in \[1, 100\], got '5x'" $E "$D" a --n 5x
expect_error opts-int64-overflow "--big: expected an integer >= -9223372036854775808, got '9223372036854775808'" $E \
	"$D" a --big 9223372036854775808
expect_error opts-double-open-low "--frac: expected a number in \(0, 0.5\], got '0'" $E "$D" a --frac 0
expect_error opts-double-high "--frac: expected a number in \(0, 0.5\], got '0.51'" $E "$D" a --frac 0.51
expect_error opts-double-nan "--frac: expected a number in \(0, 0.5\], got 'nan'" $E "$D" a --frac nan
expect_error opts-enum "^opts_demo: --mode: expected rows, group or none, got 'cols'$" $E "$D" a --mode cols
expect_error opts-callback "--fold: expected F/K, got 'x'" $E "$D" a --fold x
expect_error opts-missing "^opts_demo: missing IN; usage: opts_demo \[options\] IN \[REST...\] \(see --help\)$" $E "$D"
touch in.txt
expect_error opts-out-is-in "output 'in.txt' is also an input" $E "$D" in.txt -o in.txt
expect_error opts-out-is-list-in "output 'p.txt' is also an input" $E "$D" a --data p.txt q -o p.txt --data x p.txt
"$D" a --data p.txt q -o p.txt >/dev/null 2>&1 && ok opts-list-name-not-input ||
	fail opts-list-name-not-input "the NAME of a NAME PATH pair was checked as an input"

# --help and --version
"$D" --help >help.txt 2>err && test_cmp opts-help "$FIX/opts/help.txt" help.txt || fail opts-help "exit $?"
[ "$("$D" --version)" = "opts_demo (mmrank) $(sed -n 's/^#define MMRANK_VERSION "\(.*\)"/\1/p' "$ROOT/stages/core/util.h")" ] &&
	ok opts-version || fail opts-version "$("$D" --version)"
awk 'length($0) > 79 { bad = 1 } END { exit bad }' help.txt && ok opts-help-width ||
	fail opts-help-width "a help line longer than 78 characters"
finish
