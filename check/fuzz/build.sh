#!/usr/bin/env bash
# check/fuzz/build.sh — build the AFL++ harnesses (ASan + UBSan) into
# build/fuzz/bin/: featurize (log reader), featset_driver (feat TSV reader),
# prune (tree reader), emit (tree reader + m4 + the artifact check), import
# (artifact reader).  Usage: check/fuzz/build.sh [CC]   (default
# afl-clang-fast; any compiler works for a plain sanitizer build).
# FUZZ_BUILD=DIR builds into DIR/bin/ instead (check/t7130-fuzz.sh).
# Only the library files the harnesses need are compiled, so work in
# progress elsewhere in stages/core, formats, learn cannot break the fuzz build.
set -eu
cd "$(dirname "$0")/../.."
CC=${1:-afl-clang-fast}
if ! command -v "$CC" >/dev/null; then
	echo "build.sh: $CC not found (apt-get install -y afl++)" >&2
	exit 1
fi
B=${FUZZ_BUILD:-build/fuzz}
mkdir -p "$B/obj" "$B/bin" "$B/gen"
# the GPU facts for C (gen/gpus.h, as make generates it: mk/gpus.mk)
awk -v mode=header -f mk/gpus.awk datasets/GPUS.tsv >"$B/gen/gpus.h"
FLAGS=(-std=c11 -Wall -Wextra -Werror -D_GNU_SOURCE -O1 -g -fno-omit-frame-pointer
       -fsanitize=address,undefined -fno-sanitize-recover=all -iquote stages -iquote "$B")
LIBS=(core/util core/opts core/pool core/privdir formats/ahlog formats/ahlog_write formats/ahmeta formats/emittable formats/gputable
      core/sniff core/readahead formats/zipmember core/intern core/g17 formats/mmfeatures formats/featset
      formats/tree learn/leaves learn/leaforder learn/rerank formats/rules core/tsvtext formats/dot
      formats/featmap learn/truthhead)
objs=()
for l in "${LIBS[@]}"; do
	"$CC" "${FLAGS[@]}" -c -o "$B/obj/${l#*/}.o" "stages/$l.c"
	objs+=("$B/obj/${l#*/}.o")
done
"$CC" "${FLAGS[@]}" -o "$B/bin/featurize" stages/featurize.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
"$CC" "${FLAGS[@]}" -o "$B/bin/prune" stages/prune.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
"$CC" "${FLAGS[@]}" -o "$B/bin/featset_driver" check/fuzz/featset_driver.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
"$CC" "${FLAGS[@]}" -o "$B/bin/emit" stages/emit.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
"$CC" "${FLAGS[@]}" -o "$B/bin/import" stages/import.c "${objs[@]}" -ljansson -lzip -lisal -lm -pthread
echo "build.sh: built $B/bin/{featurize,prune,featset_driver,emit,import} with $CC"
