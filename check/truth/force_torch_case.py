#!/usr/bin/env python3
"""force_torch_case.py — mmrank.force in a real torch 2.11 compile on the
CPU (check/t6170-truth.sh, TORCH prerequisite; no GPU; it runs it with
PYTHONPATH=python:perf/models).

usage: force_torch_case.py
Compiles f(a, w, b) = (relu(addmm(b, a, w)), a @ w) (bf16, a 8 x 32, w 32
x 16) with GEMM-only max-autotune (ATen and Triton back ends: on the CPU
Inductor offers only the ATen choices) three times: the handler at rank 0,
rank 1, and with the map {addmm's key: extern_addmm}.  Per compile it prints
"variant NAME", one "decision OP offered=IDS forced=ID fallback=WHY
features=NAMES" per GEMM call, "code CALL" for each extern_kernels call of
the generated wrapper, and "choices OP N" for each select_algorithm call
(perf/models/run.py's Selections): what Inductor was left to choose from.
Then "probe": the handler at rank 3 on a @ w with, added to the call's
choices, the triton::mm choices torch's own CUDA template heuristic makes
for it (real KernelTemplateChoice objects; they are not generated on the
CPU: the probe records the forced one and hands Inductor the ATen choice):
"probe offered IDS", "probe forced ID", "probe triton_id ID" (mmrank.inductor's
id of the forced choice object)."""
import sys

import torch
import torch._inductor.config as ic
from torch._inductor.utils import run_and_get_code

import run  # perf/models/run.py
from mmrank import force as mf


def main():
    ic.max_autotune_gemm = True
    ic.max_autotune_gemm_backends = "ATEN,TRITON"
    ic.fx_graph_cache = False
    h = mf.install(mf.ForceChoices())
    sel = run.Selections()
    g = torch.Generator().manual_seed(0)
    a = torch.randn(8, 32, generator=g).to(torch.bfloat16)
    w = torch.randn(32, 16, generator=g).to(torch.bfloat16)
    b = torch.randn(16, generator=g).to(torch.bfloat16)

    def f(a, w, b):
        return torch.relu(torch.addmm(b, a, w)), a @ w
    key = None
    for name in ("rank:0", "rank:1", "map"):
        torch._dynamo.reset()
        if name == "map":
            h.configure(id_map={key: "extern_addmm"})
        else:
            h.configure(rank=int(name[5:]))
        h.reset_log()
        sel.reset()
        _, code = run_and_get_code(torch.compile(f, dynamic=False), a, w, b)
        print("variant", name)
        for d in h.log:
            print("decision", d["op"], "offered=" + ",".join(d["offered"]), "forced=" + d["forced"],
                  f"fallback={d['fallback']}", "features=" + ",".join(x[0] for x in d["features"]))
            if d["op"] == "addmm":
                key = d["key"]
        for ln in code[0].splitlines():
            ln = ln.strip()
            if ln.startswith("extern_kernels."):
                print("code", ln.split("(")[0])
        for c in sel.calls:
            print("choices", c["name"], c["choices"])
    probe(h, a, w)
    mf.uninstall()
    return 0


def probe(h, a, w):
    from torch._inductor.kernel.mm import mm_template
    from torch._inductor.kernel_template_choice import KernelTemplateChoice
    from torch._inductor.template_heuristics.registry import get_template_heuristic
    from mmrank import inductor as mi

    class Shim(KernelTemplateChoice):
        @property
        def choice(self):
            return "not generated on the CPU"
    seen = []
    real = mf.ForceChoices._force

    def force(self, choices, kernel_inputs, op_name):
        heur = get_template_heuristic(mm_template.uid, "cuda", op_name)
        tri = [Shim(mm_template, p, {}, kernel_inputs.output_layout(), kernel_inputs)
               for p in heur.get_template_configs(kernel_inputs, op_name)]
        out = real(self, list(choices) + tri, kernel_inputs, op_name)
        seen.append((self.log[-1], out[0]))
        return [c for c in choices if mf.choice_id(c).startswith("extern_")][:1]
    mf.ForceChoices._force = force
    try:
        torch._dynamo.reset()
        h.configure(rank=3)
        h.reset_log()
        torch.compile(lambda a, w: a @ w, dynamic=False)(a, w)
    finally:
        mf.ForceChoices._force = real
    d, ktc = seen[-1]
    print("probe offered", ",".join(d["offered"]))
    print("probe forced", d["forced"])
    print("probe triton_id", mi.triton_id(ktc))


if __name__ == "__main__":
    sys.exit(main())
