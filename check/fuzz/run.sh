#!/usr/bin/env bash
# check/fuzz/run.sh SECONDS [HARNESS...] — run AFL++ on each harness for
# SECONDS (one after the other), harnesses: featurize (log reader),
# featset (feat TSV reader), prune (tree reader); default all three.
# Needs the binaries of check/fuzz/build.sh.  Seeds: check/fixtures and
# check/corpus files of the harness's kind.  Findings go to
# build/fuzz/findings/<harness>/ (AFL++ layout; a rerun starts from the
# previous queue plus the seeds and moves the old findings to
# <harness>.prev); the summary line per harness gives executions, seconds
# and crashes/hangs of this session.  Exit status 1 if
# any harness found a crash or a hang.
set -u
cd "$(dirname "$0")/../.."
secs=${1:-60}; shift || true
harness=("$@")
[ ${#harness[@]} -gt 0 ] || harness=(featurize featset prune)
command -v afl-fuzz >/dev/null || { echo "run.sh: afl-fuzz not found (apt-get install -y afl++)" >&2; exit 1; }
B=build/fuzz
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
	*) echo "run.sh: unknown harness '$h' (featurize, featset, prune)" >&2; exit 2 ;;
	esac
	[ -x "${cmd[0]}" ] || { echo "run.sh: ${cmd[0]} missing: run check/fuzz/build.sh" >&2; exit 1; }
	# empty seeds make AFL++ refuse to start
	find "$seeds" -size 0 -delete
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
