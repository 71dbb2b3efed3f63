#!/usr/bin/env python3
"""truth.py — in-graph truth of one model x phase: every candidate of every
mm/addmm GEMM timed inside the compiled model's own CUDA-graph step.  One
process per model x phase (perf/models/truth.sh drives the rows); records
appended to OUT.jsonl, one per variant.  Needs torch 2.11, transformers and a
CUDA GPU (--device cpu: a dry run of the same code path, for the tests).

usage: truth.py OUT.jsonl --model NAME --phase prefill|decode|train
                [--models FILE] [--layers N] [--steps N] [--replays N]
                [--variants LIST] [--mix LIST] [--time-limit S] [--pin aten|none]
                [--trace-dir DIR] [--keep-traces first|all|none] [--retry-errors]
                [--no-isolate] [--device cuda|cpu --batch N --seq N]

The model is built once (perf/models/run.py's build: the list's published
sizes, random weights, --layers), then for each VARIANT: torch._dynamo.reset(),
mmrank.force's handler set to force the variant's choices (one choice per
mm/addmm: nothing is autotuned), a compile with GEMM-only
max-autotune options (run.py's --autotune gemm: max_autotune_gemm, no
coordinate descent; ATen and Triton GEMM back ends; Inductor's FX-graph and
AOTAutograd caches off, so no variant reuses another's graph; the Triton
config cache stays on, so a pointwise or reduction kernel keeps one config in
every variant),
then:
  1. three warm-up steps, then ONE step of the compiled model run outside
     the graph under torch.profiler (CPU + CUDA, record_shapes): the map from
     GPU kernels to GEMMs (perf/models/truth_trace.py);
  2. the step captured into a CUDA graph and timed as run.py times it
     (CUDA events, one replay each, --steps replays >= 50, 10 warm-up):
     step_ms and its p10/p90/min/max;
  3. --replays more replays under torch.profiler (CUDA): each kernel's
     in-graph duration, aligned with step 1's kernels by order and name.
Variants (--variants, comma-separated, in order; default "ranks,mix"):
  rank:J        every GEMM forced to its J-th candidate (mmrank.force's
                order: ATen first, then triton::mm ids, then other templates;
                J beyond a GEMM's list: its first ATen choice, flagged)
  rank:A-B      rank:A .. rank:B;  ranks: rank:0 .. rank:C-1, C the largest
                candidate count of any GEMM (known after the first variant):
                every candidate of every GEMM forced once
  mix:best      each GEMM key forced to its step-optimal choice under the
                prediction model (perf/models/truth_model.py) of the records
                so far, measured, and set against the step it predicts
  mix:random:S  a seeded random choice per key (an ATen or a template choice
                with probability 1/2, then uniform), likewise
  mix           the --mix list (default "best,random:1")
  rank:J@I      (planned by itself) after rank:J failed with an error (a
                config that does not compile, say): its I-th key whose J-th
                candidate is a template forced to it, every other key to its
                first ATen choice; one compile per such key (--no-isolate:
                none); where rank:J ran out of shared memory, a key whose
                J-th config needs more than the GPU has is not isolated
Mixed variants run after every planned rank variant.
A record per variant: the row (model, phase, layers, batch, seq, device,
versions, shared memory, capability), variant, mode (rank, map, isolate), status
(ok; partial: some GEMM slot without a usable time; unmapped: the kernel
mapping failed; error, with the traceback), compile_s, step_ms (p10, p90,
min, max, n_steps, timing method), decisions (the handler's log: per GEMM
call its key, AutoHeuristic features, offered ids, forced id, fallback),
pinned (bmm/baddbmm kept to ATen: --pin aten), multi_choice_gemm_calls (mm /
addmm selections that still had more than one choice: must be 0),
n_candidates_max, analysis (truth_trace.analyse: per GEMM slot in step order
its key, forced id, kernels with in-graph median/p10/p90 us, total),
gemm_ms (sum of the slots' medians), nongemm_ms (step_ms - gemm_ms, only
when every slot has a time); mixed variants also map (key -> id),
prediction (truth_model.Truth.predict) and measured_over_predicted.
Resumable: variants already in OUT.jsonl for this row (same model, phase,
layers, batch, seq, device) are skipped, error records too unless
--retry-errors.  --time-limit S: no variant starts when the time used plus
the longest variant so far would pass S seconds.  --trace-dir: the
profiler traces (gzipped Chrome JSON) of the first variant of the process
and of every variant whose mapping was not ok (--keep-traces first), of all
(all) or none.
Exit status: 0 the row is complete; 2 stopped by --time-limit; 3 the CUDA
context broke (the record is written; run again to go on); 4 the model could
not be set up (a "setup" error record; later calls skip the row unless
--retry-errors); 1 bad arguments.
Needs the mmrank package (mmrank.force): PYTHONPATH=<repo>/python (truth.sh
sets it), or pip install <repo>/python.
"""
import argparse
import contextlib
import gc
import gzip
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
import traceback

import run
import truth_model
import truth_trace

HERE = os.path.dirname(os.path.abspath(__file__))
EXIT_DONE, EXIT_BAD, EXIT_TIME, EXIT_RESTART, EXIT_SETUP = 0, 1, 2, 3, 4
ROW_FIELDS = ("model", "phase", "layers", "batch", "seq", "device")
FORCED_OPS = ("mm", "addmm")


def say(msg):
    print(f"truth: {msg}", flush=True)


# ---- records ------------------------------------------------------------------

def read_records(path, ident):
    """This row's records in PATH (a missing file: none); a bad line is
    named and skipped."""
    if not os.path.exists(path):
        return []
    recs = truth_model.read_jsonl(path, lambda where, why: say(f"{where}: {why}, skipped"))
    return [r for _, r in recs if tuple(r.get(f) for f in ROW_FIELDS) == ident]


def append_record(path, rec):
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(rec, default=str) + "\n")
        fh.flush()
        os.fsync(fh.fileno())


# ---- the plan ------------------------------------------------------------------

def parse_variants(text, mix):
    """The --variants items, 'mix' expanded; ValueError on a bad item."""
    items = []
    for it in (x.strip() for x in text.split(",")):
        if not it:
            continue
        if it == "mix":
            items += parse_variants(",".join(f"mix:{x.strip()}" for x in mix.split(",")
                                             if x.strip()), "")
        elif it == "ranks":
            items.append("ranks")
        elif it.startswith("rank:"):
            a, _, b = it[5:].partition("-")
            if not a.isdigit() or (b and not b.isdigit()) or (b and int(b) < int(a)):
                raise ValueError(f"variant '{it}': rank:J or rank:A-B, integers")
            items += [f"rank:{j}" for j in range(int(a), int(b or a) + 1)]
        elif it == "mix:best" or (it.startswith("mix:random:") and it[11:].isdigit()):
            items.append(it)
        else:
            raise ValueError(f"variant '{it}': rank:J, rank:A-B, ranks, mix, mix:best or "
                             "mix:random:SEED")
    return items


def candidate_count(records):
    return max((r.get("n_candidates_max") or 0 for r in records), default=0) or None


# Triton's "out of resource: shared memory" message: what the kernel needs
# and what the GPU has, in bytes
SMEM_ERROR = re.compile(r"out of resource: .*?Required: (\d+)\s+Hardware limit: ?(\d+)")
TRITON_ID = re.compile(r"type=triton_BLOCK-M=(\d+)_BLOCK-K=(\d+)_BLOCK-N=(\d+)"
                       r"_numstages=(\d+)_numwarps=\d+")
DTYPE_BYTES = {"torch.float32": 4, "torch.bfloat16": 2, "torch.float16": 2}


def smem_bytes(choice, dtype):
    """The shared memory a triton::mm config's pipeline holds: num_stages
    tiles of A (BLOCK_M x BLOCK_K) and B (BLOCK_K x BLOCK_N) in DTYPE;
    None for another choice or dtype.  (It is Triton's figure in the
    "Required" of its out-of-resource error for the mm template.)"""
    m = TRITON_ID.fullmatch(choice)
    if not m or dtype not in DTYPE_BYTES:
        return None
    bm, bk, bn, st = (int(x) for x in m.groups())
    return st * (bm * bk + bk * bn) * DTYPE_BYTES[dtype]


def isolated_keys(rec, j):
    """The keys of a failed rank:J record whose J-th candidate is a template
    or subgraph choice (an ATen choice does not fail to compile), sorted.
    Where rank:J failed for shared memory, a key whose J-th config needs
    more than the GPU's limit is left out: it cannot compile alone either."""
    hit = SMEM_ERROR.search(rec.get("error") or "")
    limit = int(hit.group(2)) if hit else None
    keys = set()
    for d in rec.get("decisions") or ():
        if not d.get("key") or len(d.get("offered") or ()) <= j:
            continue
        c = d["offered"][j]
        if c.startswith("extern_"):
            continue
        words = d["key"].split(" ")
        need = smem_bytes(c, d.get("dtype") or (words[2] if len(words) > 2 else None))
        if limit is not None and need is not None and need > limit:
            continue
        keys.add(d["key"])
    return sorted(keys)


def isolated_assign(records, name):
    """rank:J@I -> {the I-th isolated key of rank:J's failed record: its J-th id}."""
    base, i = name.split("@")
    j = int(base[5:])
    rec = next(r for r in records if r.get("variant") == base and r.get("status") == "error")
    key = isolated_keys(rec, j)[int(i)]
    d = next(d for d in rec["decisions"] if d.get("key") == key)
    return {key: d["offered"][j]}


def plan(items, records, retry, isolate=True):
    """(the variants still to run, in order; whether the candidate count is
    still unknown) given this row's records.  A rank:J that failed with an
    error is followed, with ISOLATE, by rank:J@0, rank:J@1, ...: one compile
    per key whose J-th candidate could have failed, that key forced to it
    and every other key to its first ATen choice (one config that does not
    compile costs only its own measurement)."""
    done = {r.get("variant") for r in records
            if r.get("status") != "error" or not retry}
    count = candidate_count(records)
    out = []
    for it in items:
        if it == "ranks":
            out += [f"rank:{j}" for j in range(count or 1)]
        else:
            out.append(it)
    if isolate:
        for r in records:
            v = r.get("variant") or ""
            if (r.get("status") == "error" and v.startswith("rank:") and "@" not in v
                    and not any(x.get("variant") == v and x.get("status") != "error"
                                for x in records)):
                out += [f"{v}@{i}" for i in range(len(isolated_keys(r, int(v[5:]))))]
    seen, todo = set(), []
    for v in out:
        if v not in seen and v not in done:
            seen.add(v)
            todo.append(v)
    ranks = [v for v in todo if v.startswith("rank:")]
    return ranks + [v for v in todo if not v.startswith("rank:")], count is None and "ranks" in items


# ---- measuring -----------------------------------------------------------------

def profile(fn, cuda, record_shapes, keep=None):
    """The Chrome trace (dict) of FN under torch.profiler; KEEP: also write
    it gzipped there."""
    from torch.profiler import ProfilerActivity, profile as tprofile
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    with tprofile(activities=acts, record_shapes=record_shapes) as p:
        fn()
    fd, tmp = tempfile.mkstemp(prefix="mmrank-truth-", suffix=".json")
    os.close(fd)
    try:
        p.export_chrome_trace(tmp)
        if keep:
            with open(tmp, "rb") as src, gzip.open(keep + ".tmp", "wb") as dst:
                shutil.copyfileobj(src, dst)
            os.replace(keep + ".tmp", keep)
        with open(tmp, encoding="utf-8") as fh:
            return json.load(fh)
    finally:
        os.unlink(tmp)


@contextlib.contextmanager
def output_code(codes):
    """Append to CODES the output code (Python source) of every graph
    Inductor compiles inside: where a Triton template op has no kernel_file
    in the trace, its kernel's source is there (truth_trace.analyse)."""
    from torch._inductor.graph import GraphLowering
    before = GraphLowering.save_output_code
    GraphLowering.save_output_code = codes.append
    try:
        yield codes
    finally:
        GraphLowering.save_output_code = before


class Row:
    """The model of one row, built once, and what every variant shares."""

    def __init__(self, args, row, rec_base):
        import torch
        self.torch = torch
        self.args, self.row, self.base = args, row, rec_base
        self.cuda = args.device == "cuda"
        from mmrank import force
        self.mf = force
        self.settings = configure_inductor()
        self.opts = run.compile_options("max-autotune-no-cudagraphs", "gemm")
        self.model, self.inputs, self.labels = run.build(row, args.phase, args.layers, args.device)
        self.handler = force.ForceChoices(ops=FORCED_OPS, pin=args.pin)
        self.sel = run.Selections()
        self.kept_first = False
        if self.cuda:       # the profiler set up before any CUDA graph exists
            from torch.profiler import _utils as putils
            if hasattr(putils, "_init_for_cuda_graphs"):
                putils._init_for_cuda_graphs()

    def sync(self):
        if self.cuda:
            self.torch.cuda.synchronize()

    def traces_path(self, variant, what, ok):
        a = self.args
        if not a.trace_dir or a.keep_traces == "none":
            return None
        if a.keep_traces == "first" and self.kept_first and ok:
            return None
        os.makedirs(a.trace_dir, exist_ok=True)
        v = variant.replace(":", "-")
        return os.path.join(a.trace_dir, f"{a.model}_{a.phase}_{v}_{what}.json.gz")

    def variant(self, name, assign=None, prediction=None):
        """Compile, measure and analyse one variant; its record."""
        torch, a = self.torch, self.args
        from torch._dynamo.utils import counters
        rec = dict(self.base, variant=name, started=time.strftime("%Y-%m-%dT%H:%M:%SZ",
                                                                    time.gmtime()))
        t_all = time.perf_counter()
        cm = step = run_fn = graph = None
        try:
            torch._dynamo.reset()
            if assign is None:
                rec["mode"], rec["rank"] = "rank", int(name.split(":")[1])
                self.handler.configure(rank=rec["rank"])
            elif prediction is None:            # rank:J@I: one key isolated
                rec["mode"], rec["map"] = "isolate", assign
                self.handler.configure(id_map=assign)
            else:
                rec["mode"], rec["map"], rec["prediction"] = "map", assign, prediction
                self.handler.configure(id_map=assign)
            self.mf.install(self.handler, tag=name)
            self.handler.reset_log()
            self.sel.reset()
            counters.clear()
            cm = torch.compile(self.model, options=self.opts, dynamic=False)
            step = run.make_step(cm, a.phase, self.inputs, self.labels, a.device)
            self.sync()
            codes = []
            t0 = time.perf_counter()
            with output_code(codes):
                out = step()
                self.sync()
            rec["compile_s"] = round(time.perf_counter() - t0, 3)
            if a.phase == "train":
                rec["loss"] = float(out.detach())
            del out
            dec = [dict(d) for d in self.handler.log]
            rec["decisions"], rec["pinned"] = dec, list(self.handler.pinned)
            rec["n_candidates_max"] = max((len(d.get("offered") or ()) for d in dec), default=0)
            rec["fallbacks"] = self.handler.fallbacks()
            rec["selections"] = self.sel.summary()
            rec["multi_choice_gemm_calls"] = sum(1 for c in self.sel.calls
                                                 if c["name"] in FORCED_OPS and c["choices"] > 1)
            rec["counters"] = {k: counters["inductor"].get(k, 0) for k in run.COUNTER_KEYS}
            t = time.perf_counter()
            if self.cuda:
                run.warm_up(step)
                if a.phase == "train":
                    self.model.zero_grad(set_to_none=True)
                eager = profile(lambda: (step(), self.sync()), True, True)
                run_fn, method, graph = run.capture(step, a.phase, self.model)
                ms = run.time_runs(run_fn, a.steps)

                def replays():
                    for _ in range(a.replays):
                        run_fn()
                    self.sync()
                replay = profile(replays, True, False)
            else:
                ms, method = run.time_cpu(step, a.steps), "cpu-wall"
                eager = profile(step, False, True)
                replay = profile(lambda: [step() for _ in range(a.replays)], False, False)
            rec["measure_s"] = round(time.perf_counter() - t, 2)
            rec.update(run.spread(ms))
            rec["timing"] = method
            t = time.perf_counter()
            ev, rv = truth_trace.load(eager), truth_trace.load(replay)
            if not self.cuda:
                truth_trace.cpu_pseudo_kernels(ev)
                truth_trace.cpu_pseudo_kernels(rv)
            an = truth_trace.analyse(ev, rv, a.replays, dec, codes=codes)
            rec["analysis_s"] = round(time.perf_counter() - t, 2)
            rec["analysis"] = an
            rec["gemm_ms"] = an.get("gemm_ms")
            rec["nongemm_ms"] = (round(rec["step_ms"] - an["gemm_ms"], 6)
                                 if an["status"] == "ok" else None)
            rec["status"] = {"ok": "ok", "partial": "partial"}.get(an["status"], "unmapped")
            if prediction and prediction.get("step_ms"):
                rec["measured_over_predicted"] = round(rec["step_ms"] / prediction["step_ms"], 6)
            if prediction and prediction.get("naive_step_ms"):
                rec["measured_over_naive"] = round(rec["step_ms"] / prediction["naive_step_ms"], 6)
            for what, tr in (("eager", eager), ("replay", replay)):
                keep = self.traces_path(name, what, rec["status"] == "ok")
                if keep:
                    with gzip.open(keep, "wt", encoding="utf-8") as fh:
                        json.dump(tr, fh)
            if self.traces_path(name, "eager", True):
                self.kept_first = True
        except Exception as e:  # noqa: BLE001 - one record per variant, go on
            rec.update({"status": "error", "error": f"{type(e).__name__}: {str(e)[:500]}",
                        "traceback": traceback.format_exc()[-3000:]})
            if "decisions" not in rec:
                rec["decisions"] = [dict(d) for d in self.handler.log]
                rec["n_candidates_max"] = max((len(d.get("offered") or ())
                                               for d in rec["decisions"]), default=0)
        finally:
            cm = step = run_fn = graph = None  # noqa: F841 - free the graph's pool
            try:
                if a.phase == "train":      # grads captured in the graph's pool
                    self.model.zero_grad(set_to_none=True)
                torch._dynamo.reset()
                gc.collect()
                if self.cuda:
                    torch.cuda.empty_cache()
            except Exception as e:  # noqa: BLE001 - a broken context is found by broken()
                rec.setdefault("cleanup_error", f"{type(e).__name__}: {str(e)[:200]}")
        rec["wall_s"] = round(time.perf_counter() - t_all, 2)
        return rec

    def broken(self):
        """True when the CUDA context no longer works (after an error)."""
        if not self.cuda:
            return False
        try:
            x = self.torch.ones(4, device="cuda")
            self.torch.cuda.synchronize()
            return float(x.sum().item()) != 4.0
        except Exception:  # noqa: BLE001
            return True


def configure_inductor():
    """The Inductor settings every variant shares; what was set."""
    import torch._inductor.config as ic
    set_ = {}
    for name, v in (("fx_graph_cache", False), ("fx_graph_remote_cache", False),
                    ("autotune_remote_cache", False), ("bundled_autotune_remote_cache", False),
                    ("max_autotune_gemm_backends", "ATEN,TRITON")):
        if hasattr(ic, name):
            setattr(ic, name, v)
            set_[name] = v
    try:
        import torch._functorch.config as fc
        fc.enable_autograd_cache = False
        set_["functorch.enable_autograd_cache"] = False
    except (ImportError, AttributeError):
        pass
    return set_


def versions(args):
    import torch
    import transformers
    out = {"torch": torch.__version__, "transformers": transformers.__version__}
    try:
        import triton
        out["triton"] = triton.__version__
    except ImportError:
        out["triton"] = None
    if args.device == "cuda":
        from torch._inductor.utils import get_gpu_shared_memory
        p = torch.cuda.get_device_properties(0)
        out.update(gpu=p.name, capability=[p.major, p.minor],
                   shared_memory=int(get_gpu_shared_memory()))
    else:
        out.update(gpu="cpu", capability=None, shared_memory=None)
    return out


# ---- main ----------------------------------------------------------------------

def mixed(name, records):
    """(assign, prediction) of a mixed variant from this row's records."""
    tr = truth_model.Truth(records)
    assign = tr.best("step") if name == "mix:best" else tr.random(int(name.split(":")[2]))
    pred = tr.predict(assign)
    pred["variants_used"] = len(tr.records)
    pred["nongemm_spread"] = tr.nongemm_spread()
    return assign, pred


def line(rec, i, total):
    s = f"{rec['model']} {rec['phase']} {rec['variant']} ({i}/{total}): {rec['status']}"
    if rec["status"] in ("error", "skipped"):
        return s + f" {rec.get('error', rec.get('why', ''))[:300]}; {rec['wall_s']} s"
    an = rec.get("analysis") or {}
    slots = an.get("slots") or []
    s += (f", compile {rec.get('compile_s')} s, step {rec.get('step_ms', 0):.4f} ms"
          f" (p10 {rec.get('step_ms_p10', 0):.4f}, p90 {rec.get('step_ms_p90', 0):.4f}),"
          f" GEMM {rec.get('gemm_ms') or 0:.4f} ms in {len(slots)} slots"
          f" ({sum(x.get('status') == 'ok' and not x.get('check') for x in slots)} usable),"
          f" non-GEMM {rec['nongemm_ms']:.4f} ms" if rec.get("nongemm_ms") is not None else
          f", compile {rec.get('compile_s')} s, step {rec.get('step_ms', 0):.4f} ms,"
          f" mapping {an.get('status')}: {'; '.join(an.get('flags', []))[:300]}")
    if rec.get("fallbacks"):
        s += f", {rec['fallbacks']} fallbacks"
        err = next((d["error"] for d in rec.get("decisions") or () if d.get("error")), None)
        why = err or next((d["fallback"] for d in rec.get("decisions") or () if d.get("fallback")), "")
        s += f" (first: {why[:160]})"
    if rec.get("multi_choice_gemm_calls"):
        s += f", {rec['multi_choice_gemm_calls']} GEMM calls NOT forced to one choice"
    p = rec.get("prediction")
    if p and p.get("step_ms"):
        s += (f"; predicted {p['step_ms']:.4f} ms ({p['method']}), measured/predicted "
              f"{rec.get('measured_over_predicted', 0):.4f}, naive "
              f"{rec.get('measured_over_naive', 0):.4f}")
    return s + f"; {rec['wall_s']} s"


def main(argv):
    t_start = time.monotonic()
    p = argparse.ArgumentParser(prog="truth.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("out", metavar="OUT.jsonl")
    p.add_argument("--model", required=True)
    p.add_argument("--phase", required=True, choices=run.PHASES)
    p.add_argument("--models", default=os.path.join(HERE, "models.tsv"))
    p.add_argument("--layers", type=int, help="override the list's layers")
    p.add_argument("--steps", type=int, default=100, help="timed replays (>= 50)")
    p.add_argument("--replays", type=int, default=20, help="profiled replays (>= 3)")
    p.add_argument("--variants", default="ranks,mix")
    p.add_argument("--mix", default="best,random:1")
    p.add_argument("--time-limit", type=float, default=0.0, help="seconds (0: none)")
    p.add_argument("--pin", choices=("aten", "none"), default="aten")
    p.add_argument("--trace-dir")
    p.add_argument("--keep-traces", choices=("first", "all", "none"), default="first")
    p.add_argument("--retry-errors", action="store_true")
    p.add_argument("--no-isolate", action="store_true",
                   help="no rank:J@I variants after a failed rank:J")
    p.add_argument("--device", choices=("cuda", "cpu"), default="cuda")
    p.add_argument("--batch", type=int, help="override the phase's batch (dry runs)")
    p.add_argument("--seq", type=int, help="override the phase's seq (dry runs)")
    args = p.parse_args(argv)
    if args.steps < 50:
        p.error("--steps must be >= 50")
    if args.replays < 3:
        p.error("--replays must be >= 3")
    if args.layers is not None and args.layers < 1:
        p.error("--layers must be >= 1")
    try:
        items = parse_variants(args.variants, args.mix)
        row = run.select_row(args.models, args.model, args.batch, args.seq)
    except (ValueError, OSError, run.BadInput) as e:
        print(f"truth.py: {e}", file=sys.stderr)
        return EXIT_BAD
    shape = run.phase_shape(row, args.phase)
    if shape is None:
        say(f"{args.model} has no {args.phase} phase: nothing to do")
        return EXIT_DONE
    layers = args.layers or row["layers"]
    ident = (args.model, args.phase, layers, shape[0], shape[1], args.device)
    records = read_records(args.out, ident)
    setup_err = [r for r in records if r.get("variant") == "setup" and r.get("status") == "error"]
    if setup_err and not args.retry_errors:
        say(f"{args.model} {args.phase}: set-up failed before ({setup_err[-1].get('error', '')[:200]});"
            " skipped (--retry-errors to try again)")
        return EXIT_SETUP
    todo, unknown = plan(items, records, args.retry_errors, not args.no_isolate)
    if not todo:
        say(f"{args.model} {args.phase}: complete ({len(records)} records)")
        return EXIT_DONE
    base = dict(zip(ROW_FIELDS, ident), arch=row["arch"])
    if args.device == "cuda":
        # CUPTI is set up and stopped twice a variant with CUDA graphs in
        # between: keep it set up, as torch.profiler itself does where CUPTI
        # teardown and CUDA graphs crash (torch/profiler/profiler.py)
        for k, v in (("DISABLE_CUPTI_LAZY_REINIT", "1"), ("TEARDOWN_CUPTI", "0")):
            os.environ.setdefault(k, v)
            base[f"env_{k}"] = os.environ[k]
    t = time.monotonic()
    try:
        base.update(versions(args))
        rowm = Row(args, row, base)
    except Exception as e:  # noqa: BLE001 - the row cannot run at all
        rec = dict(base, variant="setup", status="error",
                   error=f"{type(e).__name__}: {str(e)[:500]}",
                   traceback=traceback.format_exc()[-3000:])
        append_record(args.out, rec)
        say(f"{args.model} {args.phase}: set-up failed: {rec['error'][:300]}")
        return EXIT_SETUP
    base["setup_s"] = round(time.monotonic() - t, 2)
    base["inductor_settings"] = rowm.settings
    base["compile_options"] = rowm.opts
    say(f"{args.model} {args.phase} (layers {layers}, batch {shape[0]}, seq {shape[1]}, "
        f"{base.get('gpu')}): {len(records)} records, to do {' '.join(todo[:6])}"
        + (" ..." if len(todo) > 6 else "") + f" ({len(todo)}"
        + (", more ranks once the candidate count is known" if unknown else "") + ")"
        + f"; set-up {base['setup_s']} s")
    walls = [r["wall_s"] for r in records if r.get("wall_s") and r.get("variant") != "setup"]
    done_here = 0
    while todo:
        v = todo[0]
        used = time.monotonic() - t_start
        est = max(walls) if walls else None
        if args.time_limit and est is not None and used + 1.1 * est > args.time_limit:
            say(f"{args.model} {args.phase}: stopped by --time-limit {args.time_limit:.0f} s "
                f"({used:.0f} s used, a variant takes up to {est:.0f} s); {len(todo)} variants "
                "left: call again with the same OUT to go on")
            return EXIT_TIME
        assign = pred = None
        if v.startswith("mix:"):
            assign, pred = mixed(v, records)
        elif "@" in v:
            assign = isolated_assign(records, v)
        if v.startswith("mix:") and not assign:
            rec = dict(base, variant=v, status="skipped", wall_s=0.0,
                       why="no GEMM key has an in-graph time yet")
        else:
            rec = rowm.variant(v, assign, pred)
        append_record(args.out, rec)
        records.append(rec)
        walls.append(rec["wall_s"])
        done_here += 1
        todo, unknown = plan(items, records, args.retry_errors, not args.no_isolate)
        mean = statistics.fmean(walls)
        left = args.time_limit - (time.monotonic() - t_start) if args.time_limit else None
        say(line(rec, done_here, done_here + len(todo))
            + f" | ETA: {len(todo)} variants x {mean:.0f} s = {len(todo) * mean / 60:.1f} min"
            + (f" ({left / 60:.1f} min of the limit left)" if left is not None else ""))
        if rec["status"] == "error" and rowm.broken():
            say(f"{args.model} {args.phase}: the CUDA context is broken after {v}; "
                "run again (a fresh process) to go on")
            return EXIT_RESTART
        if unknown and not any(x.startswith("rank:") for x in todo):
            say(f"{args.model} {args.phase}: no candidate count (every rank variant so far "
                "failed before its GEMMs were decided); ranks stop here")
    say(f"{args.model} {args.phase}: complete ({len(records)} records)")
    return EXIT_DONE


if __name__ == "__main__":
    rc = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)   # skip the compile workers' and CUDA's teardown
