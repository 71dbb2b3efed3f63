#!/usr/bin/env bash
# t7200-python-safety.sh — the Python side never breaks its caller and no
# name escapes its folder, on the torch stand-in (check/stub), no GPU:
#   1. mmrank.inductor at import (MMRANK_INDUCTOR=auto): an artifact with a
#      syntax error, one that raises or calls sys.exit while it runs (or
#      raises GeneratorExit, a BaseException of its own, one whose message
#      cannot be made), one whose class cannot be made, one whose
#      check_precondition raises or answers something whose truth test
#      raises: the import goes on, nothing is installed, one line on stderr
#      names the file; KeyboardInterrupt goes on up (the user's Ctrl-C);
#      python -m mmrank.inductor says the same without a traceback; a FIFO,
#      /dev/zero, a folder named as an artifact: refused without being read
#      (no hang), also by mmrank.install_artifact; its dir command (README's
#      torch artifacts folder) fails in one line where torch does not import;
#   2. the environment parses strictly: MMRANK_INDUCTOR takes auto, 1..1000
#      in ASCII digits and the off words, and refuses 1_0, +5, Arabic-Indic
#      digits, 10^20, AUTO, 7x ... with one message naming the variable
#      (never int()'s); MMRANK_INDUCTOR_EXTRA / _STRICT / _UNRANKED take
#      their words and refuse the rest;
#   3. perf/models: model names ([A-Za-z0-9._-]+, no leading '.' or '-')
#      checked before anything runs: ../x cannot delete outside CACHE_ROOT,
#      * is not globbed, a name with a space or " is refused; the numbers of
#      run.sh reach no arithmetic unchecked; layers=² and a 5000-digit value
#      give file:line:field; a resume names a bad line (file:line) and
#      duplicates nothing; report.py refuses a bad name by file:line; a
#      record appended after a torn line starts its own line (record field
#      types and key words: check/t6160-models.sh, t6170-truth.sh).
. check/lib.sh
test_require PYTHON3 python-safety
ART=$ROOT/gen/_MMRankingH200.py
H=$ROOT/check/handler

# imp NAME: import mmrank.inductor with the environment given; $TMP/imp.out
# holds the state, $TMP/imp.err stderr; fails on a hang (10 s) or exit != 0
imp() {
	timeout 10 env MMRANK_STUB_GPU="NVIDIA H200" "$@" bash -c 'PYTHONPATH="$0:$PYTHONPATH" python3 "$1" --import-only' \
		"$STUB" "$H/install_case.py" >"$TMP/imp.out" 2>"$TMP/imp.err"
}
# refused_at_import NAME PATTERN ENV...: the import exits 0, installs nothing,
# and says PATTERN on exactly one stderr line
refused_at_import() {
	local name=$1 pat=$2; shift 2
	imp "$@"; local rc=$?
	if [ $rc -ne 0 ]; then fail "$name" "import exit $rc: $(tail -c 300 "$TMP/imp.err")"
	elif ! grep -qx 'import installed=False' "$TMP/imp.out"; then fail "$name" "installed: $(head -1 "$TMP/imp.out")"
	elif [ "$(wc -l <"$TMP/imp.err")" -ne 1 ] || ! grep -Eq -- "$pat" "$TMP/imp.err"; then
		fail "$name" "stderr: $(head -c 300 "$TMP/imp.err")"
	else ok "$name"; fi
}

# ---- 1. broken artifacts at import -----------------------------------------
mkdir -p "$TMP/a"
{ head -20 "$ART"; echo 'def broken(:'; } >"$TMP/a/syntax.py"
refused_at_import py-safety-artifact-syntax "syntax\.py:21: the artifact fails to load \(syntax error" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/syntax.py"
{ cat "$ART"; echo 'raise RuntimeError("boom")'; } >"$TMP/a/raises.py"
refused_at_import py-safety-artifact-raises "raises\.py:[0-9]+: the artifact fails to load \(RuntimeError: boom\)" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/raises.py"
{ cat "$ART"; echo 'import sys; sys.exit(3)'; } >"$TMP/a/exits.py"
refused_at_import py-safety-artifact-exits "exits\.py:[0-9]+: the artifact fails to load \(SystemExit" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/exits.py"
{ cat "$ART"; printf '\n    def __init__(self):\n        raise ValueError("no")\n'; } >"$TMP/a/init.py"
refused_at_import py-safety-artifact-init-raises "init\.py:[0-9]+: the artifact fails to load \(ValueError: no\)" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/init.py"
{ cat "$ART"; printf '\n    def check_precondition(self, metadata, context):\n        raise KeyError("x")\n'; } >"$TMP/a/pre.py"
refused_at_import py-safety-artifact-precondition-raises "check_precondition raised KeyError" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/pre.py"
mkfifo "$TMP/a/_MMRankingH200.fifo.py"
refused_at_import py-safety-artifact-fifo "fifo\.py: not a regular file" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/_MMRankingH200.fifo.py"
refused_at_import py-safety-artifact-dev-zero "/dev/zero: not a regular file" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT=/dev/zero
mkdir -p "$TMP/d/_MMRankingH200.py"
refused_at_import py-safety-artifact-folder-named-as-file "_MMRankingH200\.py: not a regular file" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/d"
# any BaseException an artifact raises is a refusal (SystemExit above,
# GeneratorExit, one of its own, one whose message cannot be made), but
# KeyboardInterrupt: it cannot be told from the user's Ctrl-C, so it goes on
# up (mmrank.artifact's doc)
# refused_artifact NAME FILE PATTERN CODE: the artifact with CODE (backslash
# escapes) appended, as $TMP/a/FILE, is refused at import saying PATTERN
refused_artifact() {
	{ cat "$ART"; printf '%b\n' "$4"; } >"$TMP/a/$2"
	refused_at_import "$1" "$3" MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/$2"
}
refused_artifact py-safety-artifact-base-exception base.py "base\.py:[0-9]+: the artifact fails to load \(Boom: b\)" \
	'class Boom(BaseException):\n    pass\nraise Boom("b")'
refused_artifact py-safety-artifact-generator-exit genexit.py "genexit\.py:[0-9]+: the artifact fails to load \(GeneratorExit: g\)" \
	'raise GeneratorExit("g")'
refused_artifact py-safety-artifact-unprintable mute.py "mute\.py:[0-9]+: the artifact fails to load \(Mute: \(its message cannot be shown\)\)" \
	'class Mute(BaseException):\n    def __str__(self):\n        raise ValueError("no")\nraise Mute()'
refused_artifact py-safety-artifact-precondition-exits pre-exit.py "check_precondition raised SystemExit: 4" \
	'\n    def check_precondition(self, metadata, context):\n        raise SystemExit(4)'
refused_artifact py-safety-artifact-precondition-bool pre-bool.py "check_precondition raised ValueError: no truth" \
	'\n    def check_precondition(self, metadata, context):\n        class No:\n            def __bool__(self):\n                raise ValueError("no truth")\n        return No()'
{ cat "$ART"; echo 'raise KeyboardInterrupt'; } >"$TMP/a/ctrl-c.py"
imp MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$TMP/a/ctrl-c.py"; rc=$?
[ $rc -ne 0 ] && [ $rc -ne 124 ] && grep -q '^KeyboardInterrupt' "$TMP/imp.err" && ok py-safety-artifact-keyboard-interrupt-propagates ||
	fail py-safety-artifact-keyboard-interrupt-propagates "rc=$rc $(tail -c 200 "$TMP/imp.err")"
# python -m mmrank.inductor: the precondition's answer is tested inside the guard
timeout 10 env MMRANK_STUB_GPU="NVIDIA H200" bash -c 'PYTHONPATH="$0:$PYTHONPATH" python3 -m mmrank.inductor --artifact "$1"' \
	"$STUB" "$TMP/a/pre-bool.py" >"$TMP/rep.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "no artifact is used: MMRankingH200's check_precondition raised ValueError: no truth" "$TMP/rep.out" &&
	! grep -q Traceback "$TMP/rep.out" && ok py-safety-report-precondition-bool ||
	fail py-safety-report-precondition-bool "rc=$rc $(tail -c 300 "$TMP/rep.out")"
# README's torch artifacts folder: mmrank.install_artifact dir, one line and
# exit 1 where torch does not import (a torch that fails to import stands in)
mkdir -p "$TMP/broken/torch" && echo 'raise ImportError("this torch is broken")' >"$TMP/broken/torch/__init__.py"
PYTHONPATH="$TMP/broken:$PYTHONPATH" python3 -m mmrank.install_artifact dir >"$TMP/dir.out" 2>"$TMP/dir.err"; rc=$?
[ $rc -eq 1 ] && [ ! -s "$TMP/dir.out" ] && [ "$(wc -l <"$TMP/dir.err")" -eq 1 ] &&
	grep -q "^install_artifact: python3 cannot import torch (ImportError: this torch is broken); torch's artifacts folder is unknown" "$TMP/dir.err" &&
	grep -q '^ART=$(PYTHONPATH=python python3 -m mmrank.install_artifact dir) &&' README.md &&
	ok py-safety-artifacts-dir-no-torch || fail py-safety-artifacts-dir-no-torch "rc=$rc $(head -c 300 "$TMP/dir.out" "$TMP/dir.err")"
if test_skip_unless TORCH py-safety-artifacts-dir-torch; then
	d=$("$TORCH_PYTHON" -m mmrank.install_artifact dir 2>"$TMP/dir.err")
	[ -f "$d/_MMRankingA100.py" ] && [ "$d" = "$("$TORCH_PYTHON" -c 'import os, torch; print(os.path.dirname(torch.__file__))')/_inductor/autoheuristic/artifacts" ] &&
		ok py-safety-artifacts-dir-torch || fail py-safety-artifacts-dir-torch "'$d' $(head -c 200 "$TMP/dir.err")"
fi
# the API says the same (Refused, naming the file), and so does make
# install-artifact's tool, which never reads what is not a regular file
if stub_python -c 'import sys
from mmrank import inductor as mi
try:
    mi.install(artifact=sys.argv[1])
except mi.Refused as e:
    print(e)' "$TMP/a/raises.py" 2>&1 | grep -q "raises\.py:[0-9]*: the artifact fails to load"; then
	ok py-safety-install-refuses-broken; else fail py-safety-install-refuses-broken "not refused"; fi
mkdir -p "$TMP/arts" && : >"$TMP/arts/__init__.py"
timeout 10 python3 -m mmrank.install_artifact install --artifacts-dir "$TMP/arts" "$TMP/a/_MMRankingH200.fifo.py" >"$TMP/ia.out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q 'fifo\.py: not a regular file' "$TMP/ia.out" && ok py-safety-install-artifact-fifo ||
	fail py-safety-install-artifact-fifo "rc=$rc $(head -c 200 "$TMP/ia.out")"

# ---- 2. the environment ----------------------------------------------------
k_refused() {   # NAME VALUE
	refused_at_import "$1" "^mmrank\.inductor: not installed: MMRANK_INDUCTOR='.*': expected auto, a whole number 1\.\.1000" \
		MMRANK_INDUCTOR="$2" MMRANK_ARTIFACT="$ART"
}
k_refused py-safety-env-k-underscore 1_0
k_refused py-safety-env-k-plus +5
k_refused py-safety-env-k-arabic-indic "$(printf '\331\243')"
k_refused py-safety-env-k-huge 100000000000000000000
k_refused py-safety-env-k-over 1001
k_refused py-safety-env-k-upper AUTO
k_refused py-safety-env-k-7x 7x
k_refused py-safety-env-k-space " 3"
k_refused py-safety-env-k-leading-zero 03
bad=
for v in "" 0 off no false; do
	imp MMRANK_INDUCTOR="$v" MMRANK_ARTIFACT="$ART"
	if ! grep -qx 'import installed=False' "$TMP/imp.out" || [ -s "$TMP/imp.err" ]; then
		bad="'$v': $(cat "$TMP/imp.out" "$TMP/imp.err" | head -c 200)"; break; fi
done
[ -z "$bad" ] && ok py-safety-env-k-off || fail py-safety-env-k-off "$bad"
imp MMRANK_INDUCTOR=1000 MMRANK_ARTIFACT="$ART"
grep -qx 'import installed=True k=1000 aten=auto' "$TMP/imp.out" && ok py-safety-env-k-max || fail py-safety-env-k-max "$(cat "$TMP/imp.out" "$TMP/imp.err" | head -c 200)"
# the flags: words on and off; anything else refused, naming the variable
flags() {   # ENV...: prints "extra strict unranked aten" of the installed handler
	env MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$ART" MMRANK_STUB_GPU="NVIDIA H200" "$@" \
		bash -c 'PYTHONPATH="$0:$PYTHONPATH" python3 -c "from mmrank import inductor as mi
h = mi.installed()
print(h.extra, h.strict, h.unranked, h.aten) if h else print(None)"' "$STUB" 2>"$TMP/fl.err"
}
got="$(flags MMRANK_INDUCTOR_EXTRA=true MMRANK_INDUCTOR_STRICT=yes)|$(flags MMRANK_INDUCTOR_EXTRA=1 MMRANK_INDUCTOR_STRICT=on MMRANK_INDUCTOR_UNRANKED=drop MMRANK_INDUCTOR_ATEN=listed)|$(flags MMRANK_INDUCTOR_EXTRA=off MMRANK_INDUCTOR_STRICT=0 MMRANK_INDUCTOR_ATEN=)"
[ "$got" = "True True auto auto|True True drop listed|False False auto auto" ] && ok py-safety-env-flag-words || fail py-safety-env-flag-words "$got"
refused_at_import py-safety-env-extra-refused "^mmrank\.inductor: not installed: MMRANK_INDUCTOR_EXTRA='maybe': expected 1, on, yes or true" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$ART" MMRANK_INDUCTOR_EXTRA=maybe
refused_at_import py-safety-env-strict-refused "^mmrank\.inductor: not installed: MMRANK_INDUCTOR_STRICT='2': expected 1, on, yes or true" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$ART" MMRANK_INDUCTOR_STRICT=2
refused_at_import py-safety-env-unranked-refused "^mmrank\.inductor: not installed: MMRANK_INDUCTOR_UNRANKED='Drop': expected auto or keep or drop" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$ART" MMRANK_INDUCTOR_UNRANKED=Drop
refused_at_import py-safety-env-aten-refused "^mmrank\.inductor: not installed: MMRANK_INDUCTOR_ATEN=' listed': expected auto or always or listed" \
	MMRANK_INDUCTOR=auto MMRANK_ARTIFACT="$ART" "MMRANK_INDUCTOR_ATEN= listed"
# the handler's variables checked without torch (perf/models/run.sh's check before a sweep)
if PYTHONPATH="$ROOT/python" MMRANK_INDUCTOR_ATEN=Always MMRANK_INDUCTOR=3 python3 -m mmrank.settings 2>"$TMP/set.err"; then
	fail py-safety-settings-module "exit 0"
elif [ "$(cat "$TMP/set.err")" = "mmrank.settings: MMRANK_INDUCTOR_ATEN='Always': expected auto or always or listed" ] &&
	PYTHONPATH="$ROOT/python" MMRANK_INDUCTOR=auto MMRANK_INDUCTOR_ATEN=listed python3 -m mmrank.settings; then
	ok py-safety-settings-module
else fail py-safety-settings-module "$(cat "$TMP/set.err")"; fi

# ---- 3. perf/models ----------------------------------------------------------
M=perf/models
FAKE=$ROOT/check/models/fake_python.sh
# drive NAME MODELS [ENV...]: run.sh with the stand-in, its output in $TMP/drive.out
drive() {
	local models=$1; shift
	env PYTHON="$FAKE" CACHE_ROOT="$TMP/c/root" MODELS="$models" PHASES=prefill MODES_FIRST=b MODES_LATER= \
		REPS=1 "$@" bash "$M/run.sh" "$TMP/o" >"$TMP/drive.out" 2>&1
}
mkdir -p "$TMP/c/root" "$TMP/c/x_prefill_b_full" "$TMP/c/root/keep"
: >"$TMP/c/x_prefill_b_full/victim"
drive "../x"; rc=$?
if [ $rc -ne 0 ] && grep -q "MODELS: '\.\./x' is not a model name" "$TMP/drive.out" &&
	[ -e "$TMP/c/x_prefill_b_full/victim" ] && [ ! -e "$TMP/o" ]; then ok models-name-dotdot
else fail models-name-dotdot "rc=$rc victim $(ls "$TMP/c/x_prefill_b_full" | tr '\n' ' ') out $(ls -d "$TMP/o" 2>&1): $(head -c 200 "$TMP/drive.out")"; fi
drive '*'; rc=$?
[ $rc -ne 0 ] && grep -q "MODELS: '\*' is not a model name" "$TMP/drive.out" && [ ! -e "$TMP/o" ] &&
	ok models-name-glob || fail models-name-glob "rc=$rc $(head -c 200 "$TMP/drive.out")"
# a list whose names hold a space or a quote: refused by file:line:name
printf 'gp"t2\tgpt2\t1\t768\t12\t-\t3072\t50257\t1024\t1\t64\t1\t1\t64\taddmm\n' >"$TMP/q.row"
{ grep -v '^gpt2	' "$M/models.tsv"; cat "$TMP/q.row"; } >"$TMP/quote.tsv"
ln=$(wc -l <"$TMP/quote.tsv")
drive 'gp"t2' MODELS_FILE="$TMP/quote.tsv"; rc=$?
[ $rc -ne 0 ] && grep -q "quote.tsv:$ln:name: 'gp\"t2' is not a model name" "$TMP/drive.out" && [ ! -e "$TMP/o" ] &&
	ok models-name-quote || fail models-name-quote "rc=$rc $(head -c 300 "$TMP/drive.out")"
sed 's/^gp"t2/gp t2/' "$TMP/quote.tsv" >"$TMP/space.tsv"
drive "" MODELS_FILE="$TMP/space.tsv"; rc=$?
[ $rc -ne 0 ] && grep -q "space.tsv:$ln:name: 'gp t2' is not a model name" "$TMP/drive.out" &&
	ok models-name-space || fail models-name-space "rc=$rc $(head -c 300 "$TMP/drive.out")"
expect_error models-run-py-bad-model "--model: '\.\./x' is not a model name" "$TMP/none.jsonl" \
	python3 "$M/run.py" --model ../x --phase prefill --mode a "$TMP/none.jsonl"
# the handler's variables are checked before the sweep: nothing runs, no OUTDIR
drive gpt2 MODES_FIRST=f MMRANK_INDUCTOR_ATEN=yes; rc=$?
[ $rc -ne 0 ] && grep -q "mmrank.settings: MMRANK_INDUCTOR_ATEN='yes': expected auto or always or listed" "$TMP/drive.out" &&
	[ ! -e "$TMP/o" ] && ok models-run-handler-env-checked || fail models-run-handler-env-checked "rc=$rc $(head -c 300 "$TMP/drive.out")"
# ... but not MMRANK_INDUCTOR itself, which run.sh unsets for every run
drive gpt2 MODES_FIRST=f MMRANK_INDUCTOR=AUTO; rc=$?
! grep -q "mmrank.settings:" "$TMP/drive.out" && grep -q "gpt2 prefill f rep 1" "$TMP/drive.out" && ok models-run-ignores-leftover-k ||
	fail models-run-ignores-leftover-k "rc=$rc $(head -c 300 "$TMP/drive.out")"
rm -rf "$TMP/o"
# the numbers of run.sh are digits before any arithmetic sees them
bad=
for v in 'TIME_LIMIT=a[$(touch '"$TMP"'/pwned)]' 'PER_RUN_S=1+1' 'REPS=x' 'MIN_START=-1'; do
	drive gpt2 "$v"; rc=$?
	if [ $rc -eq 0 ] || [ -e "$TMP/pwned" ] || ! grep -q "run.sh: ${v%%=*}=.*expected a number" "$TMP/drive.out"; then
		bad="$v: rc=$rc $(head -c 200 "$TMP/drive.out")"; break; fi
done
[ -z "$bad" ] && ok models-run-numbers-checked || fail models-run-numbers-checked "$bad"
# layers=² and a 5000-digit value: file:line:field, no traceback
row=$(grep -n '^gpt2	' "$M/models.tsv" | cut -d: -f1)
sed 's/^gpt2\tgpt2\t2\t/gpt2\tgpt2\t²\t/' "$M/models.tsv" >"$TMP/sup.tsv"
expect_error models-layers-superscript "sup.tsv:$row:layers: '²' is not a positive integer" "$TMP/none.jsonl" \
	python3 "$M/run.py" --models "$TMP/sup.tsv" --model gpt2 --phase prefill --mode a "$TMP/none.jsonl"
grep -q Traceback "$TMP/stderr" && fail models-layers-superscript-no-traceback "traceback" || ok models-layers-superscript-no-traceback
big=$(printf '%05000d' 7)
sed "s/^gpt2\tgpt2\t2\t/gpt2\tgpt2\t$big\t/" "$M/models.tsv" >"$TMP/big.tsv"
expect_error models-layers-5000-digits "big.tsv:$row:layers: '0+'\.\.\. \(5000 characters\) is not a positive integer" "$TMP/none.jsonl" \
	python3 "$M/run.py" --models "$TMP/big.tsv" --model gpt2 --phase prefill --mode a "$TMP/none.jsonl"
grep -q Traceback "$TMP/stderr" && fail models-layers-5000-no-traceback "traceback" || ok models-layers-5000-no-traceback
expect_error models-replay-k-superscript "--k auto,²: 'auto' or integers >= 1" "$TMP/none.md" \
	python3 "$M/replay.py" check/models/replay.jsonl --k 'auto,²'
# resume: a bad line is named by file:line and skipped; nothing runs twice
drive "gpt2 bert-base" >/dev/null; rc=$?
n0=$(wc -l <"$TMP/o/records.jsonl")
{ head -1 "$TMP/o/records.jsonl"; echo '{"model": "gp"t2", "phase": "prefill"}'; tail -n +2 "$TMP/o/records.jsonl"; } >"$TMP/r.jsonl"
mv "$TMP/r.jsonl" "$TMP/o/records.jsonl"
drive "gpt2 bert-base"; rc2=$?
n1=$(wc -l <"$TMP/o/records.jsonl")
if [ $rc -eq 0 ] && [ $rc2 -eq 0 ] && [ "$n0" -eq 2 ] && [ "$n1" -eq 3 ] && ! grep -q '^== ' "$TMP/drive.out" &&
	grep -q "records.jsonl:2: not JSON .*ignored" "$TMP/drive.out"; then ok models-resume-bad-line
else fail models-resume-bad-line "rc=$rc/$rc2 records $n0 -> $n1: $(grep -v '^|' "$TMP/drive.out" | head -c 300)"; fi
# report.py: a record whose model is not a name stops at its file:line
printf '%s\n' '{"model": "gpt2", "phase": "prefill", "mode": "b", "rep": 1, "status": "ok", "compile_s": 1.0, "step_ms": 2.0}' \
	'{"model": "a|b", "phase": "prefill", "mode": "b", "rep": 1, "status": "ok"}' >"$TMP/badname.jsonl"
expect_error models-report-bad-name "badname.jsonl:2: field 'model': 'a\|b' is not a model name" "$TMP/none.md" \
	python3 "$M/report.py" "$TMP/badname.jsonl"
# a record appended after a torn last line (a killed writer) starts its own
# line (run.py writes one without torch: a phase the model lacks)
printf '{"model": "gpt2", "pha' >"$TMP/torn.jsonl"
python3 "$M/run.py" --model bert-base --phase decode --mode e "$TMP/torn.jsonl" 2>/dev/null
[ "$(python3 "$M/records.py" done "$TMP/torn.jsonl" 2>"$TMP/torn.err")" = "bert-base decode e 1" ] &&
	grep -q 'torn.jsonl:1: not JSON' "$TMP/torn.err" && ok models-append-after-torn-line ||
	fail models-append-after-torn-line "$(cat "$TMP/torn.jsonl")"
finish
