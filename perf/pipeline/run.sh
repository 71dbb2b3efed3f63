#!/usr/bin/env bash
# perf/pipeline/run.sh — wall time and peak memory of `make heuristic` from an
# empty OUT, per GPU and profile, and of every stage (issue "Regenerate the
# A100 and H100 heuristics").  Not a test: it prints a table.
# usage: perf/pipeline/run.sh [GPU...]   (default: a100 h100)
# Needs /usr/bin/time (Debian package time); binaries are built first (not timed).
# The per-stage fit lines use the profile's options as the Makefile sets them
# (`make fit-args PROFILE=...`).
set -euo pipefail
cd "$(dirname "$0")/../.."
gpus=("$@"); [ ${#gpus[@]} -gt 0 ] || gpus=(a100 h100)
make -s all >/dev/null
T=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-pipe.XXXXXX"); trap 'rm -rf "$T"' EXIT
tv() { /usr/bin/time -f '%e %M' -o "$T/tv" "$@" >"$T/out" 2>&1 || { cat "$T/out"; exit 1; }
       read -r s kb <"$T/tv"; printf '%8.2f s %7.1f MB' "$s" "$(echo "$kb" | awk '{print $1/1024}')"; }
printf '%-6s %-22s %s\n' gpu what 'wall, peak RSS'
for g in "${gpus[@]}"; do
	for p in reference ours; do
		rm -rf "$T/out_$g"
		printf '%-6s %-22s ' "$g" "make heuristic ($p)"; tv make heuristic GPU=$g PROFILE=$p OUT="$T/out_$g"; echo
	done
	O=$T/out_$g/$g; Z=$O/${g}_mm.zip
	printf '%-6s %-22s ' "$g" "  fetch (mirror+sha)"; tv make -s "$T/fresh_$g/$g/${g}_mm.zip" GPU=$g OUT="$T/fresh_$g"; echo
	printf '%-6s %-22s ' "$g" "  featurize main"; tv bash -c "set -o pipefail; unzip -p $Z $g/${g}_mm.txt | build/bin/featurize -o $T/m.tsv -"; echo
	for x in timm hf; do
		printf '%-6s %-22s ' "$g" "  featurize train_$x"; tv bash -c "set -o pipefail; unzip -p $Z $g/${g}_${x}_train_mm.txt | build/bin/featurize --categories $T/m.tsv -o $T/$x.tsv -"; echo
	done
	for p in reference ours; do
		# exactly the profile's options, from the Makefile (make fit-args)
		a=($(make -s --no-print-directory fit-args GPU=$g PROFILE=$p))
		printf '%-6s %-22s ' "$g" "  fit ($p)"; tv build/bin/fit $T/m.tsv --data train_timm $T/timm.tsv --data train_hf $T/hf.tsv "${a[@]}" -o $T/tree.tsv --metrics $T/met.tsv; echo
	done
	printf '%-6s %-22s ' "$g" "  prune"; tv build/bin/prune --ranking 10 -o $T/pr.tsv $T/tree.tsv; echo
	for f in py c h dot; do
		printf '%-6s %-22s ' "$g" "  emit $f"; tv build/bin/emit --heuristic-name X --format $f -o $T/x.$f $T/pr.tsv; echo
	done
done
