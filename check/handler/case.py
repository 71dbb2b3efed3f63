#!/usr/bin/env python3
"""case.py — one call of mmrank.inductor's handler on a fake GEMM, against
the torch stand-in check/stub (check/t6150-handler.sh runs it with
PYTHONPATH=check/stub:python, or the installed package).

usage: case.py CANDS.tsv INPUT OP K ARTIFACT [--extra] [--unranked auto|keep|drop]
               [--aten auto|always|listed]
               [--others] [--strides S1_0,S1_1,S2_0,S2_1] [--borrowed]

CANDS.tsv: triton_cands --candidates output; the rows of INPUT whose list
is "mm" become the call's triton::mm choices (params BLOCK_M, BLOCK_N,
BLOCK_K, num_stages, num_warps as Inductor's template heuristic gives
them), its "mm-ah" rows the extra configs get_ktc serves for "mm-ah".  OP:
mm (choices aten::mm, then triton::mm), addmm (aten::bias_addmm,
aten::addmm, triton::mm) or bmm (aten::bmm, triton::bmm).  --others adds a
decompose_k and a triton::mm_persistent_tma choice.  --borrowed makes the
handler a borrowed artifact's (its truth marks off).  K: auto or an int.
Prints the returned choices in order, one a line: "triton ID", "aten UID",
"other UID"; then "same" if the list is the input list unchanged (same
objects, same order) else "changed"; then "stats JSON".
"""
import json
import sys
import types

import torch  # the stand-in
from torch._inductor import choices as stub_choices
from torch._inductor.kernel_template_choice import DictKernelTemplateParams, KernelTemplateChoice

DT = {"torch.float16": torch.float16, "torch.bfloat16": torch.bfloat16,
      "torch.float32": torch.float32}


class Layout:
    def __init__(self, size, stride, dtype):
        self.size, self.stride, self.dtype = list(size), list(stride), dtype

    def is_contiguous(self):
        want = 1
        for size, st in reversed(list(zip(self.size, self.stride))):
            if size != 1 and st != want:
                return False
            want *= size
        return True


class Node:
    def __init__(self, size, stride, dtype):
        self.layout = Layout(size, stride, dtype)

    def get_size(self):
        return list(self.layout.size)


class Inputs:
    def __init__(self, mat1, mat2):
        self.m1, self.m2 = mat1, mat2

    def mat1mat2(self):
        return self.m1, self.m2


def tmpl(uid):
    return types.SimpleNamespace(uid=uid)


def read_cands(path, inp):
    with open(path) as fh:
        head = fh.readline().rstrip("\n").split("\t")
        rows = [dict(zip(head, ln.rstrip("\n").split("\t"))) for ln in fh if ln.strip()]
    rows = [r for r in rows if r["input"] == str(inp)]
    if not rows:
        sys.exit(f"case.py: {path}: no input {inp}")
    return rows


def params(r):
    return {"BLOCK_M": int(r["bm"]), "BLOCK_N": int(r["bn"]), "BLOCK_K": int(r["bk"]),
            "num_stages": int(r["stages"]), "num_warps": int(r["warps"]), "GROUP_M": 8,
            "EVEN_K": True, "ACC_TYPE": "tl.float32"}


def main(argv):
    cands, inp, op, k, artifact = argv[:5]
    opts = argv[5:]
    extra = "--extra" in opts
    unranked = opts[opts.index("--unranked") + 1] if "--unranked" in opts else "auto"
    aten_rule = opts[opts.index("--aten") + 1] if "--aten" in opts else "auto"
    rows = read_cands(cands, inp)
    r0 = rows[0]
    m, kk, n = int(r0["m"]), int(r0["k"]), int(r0["n"])
    dt = DT[r0["dtype"]]
    st = [int(r0[c]) for c in ("mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1")]
    ki = Inputs(Node([m, kk], st[0:2], dt), Node([kk, n], st[2:4], dt))
    stub_choices.PARAMS[("triton::mm", "mm-ah")] = [params(r) for r in rows if r["list"] == "mm-ah"]
    layout = "layout-" + op

    def ktc(uid, kw):
        return KernelTemplateChoice(tmpl(uid), DictKernelTemplateParams(kw), {"op": op}, layout, ki)

    mm_uid = "triton::bmm" if op == "bmm" else "triton::mm"
    aten = {"mm": ["aten::mm"], "addmm": ["aten::bias_addmm", "aten::addmm"],
            "bmm": ["aten::bmm"]}[op]
    tc = {}
    for a in aten:
        tc[a] = iter([ktc(a, {})])
    tc[mm_uid] = iter([ktc(mm_uid, params(r)) for r in rows if r["list"] == "mm"])
    if "--others" in opts:
        tc["decompose_k"] = iter([ktc("decompose_k", {"k_split": 4})])
        tc["triton::mm_persistent_tma"] = iter([ktc("triton::mm_persistent_tma", params(rows[1]))])
    flat = [c for g in tc.values() for c in g]
    tc = {}
    for c in flat:
        tc.setdefault(c.template.uid, []).append(c)
    tc = {u: iter(v) for u, v in tc.items()}
    templates = [tmpl(u) for u in tc]

    from mmrank import inductor as mi
    heur = mi.load_artifact(artifact)
    h = mi.MMRankChoices(heur, k="auto" if k == "auto" else int(k), extra=extra, unranked=unranked,
                          aten=aten_rule, borrowed="borrowed" if "--borrowed" in opts else None)
    out = h._finalize_template_configs(tc, ki, templates, op, None)
    for c in out:
        uid = c.template.uid
        if uid in ("triton::mm", "triton::bmm"):
            print("triton", mi.triton_id(c))
        elif uid.startswith("aten::"):
            print("aten", uid)
        else:
            print("other", uid)
    print("same" if len(out) == len(flat) and all(a is b for a, b in zip(out, flat)) else "changed")
    for c in out:
        if c.extra_kwargs.get("op") != op or c.layout != layout or c.inputs is not ki:
            print("bad-extra", c.template.uid)
    print("stats", json.dumps(h.stats(), sort_keys=True))
    if h.log:
        print("log-strides", json.dumps(h.log[-1]["strides"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
