#!/usr/bin/env bash
# stages/fetch.sh on a private manifest and mirror (no network): concurrent
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
	MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR=$M "$ROOT/stages/fetch.sh" x.zip "$D" 2>"$TMP/f$i.err" &
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
if command -v curl >/dev/null; then
	MANIFEST=$TMP/MANIFEST.tsv DATASET_MIRROR=$TMP/empty "$ROOT/stages/fetch.sh" x.zip "$D" 2>"$TMP/f.err"
	rc=$?
	if [ $rc -ne 1 ]; then fail fetch-mirror-miss "exit status $rc: $(head -c 300 "$TMP/f.err")"
	elif ! grep -q "mirror $TMP/empty has no x.zip; downloading file:///nonexistent/mmrank/x.zip" "$TMP/f.err"; then
		fail fetch-mirror-miss "no mirror message: $(head -c 300 "$TMP/f.err")"
	elif ! grep -q "download of file:///nonexistent/mmrank/x.zip failed (curl exit status [0-9]*)" "$TMP/f.err"; then
		fail fetch-mirror-miss "no download failure message: $(head -c 300 "$TMP/f.err")"
	elif [ -e "$D" ] || compgen -G "$D.part*" >/dev/null; then fail fetch-mirror-miss "partial output left"
	else ok fetch-mirror-miss; fi
else skip fetch-mirror-miss "curl is absent"; fi

finish
