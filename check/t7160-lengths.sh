#!/usr/bin/env bash
# The length rule (check/lengths.py): no function in stages/ or perf/ longer
# than 150 lines, no header there longer than 150 lines; and the checker
# itself finds a long function (brace-counting past comments, strings and
# initializers) and a long header.
. check/lib.sh
src=()
while IFS= read -r f; do src+=("$f"); done < <(find stages perf \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \) | sort)
if [ ${#src[@]} -lt 50 ]; then fail lengths-files "only ${#src[@]} C files under stages/ and perf/"; finish; fi
if python3 check/lengths.py "${src[@]}" > "$TMP/long.txt"; then ok "lengths-stages-perf (${#src[@]} files)"
else fail lengths-stages-perf "$(tr '\n' '|' < "$TMP/long.txt")"; fi

# the checker on made-up sources: a 151-line function after an initializer
# with braces and a comment and a string holding braces; a 150-line one passes
{
	printf 'static const int t[] = { 1, 2 };\n/* { */\nstatic int ok(void)\n{\n'
	for i in $(seq 146); do printf '\tputs("}");\n'; done
	printf '\treturn 0;\n}\nint\nlong_one(int a)\n{\n'
	for i in $(seq 146); do printf "\\ta += '{';\\n"; done
	printf '\treturn a;\n}\n'
} > "$TMP/x.c"
python3 check/lengths.py "$TMP/x.c" > "$TMP/x.out"; rc=$?
if [ $rc = 1 ] && [ "$(cat "$TMP/x.out")" = "$TMP/x.c:153: function long_one: 151 lines (more than 150)" ]; then
	ok lengths-finds-long-function
else fail lengths-finds-long-function "rc $rc: $(tr '\n' '|' < "$TMP/x.out")"; fi
seq 151 | sed 's|^|/* |; s|$| */|' > "$TMP/y.h"
python3 check/lengths.py "$TMP/y.h" > "$TMP/y.out"; rc=$?
[ $rc = 1 ] && grep -qx "$TMP/y.h: header: 151 lines (more than 150)" "$TMP/y.out" && ok lengths-finds-long-header ||
	fail lengths-finds-long-header "rc $rc: $(tr '\n' '|' < "$TMP/y.out")"
finish
