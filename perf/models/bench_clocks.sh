#!/usr/bin/env bash
# perf/models/bench_clocks.sh OUTDIR TRUTH.jsonl[.xz] [MORE ...] — bench's
# clocks held against the in-graph truth (perf/models/truth.py) on the
# truth's own GEMM keys: bench --template triton --reps 1 times Inductor's
# candidates of every key once per --clock of CLOCKS, then clocks.py scores
# each clock (hit, regret, rho, ATen bias; per regime) against the truth.
# Needs a CUDA GPU, bench, shapes and triton_cands built and the Triton
# cubins of the keys' variants (TRITON_CUBINS=DIR, an entry folder of
# python3 -m mmrank.bench.triton_aot; default: compiled here into FC,
# build/fccache/cubin, where missing: needs Triton).
# Environment (defaults):
#   CLOCKS    "inductor rotate warm" (bench --clock values; inductor runs with
#             --long-ms 0: Inductor's benchmarker exactly)
#   RECORDS   more clocks.py --records NAME=FILE, space-separated (e.g.
#             inductor_b=judge.jsonl: run.sh records, mode b's autotune)
#   NEAR      clocks.py --near (0.02)
#   KEYS      a shape list of the keys made beforehand (shapes --from-log of
#             the truth's log), for a GPU host where shapes cannot run (it
#             links libzip and ISA-L); default: made here
#   BIN       build/bin (where bench, shapes and triton_cands are)
#   BENCH     $BIN/bench (tests: a stand-in)
# Writes OUTDIR/keys.tsv (the truth's keys as a shape list), bench_<clock>.txt
# (each clock's AutoHeuristic mm log), clocks.md and clocks.json (clocks.py)
# and best_clock.txt: the clock of CLOCKS with the highest hit over all keys,
# then the lowest regret, the first of CLOCKS on a tie (the one a
# collection should use; docs/STAGES.md
# "bench", --clock).  A bench run that fails ends the script (exit 1) before
# clocks.py; a bad setting is refused before anything runs (exit 2).
set -u -f
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
bad() { echo "bench_clocks.sh: $1; nothing done" >&2; exit 2; }
[ $# -ge 2 ] || bad "usage: perf/models/bench_clocks.sh OUTDIR TRUTH.jsonl[.xz] [MORE ...]"
OUT=$1; shift
BIN=${BIN:-build/bin}
CLOCKS=${CLOCKS:-inductor rotate warm} BENCH=${BENCH:-$BIN/bench} FC=${FC:-build/fccache/cubin}
for c in $CLOCKS; do
	case $c in inductor|rotate|warm) ;; *) bad "CLOCKS: '$c' is not a bench --clock (inductor, rotate, warm)" ;; esac
done
[ -n "${CLOCKS// /}" ] || bad "CLOCKS is empty"
[[ ${NEAR:-0.02} =~ ^0?\.[0-9]+$ ]] || bad "NEAR=$NEAR: expected a fraction such as 0.02"
rec=()
for r in ${RECORDS:-}; do
	[[ $r =~ ^[A-Za-z0-9._-]+=.+$ ]] && [ -f "${r#*=}" ] || bad "RECORDS: '$r' is not NAME=FILE of an existing file"
	rec+=(--records "$r")
done
for t in "$@"; do [ -f "$t" ] || bad "$t: no such truth file"; done
for b in "$BENCH" $([ -n "${KEYS:-}" ] || echo "$BIN/shapes") "$BIN/triton_cands"; do
	[ -x "$b" ] || bad "$b: not built (make $b)"
done
[ -z "${KEYS:-}" ] || [ -s "$KEYS" ] || bad "KEYS=$KEYS: no such shape list"
mkdir -p "$OUT" || exit 1
stamp() { echo "== $(date -u +%T): $*"; }
truth=()
i=0
for t in "$@"; do
	i=$((i + 1))
	case $t in
	*.xz) xz -dc "$t" > "$OUT/truth_$i.jsonl" || exit 1; truth+=("$OUT/truth_$i.jsonl") ;;
	*) truth+=("$t") ;;
	esac
done
# the keys: the truth as a log (every key of every row), then its distinct inputs
python3 perf/models/truth_log.py "$OUT/truth_mm.txt" "${truth[@]}" || exit 1
if [ -n "${KEYS:-}" ]; then
	cp "$KEYS" "$OUT/keys.tsv" || exit 1
else
	"$BIN/shapes" --from-log --source truth -o "$OUT/keys.tsv" "$OUT/truth_mm.txt" || exit 1
fi
if [ -z "${TRITON_CUBINS:-}" ]; then
	"$BIN/triton_cands" --variants "$OUT/keys.tsv" "$OUT/variants.tsv" || exit 1
	python3 -m mmrank.bench.triton_aot --cache "$FC" --jobs "$(nproc)" "$OUT/variants.tsv" | tail -n 3 || exit 1
	TRITON_CUBINS=$(python3 -m mmrank.bench.triton_aot --cache "$FC" --entry-dir) || exit 1
fi
for c in $CLOCKS; do
	stamp "bench --clock $c on $(($(wc -l < "$OUT/keys.tsv") - 1)) keys"
	extra=()
	[ "$c" = inductor ] && extra=(--long-ms 0)
	rm -f "$OUT/bench_$c.txt" "$OUT/bench_$c.txt.part" "$OUT/bench_$c.txt.part.plan"
	"$BENCH" --template triton --reps 1 --kernels kernels --cache "$FC" --triton-cubins "$TRITON_CUBINS" \
		--clock "$c" "${extra[@]}" --stats "$OUT/stats_$c.tsv" -o "$OUT/bench_$c.txt" "$OUT/keys.tsv" ||
		{ stamp "bench --clock $c failed"; exit 1; }
done
logs=()
for c in $CLOCKS; do logs+=(--log "bench_$c=$OUT/bench_$c.txt"); done
python3 perf/models/clocks.py "${truth[@]}" "${rec[@]}" "${logs[@]}" --near "${NEAR:-0.02}" \
	-o "$OUT/clocks.md" --json "$OUT/clocks.json" || exit 1
python3 - "$OUT/clocks.json" "$OUT/best_clock.txt" $CLOCKS <<'EOF' || exit 1
import json, sys
res = json.load(open(sys.argv[1]))["clocks"]
def score(c):
    s = res["bench_" + c]["regimes"].get("all")
    return (-1, 0) if s is None else (s["hit"], -s["regret_geomean"])
best = max(sys.argv[3:], key=score)
open(sys.argv[2], "w").write(best + "\n")
for c in sys.argv[3:]:
    h, r = score(c)
    print(f"clock {c}: hit {h:.3f} regret {-r:.4f}" + ("  <- best" if c == best else ""))
EOF
