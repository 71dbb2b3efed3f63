#!/usr/bin/env bash
# nvmmh-dir.sh — where NVIDIA's nvMatmulHeuristics is (the optional
# analytic peer of the trees, stage nvmmh): prints the folder holding
# include/nvMatmulHeuristics.h and lib/libnvMatmulHeuristics.so.0.
#
# usage: stages/sh/nvmmh-dir.sh [DIR]
#   DIR  that folder (make NVMMH_DIR=...); default: $NVMMH_DIR, else the
#        one of the Python package (pip install nvidia-matmul-heuristics: a
#        2 MB wheel, 11 MB installed; no GPU needed), found through python3.
# Exit status: 0 and the folder on stdout; 1 and the reason on stderr
# ("nvMatmulHeuristics not installed ..."), so callers can skip with it.
set -uo pipefail
[ "${1:-}" = --help ] && { sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
d=${1:-${NVMMH_DIR:-}}
if [ -z "$d" ]; then
	d=$(python3 -c 'import os, nvMatmulHeuristics as m
print(os.path.realpath(os.path.join(os.path.dirname(m.__file__), "..", "nvidia", "nvMatmulHeuristics")))' 2>/dev/null) ||
		{ echo "nvMatmulHeuristics not installed (pip install nvidia-matmul-heuristics, 2 MB; or NVMMH_DIR=DIR)" >&2; exit 1; }
fi
for f in include/nvMatmulHeuristics.h lib/libnvMatmulHeuristics.so.0; do
	[ -r "$d/$f" ] || { echo "nvMatmulHeuristics: no $d/$f (NVMMH_DIR=$d)" >&2; exit 1; }
done
echo "$d"
