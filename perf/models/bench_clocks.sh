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
# Relative paths (OUTDIR, the truth files, KEYS, RECORDS' files) are the
# caller's; BIN, BENCH and FC are the repository root's.
# Writes into OUTDIR (its earlier outputs removed first): keys.tsv (the
# truth's keys as a shape list), truth_mm.txt (the truth as a log),
# bench_<clock>.txt and its
# .versions.tsv (each clock's AutoHeuristic mm log), stats_<clock>.tsv,
# variants.tsv (without TRITON_CUBINS), clocks.md and clocks.json
# (clocks.py) and best_clock.txt: the clock of CLOCKS with the highest hit
# over all keys, then the lowest regret, the first of CLOCKS on a tie (the
# one a collection should use; docs/STAGES.md "bench", --clock).  A device
# call returns few files: pack OUTDIR.  A bench run that fails ends the
# script (exit 1) before clocks.py; a bad setting (CLOCKS, NEAR, KEYS, a
# RECORDS file that is not mode b records) is refused before any bench
# runs (exit 2).
set -u -f
abs() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }
bad() { echo "bench_clocks.sh: $1; nothing done" >&2; exit 2; }
[ $# -ge 2 ] || bad "usage: perf/models/bench_clocks.sh OUTDIR TRUTH.jsonl[.xz] [MORE ...]"
OUT=$(abs "$1"); shift
files=()
for t in "$@"; do [ -f "$t" ] || bad "$t: no such truth file"; files+=("$(abs "$t")"); done
[ -z "${KEYS:-}" ] || { [ -s "$KEYS" ] || bad "KEYS=$KEYS: no such shape list"; KEYS=$(abs "$KEYS"); }
rec=()
for r in ${RECORDS:-}; do
	[[ $r =~ ^[A-Za-z0-9._-]+=.+$ ]] && [ -f "${r#*=}" ] || bad "RECORDS: '$r' is not NAME=FILE of an existing file"
	rec+=(--records "${r%%=*}=$(abs "${r#*=}")")
done
cd "$(dirname "$0")/../.." || exit 1
export PYTHONPATH="$PWD/python${PYTHONPATH:+:$PYTHONPATH}"   # the mmrank package
BIN=${BIN:-build/bin}
BENCH=${BENCH:-$BIN/bench} FC=${FC:-build/fccache/cubin}
[[ ${CLOCKS:-} != *$'\n'* ]] || bad "CLOCKS: one line of words expected"
read -r -a clocks <<<"${CLOCKS:-inductor rotate warm}"
[ ${#clocks[@]} -gt 0 ] || bad "CLOCKS is empty"
seen=" "
for c in "${clocks[@]}"; do
	case $c in inductor|rotate|warm) ;; *) bad "CLOCKS: '$c' is not a bench --clock (inductor, rotate, warm)" ;; esac
	[[ $seen != *" $c "* ]] || bad "CLOCKS: '$c' given twice"
	seen+="$c "
done
[[ ${NEAR:-0.02} =~ ^0?\.[0-9]+$ ]] || bad "NEAR=$NEAR: expected a fraction such as 0.02"
for b in "$BENCH" $([ -n "${KEYS:-}" ] || echo "$BIN/shapes") "$BIN/triton_cands"; do
	[ -x "$b" ] || bad "$b: not built (make $b)"
done
if [ -n "${KEYS:-}" ]; then
	IFS= read -r hdr < "$KEYS"
	[[ $hdr == $'m\tk\tn\tdtype\t'* ]] || bad "KEYS=$KEYS: not a shape list (its header: m, k, n, dtype, ...)"
fi
[ ! -e "$OUT" ] || [ -d "$OUT" ] || bad "$OUT: not a folder"
stamp() { echo "== $(date -u +%T): $*"; }
W=$(mktemp -d) || exit 1
trap 'rm -rf "$W"' EXIT
truth=()
i=0
for t in "${files[@]}"; do
	i=$((i + 1))
	case $t in
	*.xz) xz -dc "$t" > "$W/truth_$i.jsonl" 2>/dev/null || bad "$t: not an xz file"
		truth+=("$W/truth_$i.jsonl") ;;
	*) truth+=("$t") ;;
	esac
done
# RECORDS checked before any bench runs: clocks.py on them alone
if [ ${#rec[@]} -gt 0 ]; then
	python3 perf/models/clocks.py "${truth[@]}" "${rec[@]}" >/dev/null || bad "RECORDS: clocks.py refused them (above)"
fi
mkdir -p "$OUT" || exit 1
set +f   # the earlier outputs
rm -f "$OUT"/keys.tsv "$OUT"/truth_mm.txt "$OUT"/bench_*.txt* "$OUT"/stats_*.tsv \
	"$OUT"/variants.tsv "$OUT"/clocks.md "$OUT"/clocks.json "$OUT"/best_clock.txt
set -f
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
for c in "${clocks[@]}"; do
	stamp "bench --clock $c on $(($(wc -l < "$OUT/keys.tsv") - 1)) keys"
	extra=()
	[ "$c" = inductor ] && extra=(--long-ms 0)
	rm -f "$OUT/bench_$c.txt" "$OUT/bench_$c.txt.part" "$OUT/bench_$c.txt.part.plan"
	"$BENCH" --template triton --reps 1 --kernels kernels --cache "$FC" --triton-cubins "$TRITON_CUBINS" \
		--clock "$c" "${extra[@]}" --stats "$OUT/stats_$c.tsv" -o "$OUT/bench_$c.txt" "$OUT/keys.tsv" ||
		{ stamp "bench --clock $c failed"; exit 1; }
done
logs=()
for c in "${clocks[@]}"; do logs+=(--log "bench_$c=$OUT/bench_$c.txt"); done
python3 perf/models/clocks.py "${truth[@]}" "${rec[@]}" "${logs[@]}" --near "${NEAR:-0.02}" \
	-o "$OUT/clocks.md" --json "$OUT/clocks.json" || exit 1
python3 - "$OUT/clocks.json" "$OUT/best_clock.txt" "${clocks[@]}" <<'EOF' || exit 1
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
