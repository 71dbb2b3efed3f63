#!/usr/bin/env bash
# The test library itself (check/lib.sh, check/run.sh), on scratch test files
# in a copy of check/: test_expect_success passes and fails on its body,
# a missing prerequisite skips with "[PREREQ] reason" and run.sh counts it per
# prerequisite; a name printed twice, in one file or in two, fails the run.
# test_expect_failure has git's meaning (a known breakage: reported as
# "todo", the run passes; a body that now succeeds says the breakage
# vanished); test_must_fail is the helper for "this command must refuse".
# A run.sh killed mid-run (SIGKILL) leaves no file in $TMPDIR.
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
test_expect_success 'a-must-fail' 'test_must_fail false'
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
w t0003-c.sh <<'T'
. check/lib.sh
test_expect_failure 'c-known-broken' 'false'
test_expect_failure 'c-vanished' 'true'
test_expect_failure 'c-known-signal' 'sh -c "kill -TERM \$\$"'
test_expect_success 'c-must-fail-true' 'test_must_fail true'
test_expect_success 'c-must-fail-missing' 'test_must_fail ./no-such-command'
test_expect_success 'c-must-fail-signal' 'test_must_fail sh -c "kill -TERM \$\$"'
finish
T
w t0004-d.sh <<'T'
. check/lib.sh
ok d-first
sleep 30 & echo $! >"$ROOT/d.sleep"
wait
finish
T
(cd "$TMP/t" && bash check/run.sh check/t0001-a.sh) >"$TMP/a.out" 2>&1; ra=$?
(cd "$TMP/t" && bash check/run.sh check/t0003-c.sh) >"$TMP/c.out" 2>&1; rc_c=$?
(cd "$TMP/t" && CHECK_REQUIRE=OTHER,NOPE bash check/run.sh check/t0001-a.sh) >"$TMP/req.out" 2>&1; rc_req=$?
(cd "$TMP/t" && bash check/run.sh check/t0001-a.sh check/t0002-b.sh) >"$TMP/ab.out" 2>&1; rab=$?
test_expect_success 'lib-expect-success-passes' '[ $ra = 0 ] && grep -qx "5 passed, 0 failed, 3 skipped" "$TMP/a.out"'
test_expect_success 'lib-prereq-skip-names-it' \
	'grep -qx "    skip a-nope: \[NOPE\] no NOPE here" "$TMP/a.out" && grep -qx "    skip a-both: \[NOPE\] no NOPE here" "$TMP/a.out"'
test_expect_success 'lib-skip-count-per-prereq' 'grep -qx "skipped by prerequisite: NOPE 3" "$TMP/a.out"'
test_expect_success 'lib-expect-success-fails-with-output' 'grep -q "^    FAIL b-false: body exited 1: why-it-failed|" "$TMP/ab.out"'
test_expect_success 'lib-duplicate-in-file' '[ $rab = 1 ] && grep -q "FAIL check/t0002-b.sh: check names printed twice: b-twice" "$TMP/ab.out"'
test_expect_success 'lib-duplicate-across-files' \
	'grep -q "^FAIL check names used by more than one file: a-true" "$TMP/ab.out" && grep -q "a-true: check/t0002-b.sh" "$TMP/ab.out"'
test_expect_success 'lib-expect-failure-known-breakage' \
	'grep -qx "    todo c-known-broken: known breakage (body exited 1: )" "$TMP/c.out" &&
	 grep -qx "1 passed, 4 failed, 0 skipped, 1 known breakage" "$TMP/c.out"'
test_expect_success 'lib-expect-failure-vanished' '! grep -q "c-vanished" "$TMP/c.out" &&
	(cd "$TMP/t" && bash check/t0003-c.sh) | grep -qx "ok c-vanished: known breakage vanished (make it test_expect_success)"'
test_expect_success 'lib-expect-failure-signal-fails' 'grep -q "^    FAIL c-known-signal: body exited 143" "$TMP/c.out"'
test_expect_success 'lib-must-fail' '[ $rc_c = 1 ] && grep -q "^    FAIL c-must-fail-true: body exited 1" "$TMP/c.out" &&
	grep -q "^    FAIL c-must-fail-missing: body exited 1" "$TMP/c.out" &&
	grep -q "^    FAIL c-must-fail-signal: body exited 1" "$TMP/c.out"'
test_expect_success 'lib-require-fails-skip' '[ $rc_req = 1 ] &&
	grep -qx "    FAIL a-nope: \[NOPE\] required (CHECK_REQUIRE=OTHER,NOPE): no NOPE here" "$TMP/req.out" &&
	grep -qx "    FAIL a-unless: \[NOPE\] required (CHECK_REQUIRE=OTHER,NOPE): no NOPE here" "$TMP/req.out" &&
	grep -qx "5 passed, 3 failed, 0 skipped" "$TMP/req.out"'
# a run.sh killed while a test runs: nothing of it is left in TMPDIR (the
# test, still running, removes its own scratch folder when it ends)
mkdir -p "$TMP/tmpdir"
(cd "$TMP/t" && TMPDIR=$TMP/tmpdir exec bash check/run.sh check/t0004-d.sh) >/dev/null 2>&1 &
rp=$!
for _ in $(seq 200); do [ -s "$TMP/t/d.sleep" ] && break; sleep 0.05; done
kill -KILL $rp; wait $rp 2>/dev/null
left=$(ls "$TMP/tmpdir" | grep -v '^mmrank-check\.' | tr '\n' ' ')
[ -s "$TMP/t/d.sleep" ] && kill -TERM "$(cat "$TMP/t/d.sleep")" 2>/dev/null
test_expect_success 'lib-run-killed-no-temp' '[ -s "$TMP/t/d.sleep" ] && [ -z "$left" ] || { echo "left in TMPDIR: $left"; false; }'

# the official zips make has fetched into OUT/<gpu>/ serve the tests when the
# mirror lacks them (MMR_CHECK_OUT: make check's OUT), each only with the
# manifest's sha256
if test_have_prereq DATASET; then
	mkdir -p "$TMP/o/a100" "$TMP/o/h100" "$TMP/nomirror"
	cp "$DATASET_DIR/a100_mm.zip" "$TMP/o/a100/" && cp "$DATASET_DIR/h100_mm.zip" "$TMP/o/h100/"
	lib_data() { DATASET_MIRROR=$TMP/nomirror MMR_CHECK_OUT=$TMP/o bash -c '. check/lib.sh
		test_have_prereq DATASET && echo "ok $DATASET_MIRROR" && readlink "$DATASET_DIR/a100_mm.zip"' 2>&1; }
	got=$(lib_data)
	test_expect_success 'lib-dataset-from-out' \
		'[ "$(sed -n 1p <<<"$got" | cut -c1-3)" = "ok " ] && [ "$(sed -n 2p <<<"$got")" = "$TMP/o/a100/a100_mm.zip" ]'
	echo damaged >>"$TMP/o/h100/h100_mm.zip"
	got=$(lib_data)
	test_expect_success 'lib-dataset-from-out-sha256' '[ -z "$got" ]'
else
	skip lib-dataset-from-out "[DATASET] $_prereq_why"
	skip lib-dataset-from-out-sha256 "[DATASET] $_prereq_why"
fi
finish
