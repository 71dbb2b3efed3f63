#!/usr/bin/env bash
# perf/pipeline/identity.sh — byte-identity of `make heuristic` against a
# baseline (a speed-up must not change any output).
# usage: perf/pipeline/identity.sh BASELINE [GPU...]   (default GPUs: those
#        BASELINE/SHA256SUMS lists)
# BASELINE holds ours/<gpu>/ (make heuristic GPU=<gpu>) and reference/<gpu>/
# (PROFILE=reference) of an earlier build, and SHA256SUMS over both (as
# /work/baseline, made from main before the speed work).  Every file that
# SHA256SUMS lists for a GPU is rebuilt here from an empty OUT (both
# profiles, THREADS=1 and THREADS=2 for the default profile) and its sha256
# compared; one line per file and profile, then "identity: N identical, N
# different".  Exit status 1 if any differs or is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ $# -ge 1 ] || { sed -n '3,4p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
base=$(cd "$1" && pwd); shift
[ -f "$base/SHA256SUMS" ] || { echo "identity.sh: no $base/SHA256SUMS" >&2; exit 2; }
gpus=("$@")
[ ${#gpus[@]} -gt 0 ] || mapfile -t gpus < <(awk '{split($2, p, "/"); print p[3]}' "$base/SHA256SUMS" | sort -u)
make -s all >/dev/null
T=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-identity.XXXXXX"); trap 'rm -rf "$T"' EXIT
same=0 diff=0
for g in "${gpus[@]}"; do
	for run in reference:1 ours:1 ours:2; do
		p=${run%:*} th=${run#*:} dir=ours
		[ "$p" = reference ] && dir=reference
		out=$T/$p.$th
		make -s heuristic GPU="$g" PROFILE="$p" THREADS="$th" OUT="$out" >"$T/log" 2>&1 ||
			{ cat "$T/log" >&2; echo "identity.sh: make heuristic GPU=$g PROFILE=$p failed" >&2; exit 1; }
		while read -r sum file; do
			f=${file#./$dir/$g/}
			[ "$f" != "$file" ] || continue
			got=$( [ -f "$out/$g/$f" ] && sha256sum <"$out/$g/$f" | cut -d' ' -f1 || echo missing)
			if [ "$got" = "$sum" ]; then
				same=$((same + 1)); printf 'same   %-9s THREADS=%s %s/%s\n' "$p" "$th" "$g" "$f"
			else
				diff=$((diff + 1)); printf 'DIFF   %-9s THREADS=%s %s/%s (%s)\n' "$p" "$th" "$g" "$f" "$got"
			fi
		done <"$base/SHA256SUMS"
	done
done
echo "identity: $same identical, $diff different"
[ "$diff" -eq 0 ]
