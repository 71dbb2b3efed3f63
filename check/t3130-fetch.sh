#!/usr/bin/env bash
# stages/sh/fetch.sh on a private manifest and mirror (no network): concurrent
# runs onto one DEST all succeed (unique temporary names, no "mv: cannot
# stat"); a mirror without the file is reported before the download, and a
# failed download is named.
. check/lib.sh
M=$TMP/mirror
mkdir -p "$M"
head -c 30000000 /dev/urandom >"$M/x.zip"
printf 'file\tgpu\tsha256\turl\nx.zip\txx\t%s\tfile:///nonexistent/mmrank/x.zip\n' \
	"$(sha256sum "$M/x.zip" | cut -d' ' -f1)" >"$TMP/MANIFEST.tsv"
D=$TMP/fetch/x.zip
pids=()
for i in 1 2 3 4; do
	MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR=$M "$ROOT/stages/sh/fetch.sh" x.zip "$D" 2>"$TMP/f$i.err" &
	pids+=($!)
done
bad=0
for i in 1 2 3 4; do wait "${pids[$((i - 1))]}" || bad=$i; done
if [ $bad -ne 0 ]; then fail fetch-concurrent "run $bad failed: $(head -c 300 "$TMP/f$bad.err")"
elif ! cmp -s "$M/x.zip" "$D"; then fail fetch-concurrent "DEST differs from the mirror's file"
elif compgen -G "$D.part*" >/dev/null; then fail fetch-concurrent "temporary files left: $(echo "$D".part*)"
else ok fetch-concurrent; fi
# a mirror without the file: say so, then name the failed download
rm -f "$D"
if test_skip_unless CURL fetch-mirror-miss; then
	MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR=$TMP/empty "$ROOT/stages/sh/fetch.sh" x.zip "$D" 2>"$TMP/f.err"
	rc=$?
	if [ $rc -ne 1 ]; then fail fetch-mirror-miss "exit status $rc: $(head -c 300 "$TMP/f.err")"
	elif ! grep -q "mirror $TMP/empty has no x.zip; downloading file:///nonexistent/mmrank/x.zip" "$TMP/f.err"; then
		fail fetch-mirror-miss "no mirror message: $(head -c 300 "$TMP/f.err")"
	elif ! grep -q "download of file:///nonexistent/mmrank/x.zip failed (curl exit status [0-9]*)" "$TMP/f.err"; then
		fail fetch-mirror-miss "no download failure message: $(head -c 300 "$TMP/f.err")"
	elif [ -e "$D" ] || compgen -G "$D.part*" >/dev/null; then fail fetch-mirror-miss "partial output left"
	else ok fetch-mirror-miss; fi
fi

# SIGKILL while copying leaves DEST.part.PID.N (no trap runs); the next
# fetch removes parts whose writer is gone, and only those: a live writer's
# part and a file of another name are left (the latter named).
if test_skip_unless CURL,SETSID fetch-sigkill; then
	rm -f "$D"
	printf 'file\tgpu\tsha256\turl\nx.zip\txx\t%s\tfile://%s\n' \
		"$(sha256sum "$M/x.zip" | cut -d' ' -f1)" "$M/x.zip" >"$TMP/MANIFEST2.tsv"
	mkdir -p "$TMP/home" && echo 'limit-rate = 500k' >"$TMP/home/.curlrc"   # a slow download
	HOME=$TMP/home CURL_HOME=$TMP/home MANIFEST=$TMP/MANIFEST2.tsv DATASET_MIRROR= \
		setsid "$ROOT/stages/sh/fetch.sh" x.zip "$D" 2>/dev/null &
	killer=$!
	for _ in $(seq 50); do compgen -G "$D.part.*" >/dev/null && [ -s "$(echo "$D".part.*)" ] && break; sleep 0.1; done
	kill -KILL -- -"$killer" 2>/dev/null; wait "$killer" 2>/dev/null
	left=$(echo "$D".part.*)
	if [ ! -s "$left" ] || [[ ! $left =~ \.part\.$killer\.[0-9A-Za-z]+$ ]]; then
		fail fetch-sigkill-leaves-part "expected $D.part.$killer.N with data, found '$left'"
	else
		ok fetch-sigkill-leaves-part
		sleep 300 & live=$!
		: >"$D.part.$live.abcdef"        # a live writer's part: kept
		: >"$D.part.Xy12zZ"              # the old naming: not ours to judge
		MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR=$M "$ROOT/stages/sh/fetch.sh" x.zip "$D" 2>"$TMP/f.err"
		rc=$?
		if [ $rc -ne 0 ]; then fail fetch-removes-stale-parts "exit status $rc: $(head -c 300 "$TMP/f.err")"
		elif [ -e "$left" ]; then fail fetch-removes-stale-parts "$left is still there"
		elif ! grep -q "fetch: removing $left (left by a fetch that was killed: process $killer is gone)" "$TMP/f.err"; then
			fail fetch-removes-stale-parts "not said: $(head -c 300 "$TMP/f.err")"
		elif [ ! -e "$D.part.$live.abcdef" ] || [ ! -e "$D.part.Xy12zZ" ]; then
			fail fetch-removes-stale-parts "a part that is not stale was removed"
		elif ! grep -q "note: $D.part.Xy12zZ is not a part of this fetch.sh" "$TMP/f.err"; then
			fail fetch-removes-stale-parts "the foreign part is not named: $(head -c 300 "$TMP/f.err")"
		elif ! cmp -s "$M/x.zip" "$D"; then fail fetch-removes-stale-parts "DEST differs"
		else ok fetch-removes-stale-parts; fi
		kill "$live" 2>/dev/null; wait "$live" 2>/dev/null
		rm -f "$D".part.*
	fi
fi

# SIGTERM during a download: fetch ends its download child too (none left
# running on a removed part), removes the part, exits 1.  A curl stand-in on
# PATH that never finishes is the slow download.
mkdir -p "$TMP/slow"
printf '#!/bin/sh\necho $$ >"%s"\nexec sleep 300\n' "$TMP/slow/curl.pid" >"$TMP/slow/curl"
chmod +x "$TMP/slow/curl"
rm -f "$D" "$D".part.* "$TMP/slow/curl.pid"
PATH=$TMP/slow:$PATH MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR= "$ROOT/stages/sh/fetch.sh" x.zip "$D" 2>"$TMP/t.err" &
fpid=$!
for _ in $(seq 100); do [ -s "$TMP/slow/curl.pid" ] && break; sleep 0.05; done
cpid=$(cat "$TMP/slow/curl.pid" 2>/dev/null)
kill -TERM "$fpid"; wait "$fpid"; rc=$?
# the stand-in is fetch's child: once fetch is gone it is reaped by init, so
# allow it a moment (a loaded machine) before calling it left running
for _ in $(seq 50); do kill -0 "$cpid" 2>/dev/null || break; sleep 0.1; done
if [ -z "$cpid" ]; then fail fetch-signal-ends-child "the curl stand-in did not start"
elif kill -0 "$cpid" 2>/dev/null; then fail fetch-signal-ends-child "the download (pid $cpid) is still running"; kill "$cpid"
elif [ $rc -ne 1 ] || ! grep -q "fetch: x.zip: stopped by a signal; nothing written" "$TMP/t.err"; then
	fail fetch-signal-ends-child "exit status $rc: $(head -c 300 "$TMP/t.err")"
elif compgen -G "$D.part*" >/dev/null || [ -e "$D" ]; then fail fetch-signal-ends-child "a part or DEST left"
else ok fetch-signal-ends-child; fi
# SIGTERM while no child runs (fetch is in its sha256sum check of the copied
# part, a foreground command): the trap still says so and exits 1 (a failing
# kill of no job must not end it under set -e first)
mkdir -p "$TMP/slowsum"
printf '#!/bin/sh\necho $$ >"%s"\nsleep 1\nexec "%s" "$@"\n' "$TMP/slowsum/pid" "$(command -v sha256sum)" >"$TMP/slowsum/sha256sum"
chmod +x "$TMP/slowsum/sha256sum"
rm -f "$D" "$D".part.*
PATH=$TMP/slowsum:$PATH MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR=$M "$ROOT/stages/sh/fetch.sh" x.zip "$D" 2>"$TMP/s.err" &
fpid=$!
for _ in $(seq 100); do [ -s "$TMP/slowsum/pid" ] && break; sleep 0.05; done
kill -TERM "$fpid"; wait "$fpid"; rc=$?
if [ ! -s "$TMP/slowsum/pid" ]; then fail fetch-signal-no-child "the sha256sum stand-in did not start"
elif [ $rc -ne 1 ] || ! grep -q "fetch: x.zip: stopped by a signal; nothing written" "$TMP/s.err"; then
	fail fetch-signal-no-child "exit status $rc: $(head -c 300 "$TMP/s.err")"
elif compgen -G "$D.part*" >/dev/null || [ -e "$D" ]; then fail fetch-signal-no-child "a part or DEST left"
else ok fetch-signal-no-child; fi
finish
