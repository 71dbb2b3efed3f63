#!/usr/bin/env bash
# t6180-package.sh — the mmrank Python package (python/):
#   - `import mmrank` (and its torch-free modules) without torch; `import
#     mmrank.inductor` without torch: an ImportError naming torch;
#   - `python -m mmrank.inductor`: which artifact this GPU would use (on the
#     torch stand-in: H200, H100, A100 by their names) or why none (no
#     torch, no CUDA device, an artifact refused), exit 0 / 1;
#   - a checkout's package reads gen/ and stages/formats/rules.h, their one
#     home; no script edits Python's module path; one torch stand-in (check/stub);
#   - a fresh venv: pip install of the package (from a copy of python/, gen/
#     and rules.h, so the checkout is not written), the artifacts and
#     rules.h byte-identical to gen/ and stages/formats/, and the handler's
#     stub cases (check/handler) through the installed package.  Skipped
#     with the reason where python3 has no venv/ensurepip or pip cannot
#     fetch the build's setuptools (offline: build isolation needs it).
. check/lib.sh
test_require PYTHON3 package-all
H=$ROOT/check/handler
ART=$ROOT/gen/_MMRankingH200.py

# ---- without torch -----------------------------------------------------------
if python3 -c 'import sys
import mmrank, mmrank.rules, mmrank.artifact, mmrank.install_artifact
import mmrank.bench.triton_aot, mmrank.bench.triton_configs, mmrank.bench.inductor_collect
sys.exit("torch" in sys.modules)' 2>"$TMP/err"; then ok package-import-without-torch
else fail package-import-without-torch "$(tail -c 300 "$TMP/err")"; fi
python3 -c 'import mmrank.inductor' >"$TMP/out" 2>&1; rc=$?
[ $rc -eq 1 ] && [ "$(tail -1 "$TMP/out")" = "ImportError: mmrank.inductor needs torch 2.11 with Inductor, and torch does not import here (ModuleNotFoundError: No module named 'torch')" ] &&
	ok package-inductor-refuses-without-torch || fail package-inductor-refuses-without-torch "rc=$rc $(tail -1 "$TMP/out")"
python3 -m mmrank.inductor >"$TMP/out" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -qx "mmrank.inductor: no artifact is used: torch does not import here (ModuleNotFoundError: No module named 'torch'); the handler needs torch 2.11 with Inductor" "$TMP/out" &&
	ok package-main-no-torch || fail package-main-no-torch "rc=$rc $(head -c 300 "$TMP/out")"

# ---- python -m mmrank.inductor on the stand-in ---------------------------------
main_says() {   # NAME RC PATTERN ENV...
	local name=$1 want=$2 pat=$3; shift 3
	env "$@" bash -c 'PYTHONPATH="$0:$PYTHONPATH" python3 -m mmrank.inductor' "$STUB" >"$TMP/m.out" 2>&1
	local rc=$?
	[ $rc -eq "$want" ] && grep -Eq -- "$pat" "$TMP/m.out" && ok "$name" || fail "$name" "rc=$rc $(tr '\n' '|' <"$TMP/m.out" | head -c 400)"
}
main_says package-main-h200 0 "^artifact: $ROOT/gen/_MMRankingH200\.py \(class MMRankingH200, trained on an H200, from its GPU data: h200 of datasets/GPUS.tsv\)" MMRANK_STUB_GPU="NVIDIA H200"
main_says package-main-h100 0 "^artifact: $ROOT/gen/_MMRankingH100\.py" MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3"
main_says package-main-a100 0 "^artifact: $ROOT/gen/_MMRankingA100\.py" \
	MMRANK_STUB_GPU="NVIDIA A100-SXM4-80GB" MMRANK_STUB_CAPA=8.0 MMRANK_STUB_SMEM=166912
# what k=1 does with the artifact: the pick alone on the H100's and the
# H200's (truth = True), the hedge on the A100's (no truth)
main_says package-main-k1-truth 0 "^k=1: the pick alone, nothing autotuned" MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3"
main_says package-main-k1-truth-h200 0 "^k=1: the pick alone, nothing autotuned" MMRANK_STUB_GPU="NVIDIA H200"
main_says package-main-k1-hedge 0 "^k=1: the list head autotuned beside the ATen choices" \
	MMRANK_STUB_GPU="NVIDIA A100-SXM4-80GB" MMRANK_STUB_CAPA=8.0 MMRANK_STUB_SMEM=166912
main_says package-main-k-auto 0 "^k=\"auto\": each leaf's get_top_k; where that is 1, as k=1\$" MMRANK_STUB_GPU="NVIDIA H200"
main_says package-main-no-cuda 1 "^no artifact is used: no CUDA device" MMRANK_STUB_GPU=
# an artifact of another GPU of this precondition is borrowed (truth marks
# off); a GPU no artifact names takes the first of its precondition
main_says package-main-borrowed 0 "^borrowed: MMRankingH200 was trained on an H200, not on this GPU \(NVIDIA H100" \
	MMRANK_STUB_GPU="NVIDIA H100 80GB HBM3" MMRANK_ARTIFACT="$ART"
main_says package-main-borrowed-k1 0 "^k=1: the list head autotuned beside the ATen choices \(a borrowed artifact's truth marks are off\)" \
	MMRANK_STUB_GPU="NVIDIA GH200 480GB"
main_says package-main-gh200 0 "^artifact: $ROOT/gen/_MMRankingH100\.py \(class MMRankingH100, trained on an H100" MMRANK_STUB_GPU="NVIDIA GH200 480GB"
main_says package-main-refused 1 "^no artifact is used: MMRankingH200 was not trained for this GPU \(NVIDIA A100.*check_precondition refuses it" \
	MMRANK_STUB_GPU="NVIDIA A100-SXM4-80GB" MMRANK_STUB_CAPA=8.0 MMRANK_STUB_SMEM=166912 MMRANK_ARTIFACT="$ART"
main_says package-main-bad-env 1 "^environment: MMRANK_INDUCTOR='7x': expected auto" MMRANK_STUB_GPU="NVIDIA H200" MMRANK_INDUCTOR=7x

# a real torch (TORCH_PYTHON): on a machine without a GPU, no CUDA device;
# with one, the artifact its name selects
if test_skip_unless TORCH package-main-torch; then
	"$TORCH_PYTHON" -m mmrank.inductor >"$TMP/t.out" 2>&1; rc=$?
	if { [ $rc -eq 1 ] && grep -q '^no artifact is used: no CUDA device' "$TMP/t.out"; } ||
		{ [ $rc -eq 0 ] && grep -q "^artifact: $ROOT/gen/_MMRanking" "$TMP/t.out"; }; then ok package-main-torch
	else fail package-main-torch "rc=$rc $(tr '\n' '|' <"$TMP/t.out" | head -c 300)"; fi
fi

# ---- one home, one stub, no module-path edits -------------------------------------
r=$(python3 -c 'import mmrank, mmrank.rules as r; print(mmrank.artifact_dir(), r._H)')
[ "$r" = "$ROOT/gen $ROOT/stages/formats/rules.h" ] && ok package-checkout-reads-gen || fail package-checkout-reads-gen "$r"
if command -v git >/dev/null && git -C "$ROOT" rev-parse --git-dir >/dev/null 2>&1; then
	n=$(git -C "$ROOT" grep -n -e 'sys[.]path[.]insert' -e 'sys[.]path[[]' | wc -l)
else
	n=$(grep -rn --include='*.py' --include='*.sh' --include='*.md' -e 'sys[.]path[.]insert' -e 'sys[.]path[[]' "$ROOT/python" "$ROOT/check" \
		"$ROOT/perf" "$ROOT/docs" "$ROOT/stages" | wc -l)
fi
[ "$n" -eq 0 ] && ok package-no-module-path-edits || fail package-no-module-path-edits "$n lines"
stubs=$(cd "$ROOT" && find . \( -path ./build -o -path ./out -o -path "./.*" -o -path ./perf/results \) -prune -o \
	-path '*/torch/__init__.py' -print | sort | tr '\n' ' ')
[ "$stubs" = "./check/stub/torch/__init__.py " ] && ok package-one-torch-stub || fail package-one-torch-stub "$stubs"

# ---- a fresh venv ------------------------------------------------------------
if ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
	skip package-venv "python3 has no venv/ensurepip (apt-get install python3-venv)"; finish
fi
S=$TMP/src
mkdir -p "$S/stages/formats" "$S/gen"
cp -r "$ROOT/python" "$S/python" && find "$S/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$ROOT"/gen/_MMRanking*.py "$S/gen/" && cp "$ROOT/stages/formats/rules.h" "$S/stages/formats/"
V=$TMP/venv
if ! python3 -m venv "$V" >"$TMP/venv.out" 2>&1; then
	skip package-venv "python3 -m venv failed: $(tail -1 "$TMP/venv.out")"; finish
fi
PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_DEFAULT_TIMEOUT=20 PIP_RETRIES=1 \
	"$V/bin/pip" install "$S/python" >"$TMP/pip.out" 2>&1; rc=$?
if [ $rc -ne 0 ]; then
	if grep -Eq "No matching distribution found for (setuptools|wheel)|Could not find a version that satisfies the requirement (setuptools|wheel)|NewConnectionError|Temporary failure in name resolution|Network is unreachable|ConnectTimeout|ReadTimeout" "$TMP/pip.out"; then
		skip package-venv "pip could not fetch the build's setuptools (offline?); pip install --no-build-isolation needs setuptools and wheel in the venv"
	else fail package-venv-install "pip exit $rc: $(tail -3 "$TMP/pip.out" | tr '\n' '|')"; fi
	finish
fi
ok package-venv-install
VP=$V/bin/python
SP=$("$VP" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
same=1
for f in "$ROOT"/gen/_MMRanking*.py; do cmp -s "$f" "$SP/mmrank/artifacts/$(basename "$f")" || same=0; done
cmp -s "$ROOT/stages/formats/rules.h" "$SP/mmrank/rules.h" || same=0
[ "$same" = 1 ] && [ "$(ls "$SP/mmrank/artifacts" | grep -c '^_MMRanking.*\.py$')" = "$(ls "$ROOT"/gen/_MMRanking*.py | wc -l)" ] &&
	ok package-venv-data-is-gen || fail package-venv-data-is-gen "$(ls "$SP/mmrank/artifacts")"
# the installed package alone: PYTHONPATH holds only the stand-in, the
# working folder is outside the checkout
vrun() { (cd "$TMP" && env -u PYTHONPATH MMRANK_STUB_GPU="NVIDIA H200" "$@"); }
r=$(vrun "$VP" -c 'import mmrank, mmrank.rules as r; print(mmrank.__file__, mmrank.checkout(), r.NEAR_BEST_RATIO)')
[ "$r" = "$SP/mmrank/__init__.py None 0.98" ] && ok package-venv-import || fail package-venv-import "$r"
vrun "$VP" -c 'import mmrank.inductor' >"$TMP/out" 2>&1
tail -1 "$TMP/out" | grep -q "^ImportError: mmrank.inductor needs torch 2.11" && ok package-venv-refuses-without-torch ||
	fail package-venv-refuses-without-torch "$(tail -1 "$TMP/out")"
vrun env PYTHONPATH="$STUB" "$VP" -m mmrank.inductor >"$TMP/out" 2>&1
grep -qx "artifact: $SP/mmrank/artifacts/_MMRankingH200.py (class MMRankingH200, trained on an H200, from its GPU data: h200 of datasets/GPUS.tsv)" "$TMP/out" &&
	ok package-venv-main || fail package-venv-main "$(tr '\n' '|' <"$TMP/out")"
# the handler's stub cases: MMRANK_INDUCTOR at import takes the package's
# own artifact; install/uninstall; one ranked call equals the checkout's
vrun env PYTHONPATH="$STUB" MMRANK_INDUCTOR=auto "$VP" "$H/install_case.py" --import-only >"$TMP/ic" 2>&1
grep -qx 'import installed=True k=auto aten=auto' "$TMP/ic" && ok package-venv-env-installs || fail package-venv-env-installs "$(tr '\n' '|' <"$TMP/ic")"
vrun env PYTHONPATH="$STUB" "$VP" "$H/install_case.py" "$SP/mmrank/artifacts/_MMRankingH200.py" 3 >"$TMP/ic" 2>&1
grep -qx 'installed k=3 artifact=MMRankingH200' "$TMP/ic" && grep -qx 'uninstall-again False' "$TMP/ic" &&
	ok package-venv-install-uninstall || fail package-venv-install-uninstall "$(tr '\n' '|' <"$TMP/ic")"
# the forcing handler ships too, on the same set/restore pair
r=$(vrun env PYTHONPATH="$STUB" "$VP" -c 'from mmrank import force as f; h = f.install(f.ForceChoices(), "t")
from torch._inductor import config; print(f.__file__, config.inductor_choices_class.args[0], f.uninstall(), h.active)' 2>&1)
[ "$r" = "$SP/mmrank/force.py mmrank-force:t True False" ] && ok package-venv-force || fail package-venv-force "$r"
printf 'input\tm\tk\tn\tdtype\ttf32\ttranspose_left\ttranspose_right\n0\t16\t4096\t4096\ttorch.bfloat16\t0\t0\t0\n' >"$TMP/s.tsv"
if [ -x "$BIN/triton_cands" ] && "$BIN/triton_cands" --candidates "$TMP/s.tsv" "$TMP/c.tsv" 2>/dev/null; then
	vrun env PYTHONPATH="$STUB" "$VP" "$H/case.py" "$TMP/c.tsv" 0 mm 5 "$SP/mmrank/artifacts/_MMRankingH200.py" >"$TMP/v.out" 2>&1
	stub_python "$H/case.py" "$TMP/c.tsv" 0 mm 5 "$ART" >"$TMP/r.out" 2>&1
	[ "$(grep -c '^triton ' "$TMP/v.out")" -ge 1 ] && cmp -s "$TMP/v.out" "$TMP/r.out" && ok package-venv-handler-case ||
		fail package-venv-handler-case "$(diff "$TMP/r.out" "$TMP/v.out" | head -5 | tr '\n' '|')"
else skip package-venv-handler-case "[BUILT] $BIN/triton_cands missing (make check builds it)"; fi
finish
