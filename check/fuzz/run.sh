#!/usr/bin/env bash
# check/fuzz/run.sh SECONDS [HARNESS...] — run AFL++ on each harness for
# SECONDS (one after the other), harnesses: featurize (log reader),
# featset (feat TSV reader), prune (tree reader), emit (tree reader, m4 and
# the compile check of the C twin), import (artifact reader); default all.
# Needs the binaries of check/fuzz/build.sh.  Seeds: check/fixtures and
# check/corpus files of the harness's kind (the corpus keeps every crash
# found as a regression input, e.g. import-none-first.py).  Findings go to
# build/fuzz/findings/<harness>/ (AFL++ layout; a rerun starts from the
# previous queue plus the seeds and moves the old findings to
# <harness>.prev); the summary line per harness gives executions, seconds
# and crashes/hangs of this session.  Exit status 1 if
# any harness found a crash or a hang.
# check/fuzz/run.sh --replay [HARNESS...] runs each harness once on every
# seed instead (no AFL++ needed; check/t7130-fuzz.sh): a signal or a
# sanitizer report is a crash, any other exit status is fine; one line per
# harness, exit status 1 if any seed crashed.
# FUZZ_BUILD=DIR: the binaries of `FUZZ_BUILD=DIR check/fuzz/build.sh`.
set -u
cd "$(dirname "$0")/../.."
replay=0
if [ "${1:-}" = --replay ]; then replay=1; shift; secs=0; else secs=${1:-60}; shift || true; fi
harness=("$@")
[ ${#harness[@]} -gt 0 ] || harness=(featurize featset prune emit import)
[ $replay = 1 ] || command -v afl-fuzz >/dev/null ||
	{ echo "run.sh: afl-fuzz not found (apt-get install -y afl++)" >&2; exit 1; }
B=${FUZZ_BUILD:-build/fuzz}
export AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	AFL_NO_AFFINITY=1 AFL_SKIP_CRASHES=1
export ASAN_OPTIONS=abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=1
export UBSAN_OPTIONS=abort_on_error=1:halt_on_error=1:print_stacktrace=0
status=0
for h in "${harness[@]}"; do
	work=$B/work/$h; seeds=$B/seeds/$h; found=$B/findings/$h
	rm -rf "$work" "$seeds"; mkdir -p "$work" "$seeds" "$B/findings"
	case $h in
	featurize) dict=log
		cp check/fixtures/featurize/small.txt "$seeds/"
		for f in check/corpus/*.log check/corpus/*.merge; do [ -e "$f" ] && cp "$f" "$seeds/"; done
		cmd=("$B/bin/featurize" -o "$work/out.tsv" @@) ;;
	featset) dict=feat
		cp check/fixtures/featurize/small.expect.tsv "$seeds/"
		for f in check/corpus/*.feat.tsv; do [ -e "$f" ] && cp "$f" "$seeds/"; done
		cmd=("$B/bin/featset_driver" @@) ;;
	prune) dict=tree
		cp check/fixtures/tree/*.tsv check/fixtures/emit/tree.tsv "$seeds/" 2>/dev/null
		cp check/fixtures/emit/tree.tsv "$seeds/emit_tree.tsv"
		for f in check/corpus/*.tree.tsv; do [ -e "$f" ] && cp "$f" "$seeds/"; done
		cmd=("$B/bin/prune" --ranking 3 -o "$work/out.tsv" @@) ;;
	emit) dict=tree
		cp check/fixtures/tree/*.tsv "$seeds/" 2>/dev/null
		cp check/fixtures/emit/tree.tsv "$seeds/emit_tree.tsv"
		for f in check/corpus/*.tree.tsv; do [ -e "$f" ] && cp "$f" "$seeds/"; done
		# the C twin: the tree reaches m4 and the compile check (cc)
		cmd=("$B/bin/emit" --templates templates --heuristic-name Fuzz --format c -o "$work/out.c" @@) ;;
	import) dict=py
		cp check/fixtures/import/*.py check/corpus/*.py "$seeds/" 2>/dev/null
		cp check/fixtures/emit/expected.py "$seeds/emit_expected.py"
		cmd=("$B/bin/import" -o "$work/out.tsv" @@) ;;
	*) echo "run.sh: unknown harness '$h' (featurize, featset, prune, emit, import)" >&2; exit 2 ;;
	esac
	[ -x "${cmd[0]}" ] || { echo "run.sh: ${cmd[0]} missing: run check/fuzz/build.sh" >&2; exit 1; }
	# empty seeds make AFL++ refuse to start
	find "$seeds" -size 0 -delete
	if [ $replay = 1 ]; then
		n=0 bad=0
		for f in "$seeds"/*; do
			n=$((n + 1))
			run=("${cmd[@]}")
			for i in "${!run[@]}"; do [ "${run[$i]}" = @@ ] && run[$i]=$f; done
			ASAN_OPTIONS=exitcode=86:detect_leaks=0 UBSAN_OPTIONS=exitcode=87:print_stacktrace=1 \
				"${run[@]}" >/dev/null 2>"$work/err"
			rc=$?
			if [ $rc -ge 86 ] && { [ $rc -le 87 ] || [ $rc -ge 128 ]; }; then
				bad=$((bad + 1))
				echo "run.sh: $h: ${f##*/}: exit status $rc: $(grep -m1 -E 'ERROR|runtime error' "$work/err")" >&2
			fi
		done
		echo "replay $h: $n seeds, $bad crashes"
		[ $bad -eq 0 ] || status=1
		continue
	fi
	# a previous session's queue joins the seeds; its findings are kept in
	# $found.prev (one generation)
	if [ -d "$found/default/queue" ]; then
		find "$found/default/queue" -maxdepth 1 -type f -name 'id:*' -size -64k \
			-exec sh -c 'for f; do cp "$f" "$0/q-$(basename "$f" | cut -c1-9)"; done' "$seeds" {} +
		rm -rf "$found.prev"; mv "$found" "$found.prev"
	fi
	afl-fuzz -i "$seeds" -o "$found" -m none -t 2000 -V "$secs" -x "check/fuzz/dict/$dict.dict" \
		-- "${cmd[@]}" >"$B/$h.log" 2>&1
	st=$found/default/fuzzer_stats
	if [ ! -f "$st" ]; then
		echo "run.sh: $h: afl-fuzz did not start; see $B/$h.log" >&2; tail -5 "$B/$h.log" >&2; status=1; continue
	fi
	get() { awk -F' *: *' -v k="$1" '$1 == k {print $2}' "$st"; }
	crashes=$(find "$found/default/crashes" -type f -name 'id:*' | wc -l)
	hangs=$(find "$found/default/hangs" -type f -name 'id:*' | wc -l)
	echo "fuzz $h: $(get execs_done) execs in $(get run_time) s this session, $(get corpus_count) paths, $crashes crashes, $hangs hangs"
	[ "$crashes" -eq 0 ] && [ "$hangs" -eq 0 ] || status=1
done
exit $status
