#!/usr/bin/env bash
# Make variables are checked before any stage runs (stages/sh/vars.sh): after a
# good `make heuristic GPU=h200` (the committed collection, no network), a
# run with each bad value fails naming the variable and its allowed values,
# and leaves out/ byte for byte (and mtime for mtime) as it was.  GPU names
# list every known GPU and hint at case.  vars.sh's ranges and word lists
# agree with the stages' own option tables.  `make help` lists every variable
# the README names and ends quietly under `| head`; an up-to-date target says
# so, the same way for every target.
. check/lib.sh
BUILD=${BIN%/bin}
MK=(env -u MAKEFLAGS -u MAKELEVEL make --no-print-directory -C "$ROOT" BUILD="$BUILD" OUT="$TMP/out")
O=$TMP/out/h200
if ! "${MK[@]}" heuristic GPU=h200 >"$TMP/good.log" 2>&1; then
	fail vars-good-build "$(tail -3 "$TMP/good.log" | tr '\n' '|')"; finish
fi
snapshot() { (cd "$TMP/out" && find . -type f -printf '%p %s %T@\n' | sort && find . -type f -exec sha256sum {} + | sort); }
snapshot >"$TMP/before"

# bad_value NAME PATTERN TARGET VAR=VALUE...: make must fail with PATTERN on
# stderr and change nothing in out/
bad_value() {
	local name=$1 pat=$2 target=$3; shift 3
	"${MK[@]}" "$target" GPU=h200 "$@" >"$TMP/m.out" 2>"$TMP/m.err"
	local rc=$?
	snapshot >"$TMP/after"
	if [ $rc -eq 0 ]; then fail "$name" "exit status 0"
	elif ! grep -Eq -- "$pat" "$TMP/m.err"; then fail "$name" "stderr: $(head -c 300 "$TMP/m.err")"
	elif grep -q '^  [A-Z]' "$TMP/m.out"; then fail "$name" "a stage ran: $(grep '^  [A-Z]' "$TMP/m.out" | head -2 | tr '\n' '|')"
	elif ! cmp -s "$TMP/before" "$TMP/after"; then fail "$name" "out/ changed: $(diff "$TMP/before" "$TMP/after" | head -4 | tr '\n' '|')"
	else ok "$name"; fi
}
bad_value vars-select   "SELECT='foo': expected top1, regret, hit or curve \(fit --select\)" fit SELECT=foo
bad_value vars-split    "SPLIT='grup': expected rows, group or none \(fit --split\)" heuristic SPLIT=grup
bad_value vars-ranking  "RANKING='abc': expected an integer in \[1, 100000\]" heuristic RANKING=abc
bad_value vars-ranking0 "RANKING='0': expected an integer in \[1, 100000\]" prune RANKING=0
bad_value vars-leaf-rank "LEAF_RANK='x': expected freq, greedy, prefix, .* or head-x \(fit --leaf-rank\)" fit LEAF_RANK=x
bad_value vars-select-rank "SELECT_RANK='x': expected freq, greedy, prefix, .* or head-x \(fit --select-rank\)" fit SELECT_RANK=x
bad_value vars-select-rank-freq "SELECT_RANK=freq with LEAF_RANK=joint: freq goes only with freq" fit LEAF_RANK=joint SELECT_RANK=freq
# the leaf order's default follows the data, datasets/PROFILES.tsv:
# head-x (trained for k = 1 + extern_mm) for the A100 and H100 data, head-q0
# (models selected by the whole curve) for GPU=h200, joint for any other GPU (the '*' row: GPU=h200nvrtc);
# PROFILE=reference's on every GPU
if "${MK[@]}" -s fit-args GPU=h200 | grep -q -- '--select curve --leaf-rank head-q0 --select-rank greedy ' \
	&& "${MK[@]}" -s fit-args GPU=a100 | grep -q -- '--select hit --leaf-rank head-x --select-rank greedy ' \
	&& "${MK[@]}" -s fit-args GPU=h100 | grep -q -- '--select hit --leaf-rank head-x --select-rank greedy ' \
	&& "${MK[@]}" -s fit-args GPU=h200nvrtc | grep -q -- '--select hit --leaf-rank joint --select-rank greedy ' \
	&& "${MK[@]}" -s fit-args GPU=h200 PROFILE=reference | grep -q -- '--select top1 --leaf-rank freq --select-rank freq '; then
	ok vars-leaf-rank-default-per-gpu
else fail vars-leaf-rank-default-per-gpu "h200: $("${MK[@]}" -s fit-args GPU=h200) a100: $("${MK[@]}" -s fit-args GPU=a100)"; fi
# a row read from the file: another file's row changes the default
sed 's/^h100\thit\thead-x/h100\tregret\tgreedy/' "$ROOT/datasets/PROFILES.tsv" >"$TMP/profiles.tsv"
"${MK[@]}" -s fit-args GPU=h100 PROFILES="$TMP/profiles.tsv" | grep -q -- '--select regret --leaf-rank greedy --select-rank greedy ' &&
	ok vars-profiles-file || fail vars-profiles-file "$("${MK[@]}" -s fit-args GPU=h100 PROFILES="$TMP/profiles.tsv")"
# (GPU=h200's default LEAF_RANK is head-q0)
bad_value vars-select-rank-freq-h200 "SELECT_RANK=freq with LEAF_RANK=head-q0: freq goes only with freq" fit SELECT_RANK=freq
# a bad LEAF_RANK is named once, not again as the SELECT_RANK it defaults
bad_value vars-leaf-rank-once "LEAF_RANK='x'" fit LEAF_RANK=x
grep -q SELECT_RANK "$TMP/m.err" && fail vars-leaf-rank-once-select "$(head -c 300 "$TMP/m.err")" || ok vars-leaf-rank-once-select
# likewise a bad RANKING is not said again as the LEAF_PAD it defaults, nor
# SHARDS as SLURM_JOBS; a LEAF_PAD the user sets is still checked
bad_value vars-ranking-once "RANKING='abc'" fit RANKING=abc
grep -q LEAF_PAD "$TMP/m.err" && fail vars-ranking-once-leaf-pad "$(head -c 300 "$TMP/m.err")" || ok vars-ranking-once-leaf-pad
bad_value vars-shards-once "SHARDS='abc'" collect SHARDS=abc
grep -q SLURM_JOBS "$TMP/m.err" && fail vars-shards-once-slurm-jobs "$(head -c 300 "$TMP/m.err")" || ok vars-shards-once-slurm-jobs
bad_value vars-ranking-leaf-pad-given "LEAF_PAD='abc'" fit RANKING=abc LEAF_PAD=abc
bad_value vars-leaf-pad "LEAF_PAD='-1': expected an integer in \[0, 100000\]" fit LEAF_PAD=-1
bad_value vars-leaf-pad-freq "LEAF_PAD=10 needs a LEAF_RANK other than freq" fit LEAF_RANK=freq LEAF_PAD=10
bad_value vars-leaf-fill "LEAF_FILL='some': expected none or all \(fit --leaf-fill\)" fit LEAF_FILL=some
bad_value vars-leaf-fill-freq "LEAF_FILL=all needs a LEAF_RANK other than freq" fit LEAF_RANK=freq LEAF_PAD=0 LEAF_FILL=all
# the message says when the profile, not the user, set LEAF_RANK=freq
bad_value vars-leaf-fill-profile "not LEAF_RANK=freq \(PROFILE=reference sets it\)" fit PROFILE=reference LEAF_FILL=all
bad_value vars-leaf-pad-profile "not LEAF_RANK=freq \(PROFILE=reference sets it\)" fit PROFILE=reference LEAF_PAD=2
"${MK[@]}" -n fit LEAF_RANK=freq LEAF_PAD=0 LEAF_FILL=all 2>&1 | grep -q 'sets it' &&
	fail vars-leaf-fill-user "blames the profile for the user's LEAF_RANK" || ok vars-leaf-fill-user
# LEAF_FILL's default: all with PROFILE=ours on every GPU (docs/RESULTS.md
# section 4.3), none with PROFILE=reference or LEAF_RANK=freq; fit gets
# --leaf-fill only when it is on (the other settings' commands stay)
fill_of() { "${MK[@]}" -s fit-args "$@" | grep -o -- '--leaf-pad [0-9]* --leaf-fill all --folds' >/dev/null && echo all || echo none; }
got="$(fill_of GPU=h200) $(fill_of GPU=a100) $(fill_of GPU=h100) $(fill_of GPU=h200 PROFILE=reference) $(fill_of GPU=a100 PROFILE=reference) $(fill_of GPU=h200 LEAF_RANK=freq) $(fill_of GPU=h200 LEAF_FILL=none)"
want="all all all none none none none"
if [ "$got" = "$want" ] && ! "${MK[@]}" -s fit-args GPU=a100 PROFILE=reference | grep -q leaf-fill &&
	"${MK[@]}" -s help-all GPU=h200 | grep -q 'LEAF_FILL=all (none|all'; then ok vars-leaf-fill-default
else fail vars-leaf-fill-default "h200 a100 h100 h200-ref a100-ref h200-freq h200-none: '$got', expected '$want'"; fi
# per-GPU defaults are data (datasets/PROFILES.tsv), not ifeq GPU; the command line wins
test_expect_success 'vars-gpu-profile-file' '
	"${MK[@]}" -s fit-args GPU=zz | grep -q -- "--select hit --leaf-rank joint " &&
	"${MK[@]}" -s fit-args GPU=h200 SELECT=hit | grep -q -- "--select hit " &&
	! grep -n "filter h200" "$ROOT/Makefile"'
# changing it re-runs fit (the stamp holds fit's options), not changing it does not
"${MK[@]}" -n fit GPU=h200 LEAF_FILL=none 2>&1 | grep -q 'bin/fit .*--leaf-pad 10 --folds' &&
	! "${MK[@]}" -n fit GPU=h200 2>&1 | grep -q 'bin/fit ' && ok vars-leaf-fill-refits ||
	fail vars-leaf-fill-refits "$("${MK[@]}" -n fit GPU=h200 LEAF_FILL=none 2>&1 | head -3 | tr '\n' '|')"
bad_value vars-folds    "FOLDS='1': expected 0 \(off\) or an integer in \[2, 100\]" fit FOLDS=1
bad_value vars-folds-rows "FOLDS=5 needs SPLIT=group" fit SPLIT=rows FOLDS=5
bad_value vars-topk-eps "TOPK_EPS='0.7': expected 0 \(off\) or a number in \(0, 0.5\]" fit TOPK_EPS=0.7
bad_value vars-topk-eps-word "TOPK_EPS='abc': expected 0 \(off\)" fit TOPK_EPS=abc
# TOPK_EPS reaches fit with the profile's folds, and not without folds
"${MK[@]}" -s fit-args GPU=a100 | grep -q -- '--folds 5 --topk-eps 0.005$' &&
	"${MK[@]}" -s fit-args GPU=a100 TOPK_EPS=0.01 | grep -q -- '--topk-eps 0.01$' &&
	! "${MK[@]}" -s fit-args GPU=a100 TOPK_EPS=0 | grep -q -- '--topk-eps' &&
	! "${MK[@]}" -s fit-args GPU=a100 PROFILE=reference | grep -q -- '--topk-eps' && ok vars-topk-eps-fit-args ||
	fail vars-topk-eps-fit-args "$("${MK[@]}" -s fit-args GPU=a100 2>&1)"
bad_value vars-seed     "SEED='-3': expected an integer in \[0, 9223372036854775807\]" fit SEED=-3
bad_value vars-seed-big "SEED='9223372036854775808': expected an integer" fit SEED=9223372036854775808
bad_value vars-grid     "GRID='nope': expected mm, reference, search or an existing file" fit GRID=nope
bad_value vars-profile  "PROFILE='refrence': expected ours or reference" heuristic PROFILE=refrence
bad_value vars-name     "HEURISTIC_NAME='9x': expected an identifier" emit HEURISTIC_NAME=9x
bad_value vars-cross    "CROSS_DEVICE='yes': expected 0 or 1" eval CROSS_DEVICE=yes
bad_value vars-v        "V='2': expected 0 or 1" heuristic V=2
bad_value vars-log      "LOG='$TMP/none.txt': no such file" eval LOG="$TMP/none.txt"
bad_value vars-holdout  "HOLDOUT='0.7': expected a number in \(0, 0.5\]" compare HOLDOUT=0.7
bad_value vars-samples  "SAMPLES='0': expected an integer in \[1, " heuristic SAMPLES=0
bad_value vars-reps     "REPS='x': expected an integer in \[1, 1000\] \(bench --reps\)" heuristic REPS=x
bad_value vars-gpus     "GPUS='0,0': device 0 listed twice" heuristic GPUS=0,0
bad_value vars-gpus-syntax "GPUS='0 1': integers expected, comma-separated without spaces" heuristic 'GPUS=0 1'
bad_value vars-fast-reject "FAST_REJECT='x': expected 0 \(off\) or a factor >= 1/0.98 = 1.0204082" heuristic FAST_REJECT=x
bad_value vars-fast-reject-margin "FAST_REJECT='1.01': expected 0 \(off\) or a factor >= 1/0.98 = 1.0204082 .*\(bench --fast-reject\)" heuristic FAST_REJECT=1.01
bad_value vars-loser-ratio "LOSER_RATIO='1.0204': expected 0 \(off\) or a factor > 1/0.98 = 1.0204082 and <= 100 .*\(bench --loser-ratio\)" heuristic LOSER_RATIO=1.0204
bad_value vars-warm-from-verify "WARM_FROM_VERIFY='yes': expected 0 or 1 \(bench --warm-from-verify\)" heuristic WARM_FROM_VERIFY=yes
bad_value vars-screen   "SCREEN='0.5': expected 0 \(off\) or a number >= 1 \(bench --screen\)" heuristic SCREEN=0.5
bad_value vars-screen-ms "SCREEN_MS='0': expected a number > 0 \(bench --screen-ms\)" heuristic SCREEN_MS=0
bad_value vars-time-limit "COLLECT_TIME_LIMIT='0': expected a number > 0 \(bench --time-limit\)" heuristic COLLECT_TIME_LIMIT=0
bad_value vars-cc       "CC='no-such-cc': no such command" heuristic CC=no-such-cc
"${MK[@]}" fetch GPU=h100 DATASET_MIRROR="$TMP/nowhere" >/dev/null 2>"$TMP/m.err" && fail vars-mirror "exit 0" ||
	{ grep -q "DATASET_MIRROR='$TMP/nowhere': no such folder" "$TMP/m.err" && [ ! -e "$TMP/out/h100" ] &&
		ok vars-mirror || fail vars-mirror "$(head -c 300 "$TMP/m.err")"; }
# every bad setting is reported at once, then nothing runs
bad_value vars-all-at-once "SELECT='foo'.*" fit SELECT=foo SPLIT=grup
grep -q "SPLIT='grup'" "$TMP/m.err" && grep -q "SELECT='foo'" "$TMP/m.err" && grep -q "nothing was run" "$TMP/m.err" &&
	ok vars-all-reported || fail vars-all-reported "$(head -c 300 "$TMP/m.err")"

# GPU: every known GPU is listed (official, committed, collected here), a
# case slip is named; collecting under a new name is no error
mkdir -p "$TMP/out/mine" && head -2 "$ROOT/check/corpus/base.log" >"$TMP/out/mine/merged.txt"
snapshot >"$TMP/before"
bad_value vars-gpu-case "no data for GPU 'H200' \(did you mean h200\? GPU names are lower case\): known GPUs: a100 h100 h100own h200 h200nvrtc mine" heuristic GPU=H200
# (and the advice is that GPU, not a collection under the name given)
grep -q "; give GPU=h200 instead$" "$TMP/m.err" && ! grep -q "make collect GPU=H200" "$TMP/m.err" &&
	ok vars-gpu-case-one-advice || fail vars-gpu-case-one-advice "$(head -c 400 "$TMP/m.err")"
bad_value vars-gpu-unknown "no data for GPU 'nosuch': known GPUs: a100 h100 h100own h200 h200nvrtc mine .*make collect GPU=nosuch" fit GPU=nosuch
"${MK[@]}" -n collect GPU=newgpu SAMPLES=2 >/dev/null 2>"$TMP/m.err" && ok vars-gpu-new-collection ||
	fail vars-gpu-new-collection "$(head -c 300 "$TMP/m.err")"

# vars.sh's ranges and word lists are the stages' (their option tables)
opt_range() { # STAGE OPTION: the [lo, hi] or word list the stage's parser states
	"$BIN/$1" "$2" x 2>&1 | sed -n "s/.*$2: expected \(an integer in \[[0-9, ]*\]\|[a-z0-9 ,-]*\), got 'x'.*/\1/p"
}
var_range() { # NAME VALUE: what vars.sh states for NAME
	"$ROOT/stages/sh/vars.sh" "$1=$2" 2>&1 >/dev/null | sed -n "s/^make: $1='$2': expected \(an integer in \[[0-9, ]*\]\|[a-z0-9 ,-]*\) (.*/\1/p"
}
agree() { # NAME STAGE OPTION [WANT]: the stage's statement, or WANT when vars.sh is tighter on purpose
	local got want=${4:-$(opt_range "$2" "$3")}
	got=$(var_range "$1" x)
	[ -n "$got" ] && [ "$got" = "$want" ] && ok "vars-agree-$1-$2" ||
		fail "vars-agree-$1-$2" "vars.sh says '$got', $2 $3 '$want'"
}
agree SPLIT fit --split
agree SELECT fit --select
agree LEAF_RANK fit --leaf-rank
agree SELECT_RANK fit --select-rank
agree LEAF_PAD fit --leaf-pad
agree LEAF_FILL fit --leaf-fill
agree RANKING eval --ranking
agree REPS bench-fake --reps
# fit and prune take a larger --ranking than eval: RANKING feeds all three
for s in fit prune; do
	r=$(opt_range "$s" --ranking)
	[ "$r" = "an integer in [1, 1000000]" ] && ok "vars-ranking-within-$s" || fail "vars-ranking-within-$s" "$s --ranking: $r"
done
[ "$(opt_range fit --folds)" = "an integer in [0, 100]" ] && ok vars-agree-FOLDS-fit || fail vars-agree-FOLDS-fit "$(opt_range fit --folds)"
# every row of the registry (mk/variables.tsv) with a stage option and an
# integer range or a word list: its range lies within what each of its stages'
# option tables states (a word list: the same list) (bench's statements are
# bench-fake's; a flag states no range: then the option must be in one
# stage's --help)
statement() { # STAGE OPTION: the stage's "expected ..." for a bad value (">= LO": "in [LO, 2^63-1]")
	"$BIN/$1" "$2" x 2>&1 | sed -n "s/.*$2: expected \(.*\), got 'x'.*/\1/p" |
		sed 's/^an integer >= \(-\{0,1\}[0-9]*\)$/an integer in [\1, 9223372036854775807]/'
}
bounds() { # STATEMENT: "LO HI" of its integer interval
	sed -n 's/.*an integer in \[\(-\{0,1\}[0-9]*\), \([0-9]*\)\]$/\1 \2/p' <<<"$1"
}
disagree= rows=0
while IFS=$'\037' read -r name kind range _ flag _; do
	case $name$kind in \#* | name*) continue ;; esac
	[[ $kind == @(int|enum) ]] && [ -n "$flag" ] && [ "$range" != rule ] || continue
	rows=$((rows + 1))
	mine=$("$ROOT/stages/sh/vars.sh" "$name=x" 2>&1 | sed -n "s/^make: $name='x': expected \(.*\) ([^(]*$/\1/p")
	opt=${flag#* }; opt=${opt%% *} within=1 said=
	for st in $(tr , ' ' <<<"${flag%% *}"); do
		[ "$st" = bench ] && st=bench-fake
		[ -x "$BIN/$st" ] || { within=; continue; }
		theirs=$(statement "$st" "$opt")
		[ -n "$theirs" ] || continue
		said=1
		if [ "$kind" = int ]; then
			read -r mlo mhi <<<"$(bounds "$mine")"; read -r tlo thi <<<"$(bounds "$theirs")"
			[ -n "$mlo" ] && [ -n "$tlo" ] && [ "$mlo" -ge "$tlo" ] && [ "$mhi" -le "$thi" ] || within=
		elif [ "$theirs" != "$mine" ]; then within=; fi
	done
	if [ -z "$said" ]; then
		for st in $(tr , ' ' <<<"${flag%% *}"); do
			[ "$st" = bench ] && st=bench-fake
			"$BIN/$st" --help 2>/dev/null | grep -q -- "$opt" && said=1
		done
		[ -n "$said" ] || disagree+=" $name(no $opt in ${flag%% *})"
	elif [ -z "$within" ]; then
		disagree+=" $name('$mine' vs ${flag%% *} $opt)"
	fi
done < <(tr '\t' '\037' <"$ROOT/mk/variables.tsv")
[ "$rows" -gt 15 ] && [ -z "$disagree" ] && ok vars-agree-registry || fail vars-agree-registry "$rows rows;$disagree"
# docs/VARIABLES.md's table is the registry's (make variables-doc)
awk -v mode=doc -f "$ROOT/mk/variables.awk" "$ROOT/mk/variables.tsv" >"$TMP/vtable"
sed -n '/^<!-- BEGIN variables/,/^<!-- END variables/p' "$ROOT/docs/VARIABLES.md" | sed '1d;$d' >"$TMP/vdoc"
test_cmp docs-variables-current "$TMP/vtable" "$TMP/vdoc"
"$BIN/fit" --topk-eps x 2>&1 | grep -q "expected a number in \[0, 0.5\]" && ok vars-agree-TOPK_EPS-fit || fail vars-agree-TOPK_EPS-fit "$("$BIN/fit" --topk-eps x 2>&1 | head -1)"

# make help: every make variable the README names (not the environment of
# python and torch), and quiet under | head
"${MK[@]}" help >"$TMP/help" 2>&1
"${MK[@]}" help-all >"$TMP/help-all" 2>&1
for v in $(grep -oE '\b[A-Z][A-Z0-9_]{1,}=|`[A-Z][A-Z0-9_]{2,}`' "$ROOT/README.md" | tr -d '`=' | sort -u |
	grep -vx 'ART\|PYTHONPATH\|TORCHINDUCTOR_AUTOHEURISTIC_USE\|MMRANK_INDUCTOR') CC CUDA BUILD CUBLASLT V OUT CROSS_DEVICE; do
	grep -q "\b$v\b" "$TMP/help" || fail "make-help-lists-$v" "'$v' is not in make help"
done
ok make-help-lists-readme-variables
# the variables beyond the README's: in make help-all and in docs/VARIABLES.md;
# the dependency line names every library the build links
for v in NVMMH_DIR TORCH_ARTIFACTS INSTALL_ARTIFACT CFLAGS CUBIN_CACHE CUBIN_ARCH TRITON_ARCH TRITON_JOBS GPU_MEM_BYTES \
	LONG_MS LONG_LAUNCHES LOSER_RATIO WARM_FROM_VERIFY VERIFY_CUT VERIFY_CUT_AUDIT; do
	grep -q "\b$v=" "$TMP/help-all" || fail "make-help-lists-$v" "'$v=' is not in make help-all"
	grep -q "^| \`$v\` |" "$ROOT/docs/VARIABLES.md" || fail "docs-variables-$v" "'$v' has no row in docs/VARIABLES.md"
done
ok make-help-and-docs-list-more-variables
grep -q '^  make nvmmh ' "$TMP/help" && grep -q '`make nvmmh`' "$ROOT/docs/VARIABLES.md" && ok make-help-nvmmh ||
	fail make-help-nvmmh "make nvmmh is not in make help or docs/VARIABLES.md"
grep -q '^  make deps .*jansson, libzip, ISA-L' "$TMP/help" && ok make-help-deps-line || fail make-help-deps-line "$(grep 'make deps' "$TMP/help")"
"${MK[@]}" help 2>"$TMP/pipe.err" | head -1 >/dev/null
rc=${PIPESTATUS[0]}
[ "$rc" = 0 ] && [ ! -s "$TMP/pipe.err" ] && ok make-help-head || fail make-help-head "rc $rc: $(head -c 200 "$TMP/pipe.err")"

# up-to-date targets all say so the same way, and nothing more
for t in fetch featurize fit prune emit heuristic; do
	"${MK[@]}" "$t" GPU=h200 >"$TMP/u.out" 2>&1
	if [ "$(wc -l <"$TMP/u.out")" = 1 ] && grep -q "^$t GPU=h200: up to date: $TMP/out/h200/\|^$t GPU=h200: up to date: datasets/" "$TMP/u.out"; then
		ok "make-up-to-date-$t"
	else fail "make-up-to-date-$t" "$(head -c 300 "$TMP/u.out")"; fi
done
# nothing stale: make -n lists no stage, nor the shell test of the last line
# (at most make's "Nothing to be done"); a target that rebuilt says "made"
test_expect_success 'make-n-heuristic-lists-nothing-when-up-to-date' '
	"${MK[@]}" -n heuristic GPU=h200 >"$TMP/n.out" 2>&1 &&
	! grep -E "bin/(prune|emit|fit|featurize) " "$TMP/n.out" &&
	! grep -v "^make: Nothing to be done for .heuristic.\.$" "$TMP/n.out"'
test_expect_success 'make-heuristic-says-made-after-a-rebuild' '
	touch "$TMP/out/h200/tree.tsv" && "${MK[@]}" heuristic GPU=h200 >"$TMP/m.out" 2>&1 &&
	tail -1 "$TMP/m.out" | grep "^heuristic GPU=h200: made: $TMP/out/h200/" &&
	"${MK[@]}" heuristic GPU=h200 2>&1 | tail -1 | grep "^heuristic GPU=h200: up to date: "'
finish
