#!/usr/bin/env bash
# check/slurm/cluster.sh — a throw-away single-node Slurm cluster on the
# loopback interface, for check/t3170-slurm.sh (and for trying LAUNCHER=slurm
# on a laptop).  Needs root and Debian's slurm-wlm + munge packages.
#
# usage: cluster.sh start DIR [--cpus N] [--timeout S] [--listen auto|any]
#        cluster.sh stop DIR
#        cluster.sh logs DIR
#
# start  writes DIR/slurm.conf (NodeName=localhost, NodeAddr=127.0.0.1,
#        SlurmctldHost=localhost(127.0.0.1), partition "check", no GPUs,
#        proctrack/linuxproc, task/none, no accounting; state, spool and
#        logs under DIR; ports that nobody listens on), starts munged (own
#        key and socket under DIR/munge), slurmctld and slurmd in the
#        background, and waits (at most S seconds, default 30) until the node
#        is idle.  Then use the cluster with SLURM_CONF=DIR/slurm.conf.
#        --listen auto (default): the daemons bind to loopback only when
#        this host's name resolves to loopback (CommunicationParameters=
#        NoCtldInAddrAny,NoInAddrAny bind to that address), else to every
#        address; any: every address (for a network namespace whose only
#        interface is lo, where the host name may not resolve).
#        On failure it prints the daemons' log tails, stops what it started
#        and exits 1.
# stop   cancels every job of that cluster, waits for them (bounded), then
#        stops the daemons started by `start` (their pids in DIR/pids; a pid
#        is only signalled while its command line still names DIR).
# logs   prints the last lines of each daemon's log.
#
# Nothing outside DIR is written; the system's munge key, /etc/slurm and any
# running munged/slurm daemons are left alone.
set -Eeuo pipefail
prog=cluster.sh
usage() { sed -n '/^# usage:/,/^#$/{/^#$/d;s/^# \{0,1\}//;p}' "$0" >&2; exit 2; }
die() { echo "$prog: $*" >&2; exit 1; }

[ $# -ge 1 ] || usage
case $1 in -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;; esac
[ $# -ge 2 ] || usage
cmd=$1 dir=$2; shift 2
cpus=2 timeout=30 listen=auto
while [ $# -gt 0 ]; do
	case $1 in
	--cpus) [ $# -ge 2 ] || usage; cpus=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage; timeout=$2; shift 2 ;;
	--listen) [ $# -ge 2 ] && [[ $2 =~ ^(auto|any)$ ]] || usage; listen=$2; shift 2 ;;
	*) usage ;;
	esac
done
mkdir -p -- "$dir"
dir=$(cd -- "$dir" && pwd)
export SLURM_CONF=$dir/slurm.conf

logs() {
	for f in munged slurmctld slurmd; do
		[ -e "$dir/$f.log" ] || continue
		echo "---- $dir/$f.log (last 15 lines)"
		tail -n 15 "$dir/$f.log"
	done
	if [ -e "$dir/slurm.conf" ] && command -v sinfo >/dev/null; then
		echo "---- sinfo"
		timeout 2 sinfo -N -o '%N %T %E' 2>&1 || true
	fi
}

# ours PID: true if PID is alive and its command line names $dir
ours() { [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' <"/proc/$1/cmdline" | grep -qF -- "$dir"; }

stop() {
	if [ -e "$dir/slurm.conf" ] && [ -e "$dir/pids" ] && command -v squeue >/dev/null; then
		local ids
		ids=$(timeout 2 squeue -h -o %i 2>/dev/null || true)
		if [ -n "$ids" ]; then
			# shellcheck disable=SC2086
			timeout 2 scancel $ids 2>/dev/null || true
			local end=$((SECONDS + 10))
			while [ $SECONDS -lt $end ] && [ -n "$(timeout 2 squeue -h -o %i 2>/dev/null || true)" ]; do
				sleep 0.5
			done
		fi
	fi
	[ -e "$dir/pids" ] || return 0
	local pid left=''
	# slurmd first (its job steps end with it), munged last
	while read -r _ pid; do
		if ours "$pid"; then kill -TERM "$pid" 2>/dev/null || true; left+=" $pid"; fi
	done < <(tac "$dir/pids")
	for _ in $(seq 1 50); do
		local alive=
		for pid in $left; do ours "$pid" && alive+=" $pid"; done
		left=$alive
		[ -n "$left" ] || break
		sleep 0.1
	done
	for pid in $left; do ours "$pid" && kill -KILL "$pid" 2>/dev/null || true; done
	# job steps left behind (slurmstepd daemonizes): those of our spool dir
	for pid in $(pgrep -x slurmstepd 2>/dev/null || true); do
		if grep -qzF -- "$dir" "/proc/$pid/environ" 2>/dev/null || ours "$pid"; then
			kill -KILL "$pid" 2>/dev/null || true
		fi
	done
	rm -f "$dir/pids"
}

start() {
	[ "$(id -u)" -eq 0 ] || die "must run as root (slurmd runs jobs as their users)"
	local p
	for p in munged mungekey slurmctld slurmd sbatch sinfo squeue scancel; do
		command -v "$p" >/dev/null || die "'$p' not found (apt-get install slurm-wlm munge)"
	done
	[ ! -e "$dir/pids" ] || die "$dir/pids exists: a cluster is running there ($0 stop $dir)"
	mkdir -p "$dir/munge" "$dir/state" "$dir/spool" "$dir/tmp"
	chmod 700 "$dir/munge"
	mungekey --create --keyfile="$dir/munge/munge.key" --force >/dev/null 2>&1 ||
		dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
	chmod 600 "$dir/munge/munge.key"

	# two free TCP ports on loopback
	local ports=() port
	while [ ${#ports[@]} -lt 2 ]; do
		port=$((20000 + RANDOM % 40000))
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && [[ " ${ports[*]-} " != *" $port "* ]]; then
			ports+=("$port")
		fi
	done
	# --listen auto: bind to loopback only when this host's name resolves to
	# loopback (NoCtldInAddrAny/NoInAddrAny bind to that address); otherwise
	# the daemons listen on every address (run this in a network namespace,
	# as check/t3170-slurm.sh does where it can, to confine them).
	local commparams='# CommunicationParameters: default (listen on every address)' a=
	[ "$listen" = any ] || a=$(getent hosts "$(hostname)" 2>/dev/null | awk '{print $1}' | sort -u) || true
	if [ -n "$a" ] && ! grep -qvE '^(127\.|::1$)' <<<"$a"; then
		commparams=CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
	fi
	: >"$dir/plugstack.conf"
	cat >"$dir/slurm.conf" <<EOF
# generated by check/slurm/cluster.sh: single node on loopback, for tests
ClusterName=mmrankcheck
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=${ports[0]}
SlurmdPort=${ports[1]}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
TmpFS=$dir/tmp
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
PlugStackConfig=$dir/plugstack.conf
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
$commparams
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SlurmdParameters=config_overrides
ReturnToService=2
MinJobAge=4
KillWait=2
InactiveLimit=0
SlurmctldTimeout=10
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=localhost CPUs=$cpus State=UNKNOWN
PartitionName=check Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
	: >"$dir/pids"
	trap 'echo "$prog: start failed" >&2; logs >&2; stop; exit 1' ERR
	munged -F --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.socket" \
		--pid-file="$dir/munge/munged.pid" --log-file="$dir/munged.log" \
		--seed-file="$dir/munge/munged.seed" >/dev/null 2>&1 </dev/null &
	echo "munged $!" >>"$dir/pids"
	for _ in $(seq 1 50); do [ -S "$dir/munge/munge.socket" ] && break; sleep 0.1; done
	[ -S "$dir/munge/munge.socket" ] || { echo "$prog: munged did not start" >&2; false; }
	slurmctld -D -i -f "$dir/slurm.conf" >>"$dir/slurmctld.out" 2>&1 </dev/null &
	echo "slurmctld $!" >>"$dir/pids"
	slurmd -D -N localhost -f "$dir/slurm.conf" >>"$dir/slurmd.out" 2>&1 </dev/null &
	echo "slurmd $!" >>"$dir/pids"
	local state='' end=$((SECONDS + timeout))
	while [ $SECONDS -lt $end ]; do
		state=$(timeout 2 sinfo -h -N -n localhost -o %T 2>/dev/null || true)
		[ "$state" != idle ] || break
		while read -r _ p; do
			ours "$p" || { echo "$prog: a daemon (pid $p) exited" >&2; false; }
		done <"$dir/pids"
		sleep 0.5
	done
	[ "$state" = idle ] || { echo "$prog: node not idle after ${timeout}s (state '${state:-unknown}')" >&2; false; }
	trap - ERR
	echo "$prog: cluster up in $dir (node localhost idle); export SLURM_CONF=$dir/slurm.conf" >&2
}

case $cmd in
start) start ;;
stop) stop ;;
logs) logs ;;
*) usage ;;
esac
