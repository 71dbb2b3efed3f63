#!/usr/bin/env bash
# Includes name their folder (docs/LAYOUT.md): an `#include "x.h"` without a
# folder names a header beside the including file (a unit's own header, or
# one of its folder); a header of another folder of stages/ is written with
# its folder, `#include "core/util.h"`, `"gpu/bench/plan.h"`, found through
# the one `-iquote stages` of the build.  Every C source and header of the
# tree (stages/, check/, perf/, kernels/; not gen/, build/, out/ or a hidden
# folder: .git, a local scratch copy) is read;
# and the layers include only downward.
# README.md stays within 12000 bytes, perf/results within 100 files, and every "RESULTS.md §N.M" (or
# "section N.M") of README.md and docs/*.md names a heading of docs/RESULTS.md.
. check/lib.sh

# bare_includes ROOT: "FILE: NAME" for each bare include under ROOT that is
# not beside FILE but names a header of ROOT/stages/
bare_includes() {
	local root=$1 f h
	(cd "$root" && find . \( -path ./build -o -path ./out -o -path ./gen -o -path "./.*" \) -prune -o \
		-type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) -print | sed 's#^\./##' | sort |
	while IFS= read -r f; do
		sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"/]*\)".*/\1/p' "$f" |
		while IFS= read -r h; do
			[ -e "$(dirname "$f")/$h" ] && continue
			[ -n "$(find stages -type f -name "$h" -print -quit)" ] && echo "$f: $h"
		done
	done)
}

test_expect_success 'layout-includes-name-their-folder' '
	bad=$(bare_includes .)
	[ -z "$bad" ] || { echo "bare includes of a header of another folder: $bad"; false; }
'

# the layers (docs/LAYOUT.md): core includes nothing above it, formats only
# core, learn only core and formats, gpu only core and formats (bench never
# links the learner); with the check above, every include across folders
# names its folder, so a grep sees them all
test_expect_success 'layout-layers-include-downward' '
	bad=$(for p in "core formats|learn|gpu" "formats learn|gpu" "learn gpu" "gpu learn"; do
		set -- $p
		grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]*\"($2)/" "stages/$1" || :
	done)
	[ -z "$bad" ] || { echo "includes up the layers: $bad"; false; }
'

# the check itself: a bare include of another folder's header is caught, the
# same header with its folder and a bare one of the file's own folder are not
mkdir -p "$TMP/tree/stages/core" "$TMP/tree/stages/learn"
: >"$TMP/tree/stages/core/util.h"
: >"$TMP/tree/stages/learn/cart.h"
printf '#include "cart.h"\n#include "core/util.h"\n#include "util.h"\n#include <stdio.h>\n' >"$TMP/tree/stages/learn/cart.c"
test_expect_success 'layout-bare-include-caught' '
	[ "$(bare_includes "$TMP/tree")" = "stages/learn/cart.c: util.h" ]
'
test_expect_success 'layout-readme-size' '
	n=$(wc -c <README.md); [ "$n" -le 12000 ] || { echo "README.md is $n bytes (at most 12000)"; false; }
'
# the recorded results stay a reader's folder: at most 100 files
test_expect_success 'layout-results-at-most-100-files' '
	n=$(find perf/results -type f | wc -l)
	[ "$n" -gt 0 ] && [ "$n" -le 100 ] || { echo "perf/results holds $n files (1..100)"; false; }
'
# each section number a RESULTS reference names, both ends of a range
results_refs() {
	grep -ohE 'RESULTS(\.md)?`? (§ ?|sections? )[0-9]+(\.[0-9]+)?((–|-)[0-9]+(\.[0-9]+)?)?' "$@" |
		sed -E 's/.*(§ ?|sections? )//; s/(–|-)/\n/' | sort -u
}
test_expect_success 'layout-results-references-exist' '
	bad=$(for n in $(results_refs README.md docs/*.md); do
		grep -qE "^#+ ${n//./\\.}[ .]" docs/RESULTS.md || echo "§$n"
	done)
	[ -z "$bad" ] || { echo "no such section of docs/RESULTS.md: $bad"; false; }
'
printf '%s\n' 'see RESULTS.md §2.7 and RESULTS section 9.2, RESULTS.md §7.3–7.5' >"$TMP/refs.md"
test_expect_success 'layout-results-references-read' '
	[ "$(results_refs "$TMP/refs.md" | paste -sd" ")" = "2.7 7.3 7.5 9.2" ]
'
finish
