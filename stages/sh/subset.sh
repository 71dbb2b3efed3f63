#!/usr/bin/env bash
# subset.sh — the inputs of one set of a split, as a feat TSV.
#
# usage: stages/sh/subset.sh SPLIT.tsv SET IN.feat.tsv OUT.feat.tsv
#   SPLIT.tsv  fit --write-split output: 'input<TAB>set' (train|val|test|dropped)
#   SET        the set to keep, e.g. test
#   IN/OUT     feat TSVs (stages/FORMATS.md); OUT keeps IN's two header
#              lines and the rows of the kept inputs, renumbered 0, 1, ...
# OUT is written atomically (OUT.part, then renamed).  Exit status 1 if the
# set has no input or a file cannot be read.
set -euo pipefail
[ "${1:-}" = --help ] && { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
[ $# -eq 4 ] || { echo "usage: stages/sh/subset.sh SPLIT.tsv SET IN.feat.tsv OUT.feat.tsv" >&2; exit 1; }
split=$1 set=$2 in=$3 out=$4
trap 'rm -f "$out.part"' EXIT
awk -F'\t' -v OFS='\t' -v want="$set" '
	NR == FNR { if (FNR > 1 && $2 == want) keep[$1] = 1; next }
	FNR <= 2 { print; next }
	$1 in keep { if (!($1 in id)) id[$1] = n++; $1 = id[$1]; print }
	END { if (n == 0) { print "subset.sh: set '\''" want "'\'' of " ARGV[1] " has no input" > "/dev/stderr"; exit 1 } }
' "$split" "$in" > "$out.part"
mv "$out.part" "$out"
trap - EXIT
