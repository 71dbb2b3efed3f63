#!/usr/bin/env bash
# lock.sh — hold DIR/.lock for one make run, so that two makes never work in
# one output folder at once.
#
# usage: stages/sh/lock.sh DIR PID
# The Makefile runs it at parse time, before it reads anything in DIR, for
# the goals that write there (make heuristic, fit, collect, ...), with PID its
# own process id.  It takes DIR/.lock (flock; waiting, and saying so, while
# another make holds it) and leaves a process behind that keeps the lock open
# until PID has exited, however it ends (kill -9 too).  A second make with other
# settings therefore starts after the first has finished, sees the first's
# parameter stamps and rebuilds consistently, instead of mixing the two runs'
# artifacts (a .c of one tree beside a .py of the other).
# Then it waits until no recipe of an earlier make runs in DIR: each holds a
# shared lock of DIR/.lock.run (stages/sh/lock-shell.sh, the SHELL of a make
# holding the lock), so a recipe left running by a make killed alone (emit,
# say) ends before this make reads anything in DIR.
# Prints PID once DIR is locked, or - where no lock is needed (a folder this
# make cannot write in); exit status 1 (and a message) when the lock cannot be
# taken.
set -u
[ $# -eq 2 ] || { echo "usage: stages/sh/lock.sh DIR PID" >&2; exit 2; }
dir=$1 pid=$2
command -v flock >/dev/null || { echo "make: no flock (util-linux) to lock $dir" >&2; exit 1; }
if ! { mkdir -p -- "$dir" && exec 9>>"$dir/.lock"; } 2>/dev/null; then
	# a folder this make cannot write in either: no lock to take (what the make
	# then cannot write, it says)
	[ -d "$dir" ] && [ ! -w "$dir" ] && { echo -; exit 0; }
	echo "make: cannot create $dir/.lock" >&2; exit 1
fi
if ! flock -n 9; then
	# (said only while the holder runs: a make that has just ended leaves its
	# lock to a process that lets it go within 0.05 s)
	read -r holder <"$dir/.lock" 2>/dev/null || holder=
	if [[ $holder =~ ^[0-9]+$ ]] && kill -0 "$holder" 2>/dev/null; then
		echo "make: another make (process $holder) works in $dir: waiting for it to finish ($dir/.lock)" >&2
	fi
	flock 9 || { echo "make: cannot lock $dir/.lock" >&2; exit 1; }
fi
echo "$pid" >"$dir/.lock"
# the recipes an earlier make left running (each holds .lock.run shared)
exec 8<>"$dir/.lock.run" || { echo "make: cannot create $dir/.lock.run" >&2; exit 1; }
if ! flock -n -x 8; then
	echo "make: a recipe of an earlier make (killed?) still runs in $dir: waiting until it ends ($dir/.lock.run)" >&2
	flock -x 8 || { echo "make: cannot lock $dir/.lock.run" >&2; exit 1; }
fi
exec 8>&-
# the lock lives as long as an open descriptor of it: this background
# process's, until PID is gone (tail checks every 0.05 s)
tail --pid="$pid" -s 0.05 -f /dev/null 9>&9 </dev/null >/dev/null 2>&1 &
echo "$pid"
exit 0
