# perf/models/supervise.sh — sourced by run.sh, truth.sh and judge.sh.
# console FILE sends this shell's stdout and stderr to the terminal and FILE
# through a tee that ignores INT, TERM and HUP (a Ctrl-C reaches the whole
# process group; the tee outlives it, so the shell can still say what it
# stopped, and ends when the shell does).
console() {
	exec > >(trap '' INT TERM HUP; exec tee -a "$1" 9>&-) 2>&1   # the tee holds no lock
}
# lock NAME DIR: one writer per OUTDIR, taken before console (a refusal goes
# to the caller's stderr, not to the running call's console.txt).  fd 9
# holds an flock on DIR itself (no file is made in it) and every run
# inherits it, so a run that a SIGKILL or SIGQUIT to NAME left behind
# (timeout keeps it in its own process group) keeps DIR locked until it
# ends: a second call meanwhile is refused, instead of writing that run's
# record twice.  Without flock(1), no lock (said once).
lock() {
	local rc
	command -v flock >/dev/null || { echo "$1: no flock(1): $2 is not locked against a second writer" >&2; return 0; }
	{ exec 9<"$2"; } 2>/dev/null || { echo "$1: cannot open $2 to lock it; nothing run" >&2; exit 1; }
	flock -n -E 75 9; rc=$?
	[ $rc -ne 75 ] || { echo "$1: $2 is in use by another $1, or by a run one left behind (SIGKILL or SIGQUIT; \`fuser -v $2\` names it); nothing run: call again once it has ended" >&2; exit 1; }
	[ $rc -eq 0 ] || { echo "$1: cannot lock $2 (flock exit $rc); nothing run" >&2; exit 1; }
}
# guard NAME: an INT, TERM or HUP outside supervise (between runs, in a
# check or a report) makes NAME say "interrupted outside a run" and exit 130
# once the command in the foreground has ended; records are whole or absent.
guard() {
	supervise_guard=$1
	trap 'echo "$supervise_guard: interrupted outside a run; call again with the same OUTDIR to continue" >&2; exit 130' INT TERM HUP
}
# supervise NAME WHAT CMD... runs CMD in the background and returns its exit
# status.  A Ctrl-C or a kill reaches neither `timeout` (its own process
# group) nor a background CMD, so an INT, TERM or HUP that comes meanwhile is
# passed on to CMD as TERM; once CMD has ended, NAME says "interrupted
# during WHAT" and exits 130.  Afterwards guard's trap, if set, is back.
supervise() {
	local name=$1 what=$2 pid= rc
	shift 2
	trap 'supervise_stop "$pid" "$name" "$what"' INT TERM HUP
	"$@" &
	pid=$!
	wait "$pid"; rc=$?
	if [ -n "${supervise_guard:-}" ]; then guard "$supervise_guard"; else trap - INT TERM HUP; fi
	return "$rc"
}
# PID empty: the signal came between the fork and pid=$!
supervise_stop() {   # PID NAME WHAT
	local p
	for p in ${1:-$(jobs -p)}; do kill -TERM "$p" 2>/dev/null; wait "$p"; done
	echo "$2: interrupted during $3" >&2
	exit 130
}
