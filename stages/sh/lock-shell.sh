#!/bin/sh
# lock-shell.sh — the SHELL of a make that holds OUT/GPU/.lock (Makefile, "one
# make at a time"): runs each recipe line as /bin/bash would, holding a
# shared lock of $MMR_LOCK_RUN (OUT/GPU/.lock.run) on descriptor 8, which
# every process of the line inherits.  A make killed alone (kill -9) lets
# .lock go, but its recipe running then (emit, say) keeps .lock.run until its
# last process exits, and the next make's stages/sh/lock.sh waits for that
# before it reads a stamp: the orphan's outputs never land after its own.
# A line whose make ($MMR_LOCK_PID) is already gone is not run.
# Without MMR_LOCK_RUN (make's $(shell), which gets no exported variable)
# it is bash.
if [ -n "${MMR_LOCK_RUN:-}" ]; then
	exec 8<"$MMR_LOCK_RUN" || exit 1
	flock -s 8 || { echo "make: cannot lock $MMR_LOCK_RUN" >&2; exit 1; }
	# (checked with the lock held: a make that took .lock after this one's
	# ended waits for this line, or this line sees that its make is gone)
	if ! kill -0 "${MMR_LOCK_PID:-}" 2>/dev/null; then
		echo "make: the make (process ${MMR_LOCK_PID:-?}) of this recipe has ended: not run" >&2
		exit 1
	fi
fi
exec /bin/bash "$@"
