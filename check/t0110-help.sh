#!/usr/bin/env bash
# Every stage answers --help (synopsis on stdout, exit 0; a screenful) and
# --version; an unknown option is an error.  `make help` lists the main targets.
. check/lib.sh
for b in "$BIN"/*; do
	s=$(basename "$b")
	out=$("$b" --help 2>&1); rc=$?
	if [ $rc -eq 0 ] && grep -q "^usage: $s" <<<"$out" && grep -qi 'exit' <<<"$out"; then
		ok "help-$s"
	else
		fail "help-$s" "rc=$rc, no 'usage: $s' line or exit status section"
	fi
	v=$("$b" --version 2>&1)
	[ "$v" = "$s (mmrank) $(sed -n 's/^#define MMRANK_VERSION "\(.*\)"/\1/p' stages/core/util.h)" ] &&
		ok "version-$s" || fail "version-$s" "'$v'"
	"$b" --no-such-option >/dev/null 2>&1 && fail "badopt-$s" "exit 0" || ok "badopt-$s"
	# a screenful: at most 50 lines of at most 80 columns (bytes; the long
	# form of an option belongs in docs/STAGES.md), bench-fake's test-only
	# options aside
	n=$(sed '/^bench-fake only (CPU tests):$/,/^$/d' <<<"$out" | wc -l)
	w=$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' <<<"$out")
	[ "$n" -le 50 ] && [ "$w" -le 80 ] && ok "help-screenful-$s" ||
		fail "help-screenful-$s" "$n lines (at most 50), the widest $w columns (at most 80)"
done
# the shipped bench has no test-only switch: the wrong kernel of the GPU
# tests is the test build build/test/bench-bug (docs/STAGES.md "bench")
for s in bench bench-fake; do
	[ -x "$BIN/$s" ] || continue
	e=$("$BIN/$s" --bad-kernel 2>&1 >/dev/null)
	grep -q "unknown option '--bad-kernel'" <<<"$e" && ok "no-bad-kernel-$s" ||
		fail "no-bad-kernel-$s" "not refused as unknown: $(head -c 200 <<<"$e")"
done
h=$(make -s help)
for t in 'make heuristic GPU=a100' 'make check' 'make collect' 'RANKING=' 'DATASET_MIRROR='; do
	n=make-help-${t//[^A-Za-z0-9]/-}
	grep -qF "$t" <<<"$h" && ok "${n%-}" || fail "${n%-}" "missing '$t'"
done
# a variable that may be empty says so, not "(empty; ...)" after its value, which reads as the value
grep -q 'DATASET_MIRROR=[^ ]* (may be empty; a folder' <<<"$h" && ! grep -q '=[^ ]* (empty;' <<<"$h" &&
	ok make-help-may-be-empty || fail make-help-may-be-empty "$(grep -E 'DATASET_MIRROR=|\(empty;' <<<"$h" | head -3)"
# every line of make help and make help-all fits 100 columns; HOLDOUT and HELDOUT say how they differ
# under the default settings: a long value the user sets (CI: NVMMH_DIR) is theirs
long=$(env -i PATH="$PATH" HOME="${HOME:-/tmp}" make -s help-all | awk 'length($0) > 100')
[ -z "$long" ] && ok make-help-width || fail make-help-width "over 100 columns: $(head -c 200 <<<"$long")"
grep -q 'HELDOUT=.*more logs' <<<"$h" && grep -q 'HOLDOUT=.*not HELDOUT: the fraction' <<<"$h" &&
	ok make-help-holdout-heldout || fail make-help-holdout-heldout "$(grep -E 'HOLDOUT|HELDOUT' <<<"$h")"
# fit --leaf-rank names every rule of the LO_RULES table (stages/learn/
# leaforder.h), the head-* ones among them, and where make's per-GPU default
# comes from (the GPU profile); so does make help-all's LEAF_RANK line
rules=$(sed -n 's/^[[:space:]]*X("\([a-z0-9-]*\)".*/\1/p' stages/learn/leaforder.h)
fh=$("$BIN/fit" --help 2>&1 | tr -s ' \n' ' ')
ha=$(make -s help-all | tr -s ' \n' ' ')
miss= amiss=
for r in $rules; do
	grep -Eq "[ (]$r[,) ]" <<<"$fh" || miss+=" $r"
	case $r in head*) grep -Eq "LEAF_RANK=.*[|]$r[|;]" <<<"$ha" || amiss+=" $r" ;; esac
done
[ -n "$rules" ] && [ -z "$miss" ] && grep -q 'GPU profile datasets/PROFILES.tsv' <<<"$fh" &&
	ok fit-help-leaf-rank-rules || fail fit-help-leaf-rank-rules "not in fit --help:${miss:- (the GPU profile)}"
grep -q 'LEAF_RANK=.*GPU profile datasets/PROFILES.tsv' <<<"$ha" && [ -z "$amiss" ] &&
	ok make-help-all-leaf-rank-rules || fail make-help-all-leaf-rank-rules "not in make help-all:${amiss:- (the GPU profile)}"
# perf/compare/paired.py --help describes its arguments and how to make the
# shipped tree TSV it needs (import)
if p=$(python3 perf/compare/paired.py --help 2>&1); then
	miss=
	for w in 'FEAT\[,FEAT...\] +feat TSV' 'NAME=TREE\[,TREE...\] +the two trees' 'build/bin/import -o' '--k K +top-k' '--bin BIN +folder' '--resamples RESAMPLES'; do
		grep -Eq -- "$w" <<<"$p" || miss+=" '$w'"
	done
	[ -z "$miss" ] && ok paired-help || fail paired-help "not in --help:$miss"
else fail paired-help "exit non-zero: $(head -c 200 <<<"$p")"; fi
finish
