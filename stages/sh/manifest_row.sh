#!/usr/bin/env bash
# manifest_row.sh — the four measured columns of a committed collection's row
# in datasets/MANIFEST.<gpu>.tsv (datasets/README.md): sha256 of the .xz,
# sha256 of the log, inputs, rows.
#
# usage: stages/sh/manifest_row.sh FILE.xz
#        stages/sh/manifest_row.sh --update MANIFEST FILE.xz
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
# twice); rows: its lines after the two header lines.  check/t1190-manifest.sh
# checks every committed row with this.
# Errors (exit 1, nothing written; the line named): FILE.xz missing or not
# xz, a log without the two header lines, with a row whose fields are not
# the header's (a blank or cut line, a second log appended) or with no row;
# MANIFEST missing, not writable, without the columns file, sha256,
# sha256_uncompressed, inputs, rows, or without exactly one row of FILE.xz.
# A symlinked MANIFEST: its target is rewritten.  Two --update runs on one
# manifest folder take turns (flock on the folder).
# Exit 2: bad usage.
set -euo pipefail
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
die() { echo "manifest_row: $*" >&2; exit 1; }
man=
if [ "${1:-}" = --update ]; then
	[ $# -eq 3 ] || { echo "usage: stages/sh/manifest_row.sh [--update MANIFEST] FILE.xz" >&2; exit 2; }
	man=$2
	shift 2
fi
[ $# -eq 1 ] || { echo "usage: stages/sh/manifest_row.sh [--update MANIFEST] FILE.xz" >&2; exit 2; }
f=$1
[ -f "$f" ] || die "$f: no such file"
sha=$(sha256sum -- "$f" | cut -d' ' -f1)
xz -t -- "$f" 2>/dev/null || die "$f: not an xz file (xz -t failed)"
log=$(mktemp "${TMPDIR:-/tmp}/manifest_row.XXXXXX")
trap 'rm -f "$log"' EXIT
xz -dc -- "$f" >"$log" || die "$f: xz -dc failed"
shu=$(sha256sum "$log" | cut -d' ' -f1)
# every row has the header's fields (14: the features, choice, feedback);
# a blank, short or long line (a cut row, a second log appended) is an error
counts=$(awk -F, 'NR == 1 { if ($0 !~ /^\{.*"name": *"mm"/) bad = "line 1: not the JSON metadata of \"mm\"" }
	NR == 2 && !bad { if ($0 !~ /^m,k,n,.*,choice,feedback$/) bad = "line 2: not the CSV header m,k,n,...,choice,feedback"; nf = NF }
	NR > 2 && !bad { if (NF != nf) { bad = "line " NR ": " NF " fields, the header has " nf; exit }
		k = $1 "," $2 "," $3 "," $4 "," $6 "," $7 "," $8 "," $9 "," $12
		if (k != last) { n++; last = k } rows++ }
	END { if (NR < 2 && !bad) bad = "no CSV header (" NR " lines)"
		if (bad) print "bad\t" bad; else if (!rows) print "bad\tthe log has no rows"; else print n "\t" rows }' "$log")
rm -f "$log"
trap - EXIT
[ "${counts%%$'\t'*}" != bad ] || die "$f: not an AutoHeuristic log (spec section 1.1): ${counts#*$'\t'}"
row="$sha	$shu	$counts"
if [ -z "$man" ]; then
	printf '%s\n' "$row"
	exit 0
fi
[ -f "$man" ] || die "$man: no such file"
# the file a symlinked manifest points to is the one rewritten (beside it)
target=$(realpath -- "$man")
[ -w "$target" ] || die "$man: not writable"
rel=$(realpath -s --relative-to="$(dirname -- "$man")" -- "$f")
# one --update at a time per manifest folder (the read and the rename under
# one lock on the folder itself: no lock file is left there)
exec 9<"$(dirname -- "$target")" || die "$(dirname -- "$target"): cannot open for the lock"
flock 9 || die "$man: cannot lock its folder"
tmp=$(mktemp "$target.tmp.XXXXXX")
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
	"$target" >"$tmp" || exit 1
# awk ends every line with a newline: a manifest without a final one keeps it so
if [ -s "$target" ] && [ "$(tail -c 1 "$target" | od -An -c | tr -d ' ')" != '\n' ]; then
	truncate -s -1 "$tmp" || exit 1
fi
chmod --reference="$target" "$tmp" && mv -f -- "$tmp" "$target" || die "$man: could not replace it"
trap - EXIT
printf 'manifest_row: %s: %s: %s\n' "$man" "$rel" "$row"
