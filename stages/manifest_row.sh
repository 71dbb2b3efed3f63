#!/usr/bin/env bash
# manifest_row.sh — the four measured columns of a committed collection's row
# in datasets/MANIFEST.<gpu>.tsv (datasets/README.md): sha256 of the .xz,
# sha256 of the log, inputs, rows.
#
# usage: stages/manifest_row.sh FILE.xz
#        stages/manifest_row.sh --update MANIFEST FILE.xz
#   FILE.xz   an AutoHeuristic log (spec section 1.1: the JSON metadata line,
#             the CSV header, then one row per choice), xz-compressed
#   first form: prints "sha256 TAB sha256_uncompressed TAB inputs TAB rows"
#   --update: rewrites those four columns of MANIFEST's row whose file column
#             is FILE.xz's path below datasets/ (e.g. h200/x.txt.xz), the
#             other columns and rows byte for byte; written to a temporary
#             file beside MANIFEST and renamed, so MANIFEST is either the old
#             or the new one
# inputs: the log's inputs in log order (a run of rows of one (m, k, n,
# dtype, the four strides, using_tf32); an input measured twice counts
# twice); rows: its lines after the two header lines.  check/test_manifest.sh
# checks every committed row with this.
# Errors (exit 1, nothing written): FILE.xz missing or not xz, a log
# without the two header lines or with no row, MANIFEST without the columns
# file, sha256, sha256_uncompressed, inputs, rows, or without FILE.xz's row.
# Exit 2: bad usage.
set -euo pipefail
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
die() { echo "manifest_row: $*" >&2; exit 1; }
man=
if [ "${1:-}" = --update ]; then
	[ $# -eq 3 ] || { echo "usage: stages/manifest_row.sh [--update MANIFEST] FILE.xz" >&2; exit 2; }
	man=$2
	shift 2
fi
[ $# -eq 1 ] || { echo "usage: stages/manifest_row.sh [--update MANIFEST] FILE.xz" >&2; exit 2; }
f=$1
[ -f "$f" ] || die "$f: no such file"
sha=$(sha256sum "$f" | cut -d' ' -f1)
xz -t "$f" 2>/dev/null || die "$f: not an xz file (xz -t failed)"
log=$(mktemp "${TMPDIR:-/tmp}/manifest_row.XXXXXX")
trap 'rm -f "$log"' EXIT
xz -dc "$f" >"$log" || die "$f: xz -dc failed"
shu=$(sha256sum "$log" | cut -d' ' -f1)
counts=$(awk -F, 'NR == 1 { meta = ($0 ~ /^\{.*"name": *"mm"/) }
	NR == 2 { hdr = ($0 ~ /^m,k,n,.*,choice,feedback$/) }
	NR > 2 { k = $1 "," $2 "," $3 "," $4 "," $6 "," $7 "," $8 "," $9 "," $12
		if (k != last) { n++; last = k } rows++ }
	END { if (NR < 2 || !meta || !hdr) print "noheader"; else print n + 0 "\t" rows + 0 }' "$log")
rm -f "$log"
trap - EXIT
[ "$counts" != noheader ] ||
	die "$f: not an AutoHeuristic log (line 1: the JSON metadata of \"mm\", line 2: m,k,n,...,choice,feedback)"
[ "${counts#*$'\t'}" != 0 ] || die "$f: the log has no rows"
row="$sha	$shu	$counts"
if [ -z "$man" ]; then
	printf '%s\n' "$row"
	exit 0
fi
[ -f "$man" ] || die "$man: no such file"
rel=$(realpath --relative-to="$(dirname "$man")" "$f")
tmp=$(mktemp "$man.tmp.XXXXXX")
trap 'rm -f "$tmp"' EXIT
awk -F'\t' -v OFS='\t' -v rel="$rel" -v sha="$sha" -v shu="$shu" -v c="$counts" -v man="$man" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i
		if (!col["file"] || !col["sha256"] || !col["sha256_uncompressed"] || !col["inputs"] || !col["rows"]) {
			print "manifest_row: " man ":1: want the columns file, sha256, sha256_uncompressed, inputs, rows" > "/dev/stderr"; bad = 1; exit 1 }
		print; next }
	$col["file"] == rel { split(c, n, "\t")
		$col["sha256"] = sha; $col["sha256_uncompressed"] = shu; $col["inputs"] = n[1]; $col["rows"] = n[2]; found++ }
	{ print }
	END { if (bad) exit 1
		if (found != 1) { print "manifest_row: " man ": " (found ? found " rows" : "no row") " with file " rel > "/dev/stderr"; exit 1 } }' \
	"$man" >"$tmp" || exit 1
chmod --reference="$man" "$tmp"
mv "$tmp" "$man"
trap - EXIT
printf 'manifest_row: %s: %s: %s\n' "$man" "$rel" "$row"
