# check/lib.sh — sourced by every check/t[0-9]*.sh (git-style test helpers).
#   BIN      stage binaries (default build/bin)
#   TMP      a fresh scratch folder, removed on exit
# Each check prints one line: "ok NAME", "FAIL NAME: why", "skip NAME: why"
# or "todo NAME: why" (a known breakage, test_expect_failure);
# a check skipped for a missing prerequisite says "skip NAME: [PREREQ] why".
# run.sh counts them, refuses a name printed twice and sums the skips per
# prerequisite.  A test script exits non-zero if any check failed.
#
#   test_expect_success [PREREQ[,PREREQ]] 'NAME' 'BODY'
#                       BODY (shell text, eval'd here) must succeed: ok NAME,
#                       else FAIL NAME with BODY's last output lines
#   test_expect_failure [PREREQ] 'NAME' 'BODY'   git's meaning: a known
#                       breakage, BODY states what should hold but does not
#                       yet.  BODY failing prints "todo NAME: known breakage"
#                       (run.sh counts it, the run still passes); BODY
#                       succeeding prints "ok NAME: known breakage vanished"
#                       (turn it into test_expect_success).  A BODY killed
#                       by a signal is a FAIL either way.
#   test_must_fail CMD [ARG...]   inside a BODY: CMD must exit 1..125 (a
#                       refusal), not 0, not 126/127 (cannot run), not a
#                       signal; git's helper
#   test_have_prereq P[,P]   0 if every prerequisite holds (!P: P must not)
#   test_skip_unless P[,P] NAME   test_have_prereq, or "skip NAME: [P] why"
#                       (a FAIL when CHECK_REQUIRE lists P)
#   test_require P[,P] NAME       the same, and the whole script stops there
#   test_have_bins NAME PROG...   $BIN/PROG built, or "skip NAME: [BUILT] ..."
#   stub_python ARGS...  python3 with the tests' torch stand-in (check/stub)
# PYTHONPATH starts with the checkout's python/ (the mmrank package), so every
# python3 a test runs imports this tree's mmrank.
# The prerequisites are probed lazily, once per script (_prereq_probe below).
set -u
BIN=${BIN:-build/bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
ROOT=$PWD
FIX=$ROOT/check/fixtures
export PYTHONPATH="$ROOT/python${PYTHONPATH:+:$PYTHONPATH}"
STUB=$ROOT/check/stub
stub_python() { PYTHONPATH="$STUB:$PYTHONPATH" python3 "$@"; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/mmrank-check.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
_failed=0
ok()   { echo "ok $1${2:+: $2}"; }
fail() { echo "FAIL $1: $2"; _failed=1; }
skip() { echo "skip $1: $2"; }
todo() { echo "todo $1: $2"; }
finish() { exit $_failed; }

# ---- prerequisites: one probe each, here only --------------------------------
# DATASET_DIR: the folder holding the official dataset zips (DATASET_MIRROR,
# else ../shared/datasets next to the checkout).  A zip it lacks that make has
# already fetched into OUT/<gpu>/ (MMR_CHECK_OUT, which make check sets to its
# OUT; default out/) is taken from there when its sha256 is the manifest's:
# DATASET_DIR is then a folder of links to both under TMP, and DATASET_MIRROR
# names it for the makes the tests run.
DATASET_DIR=${DATASET_MIRROR:-$ROOT/../shared/datasets}
case $DATASET_DIR in /*) ;; *) DATASET_DIR=$ROOT/$DATASET_DIR ;; esac
_data_links() {
	local out=${MMR_CHECK_OUT:-$ROOT/out} f g sha z found=0
	case $out in /*) ;; *) out=$ROOT/$out ;; esac
	[ -r "$ROOT/datasets/MANIFEST.tsv" ] || return 0
	mkdir -p "$TMP/datasets" || return
	while IFS=$'\t' read -r f g sha _; do
		z=$DATASET_DIR/$f
		if [ ! -r "$z" ]; then
			z=$out/$g/$f
			[ -r "$z" ] && [ "$(sha256sum <"$z" | cut -d' ' -f1)" = "$sha" ] || continue
			found=1
		fi
		ln -s "$z" "$TMP/datasets/$f" || return
	done < <(tail -n +2 "$ROOT/datasets/MANIFEST.tsv")
	[ $found = 1 ] && DATASET_DIR=$TMP/datasets && export DATASET_MIRROR=$DATASET_DIR
}
_data_links
REFERENCE_DIR=${REFERENCE_DIR:-$ROOT/../shared/reference}
CUDA=${CUDA:-/usr/local/cuda}
TORCH_PYTHON=${TORCH_PYTHON:-python3}
# _prereq_probe P: 0 if P holds; else 1 with the reason (and its remedy) in
# _prereq_why.
_prereq_probe() {
	_prereq_why=
	case $1 in
	PYTHON3) command -v python3 >/dev/null || _prereq_why="no python3 (apt-get install python3)" ;;
	TRITON) python3 -c 'import triton, sys; sys.exit(triton.__version__ != "3.6.0")' 2>/dev/null ||
		_prereq_why="python3 cannot import triton 3.6.0 (python3 -m pip install triton==3.6.0)" ;;
	TORCH) "$TORCH_PYTHON" -c 'import torch._inductor' 2>/dev/null ||
		_prereq_why="torch Inductor not importable by $TORCH_PYTHON (pip install torch, or set TORCH_PYTHON)" ;;
	TORCH_SRC) [ -f "${TORCH_SRC:-/work/torch211}/torch/_inductor/template_heuristics/triton.py" ] ||
		_prereq_why="no torch 2.11 sources (set TORCH_SRC to an unpacked wheel)" ;;
	GPU) command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1 ||
		_prereq_why="no NVIDIA GPU (nvidia-smi -L)" ;;
	CUDA) [ -e "$CUDA/include/cuda.h" ] && [ -e "$CUDA/include/cublas_v2.h" ] ||
		_prereq_why="no CUDA toolkit (cuda.h, cublas_v2.h) at $CUDA (set CUDA)" ;;
	NVRTC) [ -f "$CUDA/include/nvrtc.h" ] && compgen -G "$CUDA/lib64/libnvrtc.so*" >/dev/null ||
		_prereq_why="no NVRTC under $CUDA (the CUDA toolkit)" ;;
	CUOBJDUMP) [ -x "${CUOBJDUMP:-$(command -v cuobjdump || echo "$CUDA/bin/cuobjdump")}" ] ||
		_prereq_why="no cuobjdump (the CUDA toolkit, or set CUOBJDUMP)" ;;
	NVMMH) _prereq_why=$("$ROOT/stages/sh/nvmmh-dir.sh" 2>&1 >/dev/null) && _prereq_why= ||
		_prereq_why=${_prereq_why:-nvMatmulHeuristics not found (stages/sh/nvmmh-dir.sh)} ;;
	DATASET) [ -r "$DATASET_DIR/a100_mm.zip" ] && [ -r "$DATASET_DIR/h100_mm.zip" ] ||
		_prereq_why="no official dataset zips in $DATASET_DIR (set DATASET_MIRROR; README: the data)" ;;
	REFERENCE) compgen -G "$REFERENCE_DIR/_MMRanking*.py" >/dev/null ||
		_prereq_why="no PyTorch artifacts _MMRanking*.py in $REFERENCE_DIR (set REFERENCE_DIR)" ;;
	SLURM) command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null &&
		command -v munged >/dev/null || _prereq_why="slurm-wlm/munge are not installed (apt-get install \
slurm-wlm munge, or MMRANK_SLURM_INSTALL=1 lets t3170-slurm.sh do it, as root)" ;;
	ROOT) [ "$(id -u)" -eq 0 ] || _prereq_why="not root" ;;
	VALGRIND) command -v valgrind >/dev/null || _prereq_why="no valgrind (apt-get install valgrind)" ;;
	SKLEARN) python3 -c 'import sklearn, numpy' 2>/dev/null ||
		_prereq_why="scikit-learn not importable by python3 (pip install scikit-learn)" ;;
	AFL) command -v afl-clang-fast >/dev/null && command -v afl-fuzz >/dev/null ||
		_prereq_why="no afl-clang-fast or afl-fuzz (apt-get install afl++)" ;;
	CLANG) command -v clang >/dev/null || command -v afl-clang-fast >/dev/null ||
		_prereq_why="no clang (apt-get install clang): gcc's UBSan misses NULL + 0" ;;
	GRAPHVIZ) command -v dot >/dev/null && command -v gnuplot >/dev/null ||
		_prereq_why="graphviz/gnuplot missing (apt-get install graphviz gnuplot-nox)" ;;
	CHROMIUM) command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
		command -v google-chrome >/dev/null || _prereq_why="no chromium (apt-get install chromium)" ;;
	CURL) command -v curl >/dev/null || _prereq_why="no curl (apt-get install curl)" ;;
	SETSID) command -v setsid >/dev/null || _prereq_why="no setsid (util-linux)" ;;
	FLOCK) command -v flock >/dev/null || _prereq_why="no flock (util-linux)" ;;
	UNZIP) command -v unzip >/dev/null || _prereq_why="no unzip (apt-get install unzip)" ;;
	XZ) command -v xz >/dev/null || _prereq_why="no xz (apt-get install xz-utils)" ;;
	TIME) [ -x /usr/bin/time ] || _prereq_why="no /usr/bin/time (apt-get install time)" ;;
	*) echo "check/lib.sh: unknown prerequisite '$1'" >&2; _prereq_why="unknown prerequisite '$1'"; return 2 ;;
	esac
	[ -z "$_prereq_why" ]
}
declare -A _prereq_have=() _prereq_reason=()
# test_have_prereq P[,P...]: 0 if all hold; else 1, the first failing one in
# _prereq_missing and its reason in _prereq_why.
test_have_prereq() {
	local p neg name IFS=,
	for p in $1; do
		neg=; name=$p
		case $p in !*) neg=1 name=${p#!} ;; esac
		if [ -z "${_prereq_have[$name]+set}" ]; then
			if _prereq_probe "$name"; then _prereq_have[$name]=1; else _prereq_have[$name]=0; fi
			_prereq_reason[$name]=$_prereq_why
		fi
		if [ -n "$neg" ] && [ "${_prereq_have[$name]}" = 1 ]; then
			_prereq_missing=$p _prereq_why="needs no $name, and $name holds here"; return 1
		elif [ -z "$neg" ] && [ "${_prereq_have[$name]}" = 0 ]; then
			_prereq_missing=$p _prereq_why=${_prereq_reason[$name]}; return 1
		fi
	done
	return 0
}
# CHECK_REQUIRE=P[,P...] (CI: .ci/run): a check those prerequisites would
# skip fails instead, so a run cannot pass without them
test_skip_unless() {
	test_have_prereq "$1" && return 0
	case ,${CHECK_REQUIRE:-}, in
	*,"${_prereq_missing#!}",*) fail "$2" "[$_prereq_missing] required (CHECK_REQUIRE=$CHECK_REQUIRE): $_prereq_why" ;;
	*) skip "$2" "[$_prereq_missing] $_prereq_why" ;;
	esac
	return 1
}
test_require() { test_skip_unless "$@" || finish; }
# hold_lock DIR S: flock(1) holds an flock on DIR for S seconds in the
# background (its pid in held_pid); returns once the lock is held (FLOCK)
hold_lock() {
	local _
	flock -o "$1" sleep "$2" &
	held_pid=$!
	for _ in $(seq 50); do flock -n "$1" true || return 0; sleep 0.1; done
}
# test_have_bins NAME PROG...: every $BIN/PROG is built, or "skip NAME: [BUILT]"
# (make check builds them all; a partial build skips).
test_have_bins() {
	local name=$1 b; shift
	for b; do [ -x "$BIN/$b" ] || { skip "$name" "[BUILT] $BIN/$b not built (make check-bins)"; return 1; }; done
}

# test_expect_success [PREREQ] NAME BODY; test_expect_failure [PREREQ] NAME
# BODY: a known breakage (git's meaning, see the top of this file).
_test_expect() {
	local want=$1; shift
	if [ $# -eq 3 ]; then test_skip_unless "$1" "$2" || return 0; shift; fi
	[ $# -eq 2 ] || { fail "${1:-unnamed}" "test_expect_*: want [PREREQ] NAME BODY, got $# arguments"; return; }
	local rc why
	eval "$2" >"$TMP/_body.out" 2>&1 </dev/null; rc=$?
	why="body exited $rc: $(tail -5 "$TMP/_body.out" | tr '\n' '|' | head -c 400)"
	if [ $rc -ge 128 ]; then fail "$1" "$why"
	elif [ "$want" = success ]; then
		if [ $rc -eq 0 ]; then ok "$1"; else fail "$1" "$why"; fi
	elif [ $rc -eq 0 ]; then ok "$1" "known breakage vanished (make it test_expect_success)"
	else todo "$1" "known breakage ($why)"; fi
}
test_expect_success() { _test_expect success "$@"; }
test_expect_failure() { _test_expect failure "$@"; }

# test_must_fail CMD [ARG...]: CMD exits 1..125 (git's helper; 126/127:
# it could not run; >= 128: a signal).
test_must_fail() {
	"$@"
	local rc=$?
	if [ $rc -eq 0 ]; then echo "test_must_fail: '$*' succeeded" >&2; return 1
	elif [ $rc -ge 126 ]; then echo "test_must_fail: '$*' exited $rc (not run, or a signal)" >&2; return 1; fi
	return 0
}

# test_cmp NAME EXPECTED ACTUAL — files must be identical.
# tree_nodes TREE.tsv: each node as ID:LIST:PICK, space-separated (LIST its
# class indices head first, by p descending as eval ranks them; PICK the
# last field, or the one before the truth mark with param truth 1: the
# node's pick, t2200-pick.sh, t2210-truth-heads.sh)
tree_nodes() { awk -F'\t' '$1 == "param" && $2 == "truth" { tr = $3 == 1 }
	$1 == "node" { n = split($10, e, ","); s = ""
	for (i = 1; i <= n; i++) { split(e[i], cp, ":"); c[i] = cp[1]; p[i] = cp[2] }
	for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (p[j] > p[i]) {
		t = p[i]; p[i] = p[j]; p[j] = t; t = c[i]; c[i] = c[j]; c[j] = t }
	for (i = 1; i <= n; i++) s = s (i > 1 ? "," : "") c[i]
	printf "%s%s:%s:%s", ($2 > 0 ? " " : ""), $2, s, $(NF - tr) }' "$1"; }

test_cmp() {
	if cmp -s "$2" "$3"; then ok "$1"; else fail "$1" "$(diff "$2" "$3" | head -5 | tr '\n' '|')"; fi
}

# wait_lines FILE N [SECONDS] — wait until FILE has at least N lines (at most
# SECONDS, default 30): a kill mid-run then lands after real progress, on a
# loaded machine too, instead of after a fixed sleep.
wait_lines() {
	local i
	for ((i = 0; i < ${3:-30} * 20; i++)); do
		[ "$( { wc -l <"$1"; } 2>/dev/null || echo 0)" -ge "$2" ] && return 0
		sleep 0.05
	done
	return 1
}

# expect_error NAME PATTERN OUTFILE CMD... — CMD must exit non-zero, its
# stderr must match the extended regex PATTERN, and OUTFILE must not exist
# afterwards (no partial output), nor any OUTFILE.tmp*.
expect_error() {
	local name=$1 pat=$2 out=$3; shift 3
	rm -f "$out"
	"$@" >"$TMP/stdout" 2>"$TMP/stderr"
	local rc=$?
	if [ $rc -eq 0 ]; then fail "$name" "exit status 0"; return; fi
	if [ $rc -ge 128 ]; then fail "$name" "killed by signal $((rc-128)): $(head -c 300 "$TMP/stderr")"; return; fi
	if ! grep -Eq -- "$pat" "$TMP/stderr"; then
		fail "$name" "stderr does not match /$pat/: $(head -c 300 "$TMP/stderr")"; return; fi
	if [ -e "$out" ] || compgen -G "$out.tmp*" >/dev/null; then fail "$name" "partial output left: $out"; return; fi
	ok "$name"
}
