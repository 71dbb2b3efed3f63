#!/usr/bin/env python3
"""run.py — one record of the whole-model judge: one model
x phase x mode x rep, in this process, appended to OUT.jsonl.  Needs torch,
transformers and a CUDA GPU; perf/models/run.sh drives the matrix.

usage: run.py --model NAME --phase prefill|decode|train --mode a|b|c|d|e|f
              --rep R OUT.jsonl [--models FILE] [--artifact FILE.py]
              [--autotune full|nocoordesc|gemm] [--layers N] [--steps N]
              [--collect-log FILE] [--device cpu --batch N --seq N]

The model: perf/models/models.tsv's row NAME, built from its transformers
*Config class with the published sizes (num_hidden_layers = layers, dropout
0 so that steps are deterministic and graph-capturable), random weights on
the GPU, nothing downloaded.  arch hf:<model_type> (e.g. hf:phi3, hf:qwen3;
perf/models/models-more.tsv) is any causal LM of transformers:
AutoConfig.for_model(model_type) with the row's sizes as num_hidden_layers,
hidden_size, num_attention_heads, num_key_value_heads, intermediate_size,
vocab_size, max_position_embeddings (a config that names one otherwise is
refused), built by its AutoModelForCausalLM class.  Phases:
  prefill  forward of batch x seq tokens (use_cache=False, logits of every
           position), bf16 weights, no_grad
  decode   forward of batch x 1 token, use_cache=False: every linear layer's
           GEMM has m = batch as in decoding; attention sees one token (no
           KV cache: its cost is not that of a real decode step)
  train    one AMP step: fp32 weights, autocast bf16, forward with labels,
           loss.backward(); no optimizer step; grads set to None before
           the graph capture (so they live in the graph's pool)
Modes (torch.compile(model, dynamic=False, mode=...)):
  a  mode="default"
  b  mode="max-autotune-no-cudagraphs": full max-autotune
  c  b + autoheuristic_use="mm", the controller's mm list = torch's shipped
     MMRankingH100 (its precondition holds on an H200 too)
  d  b + autoheuristic_use="mm" with --artifact (our _MMRanking<GPU>.py)
  e  b + mmrank.inductor.install(k="auto", artifact)
  f  b + install(k=1)
  (e, f: the handler's variables in the environment are passed on:
  MMRANK_INDUCTOR_EXTRA=1 adds extra=True, the 10 mm-ah configs the tree was
  trained on; MMRANK_INDUCTOR_UNRANKED=drop, MMRANK_INDUCTOR_ATEN=listed
  (f with both: one kernel per GEMM, no Triton autotuning; docs/INDUCTOR.md); the record's
  handler stats say which)
--autotune (modes b..f): full = max-autotune-no-cudagraphs (max_autotune and
coordinate_descent_tuning); nocoordesc = max_autotune without coordinate
descent; gemm = GEMM-only max-autotune (max_autotune_gemm: no pointwise
autotuning, no coordinate descent).  Recorded as "autotune" and
"compile_options".
CUDA graphs in every mode, the same way: Inductor's own cudagraphs are off
(no "reduce-overhead"/"max-autotune" cudagraph trees), and after compiling,
one whole step (the compiled call, and for train its backward) is captured
into a torch.cuda.CUDAGraph; the step time is its replay, timed one replay
at a time with CUDA events (10 warm-up replays first), --steps replays
(fewer, never under 50, where they would take over 2 s): median, p10, p90,
min, max (ms).  A capture failure falls back to timing the
compiled call itself ("timing": "events-eager").
compile_s: wall seconds of the first call (dynamo + Inductor + autotuning
+ Triton compiles; for train the first forward and backward).  The caches
are those of TORCHINDUCTOR_CACHE_DIR / TRITON_CACHE_DIR as the caller set
them (run.sh: fresh for rep 1, "cache": "cold"; the same folders reused by
reps 2.., "warm").
Counts: torch._dynamo counters["inductor"] (select_algorithm_autotune: GEMM
autotunings; select_algorithm_num_precompiles: choices compiled;
benchmarking.InductorBenchmarker.benchmark_gpu: choices timed;
coordesc_tuning_bench), counters["aten_mm_info"] (GEMM shapes), and per
select_algorithm call its name, choice count and how many were benchmarked;
"selections" times the GEMM selection per name: choices_s (building the
choices: template codegen, InductorChoices.get_template_configs), select_s
(the AlgorithmSelectorCache call), autotune_s (precompile + benchmarking,
do_autotuning, also when deferred to epilogue-fusion benchmarking), bench_s
and precompile_s (Inductor's own log_results figures); gemm_choices_s and
gemm_autotune_s sum them over the GEMM names: the compile time a GEMM
heuristic can save, without coordinate descent and pointwise autotuning.
"autotuned": per GEMM autotuning (Inductor's feedback hook), op, m, k, n,
dtype, mat1/mat2 strides and each benchmarked choice's time by AutoHeuristic
id (ms; null for inf): mode b's winners, against which perf/models/gap.py scores e's lists.
"phases_s": seconds of import, setup, build and timing (capture + replays);
modes e/f add the handler's stats() (decisions per op, mean k, fallbacks).
--collect-log FILE: autoheuristic_collect="mm" and that log path (as
TORCHINDUCTOR_AUTOHEURISTIC_COLLECT=mm does; the log is an AutoHeuristic mm
log that make heuristic takes as an extra set); meaningful in mode b.
Exit status 0 when a record was written (also one with "status": "error");
1 on bad arguments.
"""
import argparse
import os
import statistics
import sys
import time
import traceback

import records   # this script's folder: model names and record files

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MODES = records.MODES
PHASES = records.PHASES
COLUMNS = ("name", "arch", "layers", "hidden", "heads", "kv_heads", "ffn", "vocab", "max_pos",
           "prefill_batch", "prefill_seq", "decode_batch", "train_batch", "train_seq", "gemms")
COUNTER_KEYS = ("select_algorithm_autotune", "select_algorithm_num_precompiles",
                "select_algorithm_precompile", "benchmarking.InductorBenchmarker.benchmark_gpu",
                "coordesc_tuning_bench")


class BadInput(Exception):
    pass


def read_models(path):
    """name -> row dict; every error names path:line:field."""
    rows, head = {}, None
    with open(path, encoding="utf-8") as fh:
        for ln, line in enumerate(fh, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            f = line.split("\t")
            if head is None:
                head = f
                missing = [c for c in COLUMNS if c not in head]
                if missing:
                    raise BadInput(f"{path}:{ln}: header lacks column '{missing[0]}'")
                continue
            if len(f) != len(head):
                raise BadInput(f"{path}:{ln}: {len(f)} fields, the header has {len(head)}")
            r = dict(zip(head, f))
            why = records.name_error(r["name"])
            if why:
                raise BadInput(f"{path}:{ln}:name: {why}")
            for c in COLUMNS[2:-1]:
                v = r[c]
                n = None if v == "-" else records.positive_int(v)
                if v != "-" and n is None:
                    raise BadInput(f"{path}:{ln}:{c}: {records.shown(v)} is not a positive integer "
                                   "(ASCII digits, at most 9) or '-'")
                r[c] = n
            why = arch_error(r["arch"])
            if why:
                raise BadInput(f"{path}:{ln}:arch: {why}")
            if r["name"] in rows:
                raise BadInput(f"{path}:{ln}:name: '{r['name']}' twice")
            rows[r["name"]] = r
    return rows


# ---- models ----------------------------------------------------------------

def _cfg_gpt2(t, r):
    return t.GPT2Config(n_layer=r["layers"], n_embd=r["hidden"], n_head=r["heads"],
                        n_inner=r["ffn"], vocab_size=r["vocab"], n_positions=r["max_pos"],
                        resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0), "GPT2LMHeadModel"


def _cfg_bert(t, r):
    return t.BertConfig(num_hidden_layers=r["layers"], hidden_size=r["hidden"],
                        num_attention_heads=r["heads"], intermediate_size=r["ffn"],
                        vocab_size=r["vocab"], max_position_embeddings=r["max_pos"],
                        hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0), "BertForMaskedLM"


def _cfg_vit(t, r):
    return t.ViTConfig(num_hidden_layers=r["layers"], hidden_size=r["hidden"],
                       num_attention_heads=r["heads"], intermediate_size=r["ffn"],
                       image_size=224, patch_size=16, num_labels=1000,
                       hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0), \
        "ViTForImageClassification"


def _cfg_opt(t, r):
    return t.OPTConfig(num_hidden_layers=r["layers"], hidden_size=r["hidden"],
                       num_attention_heads=r["heads"], ffn_dim=r["ffn"], vocab_size=r["vocab"],
                       max_position_embeddings=r["max_pos"], word_embed_proj_dim=r["hidden"],
                       dropout=0.0, attention_dropout=0.0, activation_dropout=0.0), "OPTForCausalLM"


def _decoder(cls_cfg, cls_model):
    def make(t, r):
        kw = dict(num_hidden_layers=r["layers"], hidden_size=r["hidden"],
                  num_attention_heads=r["heads"], intermediate_size=r["ffn"],
                  vocab_size=r["vocab"], max_position_embeddings=r["max_pos"],
                  attention_dropout=0.0)
        if r["kv_heads"]:
            kw["num_key_value_heads"] = r["kv_heads"]
        return getattr(t, cls_cfg)(**kw), cls_model
    return make


ARCHS = {"gpt2": _cfg_gpt2, "bert": _cfg_bert, "vit": _cfg_vit, "opt": _cfg_opt,
         "llama": _decoder("LlamaConfig", "LlamaForCausalLM"),
         "qwen2": _decoder("Qwen2Config", "Qwen2ForCausalLM"),
         "mistral": _decoder("MistralConfig", "MistralForCausalLM")}


HF = "hf:"   # arch hf:<model_type>: any causal LM of transformers, by its model_type


def _causal_lm_names():
    """transformers' model_type -> causal-LM class name, or None without
    transformers (then only the form of an hf: arch is checked)."""
    try:
        from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
    except ImportError:
        return None
    return MODEL_FOR_CAUSAL_LM_MAPPING_NAMES


def arch_error(arch):
    """Why ARCH is not an arch run.py builds, or None."""
    if arch in ARCHS:
        return None
    listed = f"'{arch}' is none of {', '.join(ARCHS)}, or hf:<model_type> (a transformers causal LM)"
    if not arch.startswith(HF):
        return listed
    mt = arch[len(HF):]
    if not mt or not all(c.isalnum() or c in "_-" for c in mt):
        return listed
    names = _causal_lm_names()
    if names is not None and mt not in names:
        return f"'{arch}': transformers has no causal LM of model_type '{mt}'"
    return None


SIZES = (("layers", "num_hidden_layers"), ("hidden", "hidden_size"),
         ("heads", "num_attention_heads"), ("kv_heads", "num_key_value_heads"),
         ("ffn", "intermediate_size"), ("vocab", "vocab_size"),
         ("max_pos", "max_position_embeddings"))


def _cfg_hf(t, r):
    """AutoConfig.for_model(model_type) with the list's sizes under the common
    config names (a config that keeps one under another name is refused),
    every dropout probability 0; its causal-LM class."""
    mt = r["arch"][len(HF):]
    kw = {name: r[col] for col, name in SIZES if r[col] is not None}
    cfg = t.AutoConfig.for_model(mt, **kw)
    for name, v in kw.items():
        if getattr(cfg, name, None) != v:
            raise BadInput(f"arch {r['arch']}: its config does not take {name}")
    for name, v in cfg.to_dict().items():
        if ("dropout" in name or "pdrop" in name) and isinstance(v, float):
            setattr(cfg, name, 0.0)
    return cfg, _causal_lm_names()[mt]


def phase_shape(r, phase):
    """(batch, seq) of the phase, or None when the model does not run it."""
    if phase == "prefill":
        b, s = r["prefill_batch"], r["prefill_seq"]
    elif phase == "decode":
        b, s = r["decode_batch"], 1
    else:
        b, s = r["train_batch"], r["train_seq"]
    return None if b is None or s is None else (b, s)


def build(r, phase, layers=None, device="cuda"):
    """(model on cuda, inputs dict, labels or None)."""
    import torch
    import transformers as t
    if layers:
        r = dict(r, layers=layers)
    cfg, cls = (_cfg_hf if r["arch"].startswith(HF) else ARCHS[r["arch"]])(t, r)
    b, s = phase_shape(r, phase)
    torch.manual_seed(0)
    with torch.device(device):
        model = getattr(t, cls)(cfg)
    if phase == "train":
        model.train()
    else:
        model.eval()
        model.to(torch.bfloat16)
    g = torch.Generator(device=device).manual_seed(1)
    if r["arch"] == "vit":
        dt = torch.float32 if phase == "train" else torch.bfloat16
        inputs = {"pixel_values": torch.randn(b, 3, 224, 224, device=device, dtype=dt, generator=g)}
        labels = torch.randint(0, 1000, (b,), device=device, generator=g)
    else:
        ids = torch.randint(0, r["vocab"], (b, s), device=device, generator=g)
        inputs = {"input_ids": ids}
        if r["arch"] != "bert":
            inputs["use_cache"] = False
        labels = ids.clone() if phase == "train" else None
    return model, inputs, labels


def make_step(cm, phase, inputs, labels, device="cuda"):
    import torch
    if phase == "train":
        def step():
            with torch.autocast(device, dtype=torch.bfloat16):
                out = cm(**inputs, labels=labels)
            out.loss.backward()
            return out.loss
    else:
        def step():
            with torch.no_grad():
                return cm(**inputs)
    return step


# ---- modes -----------------------------------------------------------------

def setup_mode(mode, artifact):
    """Configure Inductor for MODE; returns (compile mode, handler or None)."""
    import torch._inductor.config as icfg
    handler = None
    if mode == "a":
        return "default", None
    if mode in ("c", "d"):
        from mmrank import artifact as art
        from mmrank.install_artifact import set_mm_heuristics
        icfg.autoheuristic_use = "mm"
        if mode == "c":
            from torch._inductor.autoheuristic.artifacts._MMRankingH100 import MMRankingH100
            set_mm_heuristics([MMRankingH100()])
        else:
            set_mm_heuristics([art.load(artifact)[0]])
    elif mode in ("e", "f"):
        from mmrank import inductor
        handler = inductor.install(k="auto" if mode == "e" else 1, artifact=artifact,
                                   extra=inductor.env_flag("MMRANK_INDUCTOR_EXTRA"),
                                   unranked=inductor.env_unranked(), aten=inductor.env_aten())
    return "max-autotune-no-cudagraphs", handler


class Selections:
    """What Inductor's GEMM selection did, per select_algorithm name (mm,
    addmm, ...): calls, choices, Triton choices, calls with more than one
    choice; seconds building the choices (InductorChoices.
    get_template_configs: template codegen), seconds in select (the
    AlgorithmSelectorCache call), seconds of precompile + benchmarking
    (do_autotuning, wherever it runs: in the call or deferred to the
    scheduler's epilogue-fusion benchmarking), and Inductor's own logged
    benchmarking / precompile seconds (log_results)."""

    def __init__(self):
        from torch._inductor import select_algorithm as sa
        from torch._inductor.choices import InductorChoices
        self.calls, self.bench = [], []
        self.secs = {}          # name -> {choices_s, select_s, autotune_s, bench_s, precompile_s}
        rec = self
        cls = sa.AlgorithmSelectorCache
        orig_call, orig_bench = cls.__call__, cls.benchmark
        orig_do, orig_log = cls.do_autotuning, cls.log_results
        orig_cfg = InductorChoices.get_template_configs

        def add(name, key, dt):
            d = rec.secs.setdefault(str(name), {})
            d[key] = d.get(key, 0.0) + dt

        def call(selector, name, choices, *a, **kw):
            rec.calls.append({"name": name, "choices": len(choices),
                              "triton": sum(type(c).__name__ == "TritonTemplateCaller" for c in choices)})
            t0 = time.perf_counter()
            try:
                return orig_call(selector, name, choices, *a, **kw)
            finally:
                add(name, "select_s", time.perf_counter() - t0)

        def bench(selector, choices, *a, **kw):
            rec.bench.append(len(choices))
            return orig_bench(selector, choices, *a, **kw)

        def do(selector, name, *a, **kw):
            t0 = time.perf_counter()
            try:
                return orig_do(selector, name, *a, **kw)
            finally:
                add(name, "autotune_s", time.perf_counter() - t0)

        def log_results(name, input_nodes, timings, elapse, precompile_elapse, *a, **kw):
            add(name, "bench_s", float(elapse))
            add(name, "precompile_s", float(precompile_elapse))
            return orig_log(name, input_nodes, timings, elapse, precompile_elapse, *a, **kw)

        def get_cfg(choices_self, kernel_inputs, templates, op_name, *a, **kw):
            t0 = time.perf_counter()
            try:
                return orig_cfg(choices_self, kernel_inputs, templates, op_name, *a, **kw)
            finally:
                add(op_name, "choices_s", time.perf_counter() - t0)
        cls.__call__, cls.benchmark, cls.do_autotuning = call, bench, do
        cls.log_results = staticmethod(log_results)
        InductorChoices.get_template_configs = get_cfg
        self.tuned = []         # one entry per GEMM autotuning: what was timed
        sa.add_feedback_saver(self.saver)

    def reset(self):
        """Forget what was recorded (one instance per process: each one
        wraps Inductor's methods once more)."""
        self.calls.clear()
        self.bench.clear()
        self.secs.clear()
        self.tuned.clear()

    def saver(self, timings, name, input_nodes, *a):
        """Inductor's feedback hook (select_algorithm.add_feedback_saver):
        the times of every choice benchmarked for a GEMM, by the choice's
        AutoHeuristic id (extern_mm, type=triton_BLOCK-M=...), in ms."""
        if name not in GEMM_NAMES or len(self.tuned) >= 400:
            return
        self.tuned.append(autotuning_entry(name, input_nodes, timings))

    def summary(self):
        by = {}
        for c in self.calls:
            d = by.setdefault(c["name"], {"calls": 0, "choices": 0, "triton": 0, "multi": 0})
            d["calls"] += 1
            d["choices"] += c["choices"]
            d["triton"] += c["triton"]
            d["multi"] += c["choices"] > 1
        secs = {n: {k: round(v, 3) for k, v in d.items()} for n, d in self.secs.items()}
        for n, d in secs.items():
            by.setdefault(n, {}).update(d)
        gemm = [d for n, d in secs.items() if n in GEMM_NAMES]
        return {"by_name": by, "benchmark_calls": len(self.bench),
                "choices_benchmarked": sum(self.bench),
                "gemm_choices_s": round(sum(d.get("choices_s", 0) for d in gemm), 3),
                "gemm_autotune_s": round(sum(d.get("autotune_s", 0) for d in gemm), 3),
                "gemm_select_s": round(sum(d.get("select_s", 0) for d in gemm), 3)}


GEMM_NAMES = ("mm", "addmm", "bmm", "baddbmm", "mm-ah", "int_mm", "scaled_mm", "mm_plus_mm")


def choice_id(c):
    try:
        return c.autoheuristic_id()
    except Exception:  # noqa: BLE001 - a choice kind without one
        return getattr(c, "name", type(c).__name__)


def autotuning_entry(name, input_nodes, timings):
    """{op, m, k, n, dtype, strides, ms: {choice id: ms}} of one GEMM
    autotuning: m, k from the second-to-last input (mat1), n from the last
    (mat2), as the handler's log has them (its "kept" list is then
    comparable); strides [mat1's, mat2's] (what the AutoHeuristic context
    also reads, so a list can be replayed offline)."""
    def size(node):
        try:
            return [int(x) for x in node.get_size()]
        except Exception:  # noqa: BLE001 - symbolic sizes
            return None
    def stride(node):
        try:
            return [int(x) for x in node.get_stride()]
        except Exception:  # noqa: BLE001 - symbolic or no layout
            return None
    a = size(input_nodes[-2]) if len(input_nodes) >= 2 else None
    b = size(input_nodes[-1]) if input_nodes else None
    ms = {}
    for c, t in timings.items():
        t = float(t)
        ms[choice_id(c)] = round(t, 6) if t == t and t != float("inf") else None
    return {"op": name, "m": a[-2] if a else None, "k": a[-1] if a else None,
            "n": b[-1] if b else None,
            "dtype": str(input_nodes[-1].get_dtype()) if input_nodes else None,
            "strides": [stride(x) for x in input_nodes[-2:]], "ms": ms}


# ---- timing ----------------------------------------------------------------

def warm_up(step):
    """Three steps on a side stream (as torch.cuda.graphs asks before a capture)."""
    import torch
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        for _ in range(3):
            step()
    torch.cuda.current_stream().wait_stream(s)
    torch.cuda.synchronize()


def capture(step, phase, model):
    """(run, method, graph): one step captured into a torch.cuda.CUDAGraph,
    run = its replay; a failed capture gives run = step itself, method
    "events-eager (capture failed: ...)" and graph None."""
    import torch
    try:
        if phase == "train":
            model.zero_grad(set_to_none=True)
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            step()
        g.replay()
        torch.cuda.synchronize()
        return g.replay, "cuda-graph", g
    except Exception as e:  # noqa: BLE001 - record and time eagerly
        torch.cuda.synchronize()
        return step, f"events-eager (capture failed: {type(e).__name__}: {str(e)[:200]})", None


def time_runs(run, steps, budget_ms=2000.0):
    """ms per call of RUN, one CUDA-event pair each, after 10 warm-up calls:
    STEPS calls, fewer (never under 50) when they would take over BUDGET_MS."""
    import torch
    t0 = time.perf_counter()
    for _ in range(10):
        run()
    torch.cuda.synchronize()
    est_ms = (time.perf_counter() - t0) * 100      # per replay
    steps = max(50, min(steps, int(budget_ms / max(est_ms, 1e-3))))
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
          for _ in range(steps)]
    for a, b in ev:
        a.record()
        run()
        b.record()
    torch.cuda.synchronize()
    return [a.elapsed_time(b) for a, b in ev]


def time_cpu(step, steps):
    """The --device cpu dry run: wall ms per call, after one warm-up call."""
    step()
    ms = []
    for _ in range(steps):
        t0 = time.perf_counter()
        step()
        ms.append((time.perf_counter() - t0) * 1e3)
    return ms


def time_steps(step, phase, model, steps, device="cuda", budget_ms=2000.0):
    """(list of ms per step, method): CUDA-graph replays, or eager calls;
    STEPS replays, fewer (never under 50) when they would take over
    BUDGET_MS."""
    if device == "cpu":
        return time_cpu(step, steps), "cpu-wall"
    warm_up(step)
    run, method, _graph = capture(step, phase, model)
    return time_runs(run, steps, budget_ms), method


def spread(ms):
    q = statistics.quantiles(ms, n=10)
    return {"step_ms": statistics.median(ms), "step_ms_p10": q[0], "step_ms_p90": q[-1],
            "step_ms_min": min(ms), "step_ms_max": max(ms), "n_steps": len(ms)}


# ---- main ------------------------------------------------------------------

def measure(args, row, rec):
    ph = rec.setdefault("phases_s", {})
    t = time.perf_counter()
    import torch
    import transformers
    from torch._dynamo.utils import counters
    import triton
    rec.update({"torch": torch.__version__, "transformers": transformers.__version__,
                "triton": triton.__version__})
    if args.device == "cuda":
        p = torch.cuda.get_device_properties(0)
        rec.update({"device": p.name, "capability": f"{p.major}.{p.minor}"})
    else:
        rec["device"] = "cpu"
    ph["import"] = round(time.perf_counter() - t, 2)
    t = time.perf_counter()
    if args.collect_log:
        import torch._inductor.config as icfg
        icfg.autoheuristic_collect = "mm"
        icfg.autoheuristic_log_path = os.path.abspath(args.collect_log)
    cmode, handler = setup_mode(args.mode, args.artifact)
    opts = compile_options(cmode, args.autotune)
    rec["compile_mode"] = cmode
    rec["autotune"] = args.autotune if cmode != "default" else "-"
    rec["compile_options"] = opts
    if handler is not None:
        rec["artifact"] = handler.artifact_path
    ph["setup"] = round(time.perf_counter() - t, 2)
    t = time.perf_counter()
    model, inputs, labels = build(row, args.phase, args.layers, args.device)
    ph["build"] = round(time.perf_counter() - t, 2)
    sel = Selections()
    counters.clear()
    if opts is None:
        cm = torch.compile(model, mode=cmode, dynamic=False)
    else:
        cm = torch.compile(model, options=opts, dynamic=False)
    step = make_step(cm, args.phase, inputs, labels, args.device)
    sync = torch.cuda.synchronize if args.device == "cuda" else (lambda: None)
    sync()
    t0 = time.perf_counter()
    out = step()
    sync()
    rec["compile_s"] = round(time.perf_counter() - t0, 3)
    if args.phase == "train":
        rec["loss"] = float(out.detach())
    rec["counters"] = {k: counters["inductor"].get(k, 0) for k in COUNTER_KEYS}
    rec["aten_mm_info"] = dict(counters["aten_mm_info"])
    rec["selections"] = sel.summary()
    rec["autotuned"] = sel.tuned
    for k in ("gemm_choices_s", "gemm_autotune_s", "gemm_select_s"):
        rec[k] = rec["selections"][k]
    if handler is not None:
        rec["handler"] = handler.stats()
        rec["handler_log"] = handler.log[:200]
    del out
    t = time.perf_counter()
    ms, method = time_steps(step, args.phase, model, args.steps, args.device)
    ph["timing"] = round(time.perf_counter() - t, 2)
    rec.update(spread(ms))
    rec["timing"] = method
    if args.device == "cuda":
        rec["peak_mem_gb"] = round(torch.cuda.max_memory_allocated() / 2**30, 2)
    rec["status"] = "ok"


def select_row(models_path, model, batch=None, seq=None):
    """MODEL's row of the list MODELS_PATH, with BATCH / SEQ (dry runs) for
    every phase the model runs; BadInput names what is wrong."""
    models = read_models(models_path)
    if model not in models:
        raise BadInput(f"--model {model}: not in {models_path} ({', '.join(models)})")
    row = dict(models[model])
    for ph in PHASES:
        if batch and row[f"{ph}_batch"]:
            row[f"{ph}_batch"] = batch
        if seq and ph != "decode" and row[f"{ph}_seq"]:
            row[f"{ph}_seq"] = seq
    return row


def compile_options(cmode, autotune):
    """None: torch.compile(mode=cmode); else the options dict replacing
    max-autotune-no-cudagraphs (list_mode_options: max_autotune and
    coordinate_descent_tuning) for AUTOTUNE nocoordesc / gemm."""
    if cmode == "default" or autotune == "full":
        return None
    if autotune == "nocoordesc":
        return {"max_autotune": True, "coordinate_descent_tuning": False}
    return {"max_autotune_gemm": True, "coordinate_descent_tuning": False}


def count_arg(text):
    """argparse type: a positive integer, as records.positive_int reads one."""
    n = records.positive_int(text)
    if n is None:
        raise argparse.ArgumentTypeError(f"{records.shown(text)}: expected a positive integer "
                                         "(ASCII digits, at most 9)")
    return n


def main(argv):
    p = argparse.ArgumentParser(prog="run.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("out", metavar="OUT.jsonl")
    p.add_argument("--model", required=True)
    p.add_argument("--phase", required=True, choices=PHASES)
    p.add_argument("--mode", required=True, choices=MODES)
    p.add_argument("--rep", type=count_arg, default=1)
    p.add_argument("--models", default=os.path.join(HERE, "models.tsv"))
    p.add_argument("--artifact", default=os.environ.get("ARTIFACT",
                                                         os.path.join(ROOT, "gen", "_MMRankingH200.py")))
    p.add_argument("--layers", type=count_arg, help="override the list's layers")
    p.add_argument("--steps", type=count_arg, default=100, help="timed replays (>= 50)")
    p.add_argument("--collect-log")
    p.add_argument("--autotune", choices=("full", "nocoordesc", "gemm"), default="full",
                   help="max-autotune modes b..f: full (max-autotune-no-cudagraphs), nocoordesc "
                        "(coordinate_descent_tuning off), gemm (max_autotune_gemm only: "
                        "GEMM-only max-autotune, no pointwise autotuning, no coordinate descent)")
    p.add_argument("--device", choices=("cuda", "cpu"), default="cuda",
                   help="cpu: a dry run of the code path (tests; modes a, b only)")
    p.add_argument("--batch", type=count_arg, help="override the phase's batch (dry runs)")
    p.add_argument("--seq", type=count_arg, help="override the phase's seq (dry runs)")
    args = p.parse_args(argv)
    if args.steps < 50:
        p.error("--steps must be >= 50")
    why = records.name_error(args.model)
    if why:
        p.error(f"--model: {why}")
    try:
        row = select_row(args.models, args.model, args.batch, args.seq)
    except (OSError, BadInput) as e:
        print(f"run.py: {e}", file=sys.stderr)
        return 1
    rec = {"model": args.model, "phase": args.phase, "mode": args.mode, "rep": args.rep,
           "arch": row["arch"], "layers": args.layers or row["layers"],
           "cache": os.environ.get("MMRANK_CACHE_STATE", "unknown"),
           "started": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    shape = phase_shape(row, args.phase)
    if shape is None:
        rec.update({"status": "skipped", "why": f"{args.model} has no {args.phase} phase"})
    else:
        rec["batch"], rec["seq"] = shape
        t0 = time.perf_counter()
        try:
            measure(args, row, rec)
        except Exception as e:  # noqa: BLE001 - one record per attempt
            rec.update({"status": "error", "error": f"{type(e).__name__}: {str(e)[:500]}",
                        "traceback": traceback.format_exc()[-2000:]})
        rec["wall_s"] = round(time.perf_counter() - t0, 2)
    records.append(args.out, rec)
    print(f"run.py: {args.model} {args.phase} {args.mode} rep {args.rep}: {rec['status']}"
          + (f" compile {rec.get('compile_s')} s (GEMM autotune {rec.get('gemm_autotune_s')} s,"
             f" choices {rec.get('gemm_choices_s')} s) step {rec.get('step_ms', 0):.4f} ms"
             f" x{rec.get('n_steps')}; " + " ".join(f"{k} {v} s" for k, v in rec.get("phases_s", {}).items())
             + f"; wall {rec.get('wall_s')} s"
             if rec["status"] == "ok" else f" {rec.get('error', rec.get('why', ''))}"),
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    rc = main(sys.argv[1:])
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(rc)   # the record is written: skip the compile workers' and CUDA's teardown
