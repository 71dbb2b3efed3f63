#!/usr/bin/env bash
# check/fuzz/build.sh — build the AFL++ harnesses (ASan + UBSan) into
# build/fuzz/bin/: featurize (log reader), featset_driver (feat TSV reader),
# prune (tree reader).  Usage: check/fuzz/build.sh [CC]   (default
# afl-clang-fast; any compiler works for a plain sanitizer build).
# Only the library files the harnesses need are compiled, so work in
# progress elsewhere in stages/lib/ cannot break the fuzz build.
set -eu
cd "$(dirname "$0")/../.."
CC=${1:-afl-clang-fast}
if ! command -v "$CC" >/dev/null; then
	echo "build.sh: $CC not found (apt-get install -y afl++)" >&2
	exit 1
fi
B=build/fuzz
mkdir -p "$B/obj" "$B/bin"
FLAGS=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer
       -fsanitize=address,undefined -fno-sanitize-recover=all -iquote stages/lib)
LIBS=(util opts pool ahlog ahlog_write ahmeta emittable sniff readahead zipmember intern g17 mmfeatures featset tree leaves rerank rules)
objs=()
for l in "${LIBS[@]}"; do
	"$CC" "${FLAGS[@]}" -c -o "$B/obj/$l.o" "stages/lib/$l.c"
	objs+=("$B/obj/$l.o")
done
"$CC" "${FLAGS[@]}" -o "$B/bin/featurize" stages/featurize.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
"$CC" "${FLAGS[@]}" -o "$B/bin/prune" stages/prune.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
"$CC" "${FLAGS[@]}" -o "$B/bin/featset_driver" check/fuzz/featset_driver.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
echo "build.sh: built $B/bin/{featurize,prune,featset_driver} with $CC"
