#!/usr/bin/env bash
# check/t3170-slurm.sh — make collect LAUNCHER=slurm (mk/slurm.mk,
# stages/sh/slurm_shard.sh) through a real single-node Slurm cluster on this
# machine (check/slurm/cluster.sh: munged, slurmctld, slurmd on 127.0.0.1,
# state under $TMP), with the CPU back end (BENCH=bench-fake, no GPU option).
#
# Checks: 4 shards of a 40-sample collection run as Slurm jobs while one job
# is scancel'ed mid-shard; its shard is resubmitted and resumes (the new job
# finds inputs already done); the merged log is byte-identical to a
# LAUNCHER=local run of 4 shards (GPUS=0,1,2,3); no .part file is left; a
# rerun submits nothing; a job finding its shard locked by another writer
# does not touch it; a bad sbatch option fails make with sbatch's message.
#
# Needs root and Debian's slurm-wlm and munge.  When they are absent it
# installs them (apt-get) only if MMRANK_SLURM_INSTALL=1 (CI sets it: .ci/run);
# otherwise, and when not root, when they cannot be installed, or when the
# cluster does not start (then the daemons' log tails are shown), it skips
# with the reason: a plain `make check` never changes the system.
# Where it can (unshare --net; SLURM_TEST_NETNS=0 to not), it runs in a
# fresh network namespace with only the loopback interface; otherwise the
# daemons use 127.0.0.1 (check/slurm/cluster.sh --listen auto).  Every
# daemon it started is stopped on exit.
. check/lib.sh
T=slurm
test_have_bins $T sample merge bench-fake || finish
test_require ROOT $T   # to install and run slurmd

# ---- install (outside the network namespace: apt needs the network) -------
have_slurm() { command -v slurmctld && command -v slurmd && command -v sbatch && command -v munged; } >/dev/null
if [ "${1:-}" != --in-netns ] && ! have_slurm; then
	[ "${MMRANK_SLURM_INSTALL:-0}" = 1 ] || test_require SLURM $T
	command -v apt-get >/dev/null || { skip $T "[SLURM] slurm-wlm is not installed and there is no apt-get"; finish; }
	cand() { apt-cache policy slurm-wlm 2>/dev/null | awk '/Candidate:/{print $2}'; }
	c=$(cand)
	if [ -z "$c" ] || [ "$c" = "(none)" ]; then
		timeout 60 apt-get update -qq >"$TMP/apt-update.log" 2>&1 || true
		c=$(cand)
	fi
	if [ -z "$c" ] || [ "$c" = "(none)" ]; then skip $T "[SLURM] apt has no slurm-wlm candidate"; finish; fi
	# The packages' postinst scripts must not start system daemons: where no
	# policy-rc.d exists, one that denies every start is in place meanwhile.
	prc=/usr/sbin/policy-rc.d
	if [ ! -e $prc ]; then
		printf '#!/bin/sh\n# check/t3170-slurm.sh, while it installs slurm-wlm\nexit 101\n' >$prc
		chmod 755 $prc
		trap 'rm -f $prc; rm -rf "$TMP"' EXIT
	else prc=; fi
	irc=0
	DEBIAN_FRONTEND=noninteractive timeout 120 apt-get install -y -q -o DPkg::Lock::Timeout=30 \
		--no-install-recommends slurm-wlm munge >"$TMP/apt.log" 2>&1 || irc=$?
	[ -z "$prc" ] || { rm -f $prc; trap 'rm -rf "$TMP"' EXIT; }
	if [ $irc -ne 0 ] || ! have_slurm; then
		skip $T "[SLURM] apt-get install slurm-wlm munge failed: $(tail -2 "$TMP/apt.log" | tr '\n' '|')"; finish
	fi
	echo "installed slurm-wlm $c"
fi

# ---- re-run in a network namespace that has only loopback -------------------
if [ "${1:-}" != --in-netns ] && [ "${SLURM_TEST_NETNS:-1}" = 1 ] && command -v unshare >/dev/null && command -v ip >/dev/null &&
	unshare --net true 2>/dev/null; then
	rm -rf "$TMP"
	trap - EXIT
	# 127.0.0.2: a second loopback address, so that glibc's getaddrinfo
	# (AI_ADDRCONFIG, as Slurm calls it) sees an IPv4 address besides 127.0.0.1
	exec unshare --net -- bash -c 'ip link set lo up && ip addr add 127.0.0.2/32 dev lo &&
		exec bash "$0" --in-netns' "$0"
fi
[ "${1:-}" = --in-netns ] && echo "in a network namespace (loopback only)"

# ---- the cluster ------------------------------------------------------------
C=$TMP/cluster
export SLURM_CONF=$C/slurm.conf
stop_all() {
	[ -z "${makepid:-}" ] || kill -TERM "$makepid" 2>/dev/null || true
	check/slurm/cluster.sh stop "$C" >/dev/null 2>&1 || true
	rm -rf "$TMP"
}
trap stop_all EXIT
trap 'exit 1' INT TERM HUP
listen=auto
[ "${1:-}" != --in-netns ] || listen=any
if ! check/slurm/cluster.sh start "$C" --timeout 30 --listen $listen >"$TMP/cluster.log" 2>&1; then
	cat "$TMP/cluster.log"
	skip $T "the single-node cluster did not start: $(grep -m1 -iE 'error|fatal|not idle' "$TMP/cluster.log" | cut -c1-200)"
	finish
fi
ok slurm-cluster-up
diag() { # on failure: make's log, the jobs' logs, what the daemons said
	echo "---- make log"; tail -n 30 "$1" 2>/dev/null
	local f
	for f in "$S"/slurm/*.log; do [ ! -f "$f" ] || { echo "---- $f"; tail -n 5 "$f"; }; done
	check/slurm/cluster.sh logs "$C" 2>&1 | tail -n 40
}

BUILD=${BIN%/bin}
BUILD=${BUILD#"$ROOT"/} # build/san as the Makefile knows it (its CFLAGS)
SAMPLES=40 SHARDS=4
# -o: the binaries in $BIN are used as they are, never rebuilt here
MK=(make --no-print-directory GPU=check OUT="$TMP/out" BUILD="$BUILD" SAMPLES="$SAMPLES" SEED=7 REPS=2
	BENCH=bench-fake -o "$BUILD/bin/bench-fake" -o "$BUILD/bin/sample" -o "$BUILD/bin/merge")

# ---- reference: the same collection, 4 local shards -------------------------
L=$TMP/local
if ! "${MK[@]}" -j4 collect LAUNCHER=local GPUS=0,1,2,3 COLLECT_DIR="$L" COLLECT_MERGED="$L/merged.txt" \
	>"$TMP/local.log" 2>&1; then
	fail slurm-local-reference "$(tail -3 "$TMP/local.log" | tr '\n' '|')"; finish
fi

# ---- through Slurm, one job scancel'ed mid-shard ------------------------------
S=$TMP/slurm
SMK=("${MK[@]}" collect LAUNCHER=slurm SHARDS="$SHARDS" COLLECT_DIR="$S" COLLECT_MERGED="$S/merged.txt"
	SLURM_GPU_OPT= SLURM_OPTS=--partition=check SLURM_RETRIES=2 BENCH_EXTRA="--fake-delay-ms 100")
timeout 75 "${SMK[@]}" >"$TMP/slurm.log" 2>&1 &
makepid=$!
# the first shard with at least one input written: cancel its job
victim='' jobid='' end=$((SECONDS + 30))
while [ -z "$jobid" ] && [ $SECONDS -lt $end ] && kill -0 $makepid 2>/dev/null; do
	for i in $(seq 0 $((SHARDS - 1))); do
		p=$S/shard_${i}of$SHARDS.txt.part
		if [ -f "$p" ] && [ "$(wc -l <"$p")" -gt 2 ]; then
			victim=$i
			jobid=$(squeue -h -n "mmrank-check-${i}of$SHARDS" -t RUNNING -o %i | head -1)
			[ -z "$jobid" ] || break
		fi
	done
	[ -n "$jobid" ] || sleep 0.2
done
if [ -n "$jobid" ]; then
	scancel "$jobid"
	echo "scancel'ed job $jobid (shard $victim/$SHARDS)"
fi
rc=0
wait $makepid || rc=$?
makepid=
if [ -z "$jobid" ]; then
	fail slurm-scancel "found no running job with a partly written shard to cancel"; diag "$TMP/slurm.log"
elif [ $rc -ne 0 ]; then
	fail slurm-collect "make exited $rc"; diag "$TMP/slurm.log"; finish
else
	ok slurm-collect
	# the cancelled job's log, and a later job of the same shard that resumed
	first=$S/slurm/shard_${victim}of$SHARDS.$jobid.log
	resumed=$(grep -h -o ', [0-9]* already done' "$S"/slurm/shard_"${victim}"of$SHARDS.*.log |
		awk '$2 > 0' | head -1)
	if grep -q CANCELLED "$first" 2>/dev/null && grep -q "resubmitting" "$TMP/slurm.log" && [ -n "$resumed" ]; then
		ok slurm-scancel-resubmit-resume
	else
		fail slurm-scancel-resubmit-resume "cancelled: $(grep -c CANCELLED "$first" 2>/dev/null), resumed: '$resumed'"
		diag "$TMP/slurm.log"
	fi
fi

# ---- the merged log is the local one, byte for byte -----------------------------
if [ -f "$S/merged.txt" ]; then
	test_cmp slurm-merged-equals-local "$L/merged.txt" "$S/merged.txt"
	n=$(ls "$S"/shard_*of$SHARDS.txt 2>/dev/null | wc -l)
	parts=$(ls "$S"/*.part 2>/dev/null | wc -l)
	[ "$n" -eq $SHARDS ] && [ "$parts" -eq 0 ] && ok slurm-shards-complete ||
		fail slurm-shards-complete "$n shard files, $parts .part files left"
else
	fail slurm-merged-equals-local "no $S/merged.txt"
fi

# ---- a rerun has nothing to do (no job submitted) --------------------------------
if timeout 20 "${SMK[@]}" >"$TMP/rerun.log" 2>&1 && ! grep -q slurm_shard "$TMP/rerun.log"; then
	ok slurm-rerun-nothing-to-do
else
	fail slurm-rerun-nothing-to-do "$(tail -3 "$TMP/rerun.log" | tr '\n' '|')"
fi

# ---- a shard locked by another writer is left alone ------------------------------
K=$TMP/lock
mkdir -p "$K/slurm"
cp "$S/shapes.tsv" "$K/"
exec 9>"$K/slurm/shard_0of2.lock"
flock -n 9
rc=0
timeout 30 stages/sh/slurm_shard.sh --retries 0 --logs "$K/slurm" "$K/shard_0of2.txt" --partition=check -- \
	"$BIN/bench-fake" --shard 0/2 "$K/shapes.tsv" "$K/shard_0of2.txt" >"$TMP/lock.log" 2>&1 || rc=$?
exec 9>&-
if [ $rc -eq 1 ] && grep -q "held by another job" "$TMP/lock.log" && grep -q "giving up" "$TMP/lock.log" &&
	[ ! -e "$K/shard_0of2.txt" ] && [ ! -e "$K/shard_0of2.txt.part" ]; then
	ok slurm-locked-shard-untouched
else
	fail slurm-locked-shard-untouched "exit $rc: $(tail -3 "$TMP/lock.log" | tr '\n' '|')"
fi

# ---- a bad sbatch option: make fails with sbatch's message, no merged log ---------
B=$TMP/bad
rc=0
timeout 30 "${MK[@]}" collect LAUNCHER=slurm SHARDS=2 COLLECT_DIR="$B" COLLECT_MERGED="$B/merged.txt" \
	SLURM_GPU_OPT= SLURM_OPTS=--partition=no-such-partition >"$TMP/bad.log" 2>&1 || rc=$?
if [ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -qi "invalid partition" "$TMP/bad.log" && [ ! -e "$B/merged.txt" ]; then
	ok slurm-bad-option-fails
else
	fail slurm-bad-option-fails "exit $rc: $(tail -3 "$TMP/bad.log" | tr '\n' '|')"
fi
finish
