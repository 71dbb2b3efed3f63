#!/usr/bin/env bash
# t7180-concurrent.sh — two makes at once.
#  - Two `make heuristic` runs with different settings in one OUT (the
#    default and SEED=7) end with one consistent artifact set: every
#    artifact is what emit writes for the pruned tree, the pruned tree what
#    prune makes of the tree.  Deterministic: the first run's C compiler (emit
#    checks its .c with $CC) waits, while the first run emits its .c, until the
#    second run has finished or says it waits for the first (OUT/GPU/.lock,
#    stages/sh/lock.sh).  Without the lock the second run refits and emits
#    all four files during that wait, then the first writes its .c over them.
#  - A make killed with SIGKILL leaves no lock behind: the next one runs.
#  - A make killed alone (SIGKILL) while emit runs leaves emit running; the
#    next make waits until it has ended (OUT/GPU/.lock.run, held by every
#    recipe's processes: stages/sh/lock-shell.sh) before it reads a stamp,
#    then rebuilds with its own settings.  Deterministic: the killed make's C
#    compiler waits until the next make says it waits (or has finished:
#    without the wait the orphan emit then publishes its tree's artifacts
#    beside the next make's pruned.tsv).  A recipe line of a make that has
#    ended is not run.
#  - Build outputs are never written in place (make -n): every compile, link
#    and archive writes $@.tmp<pid> and renames it, so a second make in the
#    tree never runs or links a half-written file.
# Data: a synthetic collection (check/synth_mm.awk) as OUT/zz/merged.txt.
. check/lib.sh
test_have_bins concurrent-pair-consistent emit prune fit featurize || finish
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL -u MMR_LOCK_HELD -u MMR_LOCK_PID -u MMR_LOCK_RUN make --no-print-directory -C "$ROOT" BUILD="$BUILD"
	OUT="$TMP/out" GPU=zz RANKING=2)
O=$TMP/out/zz
mkdir -p "$O"
awk -v seed=12345 -v inputs=240 -v choices=12 -f "$ROOT/check/synth_mm.awk" >"$O/merged.txt"

# consistent: the artifacts are emit's of pruned.tsv, pruned.tsv prune's of tree.tsv
consistent() {
	local f
	"$BIN/prune" --ranking 2 -o "$TMP/re.pruned.tsv" "$O/tree.tsv" 2>/dev/null &&
		cmp -s "$TMP/re.pruned.tsv" "$O/pruned.tsv" || { echo "pruned.tsv is not tree.tsv's"; return 1; }
	for f in py c h; do
		"$BIN/emit" --templates "$ROOT/templates" --heuristic-name MMRankingZZ --format $f \
			-o "$TMP/re.$f" "$O/pruned.tsv" && cmp -s "$TMP/re.$f" "$O/_MMRankingZZ.$f" ||
			{ echo "_MMRankingZZ.$f is not pruned.tsv's"; return 1; }
	done
	"$BIN/emit" --templates "$ROOT/templates" --heuristic-name MMRankingZZ --format dot \
		-o "$TMP/re.dot" "$O/pruned.tsv" && cmp -s "$TMP/re.dot" "$O/MMRankingZZ.dot" ||
		{ echo "MMRankingZZ.dot is not pruned.tsv's"; return 1; }
}
if ! "${MK[@]}" heuristic >"$TMP/first.log" 2>&1; then
	fail concurrent-pair-consistent "the first make heuristic failed: $(tail -3 "$TMP/first.log" | tr '\n' '|')"; finish
fi

# slow_cc FILE TAG WAIT NEXT: a C compiler that, the first time it runs,
# touches $TMP/TAG.in-cc and waits (60 s at most) until the next make has
# finished ($TMP/NEXT.done) or its log ($TMP/NEXT.log) holds WAIT
slow_cc() {
	cat >"$1" <<EOF
#!/usr/bin/env bash
if mkdir "$TMP/$2.once" 2>/dev/null; then
	touch "$TMP/$2.in-cc"
	for ((i = 0; i < 600; i++)); do
		[ -e "$TMP/$4.done" ] && break
		grep -q '$3' "$TMP/$4.log" 2>/dev/null && break
		sleep 0.1
	done
fi
exec ${CC:-cc} "\$@"
EOF
	chmod +x "$1"
}
# a C compiler that, the first time it runs, waits for the second make
slow_cc "$TMP/slowcc" a 'waiting for it to finish' b
"${MK[@]}" heuristic SEED=7 CC="$TMP/slowcc" >"$TMP/a.log" 2>&1 &
apid=$!
for ((i = 0; i < 600; i++)); do [ -e "$TMP/a.in-cc" ] && break; sleep 0.1; done
{ "${MK[@]}" heuristic >"$TMP/b.log" 2>&1; echo $? >"$TMP/b.rc"; touch "$TMP/b.done"; } &
bpid=$!
wait $apid; arc=$?
wait $bpid
brc=$(cat "$TMP/b.rc" 2>/dev/null)
if [ ! -e "$TMP/a.in-cc" ]; then fail concurrent-pair-consistent "the first make never ran its C compiler: $(tail -3 "$TMP/a.log" | tr '\n' '|')"
elif [ $arc != 0 ] || [ "$brc" != 0 ]; then
	fail concurrent-pair-consistent "exit $arc and $brc: $(tail -2 "$TMP/a.log" "$TMP/b.log" | tr '\n' '|')"
elif ! why=$(consistent); then fail concurrent-pair-consistent "$why"
elif ! grep -q -- '--seed 42 ' "$O/fit.params"; then fail concurrent-pair-consistent "the last make's settings lost: $(cat "$O/fit.params")"
else ok concurrent-pair-consistent; fi
test_expect_success 'concurrent-second-waits-and-says-so' '
	grep "^make: another make (process [0-9]*) works in $O: waiting for it to finish" "$TMP/b.log"'
# and later makes agree: the settings of the last run are up to date
test_expect_success 'concurrent-then-up-to-date' '
	"${MK[@]}" heuristic >"$TMP/c.log" 2>&1 && tail -1 "$TMP/c.log" | grep "^heuristic GPU=zz: up to date: "'

# a make killed with SIGKILL holds no lock: the next one neither waits nor says so
if test_have_prereq SETSID; then
	printf '#!/bin/sh\nsleep 30\n' >"$TMP/slowcc2"; chmod +x "$TMP/slowcc2"
	# (make alone is killed, in a session of its own: its lock's holder
	# process lives on and must see that make is gone)
	setsid "${MK[@]}" heuristic SEED=9 CC="$TMP/slowcc2" >/dev/null 2>&1 &
	kpid=$!
	for ((i = 0; i < 300; i++)); do pgrep -f "$TMP/slowcc2" >/dev/null && break; sleep 0.1; done
	kill -KILL $kpid 2>/dev/null; wait $kpid 2>/dev/null
	pkill -KILL -f "$TMP/slowcc2" 2>/dev/null
	start=$(date +%s%N)
	timeout 60 "${MK[@]}" heuristic SEED=9 >"$TMP/k.log" 2>&1; rc=$?
	if [ $rc = 0 ] && ! grep -q 'waiting for it' "$TMP/k.log" && consistent >/dev/null; then ok concurrent-killed-make-no-lock
	else fail concurrent-killed-make-no-lock "rc $rc after $((($(date +%s%N) - start) / 1000000)) ms: $(tail -2 "$TMP/k.log" | tr '\n' '|')"; fi
else skip concurrent-killed-make-no-lock "[SETSID] $(_prereq_probe SETSID; echo "$_prereq_why")"; fi

# a make killed alone while emit runs: its emit (an orphan) ends before the next make reads anything
if test_have_prereq SETSID; then
	"${MK[@]}" heuristic >/dev/null 2>&1
	slow_cc "$TMP/slowcc3" k 'a recipe of an earlier make' o
	# (in a session of its own: its orphans are that session's processes)
	setsid "${MK[@]}" heuristic SEED=7 CC="$TMP/slowcc3" >"$TMP/o.a.log" 2>&1 &
	opid=$!
	for ((i = 0; i < 600; i++)); do [ -e "$TMP/k.in-cc" ] && break; sleep 0.1; done
	kill -KILL $opid 2>/dev/null; wait $opid 2>/dev/null
	"${MK[@]}" heuristic >"$TMP/o.log" 2>&1; orc=$?
	touch "$TMP/o.done"
	# the orphans have ended (the next make waited for them, or they end now)
	for ((i = 0; i < 600; i++)); do pgrep -s $opid >/dev/null || break; sleep 0.1; done
	if [ ! -e "$TMP/k.in-cc" ]; then
		fail concurrent-orphan-recipe-consistent "the killed make never ran its C compiler: $(tail -3 "$TMP/o.a.log" | tr '\n' '|')"
	elif [ $orc != 0 ]; then fail concurrent-orphan-recipe-consistent "the next make: exit $orc: $(tail -2 "$TMP/o.log" | tr '\n' '|')"
	elif ! why=$(consistent); then fail concurrent-orphan-recipe-consistent "$why"
	elif ! grep -q -- '--seed 42 ' "$O/fit.params"; then
		fail concurrent-orphan-recipe-consistent "the next make's settings lost: $(cat "$O/fit.params")"
	else ok concurrent-orphan-recipe-consistent; fi
	test_expect_success 'concurrent-orphan-recipe-waited-for' '
		grep "^make: a recipe of an earlier make (killed?) still runs in $O: waiting until it ends" "$TMP/o.log"'
	test_expect_success 'concurrent-orphan-recipe-then-up-to-date' '
		"${MK[@]}" heuristic >"$TMP/o2.log" 2>&1 && tail -1 "$TMP/o2.log" | grep "^heuristic GPU=zz: up to date: "'
else skip concurrent-orphan-recipe-consistent "[SETSID] $(_prereq_probe SETSID; echo "$_prereq_why")"; fi
# a recipe line whose make has ended is not run (lock-shell.sh, the SHELL of a make holding the lock)
: >"$TMP/run.lock"
sh -c 'exit 0' & dead=$!; wait $dead
test_expect_success 'concurrent-line-of-ended-make-not-run' '
	test_must_fail env MMR_LOCK_RUN="$TMP/run.lock" MMR_LOCK_PID=$dead "$ROOT/stages/sh/lock-shell.sh" \
		-c "touch $TMP/ran" 2>"$TMP/dead.err" && [ ! -e "$TMP/ran" ] && grep -q "of this recipe has ended: not run" "$TMP/dead.err" &&
	MMR_LOCK_RUN="$TMP/run.lock" MMR_LOCK_PID=$$ "$ROOT/stages/sh/lock-shell.sh" -c "touch $TMP/ran" && [ -e "$TMP/ran" ]'

# every build output goes through a temporary name (make -n in a fresh BUILD)
env -u MAKEFLAGS -u MAKELEVEL make -n -C "$ROOT" BUILD="$TMP/b" all "$TMP/b/bin/bench-fake" "$TMP/b/unit/$(basename "$(ls "$ROOT"/check/unit/*.c | head -1)" .c)" \
	>"$TMP/n.log" 2>&1
direct=$(grep -E -- "(-o |ar rcs )$TMP/b/[^ ]*" "$TMP/n.log" | grep -vE -- "(-o |ar rcs )$TMP/b/[^ ]*\.tmp\\$\\$" | head -2)
if [ -z "$direct" ] && grep -q -- "-o $TMP/b/bin/merge.tmp" "$TMP/n.log" && grep -q "ar rcs $TMP/b/libmmrank.a.tmp" "$TMP/n.log"; then
	ok concurrent-build-outputs-renamed
else fail concurrent-build-outputs-renamed "${direct:-no temporary names}"; fi
finish
