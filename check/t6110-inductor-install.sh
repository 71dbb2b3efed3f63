#!/usr/bin/env bash
# check/t6110-inductor-install.sh — make install-artifact / uninstall-artifact
# (python -m mmrank.install_artifact) on a torch stand-in: check/stub plus
# an artifacts package holding gen/_MMRankingA100.py and gen/_MMRankingH100.py
# as the "shipped" modules, and an H200 artifact (gen's H100 tree renamed
# MMRankingH200: the same precondition, shared memory 232448 and capability
# (9, 0), so only the discovery order decides).  Discovery runs with bytecode
# writing on, so __pycache__ entries exist and must be undone too.
cd "$(dirname "$0")/.." || exit 1
. check/lib.sh
S=$TMP/stub
ART=$S/torch/_inductor/autoheuristic/artifacts
cp -r "$STUB" "$S"
find "$S" -name __pycache__ -prune -exec rm -rf {} +
mkdir -p "$ART"
: >"$ART/__init__.py"
cp "$ROOT/gen/_MMRankingA100.py" "$ROOT/gen/_MMRankingH100.py" "$ART/"
sed 's/MMRankingH100/MMRankingH200/g' "$ROOT/gen/_MMRankingH100.py" >"$TMP/_MMRankingH200.py"
INS="python3 -m mmrank.install_artifact"
run() { env -u PYTHONDONTWRITEBYTECODE PYTHONPATH="$S:$PYTHONPATH" "$@"; }
snapshot() { (cd "$S" && find . -type f | sort | xargs sha256sum); }

run $INS order >"$TMP/before.txt" 2>&1
if grep -q '^Inductor uses: MMRankingH100 from torch._inductor.autoheuristic.artifacts._MMRankingH100$' "$TMP/before.txt" \
	&& [ -n "$(ls "$ART/__pycache__" 2>/dev/null)" ]; then
	ok shipped-h100-used-before; else fail shipped-h100-used-before "$(cat "$TMP/before.txt")"; fi
snapshot >"$TMP/tree0.txt"

# make install-artifact (the Makefile target), found through PYTHONPATH like torch
run make -s --no-print-directory -C "$ROOT" install-artifact GPU=h200 INSTALL_ARTIFACT="$TMP/_MMRankingH200.py" \
	>"$TMP/inst.txt" 2>&1; rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/_MMRankingH200.py" "$ART/_0mmrank_MMRankingH200.py"; then
	ok install-byte-copy; else fail install-byte-copy "rc=$rc $(head -c 300 "$TMP/inst.txt")"; fi
# the discovery order: ours first, and chosen on an H100/H200 ...
order=$(grep -E '^  MMRanking' "$TMP/inst.txt" | awk '{print $1}' | tr '\n' ' ')
if [ "$order" = "MMRankingH200 MMRankingA100 MMRankingH100 " ] \
	&& grep -q '^Inductor uses: MMRankingH200 from torch._inductor.autoheuristic.artifacts._0mmrank_MMRankingH200$' "$TMP/inst.txt"; then
	ok ours-first-and-used; else fail ours-first-and-used "order '$order': $(tail -2 "$TMP/inst.txt")"; fi
# ... but not on an A100, whose precondition only the shipped A100 one meets
run $INS order --shared-memory 166912 --capability 8.0 >"$TMP/a100.txt" 2>&1
if grep -q '^Inductor uses: MMRankingA100 ' "$TMP/a100.txt"; then ok a100-keeps-shipped; else
	fail a100-keeps-shipped "$(tail -1 "$TMP/a100.txt")"; fi
# the controller's own rule on the discovered list: the first passing
# precondition gives the ranking Inductor filters (the H200 copy ranks as the H100 tree)
r=$(run python3 - <<'PY'
from mmrank import install_artifact as ii
from torch._inductor.autoheuristic import learnedheuristic_interface as lhi
from torch._inductor.autoheuristic.autoheuristic_utils import AHContext, AHMetadata, mm_operations
hs = [h for h in ii._find_and_instantiate("torch._inductor.autoheuristic.artifacts", lhi.LearnedHeuristic) if h.get_name() == "mm"]
md = AHMetadata(232448, (9, 0), [], "mm")
ctx = AHContext()
for k, v in dict(m=64, k=4096, n=14336, mat1_stride_0=4096, mat1_stride_1=1, mat2_stride_0=14336, mat2_stride_1=1).items():
    ctx.add_feature(k, v)
for k, v in dict(mat1_dtype="torch.bfloat16", mat2_dtype="torch.bfloat16", mat1_iscontig=True, mat2_iscontig=True, using_tf32="not_float_32").items():
    ctx.add_feature(k, v, is_categorical=True)
ctx.apply_operations(mm_operations())
used = next(h for h in hs if h.check_precondition(md, ctx))
h100 = next(h for h in hs if type(h).__name__ == "MMRankingH100")
print(type(used).__name__, used.get_decisions_ranked(ctx)[:10] == h100.get_decisions_ranked(ctx)[:10], len(used.get_decisions_ranked(ctx)))
PY
)
case $r in "MMRankingH200 True "[1-9]*) ok controller-rule-picks-ours ;; *) fail controller-rule-picks-ours "$r" ;; esac

# reinstalling replaces (one file), uninstall restores the tree byte for byte
run make -s --no-print-directory -C "$ROOT" install-artifact GPU=h200 INSTALL_ARTIFACT="$TMP/_MMRankingH200.py" >/dev/null 2>&1
n=$(ls "$ART" | grep -c '^_0mmrank_')
[ "$n" -eq 1 ] && ok reinstall-one-file || fail reinstall-one-file "$n files"
run make -s --no-print-directory -C "$ROOT" uninstall-artifact GPU=h200 >"$TMP/un.txt" 2>&1; rc=$?
snapshot >"$TMP/tree1.txt"
if [ $rc -eq 0 ] && cmp -s "$TMP/tree0.txt" "$TMP/tree1.txt"; then ok uninstall-byte-identical; else
	fail uninstall-byte-identical "rc=$rc $(diff "$TMP/tree0.txt" "$TMP/tree1.txt" | head -3 | tr '\n' '|')"; fi
run $INS order >"$TMP/after.txt" 2>&1
grep -q '^Inductor uses: MMRankingH100 ' "$TMP/after.txt" && ok shipped-used-after || fail shipped-used-after "$(tail -1 "$TMP/after.txt")"
run $INS uninstall --all >"$TMP/un2.txt" 2>&1 && grep -q 'nothing to uninstall' "$TMP/un2.txt" \
	&& ok uninstall-idempotent || fail uninstall-idempotent "$(cat "$TMP/un2.txt")"
# order's device, without --shared-memory/--capability: the GPU data of the
# artifact install made (here an A100 tree), else the shipped H100's
sed 's/MMRankingA100/MMRankingMine/g' "$ROOT/gen/_MMRankingA100.py" >"$TMP/_MMRankingMine.py"
run $INS install "$TMP/_MMRankingMine.py" >/dev/null 2>&1 && run $INS order >"$TMP/mine.txt" 2>&1
grep -q 'precondition for shared memory 166912, capability (8, 0):$' "$TMP/mine.txt" &&
	grep -q '^Inductor uses: MMRankingMine from torch._inductor.autoheuristic.artifacts._0mmrank_MMRankingMine$' "$TMP/mine.txt" &&
	ok install-order-device-from-data || fail install-order-device-from-data "$(head -c 300 "$TMP/mine.txt")"
run $INS uninstall --all >/dev/null 2>&1
# no torch at all (python3 -S: no site-packages): uninstall says there is
# nothing to uninstall, exit 0, and gives no install hint
PYTHONPATH=$ROOT/python python3 -S -m mmrank.install_artifact uninstall --all >"$TMP/un3.txt" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q '^nothing to uninstall: python3 has no torch here' "$TMP/un3.txt" &&
	! grep -q 'make install-artifact\|nothing installed' "$TMP/un3.txt" && ok uninstall-without-torch ||
	fail uninstall-without-torch "rc=$rc $(cat "$TMP/un3.txt")"

# a torch that does not import (here: a package raising ImportError): make
# install-artifact fails before building or installing anything and names
# TORCH_ARTIFACTS=; with TORCH_ARTIFACTS=DIR it installs, and says the order
# is not shown
B=$TMP/broken
mkdir -p "$B/torch/_inductor/autoheuristic/artifacts"
echo 'raise ImportError("stand-in: this torch does not import")' >"$B/torch/__init__.py"
: >"$B/torch/_inductor/autoheuristic/artifacts/__init__.py"
bsnap() { (cd "$B" && find . -type f | sort | xargs sha256sum); }
bsnap >"$TMP/b0.txt"
PYTHONPATH="$B:$PYTHONPATH" make -s --no-print-directory -C "$ROOT" install-artifact GPU=h200 OUT="$TMP/out" >"$TMP/bi.txt" 2>&1; rc=$?
if [ $rc -eq 0 ]; then fail install-no-torch "exit status 0"
elif ! grep -q "python3 cannot import torch (ImportError: stand-in: this torch does not import); nothing installed: .*make install-artifact TORCH_ARTIFACTS=DIR" "$TMP/bi.txt"; then
	fail install-no-torch "$(head -c 400 "$TMP/bi.txt")"
elif [ -e "$TMP/out" ] || ! bsnap | cmp -s - "$TMP/b0.txt"; then fail install-no-torch "something was built or installed"
else ok install-no-torch; fi
BA=$B/torch/_inductor/autoheuristic/artifacts
PYTHONPATH="$B:$PYTHONPATH" make -s --no-print-directory -C "$ROOT" install-artifact GPU=h200 TORCH_ARTIFACTS="$BA" \
	INSTALL_ARTIFACT="$TMP/_MMRankingH200.py" >"$TMP/bi.txt" 2>&1; rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/_MMRankingH200.py" "$BA/_0mmrank_MMRankingH200.py" &&
	grep -q "^discovery order not shown: python3 cannot import torch" "$TMP/bi.txt"; then ok install-torch-artifacts
else fail install-torch-artifacts "rc=$rc $(head -c 300 "$TMP/bi.txt")"; fi
PYTHONPATH="$B:$PYTHONPATH" make -s --no-print-directory -C "$ROOT" uninstall-artifact GPU=h200 TORCH_ARTIFACTS="$BA" >/dev/null 2>&1
bsnap | cmp -s - "$TMP/b0.txt" && ok uninstall-torch-artifacts || fail uninstall-torch-artifacts "tree differs"

# refusals: not an artifact; a folder that is not torch's artifacts package;
# a read-only folder (nothing written)
printf 'x = 1\n' >"$TMP/notart.py"
expect_error not-an-artifact 'notart.py: expected one LearnedHeuristicDecision subclass' "$ART/_0mmrank_x.py" \
	run $INS install "$TMP/notart.py"
expect_error not-artifacts-dir 'not torch.s autoheuristic artifacts package' "$TMP/none" \
	$INS install --artifacts-dir "$TMP" "$TMP/_MMRankingH200.py"
if test_skip_unless '!ROOT' read-only-dir; then
	chmod a-w "$ART"
	expect_error read-only-dir 'cannot write to .*nothing installed' "$ART/_0mmrank_MMRankingH200.py" \
		run $INS install "$TMP/_MMRankingH200.py"
	chmod u+w "$ART"
fi
# an artifact that ranks our NVRTC kernels (ids Inductor never offers):
# refused, nothing installed (it would leave Inductor extern_mm alone)
mkdir -p "$TMP/nv" && sed 's/type=triton_/type=nvrtc_mma_/g' "$TMP/_MMRankingH200.py" >"$TMP/nv/_MMRankingH200.py"
snapshot >"$TMP/nv0.txt"
if run $INS install "$TMP/nv/_MMRankingH200.py" >"$TMP/nv.out" 2>&1; then fail install-foreign-ids "exit status 0"
elif ! grep -q "choice ids are not Inductor's (e.g. type=nvrtc_mma_.*nothing installed" "$TMP/nv.out"; then
	fail install-foreign-ids "$(head -c 300 "$TMP/nv.out")"
elif ! snapshot | cmp -s - "$TMP/nv0.txt"; then fail install-foreign-ids "the artifacts folder changed"
else ok install-foreign-ids; fi
finish
