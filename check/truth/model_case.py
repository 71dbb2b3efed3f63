#!/usr/bin/env python3
"""model_case.py — perf/models/truth_model.py's per-key truth and step
prediction on check/truth/truth.jsonl (check/t6170-truth.sh); no torch.

The fixture's gpt2 prefill row: two keys, K1 (addmm 2048x768x2304, whose
templates fuse a gelu) and K2 (mm 2048x768x50257, nothing fused); variants
rank:0 (ATen, ATen: non-GEMM 0.250 ms), rank:1 (ATen, template: 0.250),
rank:2 (template, template: 0.240), rank:3 (template, ATen: 0.240), an
error record and mix:best.  Asserts the truth, the line fit, the pattern
and line predictions, the step-optimal choices and the seeded random
choice; prints "ok" or raises."""
import json
import os
import sys

import truth_model as tm  # perf/models/truth_model.py (PYTHONPATH=perf/models)

HERE = os.path.dirname(os.path.abspath(__file__))

TA = "type=triton_BLOCK-M=64_BLOCK-K=32_BLOCK-N=64_numstages=3_numwarps=4"
TB = "type=triton_BLOCK-M=128_BLOCK-K=64_BLOCK-N=128_numstages=3_numwarps=8"
TC = "type=triton_BLOCK-M=32_BLOCK-K=128_BLOCK-N=64_numstages=5_numwarps=4"
K1 = "addmm 2048x768x2304 torch.bfloat16 768,1 2304,1"
K2 = "mm 2048x768x50257 torch.bfloat16 768,1 1,768"


def near(a, b, tol=1e-9):
    assert a is not None and abs(a - b) <= tol, (a, b)


def main():
    with open(os.path.join(HERE, "truth.jsonl")) as fh:
        recs = [json.loads(x) for x in fh]
    pre = [r for r in recs if r["phase"] == "prefill" and r["variant"].startswith("rank:")]
    tr = tm.Truth(pre)
    assert len(tr.records) == 4, len(tr.records)                 # the error record is out
    assert tr.t[K1] == {"extern_bias_addmm": 50, "extern_addmm": 55, TA: 40, TB: 45}, tr.t[K1]
    assert tr.t[K2] == {"extern_mm": 100, TA: 90, TC: 120}, tr.t[K2]   # extern_mm: 2 samples
    assert tr.slots == {K1: 1, K2: 1} and tr.fused == {K1: True, K2: False}, (tr.slots, tr.fused)
    w1 = 2048 * 2304
    assert tr.weight(K1) == w1 and tr.weight(K2) == 0
    near(tr.a, 0.250)
    near(tr.lam * w1, 0.010)
    near(tr.naive, 0.245)
    p = tr.predict({K1: TA, K2: TA})                 # pattern {K1, K2}: rank:2's 0.240
    assert p["method"] == "pattern" and not p["missing"], p
    near(p["step_ms"], 0.370)
    near(p["naive_step_ms"], 0.375)
    p = tr.predict({K1: "extern_addmm", K2: TC})     # pattern {K2}: rank:1's 0.250
    near(p["step_ms"], 0.425)
    assert tr.best("step") == {K1: TA, K2: TA} and tr.best("gemm") == {K1: TA, K2: TA}
    two = tm.Truth([r for r in pre if r["variant"] in ("rank:0", "rank:2")])
    p = two.predict({K1: TA, K2: "extern_mm"})       # {K1} not measured: the line
    assert p["method"] == "line", p
    near(p["step_ms"], 0.040 + 0.100 + 0.240)
    p = two.predict({K1: "extern_bias_addmm", K2: TC})   # {K2}: X = 0, N = a
    assert p["method"] == "line", p
    near(p["step_ms"], 0.050 + 0.120 + 0.250)
    p = tr.predict({K1: TB})                         # K2 has no choice: no step
    assert p["step_ms"] is None and p["missing"] == [K2], p
    r1, r2 = tr.random(1), tr.random(1)
    assert r1 == r2 and r1[K1] in tr.t[K1] and r1[K2] in tr.t[K2], (r1, r2)
    kinds = {tuple(tm.is_template(c) for c in tr.random(s).values()) for s in range(40)}
    assert len(kinds) == 4, kinds                    # both kinds drawn for both keys
    sp = tr.nongemm_spread()
    assert sp["patterns"] == 4 and sp["variants"] == 4, sp
    near(sp["range_vs_step"], 0.010 / 0.3975, 1e-6)
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
