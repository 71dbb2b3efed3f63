#!/usr/bin/env bash
# par.sh — run shell commands at the same time, their output in order.
#
# usage: stages/sh/par.sh N CMD...
# Runs each CMD (a bash command line) with at most N running at once (N >= 1;
# N = 1: one after the other), in the order given.  Each command's stdout and
# stderr are kept apart and replayed, command by command in the order given,
# once the command and every command before it are done: the output is the
# same whichever finishes first (make heuristic's featurize runs of the extra
# sets).  Exit status: 0 if every command succeeded, else 1 (every
# command is still run to its end, and its messages shown).
set -u
[ $# -ge 1 ] || { echo "usage: stages/sh/par.sh N CMD..." >&2; exit 2; }
n=$1; shift
case $n in ''|*[!0-9]*|0) echo "par.sh: N='$n': expected an integer >= 1" >&2; exit 2 ;; esac
T=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-par.XXXXXX") || exit 1
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; rm -rf "$T"' EXIT
# an interrupt: stop the commands, clean up, then die of the same signal (so
# make says "Interrupt", not "Error 130")
on_signal() { trap - EXIT INT TERM; kill "${pids[@]}" 2>/dev/null; rm -rf "$T"; kill -"$1" $$; }
trap 'on_signal INT' INT
trap 'on_signal TERM' TERM
cmds=("$@")
rc=0 shown=0
# show CMD i's output once it is done (wait), in order
show() {
	wait "${pids[$1]}" || rc=1
	cat "$T/$1.out"
	cat "$T/$1.err" >&2
}
for i in "${!cmds[@]}"; do
	if [ "$i" -ge "$n" ]; then
		show "$shown"; shown=$((shown + 1))
	fi
	bash -c "${cmds[$i]}" >"$T/$i.out" 2>"$T/$i.err" &
	pids[i]=$!
done
for ((; shown < ${#cmds[@]}; shown++)); do
	show "$shown"
done
pids=()
exit $rc
