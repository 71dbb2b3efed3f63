"""truth_trace — GEMM kernel times inside a compiled model's CUDA-graph
replay, from two torch.profiler traces (Chrome trace JSON, as
profiler.export_chrome_trace writes it); no torch needed.  Used by
perf/models/truth.py; tested on synthetic traces by check/t6170-truth.sh.

1. The EAGER trace: one step of the compiled model run outside the graph,
   with CPU and CUDA activity and record_shapes=True.  Each GPU activity
   (cat kernel, gpu_memset, gpu_memcpy) is linked to its launch (a
   cuda_runtime / cuda_driver event with the same args.correlation; else to
   the CPU op whose "External id" it carries) and so to the CPU ops around
   that launch on its thread.  Its GEMM op is the innermost enclosing one
   of: aten::mm, aten::addmm (an ATen GEMM: every kernel under it counts, so
   cuBLAS's two kernels, e.g. nvjet + splitKreduce, or addmm's bias copy, are
   summed), or a Triton template launch: the _RecordFunctionFast op Inductor
   names after the kernel (triton_tem_*; runtime/triton_heuristics.py).  One
   GEMM op = one SLOT.  An ATen slot's m, k, n, dtype and strides are its op's
   "Input Dims", "Input type" and "Input Strides" (mat1, mat2: the first two
   inputs of mm, the 2nd and 3rd of addmm); a template slot's come from the
   kernel's source (the op's "kernel_file" argument; where it is empty, as
   torch 2.11 leaves it for templates, the kernel of that name in the
   compile's output code, analyse's CODES): the template's static
   "M = ", "N = ", "K = ", "stride_am = " ... lines, its BLOCK_* constexprs
   and the decorator's num_stages/num_warps (the AutoHeuristic id).
   CPU mode (the --device cpu dry run): there are no GPU activities; each
   outermost aten::mm / aten::addmm op is its own one "kernel".
2. The REPLAY trace: N replays of the captured graph, CUDA activity.  The
   replays are told apart by the correlation of their cudaGraphLaunch (every
   kernel of a replay carries it; kernels launched outside the graph, e.g.
   the replay prologue's, are left out); without graph launches, or when
   that does not give N equal groups, the activities are cut into N equal
   runs by count ("count"), else the analysis fails.
3. ALIGNMENT: each replay's activity names against the eager sequence
   (difflib, no junk heuristic).  Equal runs map one to one.  A replaced run
   whose eager side is the kernels of one slot is given to that slot whole
   (flag "renamed": cuBLAS picked other kernels under capture); otherwise a
   replaced run of equal length maps by position (flag "positional"), else
   its slots are "unaligned" (no time).  An inserted activity between two
   kernels of one slot joins it ("extra"); eager kernels missing from the
   replay flag their slot "missing" (its time is what remains).
4. Per slot: per replay the sum of its activities' durations; the median,
   p10 and p90 over replays (us); per kernel (by position in the slot) the
   same.  gemm_ms = sum of slot medians.
5. Slots are matched to the forcing handler's decisions by GEMM key (op, m,
   k, n, dtype, strides; strides may be ignored where (op, m, k, n, dtype)
   alone is unique; op where the rest is); the forced id is checked against
   what ran (ATen slot for an extern id; for a triton::mm id the source's
   config).  A decision whose key gets no slot is reported (a subgraph
   choice such as decompose_k lowers to ops this mapping does not claim).
"""
import bisect
import difflib
import gzip
import json
import math
import re
import statistics

GPU_CATS = ("kernel", "gpu_memset", "gpu_memcpy")
LAUNCH_CATS = ("cuda_runtime", "cuda_driver")
OP_CATS = ("cpu_op", "user_annotation")
ATEN_GEMMS = {"aten::mm": "mm", "aten::addmm": "addmm"}
TEMPLATE_PREFIX = "triton_tem_"
TYPES = {"c10::BFloat16": "torch.bfloat16", "c10::Half": "torch.float16", "float": "torch.float32",
         "double": "torch.float64"}
EPS = 1e-3      # us: timestamps are floats


class TraceError(Exception):
    """A trace that cannot be read; the message names it."""


# ---- reading ---------------------------------------------------------------

def load(src):
    """The normalized trace of SRC: a Chrome trace dict, or the path of a
    .json or .json.gz file."""
    if isinstance(src, dict):
        d, where = src, "trace"
    else:
        where = src
        try:
            opener = gzip.open if src.endswith(".gz") else open
            with opener(src, "rt", encoding="utf-8") as fh:
                d = json.load(fh)
        except (OSError, ValueError) as e:
            raise TraceError(f"{src}: cannot read a Chrome trace: {e}") from None
    evs = d.get("traceEvents") if isinstance(d, dict) else None
    if not isinstance(evs, list):
        raise TraceError(f"{where}: no traceEvents list")
    t = {"ops": [], "launches": [], "gpu": [], "where": where}
    for i, e in enumerate(evs):
        if not isinstance(e, dict) or e.get("ph") != "X":
            continue
        cat, args = e.get("cat", ""), e.get("args") or {}
        if not isinstance(args, dict):
            raise TraceError(f"{where}: traceEvents[{i}].args: not an object")
        for k in ("correlation", "External id", "stream"):
            if not isinstance(args.get(k), (int, str, type(None))) or isinstance(args.get(k), bool):
                raise TraceError(f"{where}: traceEvents[{i}].args.{k}: not a number or string")
        try:
            base = {"name": str(e.get("name", "")), "ts": float(e["ts"]),
                    "dur": float(e.get("dur", 0.0)), "args": args}
        except (KeyError, TypeError, ValueError, OverflowError):
            continue
        if not (math.isfinite(base["ts"]) and math.isfinite(base["dur"])):
            raise TraceError(f"{where}: traceEvents[{i}]: ts or dur is not a finite number")
        if cat in GPU_CATS:
            base.update(corr=args.get("correlation"), ext=args.get("External id"), cat=cat,
                        stream=args.get("stream"))
            t["gpu"].append(base)
        elif cat in LAUNCH_CATS:
            base.update(corr=args.get("correlation"), tid=e.get("tid"))
            t["launches"].append(base)
        elif cat in OP_CATS:
            base.update(tid=e.get("tid"), ext=args.get("External id"))
            t["ops"].append(base)
    t["gpu"].sort(key=lambda x: x["ts"])
    t["ops"].sort(key=lambda x: (x["ts"], -x["dur"]))
    return t


def cpu_pseudo_kernels(t):
    """CPU mode: each outermost ATen GEMM op becomes its own "kernel"."""
    gemm = [o for o in t["ops"] if o["name"] in ATEN_GEMMS]
    out = []
    for o in gemm:
        if any(p is not o and p["tid"] == o["tid"] and _contains(p, o["ts"]) for p in gemm):
            continue
        out.append({"name": o["name"], "ts": o["ts"], "dur": o["dur"], "corr": None, "ext": None,
                    "cat": "cpu", "stream": None, "args": {}, "op": o})
    t["gpu"] = sorted(out, key=lambda x: x["ts"])
    return t


def _contains(op, ts):
    return op["ts"] - EPS <= ts <= op["ts"] + op["dur"] + EPS


# ---- template kernel sources -------------------------------------------------

_INT = r"(-?\d+)"
_SRC_FIELDS = {"m": r"^\s*M = " + _INT + r"\s*$", "n": r"^\s*N = " + _INT + r"\s*$",
               "k": r"^\s*K = " + _INT + r"\s*$",
               "am": r"^\s*stride_am = " + _INT + r"\s*$", "ak": r"^\s*stride_ak = " + _INT + r"\s*$",
               "bk": r"^\s*stride_bk = " + _INT + r"\s*$", "bn": r"^\s*stride_bn = " + _INT + r"\s*$",
               "BLOCK_M": r"^\s*BLOCK_M\s*:\s*tl\.constexpr\s*=\s*" + _INT,
               "BLOCK_N": r"^\s*BLOCK_N\s*:\s*tl\.constexpr\s*=\s*" + _INT,
               "BLOCK_K": r"^\s*BLOCK_K\s*:\s*tl\.constexpr\s*=\s*" + _INT,
               "num_stages": r"num_stages\s*=\s*" + _INT, "num_warps": r"num_warps\s*=\s*" + _INT}


def parse_template_source(text, name=None):
    """{m, k, n, strides, config} of a Triton mm template kernel's source
    (the function NAME's part of it when given); None when it is not one."""
    if name:
        at = text.find(f"def {name}(")
        if at < 0:
            return None
        start = text.rfind("@triton_heuristics.template(", 0, at)
        end = text.find("@triton", at)
        text = text[start if start >= 0 else 0:end if end >= 0 else len(text)]
    got = {}
    for f, rx in _SRC_FIELDS.items():
        mt = re.search(rx, text, re.M)
        if mt:
            got[f] = int(mt.group(1))
    if not all(f in got for f in ("m", "n", "k")):
        return None
    strides = ([[got["am"], got["ak"]], [got["bk"], got["bn"]]]
               if all(f in got for f in ("am", "ak", "bk", "bn")) else None)
    config = None
    if all(f in got for f in ("BLOCK_M", "BLOCK_N", "BLOCK_K", "num_stages", "num_warps")):
        config = (f"type=triton_BLOCK-M={got['BLOCK_M']}_BLOCK-K={got['BLOCK_K']}"
                  f"_BLOCK-N={got['BLOCK_N']}_numstages={got['num_stages']}"
                  f"_numwarps={got['num_warps']}")
    return {"m": got["m"], "k": got["k"], "n": got["n"], "strides": strides, "config": config}


def read_file_source(path):
    with open(path, encoding="utf-8") as fh:
        return fh.read()


def fused_ops(name):
    """The op names in an Inductor template kernel's name besides mm/addmm
    (triton_tem_fused_addmm_gelu_3 -> ['gelu']): what it fused."""
    body = name[len(TEMPLATE_PREFIX):] if name.startswith(TEMPLATE_PREFIX) else name
    toks = [x for x in body.split("_") if x and not x.isdigit()]
    return [x for x in toks if x not in ("fused", "mm", "addmm")]


def _op_hint(name):
    toks = name.split("_")
    return "addmm" if "addmm" in toks else "mm" if "mm" in toks else None


# ---- 1. eager trace: slots -----------------------------------------------------

def _describe_op(op, read_source, codes, flags):
    """The slot fields of a GEMM op."""
    a = op["args"]
    if op["name"] in ATEN_GEMMS:
        kind = ATEN_GEMMS[op["name"]]
        i = 0 if kind == "mm" else 1
        dims, strides, types = a.get("Input Dims"), a.get("Input Strides"), a.get("Input type")
        s = {"kind": "aten", "op": kind, "cpu_name": op["name"], "config": None, "fused": []}
        try:
            (m, k), (k2, n) = dims[i], dims[i + 1]
            s.update(m=int(m), k=int(k), n=int(n))
        except (TypeError, ValueError, IndexError):
            s.update(m=None, k=None, n=None)
            flags.append(f"{op['name']} at {op['ts']:.1f}: no Input Dims (record_shapes off?)")
        try:
            s["strides"] = [[int(x) for x in strides[i]], [int(x) for x in strides[i + 1]]]
        except (TypeError, ValueError, IndexError):
            s["strides"] = None
        try:
            s["dtype"] = TYPES.get(types[i])
        except (TypeError, IndexError):
            s["dtype"] = None
        return s
    s = {"kind": "template", "op": _op_hint(op["name"]), "cpu_name": op["name"], "dtype": None,
         "fused": fused_ops(op["name"]), "m": None, "k": None, "n": None, "strides": None,
         "config": None}
    path = a.get("kernel_file")
    if path:
        try:
            src = parse_template_source(read_source(path), op["name"])
        except OSError as e:
            flags.append(f"{op['name']}: cannot read {path}: {e}")
            return s
    elif "kernel_file" in a or "Input Dims" in a:
        # torch 2.11 gives a template kernel no file (its decorator gets no
        # filename): its source is in the output code captured at compile
        path = "the compile's output code"
        found = [x for x in (parse_template_source(c, op["name"]) for c in codes) if x]
        if len({json.dumps(x, sort_keys=True) for x in found}) > 1:
            flags.append(f"{op['name']}: {len(found)} different kernels of this name "
                         "in the output code")
            return s
        src = found[0] if found else None
    else:
        flags.append(f"{op['name']}: no kernel_file argument (record_shapes off?)")
        return s
    if src is None:
        flags.append(f"{op['name']}: {path} has no M/N/K lines")
        return s
    s.update(m=src["m"], k=src["k"], n=src["n"], strides=src["strides"], config=src["config"])
    return s


def _is_gemm_op(o):
    return o["name"] in ATEN_GEMMS or o["name"].startswith(TEMPLATE_PREFIX)


def eager_slots(t, read_source=read_file_source, codes=()):
    """(labels, slots, flags): labels[i] is the slot index of t["gpu"][i]
    or None; slots in order of their first activity."""
    flags = []
    gemm = {}
    for o in t["ops"]:
        if _is_gemm_op(o):
            gemm.setdefault(o["tid"], []).append(o)
    starts = {tid: [o["ts"] for o in ops] for tid, ops in gemm.items()}
    launch = {x["corr"]: x for x in t["launches"] if x["corr"] is not None}
    by_ext = {o["ext"]: o for o in t["ops"] if o.get("ext") is not None}

    def around(tid, ts):
        ops = gemm.get(tid, [])
        hi = bisect.bisect_right(starts.get(tid, []), ts + EPS)
        inner = [o for o in ops[:hi] if _contains(o, ts)]
        return min(inner, key=lambda o: o["dur"]) if inner else None

    labels, slots, slot_of = [], [], {}
    unlinked = 0
    for g in t["gpu"]:
        op, linked = g.get("op"), g.get("op") is not None      # CPU mode: its own op
        if op is None and g["corr"] in launch:
            lx, linked = launch[g["corr"]], True
            op = around(lx["tid"], lx["ts"])
        if op is None and g.get("ext") in by_ext:
            o, linked = by_ext[g["ext"]], True
            op = o if _is_gemm_op(o) else around(o["tid"], o["ts"])
        unlinked += not linked
        if op is None:
            labels.append(None)
            continue
        s = slot_of.get(id(op))
        if s is None:
            s = slot_of[id(op)] = len(slots)
            slots.append(dict(_describe_op(op, read_source, codes, flags), slot=s, eager=[]))
        slots[s]["eager"].append(len(labels))
        labels.append(s)
    if unlinked:
        flags.append(f"{unlinked} GPU activities linked to no launch (not counted as GEMM)")
    return labels, slots, flags


# ---- 2. replays -----------------------------------------------------------------

def split_replays(t, n):
    """(list of N activity lists, method) or (None, why)."""
    acts = t["gpu"]
    graph = sorted((x for x in t["launches"] if "GraphLaunch" in x["name"]), key=lambda x: x["ts"])
    if graph:
        corr = {x["corr"]: i for i, x in enumerate(graph)}
        groups = [[] for _ in graph]
        for a in acts:
            if a["corr"] in corr:
                groups[corr[a["corr"]]].append(a)
        groups = [g for g in groups if g]
        if len(groups) == n and len({len(g) for g in groups}) == 1:
            return groups, "graph-launch"
        other = {x["corr"] for x in t["launches"] if "GraphLaunch" not in x["name"]}
        acts = [a for a in acts if a["corr"] not in other]
    if n > 0 and acts and len(acts) % n == 0:
        size = len(acts) // n
        return [acts[i * size:(i + 1) * size] for i in range(n)], "count"
    return None, f"{len(acts)} activities do not split into {n} replays"


# ---- 3. alignment ------------------------------------------------------------------

def align(e_names, e_labels, r_names):
    """(labels of the replay's activities, {slot: set of flags}, notes: one
    line per stretch where the names differ)."""
    out = [None] * len(r_names)
    sflags, notes = {}, []

    def flag(s, f):
        sflags.setdefault(s, set()).add(f)
    sm = difflib.SequenceMatcher(None, e_names, r_names, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag == "equal":
            out[j1:j2] = e_labels[i1:i2]
            continue
        notes.append(f"{tag} eager[{i1}:{i2}] {e_names[i1:i2][:3]} -> replay[{j1}:{j2}] "
                     f"{r_names[j1:j2][:3]}")
        eslots = {e_labels[i] for i in range(i1, i2)}
        if tag == "insert":
            before = e_labels[i1 - 1] if i1 > 0 else None
            after = e_labels[i1] if i1 < len(e_labels) else None
            if before is not None and before == after:
                out[j1:j2] = [before] * (j2 - j1)
                flag(before, "extra")
            continue
        if tag == "delete":
            for s in eslots - {None}:
                flag(s, "missing")
            continue
        if len(eslots) == 1 and None not in eslots:            # replace inside one slot
            s = eslots.pop()
            out[j1:j2] = [s] * (j2 - j1)
            flag(s, "renamed")
        elif i2 - i1 == j2 - j1:
            out[j1:j2] = e_labels[i1:i2]
            for s in eslots - {None}:
                flag(s, "positional")
        else:
            for s in eslots - {None}:
                flag(s, "unaligned")
    return out, sflags, notes


# ---- 4. times -------------------------------------------------------------------------

def stats(xs):
    """median, p10, p90 (us, rounded) of a list."""
    xs = sorted(xs)
    if not xs:
        return None, None, None
    if len(xs) == 1:
        return round(xs[0], 3), round(xs[0], 3), round(xs[0], 3)
    q = statistics.quantiles(xs, n=10, method="inclusive")
    return round(statistics.median(xs), 3), round(q[0], 3), round(q[-1], 3)


def analyse(eager, replay, n, decisions=(), read_source=read_file_source, codes=()):
    """The analysis record of one variant (see the module doc); CODES: the
    output code (Python source) of the variant's compiles, where a template
    op's kernel_file is empty."""
    labels, slots, flags = eager_slots(eager, read_source, codes)
    short = match_slots(slots, decisions, flags)
    e_names = [a["name"] for a in eager["gpu"]]
    res = {"status": "ok", "flags": flags, "replays": n, "eager_activities": len(e_names)}
    groups, how = split_replays(replay, n)
    res["split"] = how
    if groups is None:
        res["status"] = "failed"
        flags.append(f"replays: {how}")
        res["slots"] = [_public(s) for s in slots]
        return res
    res["activities_per_replay"] = len(groups[0])
    per_slot = {s["slot"]: [] for s in slots}          # per replay: [durations by position]
    names = {s["slot"]: [] for s in slots}
    sflags = {}
    busy, span = [], []
    cache = {}
    for g in groups:
        r_names = tuple(a["name"] for a in g)
        if r_names not in cache:
            cache[r_names] = align(e_names, labels, list(r_names))
        lab, fl, notes = cache[r_names]
        for s, f in fl.items():
            sflags.setdefault(s, set()).update(f)
        for x in notes:
            if f"names differ: {x}" not in flags and len(flags) < 50:
                flags.append(f"names differ: {x}")
        got = {s: [] for s in per_slot}
        for a, s in zip(g, lab):
            if s is not None:
                got[s].append(a)
        for s, acts in got.items():
            per_slot[s].append([a["dur"] for a in acts])
            names[s].append([a["name"] for a in acts])
        busy.append(sum(a["dur"] for a in g) / 1e3)
        span.append((max(a["ts"] + a["dur"] for a in g) - min(a["ts"] for a in g)) / 1e3)
    res["busy_ms"] = stats(busy)[0]
    res["span_ms"] = stats(span)[0]
    gemm_us = 0.0
    for s in slots:
        i = s["slot"]
        f = sorted(sflags.get(i, ()))
        s["flags"] = f
        totals = [sum(d) for d in per_slot[i] if d]
        if "unaligned" in f or not totals:
            s["status"], s["us"], s["p10_us"], s["p90_us"] = "unaligned", None, None, None
            s["kernels"] = []
            continue
        s["status"] = "partial" if "missing" in f else "ok"
        s["us"], s["p10_us"], s["p90_us"] = stats(totals)
        width = max(len(d) for d in per_slot[i])
        ks = []
        for p in range(width):
            ds = [d[p] for d in per_slot[i] if len(d) > p]
            nm = statistics.mode([x[p] for x in names[i] if len(x) > p])
            med, lo, hi = stats(ds)
            k = {"name": nm, "median_us": med, "p10_us": lo, "p90_us": hi}
            eager_names = [e_names[j] for j in s["eager"]]
            if p < len(eager_names) and eager_names[p] != nm:
                k["eager_name"] = eager_names[p]
            ks.append(k)
        s["kernels"] = ks
        if not s.get("foreign"):
            gemm_us += s["us"]
    res["gemm_ms"] = round(gemm_us / 1e3, 6)
    res["slots"] = [_public(s) for s in slots]
    ours = [s for s in slots if not s.get("foreign")]
    if short or any(s["status"] != "ok" or s.get("check") for s in ours):
        res["status"] = "partial"
    return res


def _public(s):
    return {k: v for k, v in s.items() if k != "eager"}


# ---- 5. slots <-> decisions -------------------------------------------------------------

def match_slots(slots, decisions, flags):
    """Give each slot the key and forced id of its decision(s) (module doc);
    flags what does not match; the keys with fewer slots than decisions.
    A slot no decision fits is "foreign" (a GEMM Inductor did not lower,
    e.g. eager code between graphs): its time is non-GEMM."""
    keys = {}
    for d in decisions:
        if d.get("key") is None:
            continue
        k = keys.setdefault(d["key"], {"d": d, "calls": 0, "slots": 0})
        k["calls"] += 1
    cand = list(keys.values())

    def fits(s, d, use_strides, use_op):
        if (s["m"], s["k"], s["n"]) != (d["m"], d["k"], d["n"]):
            return False
        if s.get("dtype") and s["dtype"] != d["dtype"]:
            return False
        if use_op and s.get("op") and s["op"] != d["op"]:
            return False
        if use_strides and s.get("strides") and s["strides"] != d["strides"]:
            return False
        return True
    for s in slots:
        s.update(key=None, forced=None, check=None)
        if s["m"] is None:
            s["check"] = "no shape"
            continue
        hit = None
        for use_strides, use_op in ((True, True), (False, True), (True, False), (False, False)):
            hit = [c for c in cand if fits(s, c["d"], use_strides, use_op)]
            if len(hit) == 1:
                break
            if len(hit) > 1:
                fewer = [c for c in hit if c["slots"] < c["calls"]]
                hit = fewer[:1] or hit[:1]
                s["check"] = "ambiguous key"
                break
        if not hit:
            s["foreign"] = True
            flags.append(f"slot {s['slot']} ({s['cpu_name']} {s['m']}x{s['k']}x{s['n']}): "
                         "no forced decision has its shape (not lowered by Inductor's mm/addmm, "
                         "e.g. eager code between graphs): counted as non-GEMM")
            continue
        c = hit[0]
        c["slots"] += 1
        d = c["d"]
        s["key"], s["forced"], s["ordinal"] = d["key"], d.get("forced"), c["slots"] - 1
        fk = (d.get("forced") or "").startswith("extern_")
        if fk != (s["kind"] == "aten"):
            s["check"] = f"forced {d.get('forced')} but a {s['kind']} kernel ran"
        elif s["kind"] == "template" and s.get("config") and d.get("forced", "").startswith(
                "type=triton_") and s["config"] != d["forced"]:
            s["check"] = f"forced {d['forced']} but {s['config']} ran"
    short = []
    for key, c in keys.items():
        if c["slots"] != c["calls"]:
            flags.append(f"{key}: {c['calls']} decisions, {c['slots']} slots"
                         + (f" (forced {c['d'].get('forced')}: a {c['d'].get('kind')} choice)"
                            if c["slots"] < c["calls"] else ""))
        if c["slots"] < c["calls"]:
            short.append(key)
    return short
