#!/usr/bin/env bash
# stages/sh/slurm_shard.sh — run one collection shard as a Slurm batch job and
# resubmit it until the shard is complete (mk/slurm.mk, LAUNCHER=slurm).
#
# usage: slurm_shard.sh [--retries N] [--logs DIR] LOG [SBATCH_OPTION...] -- COMMAND [ARG...]
#
# Submits COMMAND (a bench shard command that completes LOG: bench builds
# LOG.part and renames it to LOG when every input of its shard is in it) with
#   sbatch --parsable --wait --no-requeue --job-name=mmrank-NAME
#          --output=DIR/NAME.%j.log --chdir=$PWD SBATCH_OPTION...
# (NAME = LOG's file name without .txt; later options win, so SBATCH_OPTION
# can override these) and waits for the job.  When the job ends and LOG does
# not exist (the job failed, was cancelled or preempted, hit its time limit,
# lost its node), the shard is submitted again and bench resumes LOG.part:
# complete inputs are kept, a partially written one is dropped, so nothing
# is lost or duplicated.  A job that made progress (LOG.part grew beyond
# its largest size so far) is resubmitted freely, so long shards may span
# several jobs (e.g. bench --time-limit below the partition's time limit);
# after N resubmissions in a row without progress (default 3) the shard is
# given up.
#
# In the job, COMMAND runs under `flock -n DIR/NAME.lock`: a second job of
# the same shard (e.g. one left running by a killed make) exits with status
# 75 instead of writing LOG.part concurrently.  SIGINT, SIGTERM or SIGHUP
# (Ctrl-C on make) cancel the job in flight (scancel) before exiting.
#
# Paths: the job runs in this directory (--chdir), so LOG, COMMAND and its
# files must be on storage the compute nodes share (e.g. the checkout on
# NFS/Lustre).  DIR defaults to LOG's directory.  Environment: SBATCH,
# SCANCEL (default sbatch, scancel).
#
# Exit status: 0 LOG is complete; 1 the shard was given up, or sbatch could
# not submit (its message is shown); 2 usage error.
set -euo pipefail

prog=slurm_shard
usage() { sed -n '/^# usage:/s/^# //p' "$0" >&2; echo "see $0 --help" >&2; exit 2; }
die() { echo "$prog: $*" >&2; exit 1; }

# ---- in the job (the batch script is this file): run COMMAND under the lock
if [ "${1:-}" = --job ]; then
	[ $# -ge 4 ] && [ "$3" = -- ] || { echo "$prog: bad --job call" >&2; exit 2; }
	lock=$2; shift 3
	echo "$prog: job ${SLURM_JOB_ID:-?} on $(hostname) in $PWD: $*"
	rc=0
	flock -n -E 75 "$lock" "$@" || rc=$?
	[ $rc -ne 75 ] || echo "$prog: $lock is held by another job of this shard; not running" >&2
	exit $rc
fi

retries=3 logs=
while [ $# -gt 0 ]; do
	case $1 in
	-h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	--retries) [ $# -ge 2 ] || usage; retries=$2; shift 2 ;;
	--retries=*) retries=${1#*=}; shift ;;
	--logs) [ $# -ge 2 ] || usage; logs=$2; shift 2 ;;
	--logs=*) logs=${1#*=}; shift ;;
	-*) echo "$prog: unknown option '$1'" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -ge 1 ] || usage
log=$1; shift
sbopts=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do sbopts+=("$1"); shift; done
[ $# -ge 2 ] || { echo "$prog: missing '-- COMMAND'" >&2; usage; }
shift
[[ $retries =~ ^[0-9]+$ ]] || { echo "$prog: --retries: expected a count, got '$retries'" >&2; exit 2; }

SBATCH=${SBATCH:-sbatch} SCANCEL=${SCANCEL:-scancel}
command -v "$SBATCH" >/dev/null ||
	die "'$SBATCH' not found: run make on a Slurm submit host (or use LAUNCHER=local)"
[ -n "$logs" ] || logs=$(dirname -- "$log")
mkdir -p -- "$logs"
logs=$(cd -- "$logs" && pwd)
name=$(basename -- "$log" .txt)
lock=$logs/$name.lock
self=$(cd -- "$(dirname -- "$0")" && pwd)/$(basename -- "$0")

size() { stat -c %s -- "$1" 2>/dev/null || echo 0; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/slurm_shard.XXXXXX")
sbpid='' jobid=''
cleanup() { rm -rf -- "$tmp"; }
on_signal() {
	[ -z "$sbpid" ] || kill "$sbpid" 2>/dev/null || true
	[ -n "$jobid" ] || jobid=$(cut -d';' -f1 "$tmp/id" 2>/dev/null | head -1) || true
	if [ -n "$jobid" ]; then
		echo "$prog: $log: interrupted, cancelling job $jobid" >&2
		"$SCANCEL" "$jobid" || true
	elif [ -n "$sbpid" ]; then
		echo "$prog: $log: interrupted before sbatch named its job: see squeue --me" >&2
	fi
	cleanup
	exit 130
}
trap cleanup EXIT
trap on_signal INT TERM HUP

best=$(size "$log.part") stalled=0 attempt=0
while [ ! -e "$log" ]; do
	attempt=$((attempt + 1))
	: >"$tmp/id"
	# sbatch prints (and flushes) the job id before it waits: on a signal,
	# $tmp/id names the job to cancel.  (No stdbuf: its LD_PRELOAD would be
	# exported to the job.)
	"$SBATCH" --parsable --wait --no-requeue --job-name="mmrank-$name" \
		--output="$logs/$name.%j.log" --chdir="$PWD" "${sbopts[@]}" \
		"$self" --job "$lock" -- "$@" >"$tmp/id" 2>"$tmp/err" &
	sbpid=$!
	rc=0
	wait "$sbpid" || rc=$?
	sbpid=
	jobid=$(cut -d';' -f1 "$tmp/id" | head -1)
	if [ -z "$jobid" ]; then
		cat "$tmp/err" >&2
		die "$log: sbatch could not submit the job (exit status $rc)"
	fi
	[ ! -e "$log" ] || break
	now=$(size "$log.part")
	joblog=$logs/$name.$jobid.log
	if [ "$now" -gt "$best" ]; then
		best=$now stalled=0 how="after some progress"
	else
		stalled=$((stalled + 1)) how="without progress ($stalled in a row)"
	fi
	echo "$prog: $log: job $jobid ended (sbatch exit status $rc) $how, shard incomplete; job log $joblog:" >&2
	tail -n 5 -- "$joblog" 2>/dev/null | sed 's/^/    | /' >&2 || true
	if [ "$rc" -eq 0 ]; then
		echo "$prog: $log: the job succeeded but $log is not here: is $(dirname -- "$log") on storage the compute nodes share?" >&2
	fi
	if [ "$stalled" -gt "$retries" ]; then
		die "$log: giving up after $stalled jobs in a row without progress (--retries $retries); rerun make to resume"
	fi
	echo "$prog: $log: resubmitting (job $((attempt + 1)) of this shard)" >&2
	jobid=
done
[ "$attempt" -eq 0 ] || echo "$prog: $log: complete ($attempt job(s), last $jobid)" >&2
