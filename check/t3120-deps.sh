#!/usr/bin/env bash
# stages/sh/deps.sh: all present here; an apt lock held by another process is
# named and waited for (stages/sh/deps.sh --lock-holder / --wait-locks: the
# wait the installer does before apt-get), here on a scratch lock file held
# with fcntl as dpkg holds /var/lib/dpkg/lock-frontend.
. check/lib.sh
D=$ROOT/stages/sh/deps.sh
"$D" --check >"$TMP/out" 2>&1 && grep -q '^deps: all present' "$TMP/out" && ok deps-present ||
	fail deps-present "$(head -c 200 "$TMP/out")"
L=$TMP/lock-frontend
: >"$L"
hold() { # SECONDS: hold L's lock for that long, in the background (pid in $holder)
	python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "w"); fcntl.lockf(f, fcntl.LOCK_EX); open(sys.argv[1] + ".held", "w").close()
time.sleep(float(sys.argv[2]))' "$L" "$1" &
	holder=$!
	for _ in $(seq 50); do [ -e "$L.held" ] && break; sleep 0.1; done
	rm -f "$L.held"
}
[ -z "$("$D" --lock-holder "$L")" ] && ok deps-lock-free || fail deps-lock-free "a holder named for a free lock"
hold 30
got=$("$D" --lock-holder "$L")
[[ $got == "$holder (python3 -c import fcntl"* || $got == "$holder ("*"python3 -c import fcntl"* ]] && ok deps-lock-holder-named ||
	fail deps-lock-holder-named "'$got', holder $holder"
"$D" --wait-locks 1 "$L" 2>"$TMP/err" && fail deps-lock-timeout "exit 0" || {
	grep -q "deps: waiting for $L, locked by process $holder (" "$TMP/err" &&
	grep -q "deps: $L is still locked by process $holder (.*) after 1 s; run the install again" "$TMP/err" &&
		ok deps-lock-timeout || fail deps-lock-timeout "$(head -c 300 "$TMP/err")"; }
kill "$holder"; wait "$holder" 2>/dev/null
hold 2
start=$(date +%s)
"$D" --wait-locks 20 "$L" 2>"$TMP/err" && [ $(($(date +%s) - start)) -lt 15 ] &&
	grep -q "deps: waiting for $L, locked by process $holder" "$TMP/err" && ok deps-lock-waits ||
	fail deps-lock-waits "$(head -c 300 "$TMP/err")"
wait "$holder" 2>/dev/null
finish
