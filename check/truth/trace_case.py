#!/usr/bin/env python3
"""trace_case.py — perf/models/truth_trace.py on the synthetic profiler
traces of check/truth (check/t6170-truth.sh); no torch.

usage: trace_case.py CASE [N]
The fixtures: eager.json, one eager step: an ATen addmm (two cuBLAS
kernels, 30 + 3 us in the replays' first), a Triton template addmm with a
fused mul (its source: tem_c_proj.py), an ATen mm whose second kernel is
linked by External id only, an eager mm no decision has (foreign);
replay.json, 3 replays of the graph (kernel times grow by 1 us a replay in
the first and the template kernel) plus a fill kernel outside the graph
before each; decisions.json, the forcing handler's 3 decisions.  CASE:
  base       the fixtures as they are
  renamed    cuBLAS's first kernel has another name in the replays
  nongemm    the gelu kernel has another name in the replays
  count      the replays' kernels lack the graph launch's correlation
  missing    the splitK kernel is missing from the replays
  extra      an extra kernel between the first slot's two
  subgraph   one more decision (decompose_k) that has no slot
  wrongkind  the template GEMM's decision forced extern_addmm
  nofile     the template op's kernel_file is empty (torch 2.11): its
             source is found by name in the output code given
  twofiles   likewise, and the output code holds two different kernels of
             that name
N: the replays the analysis is told (3).  Prints the analysis as JSON."""
import copy
import json
import os
import sys

import truth_trace as tt  # perf/models/truth_trace.py (PYTHONPATH=perf/models)

HERE = os.path.dirname(os.path.abspath(__file__))


def fix(name):
    with open(os.path.join(HERE, name), encoding="utf-8") as fh:
        return json.load(fh)


def source(path):
    with open(os.path.join(HERE, os.path.basename(path)), encoding="utf-8") as fh:
        return fh.read()


def kernels(trace):
    return [e for e in trace["traceEvents"] if e.get("cat") == "kernel"]


def main(case, n=3):
    eager, replay, dec = fix("eager.json"), fix("replay.json"), fix("decisions.json")
    codes = []
    if case == "renamed":
        for e in kernels(replay):
            if e["name"] == "nvjet_tst_128x16_h_bz_TNT":
                e["name"] = "nvjet_tst_64x8_capture"
    elif case == "nongemm":
        for e in kernels(replay):
            if e["name"] == "triton_poi_fused_gelu_0":
                e["name"] = "triton_poi_fused_gelu_other"
    elif case == "count":
        for e in kernels(replay):
            if e["args"]["correlation"] >= 900 and e["args"]["correlation"] < 950:
                e["args"]["correlation"] = None
    elif case == "missing":
        replay["traceEvents"] = [e for e in replay["traceEvents"]
                                 if e.get("name") != "cublasLt::splitKreduce_kernel"]
    elif case == "extra":
        add = []
        for e in kernels(replay):
            if e["name"] == "nvjet_tst_128x16_h_bz_TNT":
                x = copy.deepcopy(e)
                x.update(name="cublasLt::workspace_zero", ts=e["ts"] + e["dur"] + 0.1, dur=0.5)
                add.append(x)
        replay["traceEvents"] += add
    elif case == "subgraph":
        dec.append({"call": 3, "op": "mm", "m": 16, "k": 8192, "n": 64, "dtype": "torch.bfloat16",
                    "strides": [[8192, 1], [64, 1]], "forced": "decompose_k|k_split=4",
                    "key": "mm 16x8192x64 torch.bfloat16 8192,1 64,1", "kind": "subgraph"})
    elif case == "wrongkind":
        dec[1]["forced"], dec[1]["kind"] = "extern_addmm", "aten"
    elif case in ("nofile", "twofiles"):
        for e in eager["traceEvents"]:
            if e.get("name", "").startswith("triton_tem_"):
                e["args"]["kernel_file"] = ""
        code = source("tem_c_proj.py")
        codes = ["# an unrelated graph\n", "src = \"\"\"\n" + code + "\"\"\"\n"]
        if case == "twofiles":
            codes.append(code.replace("M = 2048", "M = 4096"))
    elif case != "base":
        sys.exit(f"trace_case.py: unknown case {case}")
    res = tt.analyse(tt.load(eager), tt.load(replay), n, dec, read_source=source, codes=codes)
    print(json.dumps(res, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3))
