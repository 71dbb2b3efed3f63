"""mmrank.inductor — an Inductor choices handler that autotunes only the top k
of a generated mmrank ranking for mm and addmm (torch 2.11).

    import mmrank.inductor
    mmrank.inductor.install(k="auto")     # or k=3; artifact="out/h200/_MMRankingH200.py"
    ...torch.compile(model, mode="max-autotune")...
    mmrank.inductor.uninstall()

or, at import: MMRANK_INDUCTOR=auto|<int> (MMRANK_ARTIFACT=file-or-dir).
`python -m mmrank.inductor` says which artifact this GPU would use, or why
none.  Importing this module needs torch (an ImportError naming torch
without it); importing the package mmrank does not.

What it does.  Inductor builds each GEMM's candidates in
InductorChoices.get_template_configs and lets a subclass edit them in
_finalize_template_configs (torch/_inductor/choices.py) before any kernel is
generated.  This module's MMRankChoices overrides that method; for op_name
"mm" and "addmm" only (every other op, bmm included, is left as it is):
  1. it takes the choices Inductor made (super()), i.e. max-autotune's own
     list: the "triton::mm" template's configs (CUDA: 20 before dedup);
     AutoHeuristic's 10 extra "mm-ah" configs are added to the ranked pool
     only with extra=True (MMRANK_INDUCTOR_EXTRA=1 at import);
  2. it builds the AutoHeuristic mm context from kernel_inputs the way
     kernel/mm.py mm_autoheuristic does (size and stride hints of mat1/mat2,
     dtypes, is_contiguous, using_tf32 from context_add_using_tf32, then
     mm_operations()); for addmm that is the context of its mat1 @ mat2;
  3. it names each triton::mm choice by its AutoHeuristic id
     type=triton_BLOCK-M=.._BLOCK-K=.._BLOCK-N=.._numstages=.._numwarps=..
     (select_algorithm.py TritonTemplateCaller.autoheuristic_id, from the
     same kwargs), the ATen choice(s) by "extern_mm";
  4. it ranks with the artifact's get_decisions_ranked, keeps the ranked ids
     that are offered (as AutoHeuristic's controller does), and cuts the
     list to k entries, extern_mm counting as an entry (k=1 with a leaf
     that starts with extern_mm autotunes no Triton kernel);
  5. it returns, in Inductor's order: the ATen choices, the kept
     triton::mm choices (one per id), and
     the choices of every template the tree does not rank (decompose_k,
     persistent TMA, contiguous, ...) — kept with unranked="keep";
     unranked="drop" removes them.
  The ATen choices: mm's, or addmm's bias_addmm; where Inductor offers
  bias_addmm the plain addmm is left out (stats()["plain_addmm_dropped"]):
  in the graph it copies the expanded bias and then runs the GEMM, 1.14-1.61x
  bias_addmm on the H100 truth, while Inductor's autotune benchmark times
  bias_addmm slow and would take it (docs/RESULTS.md section 10.6).
  aten="always" keeps them; aten="listed" keeps them only where
  extern_mm is among the k kept entries, and at k=1 keeps the leaf's pick
  (the artifact's get_pick, trained to run alone) in place of the list head
  where it is offered (stats()["picked"]).  So k=1 with unranked="drop"
  leaves one choice, which Inductor does not autotune
  (stats()["single_choice"]).
  aten="auto" and unranked="auto" (the defaults; resolve(), per GEMM): at
  k=1 (an int 1, or k="auto" where the leaf's get_top_k is 1), on an
  artifact whose class attribute truth is True, for a context
  whose leaf get_truth(context) marks (mmrank prune --truth chose its pick
  on in-graph step times) "listed" and "drop": one kernel per GEMM, the
  pick, nothing autotuned (stats()["alone"]); otherwise "always" and "keep"
  (k=1 autotunes the list head against the ATen choices).
  k="auto": the artifact's get_top_k(context) (the confidence-sized list
  length of the leaf) where the artifact has one and it returns an int;
  else 10 (tuned_mm's own top_k).  An int k overrides it.
Fallbacks (the call keeps Inductor's full list, counted in stats()): the
artifact's check_precondition fails for the call, an unsafe leaf (None),
no ranked id offered, an exception, SystemExit and the like included but
KeyboardInterrupt (MMRANK_INDUCTOR_STRICT=1 re-raises).
install refuses (raises Refused, and changes nothing) when there is no CUDA
device, when the artifact cannot be read or fails to load (mmrank.artifact:
not a regular file, a syntax error, an exception while it runs: the message
names the file), or when its check_precondition rejects this GPU's (shared
memory, capability).
Borrowed: an artifact whose precondition holds but that was trained on
another GPU (mmrank.artifact.trained_for: the device-name pattern of the
GPU data the artifact carries, emit --gpu's row of datasets/GPUS.tsv, as
whole words of the device name; an artifact without GPU data, such as PyTorch's
shipped ones, by the tag of its class name, MMRankingH200 -> "H200"; GPUs
of one precondition, such as an H100, an H200 or a GH200, differ only
there).  A folder lends one when none of its artifacts was trained on this
GPU (mmrank.artifact.find).  A borrowed artifact ranks as on its own GPU,
but its truth marks are off (they are step times of its GPU): "auto"
resolves to "always" and "keep", so k=1 autotunes the list head against
the ATen choices.  install warns (UserWarning) naming both GPUs;
stats()["borrowed"] and the cache key say so (under -W error the warning
is raised instead, before anything is changed).  force=True treats it as
trained on this GPU (its marks on).
The handler is set with V.set_choices_handler (this thread) and
torch._inductor.config.inductor_choices_class (threads that have not made
one yet, e.g. autograd's); uninstall restores both.
Inductor's FX graph cache keys on the inductor config, inductor_choices_class
included: the setting install makes names the handler's rules (RULES), the
artifact (class and content hash), k, extra, unranked, aten and ops, and
":borrowed" for a borrowed artifact, so a graph compiled without the handler,
with other settings or under older rules, is not reused.

The environment, read at import (a value outside these is refused with one
message naming the variable; the import never raises, and a refusal is
printed once to stderr with nothing installed; an artifact that raises
anything, SystemExit and other BaseExceptions included, is a refusal, but
KeyboardInterrupt goes on up: it cannot be told from the user's Ctrl-C):
  MMRANK_INDUCTOR            auto | a decimal 1..MAX_K (ASCII digits, no
                             sign, no leading zero) | off: unset, empty,
                             0, off, no, false
  MMRANK_INDUCTOR_EXTRA      on: 1, on, yes, true; off: unset, empty, 0,
  MMRANK_INDUCTOR_STRICT     off, no, false
  MMRANK_INDUCTOR_UNRANKED   auto (also unset or empty) | keep | drop
  MMRANK_INDUCTOR_ATEN       auto (also unset or empty) | always | listed
  MMRANK_ARTIFACT            a file or folder (find_artifact)
Words are lower case exactly, with no spaces around them: AUTO or " 3" is
refused, not guessed.
"""
import functools
import hashlib
import os
import sys

from mmrank import artifact as art
from mmrank.artifact import Refused
from mmrank.settings import (ATEN_WORDS, MAX_K, OFF_WORDS, ON_WORDS, check_aten,  # noqa: F401
                             check_k, check_unranked, env_aten, env_flag, env_k, env_problems,
                             env_unranked)

try:
    import torch
    from torch._inductor.choices import InductorChoices
except Exception as _e:  # noqa: BLE001 - ImportError, or a torch that fails to load (OSError)
    _WHY = f"torch does not import here ({type(_e).__name__}: {_e})"
    if __name__ == "__main__":
        sys.exit(f"mmrank.inductor: no artifact is used: {_WHY}; the handler needs torch 2.11 "
                 "with Inductor")
    raise ImportError(f"mmrank.inductor needs torch 2.11 with Inductor, and {_WHY}",
                      name="torch") from _e

MM_TEMPLATE = "triton::mm"
EXTERN_ID = "extern_mm"
DEFAULT_K = 10          # tuned_mm's literal top_k (kernel/mm.py)
# the handler's decision rules, in the FX graph cache key: raised when what a
# setting decides changes, so graphs compiled under the old rules are not
# reused (2: k="auto" runs the pick alone at a marked leaf whose top_k is 1)
RULES = 2
DEFAULT_OPS = ("mm", "addmm")
BIAS_ADDMM = "aten::bias_addmm"    # cuBLASLt's bias epilogue (a 1-D bias)
PLAIN_ADDMM = "aten::addmm"


def is_aten(ktc):
    """True for an ATen (extern) choice."""
    return str(getattr(ktc.template, "uid", "")).startswith("aten::")


def triton_id(ktc):
    """AutoHeuristic's id of a triton::mm choice, from its template kwargs
    (the values autoheuristic_id() reads back from log_info)."""
    kw = ktc.params.to_kwargs()
    return (f"type=triton_BLOCK-M={kw['BLOCK_M']}_BLOCK-K={kw['BLOCK_K']}"
            f"_BLOCK-N={kw['BLOCK_N']}_numstages={kw['num_stages']}"
            f"_numwarps={kw['num_warps']}")


def _hints(exprs):
    """Integer hints of sizes or strides, as kernel/mm.py get_size_hints /
    get_size_hints_strides take them (sizevars.optimization_hints)."""
    exprs = list(exprs)
    if all(isinstance(e, int) for e in exprs):
        return exprs
    from torch._inductor.virtualized import V
    sv = V.graph.sizevars
    fn = getattr(sv, "optimization_hints", None)
    if fn is None:
        return list(sv.size_hints(exprs))
    return list(fn(exprs))


def mm_context(kernel_inputs):
    """The AutoHeuristic mm context (mm_autoheuristic's get_context, then
    mm_operations()) of kernel_inputs' mat1 @ mat2."""
    mat1, mat2 = kernel_inputs.mat1mat2()
    m, k = _hints(mat1.get_size())
    _, n = _hints(mat2.get_size())
    return context(m, k, n, mat1.layout.dtype, mat2.layout.dtype, _hints(mat1.layout.stride),
                   _hints(mat2.layout.stride), mat1.layout.is_contiguous(),
                   mat2.layout.is_contiguous())


def context(m, k, n, dtype1, dtype2, stride1, stride2, contig1, contig2):
    """The AutoHeuristic mm context of an m x k @ k x n GEMM from plain
    values (torch dtypes, stride pairs, is_contiguous flags)."""
    from torch._inductor.autoheuristic.autoheuristic_utils import (
        AHContext, context_add_strides, context_add_using_tf32, mm_operations)
    ctx = AHContext()
    ctx.add_feature("m", m)
    ctx.add_feature("k", k)
    ctx.add_feature("n", n)
    ctx.add_feature("mat1_dtype", dtype1, is_categorical=True)
    ctx.add_feature("mat2_dtype", dtype2, is_categorical=True)
    context_add_strides(ctx, "mat1", list(stride1))
    context_add_strides(ctx, "mat2", list(stride2))
    ctx.add_feature("mat1_iscontig", contig1, is_categorical=True)
    ctx.add_feature("mat2_iscontig", contig2, is_categorical=True)
    context_add_using_tf32(ctx, dtype1)
    ctx.apply_operations(mm_operations())
    return ctx


def head(ranked, offered, k):
    """The kept list: the first k ids of RANKED that are in OFFERED
    (extern_mm counting as an entry, as AutoHeuristic's top_k does)."""
    offered = set(offered)
    return [c for c in ranked if c in offered][:k]


def leaf_k(heuristic, ctx, k="auto"):
    """K itself when an int; for "auto" the artifact's get_top_k(ctx) when it
    has one and it gives an int >= 1, else None (the caller's default)."""
    if k != "auto":
        return k
    fn = getattr(heuristic, "get_top_k", None)
    v = fn(ctx) if fn is not None else None
    return v if isinstance(v, int) and not isinstance(v, bool) and v >= 1 else None


def _metadata(choices=()):
    from torch._inductor.autoheuristic.autoheuristic_utils import AHMetadata
    from torch._inductor.utils import get_gpu_shared_memory
    return AHMetadata(get_gpu_shared_memory(), torch.cuda.get_device_capability(),
                      list(choices), "mm")


# ---- the artifact (mmrank.artifact) -----------------------------------------

def find_artifact(artifact=None, device_name=None, facts=None):
    """mmrank.artifact.find: ARTIFACT (a file, or a folder of _MMRanking*.py),
    else $MMRANK_ARTIFACT, else the shipped artifacts; in a folder the one
    trained on DEVICE_NAME's GPU, else the first with this GPU's
    precondition FACTS (capability, shared memory; borrowed), else the
    only one."""
    return art.find(artifact, device_name, facts=facts)


def gpu_facts():
    """This GPU's (capability, shared memory per block): what an artifact's
    check_precondition compares (torch's AHMetadata)."""
    md = _metadata()
    return tuple(md.device_capa), md.shared_memory


def load_artifact(path):
    """A fresh instance of the one LearnedHeuristicDecision subclass in PATH
    (mmrank.artifact.load: Refused, naming the file, when it cannot be)."""
    return art.load(path)[0]


def artifact_gpu(heur):
    """The GPU the tree was trained on: the GPU data the artifact carries
    (mmrank.artifact.gpu_of), else the tag of its class name (MMRankingH200
    -> 'H200'), else None.  Refused for GPU data that break the rules."""
    return art.gpu_of(heur) or art.gpu_tag(type(heur).__name__)


# ---- the handler -----------------------------------------------------------

def truth_marks(heuristic):
    """The artifact's get_truth, bound, when its class's own dict has
    truth = True (read there, so no artifact code runs for it) and a
    get_truth (the class's: an instance attribute cannot stand in for it);
    else None: an artifact without them, or with them on a base class only,
    marks no leaf."""
    cls = type(heuristic)
    raw = vars(cls).get("get_truth")
    if vars(cls).get("truth") is not True or not hasattr(raw, "__get__"):
        return None
    fn = raw.__get__(heuristic, cls)
    return fn if callable(fn) else None


def truth_leaf(heuristic, ctx):
    """True when CTX's leaf had its pick chosen on in-graph step times: the
    artifact's get_truth (truth_marks) returns True for CTX (mmrank prune
    --truth marked the leaf)."""
    fn = truth_marks(heuristic)
    return fn is not None and fn(ctx) is True


def resolve(heuristic, k, aten, unranked, ctx, marks=True):
    """(ATEN, UNRANKED, alone): the words with "auto" decided for context
    CTX.  K is the GEMM's k with k="auto" resolved (leaf_k).  alone, at
    k == 1 where truth_leaf(HEURISTIC, CTX) (asked only when a word is
    "auto" and MARKS: False when borrowed), makes them "listed" and "drop",
    so the GEMM runs the leaf's pick alone and nothing is autotuned; else
    "always" and "keep".  Each "auto" resolves on its own: an explicit word
    fixes only its own."""
    alone = "auto" in (aten, unranked) and k == 1 and marks and truth_leaf(heuristic, ctx)
    return (aten if aten != "auto" else ("listed" if alone else "always"),
            unranked if unranked != "auto" else ("drop" if alone else "keep"), alone)


class MMRankChoices(InductorChoices):
    """InductorChoices that ranks mm/addmm's Triton mm choices (module doc)."""

    def __init__(self, heuristic, k="auto", extra=False, unranked="auto", ops=DEFAULT_OPS,
                 aten="auto", borrowed=None):
        super().__init__()
        self.heuristic = heuristic
        self.borrowed = borrowed    # None, or why the artifact is borrowed (truth marks off)
        self.k = check_k(k)
        self.aten = check_aten(aten)              # the words as given: "auto"
        self.unranked = check_unranked(unranked)  # resolves per GEMM (resolve)
        self.extra = bool(extra)
        self.ops = tuple(ops)
        self.active = True
        self.strict = env_flag("MMRANK_INDUCTOR_STRICT")
        self.reset_stats()

    def reset_stats(self):
        self.decisions = {op: 0 for op in self.ops}
        self.k_sum = {op: 0 for op in self.ops}
        self.kept_sum = {op: 0 for op in self.ops}      # Triton mm choices kept
        self.offered_sum = {op: 0 for op in self.ops}   # Triton mm choices ranked
        self.single = {op: 0 for op in self.ops}        # decisions leaving one choice
        self.picked = {op: 0 for op in self.ops}        # k=1, aten="listed": the pick kept
        self.alone = {op: 0 for op in self.ops}         # "auto" made listed/drop: a truth leaf
        self.plain_dropped = {op: 0 for op in self.ops}  # aten::addmm left out for bias_addmm
        self.k_default = 0       # k="auto" without get_top_k: DEFAULT_K used
        self.fallbacks = {}      # reason -> count (full list kept)
        self.untouched = {}      # op -> calls without a triton::mm choice
        self.log = []            # the first 2000 decisions

    def stats(self):
        n = sum(self.decisions.values())
        return {"decisions": dict(self.decisions), "k_sum": dict(self.k_sum),
                "kept_triton_sum": dict(self.kept_sum), "offered_triton_sum": dict(self.offered_sum),
                "single_choice": dict(self.single), "picked": dict(self.picked),
                "alone": dict(self.alone),
                "plain_addmm_dropped": dict(self.plain_dropped),
                "mean_k": (sum(self.k_sum.values()) / n) if n else None,
                "mean_kept_triton": (sum(self.kept_sum.values()) / n) if n else None,
                "k_default": self.k_default, "fallbacks": dict(self.fallbacks),
                "untouched_no_triton": dict(self.untouched), "k": self.k, "extra": self.extra,
                "unranked": self.unranked, "aten": self.aten, "artifact": type(self.heuristic).__name__,
                "borrowed": self.borrowed}

    def _fallback(self, reason):
        self.fallbacks[reason] = self.fallbacks.get(reason, 0) + 1

    def _finalize_template_configs(self, template_choices, kernel_inputs, templates, op_name,
                                   kwarg_overrides=None):
        choices = super()._finalize_template_configs(template_choices, kernel_inputs, templates,
                                                     op_name, kwarg_overrides)
        if not self.active or op_name not in self.ops:
            return choices
        try:
            return self._decide(choices, kernel_inputs, templates, op_name)
        except KeyboardInterrupt:   # the user's Ctrl-C (mmrank.artifact's doc)
            raise
        except BaseException as e:  # noqa: BLE001 - never break a compile over a
            if self.strict:         # ranking, not even on an artifact's SystemExit
                raise
            self._fallback(f"error {type(e).__name__}: {str(e)[:120]}")
            return choices

    def _extra_choices(self, base, kernel_inputs, templates):
        """AutoHeuristic's "mm-ah" configs as choices of this call (the op's
        own extra kwargs, layout and inputs, e.g. addmm's epilogue)."""
        from torch._inductor.kernel_template_choice import KernelTemplateChoice
        tmpl = [t for t in templates if getattr(t, "uid", None) == MM_TEMPLATE]
        if not tmpl:
            return []
        return [KernelTemplateChoice(template=base.template, params=x.params,
                                     extra_kwargs=base.extra_kwargs, layout=base.layout,
                                     inputs=base.inputs)
                for x in self.get_ktc(kernel_inputs, tmpl[0], "mm-ah")]

    def _k_for(self, ctx):
        k = leaf_k(self.heuristic, ctx, self.k)
        if k is None:
            self.k_default += 1
            return DEFAULT_K
        return k

    def _pick(self, ctx):
        """The artifact's get_pick(ctx), the choice trained to run alone
        (None where it has none)."""
        fn = getattr(self.heuristic, "get_pick", None)
        return fn(ctx) if fn is not None else None

    def _decide(self, choices, kernel_inputs, templates, op_name):
        tri = [i for i, c in enumerate(choices) if getattr(c.template, "uid", None) == MM_TEMPLATE]
        if not tri:
            self.untouched[op_name] = self.untouched.get(op_name, 0) + 1
            return choices
        orig, choices = choices, list(choices)
        if self.extra:
            have = {triton_id(choices[i]) for i in tri}
            for x in self._extra_choices(choices[tri[0]], kernel_inputs, templates):
                if triton_id(x) not in have:
                    have.add(triton_id(x))
                    tri.append(len(choices))
                    choices.append(x)
        first = {}                      # id -> index of its first choice
        for i in tri:
            first.setdefault(triton_id(choices[i]), i)
        ctx = mm_context(kernel_inputs)
        offered = list(first) + ([EXTERN_ID] if any(is_aten(c) for c in choices) else [])
        if not self.heuristic.check_precondition(_metadata(offered), ctx):
            self._fallback("precondition")
            return orig
        ranked = self.heuristic.get_decisions_ranked(ctx)
        if ranked is None:
            self._fallback("unsafe leaf")
            return orig
        k = self._k_for(ctx)
        kept = head(ranked, offered, k)
        aten_w, unranked_w, alone = resolve(self.heuristic, k, self.aten, self.unranked, ctx,
                                        marks=self.borrowed is None)
        if k == 1 and aten_w == "listed":
            pick = self._pick(ctx)
            if pick in offered:
                kept = [pick]
                self.picked[op_name] += 1
        if not kept:
            self._fallback("no ranked id offered")
            return orig
        keep = {first[c] for c in kept if c in first}
        tri_set = set(tri)
        aten = aten_w == "always" or EXTERN_ID in kept
        # bias_addmm stands for addmm's ATen choices (module doc); the drop
        # is counted only where the ATen choices are kept at all
        has_bias = any(getattr(c.template, "uid", None) == BIAS_ADDMM for c in choices)
        out = []
        for i, c in enumerate(choices):
            if i in tri_set:
                if i in keep:
                    out.append(c)
            elif is_aten(c):
                if has_bias and getattr(c.template, "uid", None) == PLAIN_ADDMM:
                    self.plain_dropped[op_name] += aten
                elif aten:
                    out.append(c)
            elif unranked_w == "keep":
                out.append(c)
        self.decisions[op_name] += 1
        # a truth leaf whose "auto" words made this GEMM the pick alone
        self.alone[op_name] += alone and aten_w == "listed" and unranked_w == "drop"
        self.k_sum[op_name] += k
        self.kept_sum[op_name] += len(keep)
        self.offered_sum[op_name] += len(first)
        self.single[op_name] += len(out) == 1
        if len(self.log) < 2000:
            self.log.append({"op": op_name, "m": ctx.get_value("m"), "k": ctx.get_value("k"),
                             "n": ctx.get_value("n"), "dtype": str(ctx.get_value("mat1_dtype")),
                             "strides": [[ctx.get_value(f"mat{i}_stride_{j}") for j in (0, 1)]
                                         for i in (1, 2)],
                             "top_k": k, "offered": len(first), "kept": kept})
        return out


# ---- install / uninstall ---------------------------------------------------

_INSTALLED = {}   # set_handler's slot: this module's handler and what it replaced


def slot_handler(slot):
    """The handler SLOT holds (set_handler), else a plain InductorChoices()."""
    h = slot.get("handler")
    return h if h is not None else InductorChoices()


def _handler_factory(_key):
    """config.inductor_choices_class: the installed handler.  _key (RULES,
    artifact class and content hash, k, extra, unranked, aten, ops,
    ":borrowed") is what Inductor's FX graph cache key sees of the handler:
    the config is part of that key."""
    return slot_handler(_INSTALLED)


def set_handler(slot, handler, factory, key):
    """Make HANDLER Inductor's choices handler in every thread: this thread's
    (V.set_choices_handler) and config.inductor_choices_class =
    functools.partial(FACTORY, KEY) for threads that have not made one yet
    (FACTORY: a module-level function returning slot_handler(SLOT); KEY, a
    string, is what the FX graph cache key sees).  SLOT, the calling module's
    dict, first gives back what it held (restore_handler), then keeps HANDLER
    and what it replaced.  Returns HANDLER, active."""
    restore_handler(slot)
    from torch._inductor import config
    from torch._inductor.virtualized import V, _choices
    slot["prior_thread"] = _choices._get_handler(False)
    slot["prior_class"] = config.inductor_choices_class
    slot["handler"] = handler
    handler.active = True
    config.inductor_choices_class = functools.partial(factory, key)
    V.set_choices_handler(handler)
    return handler


def restore_handler(slot):
    """Undo set_handler(SLOT, ...): the handler goes inactive (a thread that
    made a copy of it now passes everything through) and the handler and
    config it replaced come back.  False when SLOT holds none."""
    h = slot.pop("handler", None)
    if h is None:
        return False
    h.active = False
    from torch._inductor import config
    from torch._inductor.virtualized import V
    config.inductor_choices_class = slot.pop("prior_class", None)
    V.set_choices_handler(slot.pop("prior_thread", None) or InductorChoices())
    return True


def check_gpu(heur):
    """None if HEUR may rank on this GPU (its check_precondition holds and
    its GPU data, if any, keep the rules), else the reason (a sentence)."""
    if not torch.cuda.is_available():
        return "no CUDA device"
    from torch._inductor.autoheuristic.autoheuristic_utils import AHContext
    name = torch.cuda.get_device_name()
    md = _metadata()
    who = (f"this GPU ({name}, capability {tuple(md.device_capa)}, shared memory per block "
           f"{md.shared_memory})")
    try:   # the artifact's own code, its answer's truth test included
        fits = bool(heur.check_precondition(md, AHContext()))
    except KeyboardInterrupt:   # the user's Ctrl-C (mmrank.artifact's doc)
        raise
    except BaseException as e:  # noqa: BLE001 - SystemExit and the like too
        return f"{type(heur).__name__}'s check_precondition raised {art.failure(e)}"
    if not fits:
        return f"{type(heur).__name__} was not trained for {who}: its check_precondition refuses it"
    try:
        artifact_gpu(heur)
    except Refused as e:
        return str(e)
    return None


def borrowed(heur):
    """None when HEUR was trained on this GPU (or names no GPU: only its
    precondition is checked), else the sentence that says it is borrowed
    (module doc: its truth marks are off).  HEUR passed check_gpu."""
    gpu = artifact_gpu(heur)
    name = torch.cuda.get_device_name()
    if not gpu or art.trained_for(gpu, name):
        return None
    what, whence = art.describe(gpu)
    return (f"{type(heur).__name__} was trained on {what}, not on this GPU ({name}; {whence}): "
            "borrowed (same precondition), its truth marks off (force=True keeps them)")


def install(k="auto", artifact=None, extra=False, unranked="auto", ops=DEFAULT_OPS, force=False,
            aten="auto"):
    """Make Inductor rank mm/addmm with ARTIFACT (module doc).  Returns the
    handler (its stats() counts decisions).  Raises Refused, changing
    nothing, on a GPU the artifact's precondition rejects.  An artifact
    trained on another GPU of the same precondition is borrowed (module
    doc), with a UserWarning, unless FORCE."""
    k = check_k(k)
    check_unranked(unranked)
    check_aten(aten)
    if not torch.cuda.is_available():
        raise Refused("mmrank.inductor: not installed: no CUDA device")
    try:
        path = find_artifact(artifact, torch.cuda.get_device_name(), gpu_facts())
        heur, data = art.load(path)
    except Refused as e:
        raise Refused(f"mmrank.inductor: not installed: {e}") from None
    why = check_gpu(heur)
    if why:
        raise Refused(f"mmrank.inductor: not installed: {why}")
    alien = None if force else borrowed(heur)
    h = MMRankChoices(heur, k=k, extra=extra, unranked=unranked, ops=ops, aten=aten,
                      borrowed=alien)
    h.artifact_path = os.path.abspath(path)
    digest = hashlib.sha256(data).hexdigest()[:16]
    if alien:
        import warnings
        warnings.warn(f"mmrank.inductor: {alien}", stacklevel=2)
    return set_handler(_INSTALLED, h, _handler_factory,
                       f"mmrank:r{RULES}:{type(heur).__name__}:{digest}:{k}:{int(h.extra)}:{h.unranked}:{h.aten}:"
                       f"{','.join(ops)}" + (":borrowed" if alien else ""))


def uninstall():
    """Undo install(); a no-op when nothing is installed."""
    return restore_handler(_INSTALLED)


def installed():
    return _INSTALLED.get("handler")


# ---- the environment (mmrank.settings) ---------------------------------------

def _from_env():
    """MMRANK_INDUCTOR at import.  Never raises but KeyboardInterrupt: a bad
    value, a refusal or any failure of the artifact is printed (once: the
    module is imported once) and the import goes on with nothing installed."""
    v = os.environ.get("MMRANK_INDUCTOR")
    if v is None:
        return
    try:
        k = env_k(v)
        if k is None:
            return
        install(k=k, extra=env_flag("MMRANK_INDUCTOR_EXTRA"), unranked=env_unranked(),
                aten=env_aten())
    except (Refused, ValueError) as e:
        if str(e).startswith("MMRANK_"):
            print(f"mmrank.inductor: not installed: {e}", file=sys.stderr)
        else:
            print(f"{e} (MMRANK_INDUCTOR={v})", file=sys.stderr)
    except KeyboardInterrupt:   # the user's Ctrl-C (mmrank.artifact's doc)
        raise
    except BaseException as e:  # noqa: BLE001 - never break the import that loads the handler
        print(f"mmrank.inductor: not installed: {art.failure(e)} (MMRANK_INDUCTOR={v})",
              file=sys.stderr)


# ---- python -m mmrank.inductor ---------------------------------------------

def report(artifact_arg=None, out=sys.stdout):
    """Say which artifact this GPU would use (0), or why none (1)."""
    def say(line):
        print(line, file=out)
    say(f"torch {torch.__version__}")
    bad = env_problems()
    for b in bad:
        say(f"environment: {b}")
    if not torch.cuda.is_available():
        say("no artifact is used: no CUDA device (torch.cuda.is_available() is False)")
        return 1
    name = torch.cuda.get_device_name()
    try:
        path = find_artifact(artifact_arg, name, gpu_facts())
        heur = load_artifact(path)
    except Refused as e:
        say(f"device: {name}")
        say(f"no artifact is used: {e}")
        return 1
    md = _metadata()
    say(f"device: {name}, capability {tuple(md.device_capa)}, shared memory per block "
        f"{md.shared_memory}")
    try:
        trained = "%s, from %s" % art.describe(artifact_gpu(heur))
    except Refused as e:
        trained = f"a GPU it cannot say: {e}"
    say(f"artifact: {os.path.abspath(path)} (class {type(heur).__name__}, trained on "
        f"{trained})")
    why = check_gpu(heur)
    if why:
        say(f"no artifact is used: {why}")
        return 1
    alien = borrowed(heur)
    say('used: mmrank.inductor.install(k="auto") ranks mm and addmm with it'
        + (" borrowed from another GPU" if alien else "")
        + ("; but see environment above" if bad else ""))
    if alien:
        say(f"borrowed: {alien}")
    say("k=1: " + ("the pick alone, nothing autotuned, where get_truth marks the leaf (truth = "
                   "True: picks chosen on in-graph step times); elsewhere the list head "
                   "autotuned beside the ATen choices" if truth_marks(heur) is not None and not alien
                   else "the list head autotuned beside the ATen choices ("
                   + ("a borrowed artifact's truth marks are off)" if alien else
                      "no truth = True with get_truth)")))
    say('k="auto": each leaf\'s get_top_k; where that is 1, as k=1')
    return 1 if bad else 0


def main(argv):
    import argparse
    p = argparse.ArgumentParser(prog="python -m mmrank.inductor",
                                description="Which artifact this GPU would use, or why none "
                                            "(exit status 0: one is used; 1: none).")
    p.add_argument("--artifact", metavar="FILE_OR_DIR",
                   help="an artifact or a folder of them (default: $MMRANK_ARTIFACT, else the "
                        "shipped ones)")
    a = p.parse_args(argv)
    return report(a.artifact)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
else:
    _from_env()
