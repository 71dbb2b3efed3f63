#!/usr/bin/env bash
# fetch.sh — get one dataset file named in datasets/MANIFEST.tsv, verified.
#
# usage: stages/sh/fetch.sh FILE DEST
#   FILE  a file name from the manifest's first column (e.g. a100_mm.zip)
#   DEST  where to put it (written atomically: a unique temporary file
#         DEST.part.PID.N in DEST's folder, then renamed, so concurrent
#         fetches do not collide; a part whose writer PID is gone, left by a
#         fetch killed with SIGKILL, is removed on start)
# Looks in $DATASET_MIRROR (a folder) first, then downloads the manifest's
# URL with curl or wget (saying so when the mirror lacks the file).  The
# sha256 (sha256sum) must match the manifest's: on a mismatch the file is
# removed and the exit status is 1.  A DEST that exists is checked the same
# way: kept (untouched, so nothing downstream is redone) if it matches, else
# fetched again.  Stopped by SIGINT, SIGTERM or SIGHUP,
# it stops its copy or download too (no child is left running on a removed
# part), removes the part and exits 1.
set -euo pipefail
[ "${1:-}" = --help ] && { sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 0; }
[ $# -eq 2 ] || { echo "usage: stages/sh/fetch.sh FILE DEST" >&2; exit 2; }
file=$1 dest=$2
# (shell builtins where they do: make heuristic runs this first, and every
# process started here is time on its critical path)
here=${0%/*}; [ "$here" != "$0" ] || here=.
manifest=${MANIFEST:-$here/../../datasets/MANIFEST.tsv}
sha='' url=''
{
	read -r _ || true # header
	while IFS=$'\t' read -r f _ s u _; do
		if [ "$f" = "$file" ]; then sha=$s url=$u; break; fi
	done
} <"$manifest"
[ -n "$sha" ] || { echo "fetch: '$file' is not listed in $manifest" >&2; exit 1; }
# A DEST already there is used only if its sha256 matches (make runs this
# on every build: a file changed since its fetch is fetched again)
if [ -f "$dest" ]; then
	got=$(sha256sum "$dest")
	[ "${got%% *}" != "$sha" ] || exit 0
	echo "fetch: $dest: sha256 mismatch (expected $sha, got ${got%% *}: changed or damaged since it was fetched); fetching it again" >&2
fi
dir=${dest%/*}; [ "$dir" != "$dest" ] || dir=.
[ -d "$dir" ] || mkdir -p "$dir"
alive() { if [ -d /proc/self ]; then [ -d "/proc/$1" ]; else kill -0 "$1" 2>/dev/null; fi; }
# Stale parts of our own: DEST.part.PID.N whose PID no longer runs (a fetch
# killed with SIGKILL cannot remove its part).  Anything else is left.
for old in "$dest".part.*; do
	[ -f "$old" ] || continue
	pid=${old#"$dest".part.}
	if [[ $pid =~ ^([0-9]+)\.[0-9A-Za-z]+$ ]]; then
		pid=${BASH_REMATCH[1]}
		if ! alive "$pid"; then
			echo "fetch: removing $old (left by a fetch that was killed: process $pid is gone)" >&2
			rm -f "$old"
		fi
	else
		echo "fetch: note: $old is not a part of this fetch.sh (no writer id): remove it by hand if no fetch is running" >&2
	fi
done
# a unique temporary file (exclusive create), mode 0644
umask 022
part=$dest.part.$$.$RANDOM
trap 'rm -f "$part"' EXIT
# the copy or download runs as a child that fetch waits for, so that a signal
# is handled at once (bash defers traps while a foreground command runs) and
# the child is ended with it
# the child (jobs -p, not a variable: a signal can come between the fork and
# any assignment of \$!, and bash runs the trap only after the fork returns)
trap 'kill $(jobs -p) 2>/dev/null || :; echo "fetch: $file: stopped by a signal; nothing written" >&2; exit 1' INT TERM HUP
in_child() { "$@" & local rc=0; wait "$!" || rc=$?; return "$rc"; }
(set -C; : >"$part") || { echo "fetch: cannot create '$part'" >&2; exit 1; }
say="fetch: $file from $url"
if [ -n "${DATASET_MIRROR:-}" ] && [ ! -f "$DATASET_MIRROR/$file" ]; then
	say="fetch: mirror $DATASET_MIRROR has no $file; downloading $url"
fi
if [ -n "${DATASET_MIRROR:-}" ] && [ -f "$DATASET_MIRROR/$file" ]; then
	echo "fetch: $file from mirror $DATASET_MIRROR" >&2
	in_child cat "$DATASET_MIRROR/$file" >"$part"
elif command -v curl >/dev/null; then
	echo "$say" >&2
	in_child curl -fsSL --retry 3 -o "$part" "$url" ||
		{ echo "fetch: $file: download of $url failed (curl exit status $?); offline? DATASET_MIRROR=DIR names a folder holding $file" >&2; exit 1; }
elif command -v wget >/dev/null; then
	echo "$say" >&2
	in_child wget -q -O "$part" "$url" ||
		{ echo "fetch: $file: download of $url failed (wget exit status $?); offline? DATASET_MIRROR=DIR names a folder holding $file" >&2; exit 1; }
else
	echo "fetch: $file: no mirror (DATASET_MIRROR=${DATASET_MIRROR:-unset}) and neither curl nor wget" >&2
	exit 1
fi
got=$(sha256sum "$part")
got=${got%% *}
if [ "$got" != "$sha" ]; then
	echo "fetch: $file: sha256 mismatch: expected $sha, got $got; file removed" >&2
	exit 1
fi
mv "$part" "$dest"
trap - EXIT
