#!/usr/bin/env bash
# gpu-check.sh — is a CUDA device visible here for each GPU id a collection
# measures on?  make collect and make evaluate-online (LAUNCHER=local,
# BENCH=bench) run it when make starts, before anything is sampled, compiled
# (9 065 Triton cubins for KERNEL_TEMPLATE=triton) or measured.
#
# usage: stages/sh/gpu-check.sh IDS    (GPUS: comma-separated, e.g. 0,1)
# The devices are those nvidia-smi -L lists (without nvidia-smi: the
# driver's /proc/driver/nvidia/gpus/*), as many as CUDA_VISIBLE_DEVICES
# names where it is set (empty: none).  Exit status 0 when every id is below
# their count; 1 and the reason on stderr, naming the prerequisite.
set -u
ids=${1:-0}
n=-1 how=
if command -v nvidia-smi >/dev/null 2>&1; then
	n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU [0-9]')
	how="nvidia-smi -L lists $n"
elif [ -d /proc/driver/nvidia/gpus ]; then
	n=$(find /proc/driver/nvidia/gpus -mindepth 1 -maxdepth 1 | wc -l)
	how="/proc/driver/nvidia/gpus holds $n (no nvidia-smi)"
fi
if [ "$n" -lt 0 ]; then
	echo "no CUDA device visible: no nvidia-smi on PATH and no NVIDIA driver (/proc/driver/nvidia/gpus)" >&2
	exit 1
fi
if [ "${CUDA_VISIBLE_DEVICES+set}" = set ]; then
	v=0
	[ -n "$CUDA_VISIBLE_DEVICES" ] && v=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c .)
	[ "$v" -lt "$n" ] && n=$v && how="$how, CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' leaves $v"
fi
if [ "$n" -eq 0 ]; then
	echo "no CUDA device visible: $how" >&2
	exit 1
fi
for d in ${ids//,/ }; do
	if [ "$d" -ge "$n" ]; then
		echo "GPUS=$ids: no CUDA device $d ($how: devices 0..$((n - 1)))" >&2
		exit 1
	fi
done
exit 0
