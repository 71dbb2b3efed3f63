#!/usr/bin/env bash
# The test library itself (check/lib.sh, check/run.sh), on scratch test files
# in a copy of check/: test_expect_success passes and fails on its body,
# a missing prerequisite skips with "[PREREQ] reason" and run.sh counts it per
# prerequisite; a name printed twice, in one file or in two, fails the run.
. check/lib.sh
mkdir -p "$TMP/t/check"
cp check/lib.sh check/run.sh "$TMP/t/check/"
w() { cat >"$TMP/t/check/$1"; }
w t0001-a.sh <<'T'
. check/lib.sh
_prereq_probe() { _prereq_why=; case $1 in HAVE) ;; *) _prereq_why="no $1 here"; return 1 ;; esac; }
test_expect_success 'a-true' 'x=$((1 + 1)); [ $x = 2 ]'
test_expect_success HAVE 'a-have' 'true'
test_expect_success NOPE 'a-nope' 'false'
test_expect_success HAVE,NOPE 'a-both' 'false'
test_expect_success '!NOPE' 'a-not-nope' 'true'
test_expect_failure 'a-must-fail' 'false'
test_skip_unless NOPE a-unless || :
test_have_prereq HAVE && ok a-have-prereq
finish
T
w t0002-b.sh <<'T'
. check/lib.sh
test_expect_success 'b-false' 'echo why-it-failed; false'
ok b-twice; ok b-twice
ok a-true
finish
T
(cd "$TMP/t" && bash check/run.sh check/t0001-a.sh) >"$TMP/a.out" 2>&1; ra=$?
(cd "$TMP/t" && bash check/run.sh check/t0001-a.sh check/t0002-b.sh) >"$TMP/ab.out" 2>&1; rab=$?
test_expect_success 'lib-expect-success-passes' '[ $ra = 0 ] && grep -qx "5 passed, 0 failed, 3 skipped" "$TMP/a.out"'
test_expect_success 'lib-prereq-skip-names-it' \
	'grep -qx "    skip a-nope: \[NOPE\] no NOPE here" "$TMP/a.out" && grep -qx "    skip a-both: \[NOPE\] no NOPE here" "$TMP/a.out"'
test_expect_success 'lib-skip-count-per-prereq' 'grep -qx "skipped by prerequisite: NOPE 3" "$TMP/a.out"'
test_expect_success 'lib-expect-success-fails-with-output' 'grep -q "^    FAIL b-false: body exited 1: why-it-failed|" "$TMP/ab.out"'
test_expect_success 'lib-duplicate-in-file' '[ $rab = 1 ] && grep -q "FAIL check/t0002-b.sh: check names printed twice: b-twice" "$TMP/ab.out"'
test_expect_success 'lib-duplicate-across-files' \
	'grep -q "^FAIL check names used by more than one file: a-true" "$TMP/ab.out" && grep -q "a-true: check/t0002-b.sh" "$TMP/ab.out"'
finish
