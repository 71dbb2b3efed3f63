#!/usr/bin/env bash
# t7190-settings.sh — no make setting runs a command, and a bad one stops make
# before anything runs (mk/vars.mk, mk/variables.tsv, stages/sh/vars.sh).
#  - The reproducers: `$(shell ...)` in a value (make help, at parse time),
#    PROFILES reaching a parse-time $(shell awk ...), and shell metacharacters
#    in each variable that reaches a recipe (make collect with bench-fake,
#    make fit, make fuzz, make check): no marker file appears, make fails
#    naming the variable.
#  - BENCH='a b', CUBIN_CACHE='a b' and BENCH_EXTRA=--bogus stop make before
#    sample writes anything.
#  - Every variable of the registry, from the command line and from the
#    environment, holding $(shell touch MARKER) or ;touch MARKER; : 0 markers
#    (the count of variables per kind is printed).
#  - A value that starts a recipe line with '+' (make runs it even under
#    make -n: BUILD=+DIR ran fit), an option where a path goes (BUILD=-x),
#    '@FILE' in CFLAGS, GPU=.., a comma in a path (it split $(call)'s
#    arguments: COLLECT_DIR=A,B), CFLAGS that make the compiler run another
#    program (-wrapper SCRIPT): refused, nothing run, no marker.
#  - The environment reaches nothing: the names the makefiles used without
#    defining them (PARTS_BIN, zip_check, ..., $(1)) and make -e run no
#    marker, and the main goals under --warn-undefined-variables warn of
#    nothing; make -n compare runs nothing; HELDOUT logs of one file name are
#    refused before anything is featurized.
#  - A misspelt or lower-case variable on the command line stops make with a
#    suggestion; a variable of the environment the registry does not name is
#    left alone.
# Each marker is a file under $TMP/marker; the values name it by its full path.
. check/lib.sh
BUILD=${BIN%/bin}
M=$TMP/marker
mkdir -p "$M"
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out")
markers() { ls -A "$M"; }
# refused NAME PATTERN MARKER MAKE-ARGS...: make fails with PATTERN on stderr
# and MARKER was not created
refused() {
	local n=$1 p=$2 mark=$3; shift 3
	"${MK[@]}" "$@" >"$TMP/$n.out" 2>"$TMP/$n.err" </dev/null
	local rc=$?
	if [ -e "$M/$mark" ]; then fail "$n" "the value ran a command: $M/$mark exists"
	elif [ $rc -eq 0 ]; then fail "$n" "make exit status 0"
	elif ! grep -Eq -- "$p" "$TMP/$n.err"; then fail "$n" "stderr: $(head -c 300 "$TMP/$n.err")"
	else ok "$n"; fi
	rm -f "$M/$mark"
}
MUST_NOT="a setting must not hold a quote, a newline, a tab, \\$, a backtick or a shell metacharacter"

# ---- the reproducers ---------------------------------------------------------------
refused settings-shell-in-seed "SEED: $MUST_NOT \(found: \\$ \( \)\)" seed help "SEED=\$(shell touch $M/seed)"
refused settings-profiles-shell "PROFILES: $MUST_NOT \(found: ;\)" profiles help-all "PROFILES=x;touch $M/profiles;"
# make collect with the CPU measurer: sample, bench-fake shards, merge
if test_have_bins settings-collect-metachar sample merge bench-fake; then
	COLLECT=(collect GPU=zz100 BENCH=bench-fake GPUS=0 SAMPLES=3)
	# NAME|VALUE: ;touch where a space splits nothing; ;> or `>` where a space
	# or a ';' would split the target names these values become
	for c in "CUBIN_CACHE|x;touch $M/CUBIN_CACHE;" "BENCH_EXTRA|x;touch $M/BENCH_EXTRA;" \
		"COLLECT_MERGED|x\`>$M/COLLECT_MERGED\`y/merged.txt" "COLLECT_DIR|x\`>$M/COLLECT_DIR\`" "BENCH|bench-fake;>$M/BENCH;"; do
		n=${c%%|*}
		refused "settings-collect-$n" "$n: $MUST_NOT" "$n" "${COLLECT[@]}" OUT="$TMP/c-$n" "$n=${c#*|}"
	done
	# CFLAGS reaches the first compile of a fresh build folder
	refused settings-collect-CFLAGS "CFLAGS: $MUST_NOT" CFLAGS "${COLLECT[@]}" OUT="$TMP/c-cf" BUILD="$TMP/b-cf" \
		"CFLAGS=x;touch $M/CFLAGS;"
fi
# FIT_EXTRA reaches fit's command (a synthetic collection, OUT/zz/merged.txt)
mkdir -p "$TMP/f/zz"
awk -v seed=5 -v inputs=60 -v choices=4 -f "$ROOT/check/synth_mm.awk" >"$TMP/f/zz/merged.txt"
refused settings-fit-extra "FIT_EXTRA: $MUST_NOT" FIT_EXTRA fit GPU=zz OUT="$TMP/f" "FIT_EXTRA=x;touch $M/FIT_EXTRA;"
# FUZZ_HARNESS reaches the fuzz runner's command, TESTS the test runner's
# (-o: their build steps are taken as done)
refused settings-fuzz-harness "FUZZ_HARNESS: $MUST_NOT" FUZZ_HARNESS -o fuzz-build fuzz FUZZ_SECONDS=1 \
	"FUZZ_HARNESS=x;touch $M/FUZZ_HARNESS;"
refused settings-tests "TESTS: $MUST_NOT" TESTS -o check-build check "TESTS=x;touch $M/TESTS;"

# ---- refused before sample writes anything --------------------------------------------
if test_have_bins settings-before-sample sample bench-fake; then
	for c in "BENCH|a b|BENCH='a b': one word" "CUBIN_CACHE|a b|CUBIN_CACHE='a b': a path" \
		"BENCH_EXTRA|--bogus|BENCH_EXTRA: unknown option '--bogus'"; do
		IFS='|' read -r n val pat <<<"$c"
		"${MK[@]}" collect GPU=zz100 BENCH=bench-fake GPUS=0 SAMPLES=3 OUT="$TMP/s-$n" "$n=$val" \
			>"$TMP/s.out" 2>"$TMP/s.err" </dev/null
		rc=$?
		if [ $rc -ne 0 ] && grep -qF -- "$pat" "$TMP/s.err" && [ ! -e "$TMP/s-$n" ]; then ok "settings-before-sample-$n"
		else fail "settings-before-sample-$n" "rc $rc, $(ls "$TMP/s-$n" 2>/dev/null | head -3 | tr '\n' ' ')$(head -c 200 "$TMP/s.err")"; fi
	done
fi

# ---- every variable, three ways ---------------------------------------------------------
rows=$(awk -F'\t' '!/^#/ && $1 != "name" && NF { print $1 "\t" $2 }' "$ROOT/mk/variables.tsv")
n=0 ran=() kinds=
while IFS=$'\t' read -r v k; do
	n=$((n + 1))
	"${MK[@]}" -s help "$v=\$(shell touch $M/$v.cmdline)" >/dev/null 2>&1 </dev/null
	env "$v=\$(shell touch $M/$v.env)" "${MK[@]}" -s help >/dev/null 2>&1 </dev/null
	"${MK[@]}" -s help "$v=x;touch $M/$v.semicolon;" >/dev/null 2>&1 </dev/null
	kinds+="$k"$'\n'
done <<<"$rows"
ran=$(markers)
echo "# settings: $n variables ($(sort <<<"${kinds%$'\n'}" | uniq -c | awk '{ printf "%s%s %d", (NR > 1 ? ", " : ""), $2, $1 }')), 3 ways each: $(wc -w <<<"$ran") markers"
[ "$n" -gt 70 ] && [ -z "$ran" ] && ok settings-every-variable-inert || fail settings-every-variable-inert "$n variables; markers: $(echo $ran | head -c 300)"
rm -f "$M"/*

# ---- how a value starts, and what it becomes a part of --------------------------------------
# A synthetic collection trained once (OUT=$TMP/p, GPU=zz): its tree must survive the dry runs below.
mkdir -p "$TMP/p/zz"
awk -v seed=5 -v inputs=60 -v choices=4 -f "$ROOT/check/synth_mm.awk" >"$TMP/p/zz/merged.txt"
P=(OUT="$TMP/p" GPU=zz RANKING=2)
if test_have_bins settings-plus-dry-run featurize fit prune emit && "${MK[@]}" heuristic "${P[@]}" >"$TMP/p.log" 2>&1; then
	sum() { md5sum "$TMP/p/zz/tree.tsv" "$TMP/p/zz/fit.params" | cut -d' ' -f1 | tr '\n' ' '; }
	before=$(sum)
	# make runs a recipe line that starts with '+' even under make -n: BUILD=+DIR made
	# the line `$(Q)$(BIN)/fit ...` one, so fit rewrote tree.tsv with SEED=9
	refused settings-plus-dry-run "BUILD='\+$BUILD': may not start with '\+', '-' or '@'" none -n heuristic "${P[@]}" \
		BUILD="+$BUILD" SEED=9
	[ "$(sum)" = "$before" ] || fail settings-plus-dry-run-tree "make -n rewrote tree.tsv"
	# a value that is more than one recipe line's start: PYTHON (the triton cubins' line)
	# (its folder exists, so that the line's redirection does not stop it first)
	printf '#!/bin/sh\ntouch %s/python\n' "$M" >"$TMP/pyplus"; chmod +x "$TMP/pyplus"
	mkdir -p "$TMP/pp/zz100/collect"
	refused settings-plus-python "PYTHON='\+$TMP/pyplus': may not start with '\+', '-' or '@'" python \
		-n collect OUT="$TMP/pp" GPU=zz100 BENCH=bench-fake KERNEL_TEMPLATE=triton PYTHON="+$TMP/pyplus"
	# make -n runs every line that names $(MAKE): compare's nvmmh build is a line of its own
	ls -A "$TMP/p/zz" >"$TMP/p.before"
	"${MK[@]}" -n compare "${P[@]}" >"$TMP/pc.out" 2>"$TMP/pc.err" </dev/null; rc=$?
	ls -A "$TMP/p/zz" >"$TMP/p.after"
	[ $rc = 0 ] && cmp -s "$TMP/p.before" "$TMP/p.after" && ok settings-dry-compare-runs-nothing ||
		fail settings-dry-compare-runs-nothing "rc $rc, $(diff "$TMP/p.before" "$TMP/p.after" | tr '\n' ' ')$(head -c 300 "$TMP/pc.err")"
	# HELDOUT logs of one file name: refused before anything is featurized, with advice HELDOUT can follow
	mkdir -p "$TMP/h1" "$TMP/h2"
	awk -v seed=6 -v inputs=20 -v choices=4 -f "$ROOT/check/synth_mm.awk" >"$TMP/h1/x.txt"
	awk -v seed=7 -v inputs=20 -v choices=4 -f "$ROOT/check/synth_mm.awk" >"$TMP/h2/x.txt"
	refused settings-heldout-same-name "HELDOUT: a log is scored as a set named after its file.*'x' \($TMP/h1/x.txt $TMP/h2/x.txt\): copy or link the log under another name, e.g. ln -s $TMP/h2/x.txt $TMP/h2/x_2.txt" \
		none compare "${P[@]}" HELDOUT="$TMP/h1/x.txt $TMP/h2/x.txt"
	test_expect_success 'settings-heldout-same-name-nothing-run' '[ ! -e "$TMP/p/zz/logs" ] && [ ! -e "$TMP/p/zz/compare" ]'
else
	fail settings-plus-dry-run "make heuristic on the synthetic collection: $(tail -3 "$TMP/p.log" | tr '\n' '|')"
fi
# a leading '-' is an option (BUILD=-build: mkdir's); '@FILE' is more options for gcc
refused settings-minus-path "BUILD='-x': may not start with '\+', '-' or '@'" none -n all BUILD=-x
refused settings-at-flags "CFLAGS='-O2 @$TMP/opts': no word may start with '\+' or '@'" none -n all "CFLAGS=-O2 @$TMP/opts"
refused settings-minus-command "CC='-x': may not start" none -n all CC=-x
# GPU is a folder of OUT: GPU=.. wrote a collection into OUT's parent
mkdir -p "$TMP/g/o"
refused settings-gpu-dotdot "GPU='..': may not start with '.'" none collect OUT="$TMP/g/o" GPU=.. HEURISTIC_NAME=X \
	BENCH=bench-fake GPUS=0 SAMPLES=3
test_expect_success 'settings-gpu-dotdot-wrote-nothing' '[ "$(ls -A "$TMP/g")" = o ] && [ -z "$(ls -A "$TMP/g/o")" ]'
# a comma in a path shifted $(call collect_bench,...)'s arguments (bench --stats A, log B/stats_0.tsv)
refused settings-path-comma "COLLECT_DIR='$TMP/ca,$TMP/cb': a path of letters, digits and '._\+-/@' expected \(no spaces, no ':' or ','\)" \
	none collect OUT="$TMP/c" GPU=zz100 BENCH=bench-fake GPUS=0 SAMPLES=3 "COLLECT_DIR=$TMP/ca,$TMP/cb"
test_expect_success 'settings-path-comma-wrote-nothing' '[ ! -e "$TMP/ca," ] && [ ! -e "$TMP/cb" ] && [ ! -e "$TMP/c" ]'
# (and CUDA_LIBDIR=x,--plugin,y would have reached the linker's -Wl,-rpath,x)
refused settings-path-comma-rpath "CUDA_LIBDIR='x,-plugin,y': a path" none -n all "CUDA_LIBDIR=x,-plugin,y"
# CFLAGS that make the compiler run another program (a fresh build folder compiles;
# the wrapper: a script that leaves a marker, where mkdir,-p,DIR,-- made a folder of every argument)
printf '#!/bin/sh\ntouch %s/wrapper\nexit 1\n' "$M" >"$TMP/wrap"; chmod +x "$TMP/wrap"
refused settings-cflags-wrapper "CFLAGS='-O2 -wrapper $TMP/wrap': -wrapper makes the compiler run another program" \
	wrapper "$TMP/bw/bin/merge" BUILD="$TMP/bw" "CFLAGS=-O2 -wrapper $TMP/wrap"
for f in -fplugin=x.so -B/tmp -specs=x --specs=x -Wl,-plugin,x.so -Wl,--dynamic-linker=/x -fuse-ld=/tmp/ld -print-prog-name=cc1; do
	refused "settings-cflags-runs${f//[^A-Za-z0-9]/-}" "makes the compiler run another program" none -n all "CFLAGS=-O2 $f"
done

# ---- what the environment reaches ---------------------------------------------------------
# make takes a name it does not define from the environment and expands it: every
# name the makefiles use is defined (the names once left to the environment, each
# where it was expanded), and $(1) is never used outside a $(call)
envrun() { local n=$1; shift; env "$n=\$(shell touch $M/$n)" "${MK[@]}" "$@" >/dev/null 2>&1 </dev/null; }
envrun PARTS_BIN -n heuristic "${P[@]}" OUT="$TMP/e1"
envrun zip_check -n heuristic "${P[@]}" OUT="$TMP/e2"
envrun zip_fetch -n fetch "${P[@]}" OUT="$TMP/e3"
envrun UNIT_SRC -n units BUILD="$TMP/eb"
envrun BENCH_DEFS -n "$TMP/eb/bin/bench" BUILD="$TMP/eb"
envrun 1 -n heuristic "${P[@]}" OUT="$TMP/e4"
envrun MMR_LOCK_HELD heuristic "${P[@]}"
test_expect_success 'settings-environment-undefined-names-inert' '[ -z "$(markers)" ]'
rm -f "$M"/*
# make -e lets the environment override every variable, the makefiles' own too
refused settings-make-e "make -e .* is not supported" none -e -n heuristic "${P[@]}"
# (MK without its env -u MAKEFLAGS -u MAKELEVEL)
env -u MAKELEVEL MAKEFLAGS=e "O=\$(shell touch $M/O)" "${MK[@]:5}" -n heuristic "${P[@]}" >/dev/null 2>"$TMP/me.err" </dev/null
test_expect_success 'settings-makeflags-e' '[ -z "$(markers)" ] && grep -q "make -e .* is not supported" "$TMP/me.err"'
rm -f "$M"/*
# and none is left: the main goals under --warn-undefined-variables
w=$("${MK[@]}" --warn-undefined-variables heuristic "${P[@]}" 2>&1 >/dev/null </dev/null |
	grep -o "undefined variable '[^']*'" | sort -u | tr '\n' ' ')
warned=${w:+[heuristic] $w}
for g in "-n heuristic GPU=a100" "-n heuristic GPU=h200" "-n check-bins" "-n units" \
	"-n collect GPU=zz100 BENCH=bench-fake" "-n collect GPU=zz100 BENCH=bench-fake LAUNCHER=slurm" \
	"-n collect GPU=zz100 BACKEND=inductor" "-n collect GPU=zz100 KERNEL_TEMPLATE=triton TRITON_CUBINS=$TMP" \
	"-n compare ${P[*]}" "-n report ${P[*]}" "-n eval ${P[*]}" "-n evaluate-online ${P[*]}" help help-all \
	"-n cubins" "-n test-bins" "-n harnesses" "-n $TMP/wb/bin/bench"; do
	# shellcheck disable=SC2086  # the goal and its settings are words
	w=$("${MK[@]}" --warn-undefined-variables BUILD="$TMP/wb" OUT="$TMP/p" $g 2>&1 >/dev/null </dev/null |
		grep -o "undefined variable '[^']*'" | sort -u | tr '\n' ' ')
	[ -n "$w" ] && warned+="[$g] $w"
done
[ -z "$warned" ] && ok settings-no-undefined-variable || fail settings-no-undefined-variable "$warned"

# ---- names make does not know -------------------------------------------------------------
refused settings-unknown-lower-case "unknown variable on the command line: gpu \(did you mean GPU\?\)" gpu heuristic gpu=h100
refused settings-unknown-misspelt "unknown variable on the command line: RANKNG \(did you mean RANKING\?\)" rankng heuristic RANKNG=5
# the field's word for a knob: the variable whose help names it (RANKING: "top-k: ...")
refused settings-unknown-help-word "unknown variable on the command line: TOP_K \(did you mean RANKING\?\)" topk heuristic TOP_K=5
test_expect_success 'settings-unknown-nothing-ran' '[ ! -e "$TMP/out" ]'
test_expect_success 'settings-environment-other-names-ignored' '
	env RANKNG=5 gpu=x MMRANK_SOMETHING="\$(shell touch $M/env)" "${MK[@]}" -s fit-args GPU=h100 >"$TMP/e.out" &&
	grep -q -- "--ranking 10 " "$TMP/e.out" && [ -z "$(markers)" ]'
finish
