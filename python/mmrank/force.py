"""mmrank.force — an Inductor choices handler that FORCES one choice per mm
and addmm (torch 2.11): with a single choice select_algorithm autotunes
nothing (it returns choices[0].output_node()), so a compile runs exactly the
kernels asked for.  perf/models/truth.py uses it to time every candidate of
every GEMM inside the compiled model's own step ("in-graph truth").

    from mmrank import force
    h = force.ForceChoices()
    force.install(h)
    h.configure(rank=3)                 # or h.configure(id_map={key: id, ...})
    ...torch.compile(model, options={"max_autotune_gemm": True, ...})...
    h.log                               # one entry per decision, in call order
    force.uninstall()

The candidates of a call, in this stable order (candidates()):
  1. every ATen choice, in Inductor's order, named "extern_<name>" as
     ExternKernelCaller.autoheuristic_id() names it: extern_mm for mm;
     extern_bias_addmm then extern_addmm for addmm;
  2. each distinct triton::mm id, in Inductor's order (the first choice of an
     id; AutoHeuristic's id type=triton_BLOCK-M=.._BLOCK-K=.._BLOCK-N=..
     _numstages=.._numwarps=.. from the template kwargs, mmrank.inductor's
     triton_id);
  3. every other template's distinct choices, in Inductor's order, named
     "<template uid>|<params>": the five tile fields as above where the
     params have them (triton::mm_persistent_tma|BLOCK-M=..), else its
     scalar kwargs sorted by name (decompose_k|k_split=4).
Modes (configure): rank j forces the j-th candidate (0-based) of every call;
id_map {GEMM key: choice id} forces the named id, keys not in the map take
rank `rank` when one is given.  The FALLBACK, flagged in the decision's
"fallback" field: j beyond the list ("rank 7 >= 3 candidates"), an id not
offered, or a key not in the map (without a rank), force the first ATen
choice (extern_mm, extern_bias_addmm), or the first candidate where the call
has no ATen choice.  A forced template whose code fails to generate is not
seen here: Inductor fixes the output layout and generates the code after
this method returns (choices.py get_template_configs), drops the choice,
and the compile fails with no choice left (perf/models/truth.py then
retries that variant one GEMM key at a time).  An exception in the
handler forces the first ATen choice too (field "error"); MMRANK_FORCE_STRICT=1
re-raises it.
The GEMM key (gemm_key): "OP MxKxN DTYPE S10,S11 S20,S21" with mat1's and
mat2's strides, e.g. "addmm 2048x768x2304 torch.bfloat16 768,1 2304,1": the
size, dtype and stride hints of mat1 @ mat2 as mmrank.inductor's mm_context
reads them (for addmm, its mat1 and mat2).
Every decision is logged (ForceChoices.log, call order): call, op, m, k, n,
dtype, strides, key, features (the AutoHeuristic context's logged features,
[name, str(value), categorical] in insertion order: the columns of an
AutoHeuristic mm log), offered (the candidate ids in the order above),
forced, rank (its index in offered), kind (aten, template or subgraph),
fallback (null or the reason).
pin="aten" (the default) also keeps only the first ATen choice of bmm,
baddbmm and mm_plus_mm calls (logged in ForceChoices.pinned), so those
GEMMs are the same kernels in every compile; pin="none" leaves them to
Inductor.  Other ops are untouched.
The handler is one object for the whole process: configure() changes what
it forces, and every thread uses it (install sets V.set_choices_handler and
config.inductor_choices_class with mmrank.inductor.set_handler, as
mmrank.inductor.install does).  Importing this module needs torch, as
mmrank.inductor does.
"""
import os

from mmrank import inductor  # first: its ImportError names torch when torch is missing
from mmrank.inductor import MM_TEMPLATE, is_aten, mm_context, triton_id
from torch._inductor.choices import InductorChoices

FORCED_OPS = ("mm", "addmm")
PIN_OPS = ("bmm", "baddbmm", "mm_plus_mm")
TILE = (("BLOCK-M", "BLOCK_M"), ("BLOCK-K", "BLOCK_K"), ("BLOCK-N", "BLOCK_N"),
        ("numstages", "num_stages"), ("numwarps", "num_warps"))


def choice_id(ktc):
    """The id of one KernelTemplateChoice (module doc, candidate order)."""
    uid = str(getattr(ktc.template, "uid", ""))
    if uid.startswith("aten::"):
        return "extern_" + uid[len("aten::"):]
    if uid == MM_TEMPLATE:
        return triton_id(ktc)
    kw = ktc.params.to_kwargs()
    if all(k in kw for _, k in TILE):
        return f"{uid}|" + "_".join(f"{name}={kw[k]}" for name, k in TILE)
    simple = sorted((k, v) for k, v in kw.items() if isinstance(v, (bool, int, float, str)))
    return f"{uid}|" + "_".join(f"{k}={v}".replace(" ", "") for k, v in simple)


def kind_of(cid):
    """aten (extern_*), template (a Triton template: triton::mm or another
    triton:: uid) or subgraph (decompose_k, contiguous_mm, ...)."""
    return ("aten" if cid.startswith("extern_") else
            "template" if cid.startswith(("type=triton_", "triton::")) else "subgraph")


def candidates(choices):
    """[(id, ktc)] of one call in the documented order, one entry per id."""
    aten, tri, other, seen = [], [], [], set()
    for c in choices:
        cid = choice_id(c)
        if cid in seen:
            continue
        seen.add(cid)
        if is_aten(c):
            aten.append((cid, c))
        elif getattr(c.template, "uid", None) == MM_TEMPLATE:
            tri.append((cid, c))
        else:
            other.append((cid, c))
    return aten + tri + other


def fallback_id(ids):
    """The id forced when the asked one cannot be: the first ATen id, else
    the first candidate."""
    return next((c for c in ids if c.startswith("extern_")), ids[0] if ids else None)


def gemm_key(op, m, k, n, dtype, strides):
    """'OP MxKxN DTYPE S10,S11 S20,S21' (module doc)."""
    s1, s2 = strides
    return f"{op} {m}x{k}x{n} {dtype} {s1[0]},{s1[1]} {s2[0]},{s2[1]}"


def parse_key(key):
    """gemm_key's fields back: (op, m, k, n, dtype, [[s10, s11], [s20, s21]]);
    ValueError on a malformed key."""
    f = key.split(" ")
    if len(f) != 5:
        raise ValueError(f"GEMM key '{key}': expected 'OP MxKxN DTYPE S10,S11 S20,S21'")
    mkn = f[1].split("x")
    st = [f[3].split(","), f[4].split(",")]
    if len(mkn) != 3 or any(len(s) != 2 for s in st):
        raise ValueError(f"GEMM key '{key}': expected 'OP MxKxN DTYPE S10,S11 S20,S21'")
    try:
        m, k, n = (int(x) for x in mkn)
        strides = [[int(x) for x in s] for s in st]
    except ValueError:
        raise ValueError(f"GEMM key '{key}': sizes and strides must be integers") from None
    return f[0], m, k, n, f[2], strides


def _features(ctx):
    """The logged AutoHeuristic features: [name, str(value), categorical]."""
    out = []
    for f in ctx.features:
        if isinstance(f, tuple):
            name, value, cat = f
        else:
            name, value, cat = f.name, f.value, f.is_categorical
        out.append([name, str(value), bool(cat)])
    return out


def describe(ctx, op):
    """The decision's GEMM fields from an AutoHeuristic mm context."""
    v = ctx.get_value
    m, k, n = int(v("m")), int(v("k")), int(v("n"))
    strides = [[int(v(f"mat{i}_stride_{j}")) for j in (0, 1)] for i in (1, 2)]
    dtype = str(v("mat1_dtype"))
    return {"m": m, "k": k, "n": n, "dtype": dtype, "strides": strides,
            "key": gemm_key(op, m, k, n, dtype, strides), "features": _features(ctx)}


class ForceChoices(InductorChoices):
    """One choice per mm/addmm call (module doc)."""

    def __init__(self, ops=FORCED_OPS, pin="aten"):
        super().__init__()
        if pin not in ("aten", "none"):
            raise ValueError(f"pin={pin!r}: 'aten' or 'none'")
        self.ops = tuple(ops)
        self.pin = pin
        self.strict = os.environ.get("MMRANK_FORCE_STRICT") == "1"
        self.rank, self.id_map = 0, None
        self.active = True
        self.reset_log()

    def configure(self, rank=None, id_map=None):
        """rank=j, or id_map={key: id} (keys not in it take rank if given)."""
        if rank is None and id_map is None:
            raise ValueError("configure: rank or id_map")
        if rank is not None and (isinstance(rank, bool) or not isinstance(rank, int) or rank < 0):
            raise ValueError(f"configure: rank={rank!r}: an int >= 0")
        if id_map is not None:
            for key in id_map:
                parse_key(key)
        self.rank = rank
        self.id_map = dict(id_map) if id_map is not None else None

    def reset_log(self):
        self.log = []
        self.pinned = []

    def fallbacks(self):
        """How many decisions fell back (any reason)."""
        return sum(1 for d in self.log if d.get("fallback") or d.get("error"))

    def _finalize_template_configs(self, template_choices, kernel_inputs, templates, op_name,
                                   kwarg_overrides=None):
        choices = super()._finalize_template_configs(template_choices, kernel_inputs, templates,
                                                     op_name, kwarg_overrides)
        if not self.active:
            return choices
        if op_name in self.ops:
            return self._force(choices, kernel_inputs, op_name)
        if self.pin == "aten" and op_name in PIN_OPS:
            aten = [c for c in choices if is_aten(c)]
            if aten:
                self.pinned.append({"op": op_name, "kept": choice_id(aten[0]),
                                    "offered": len(choices)})
                return aten[:1]
        return choices

    def _want(self, key, ids):
        """(id to force, fallback reason or None)."""
        if self.id_map is not None:
            if key in self.id_map:
                cid = self.id_map[key]
                if cid in ids:
                    return cid, None
                return fallback_id(ids), f"id not offered: {cid}"
            if self.rank is None:
                return fallback_id(ids), "key not in the map"
        j = self.rank
        if j < len(ids):
            return ids[j], None
        return fallback_id(ids), f"rank {j} >= {len(ids)} candidates"

    def _force(self, choices, kernel_inputs, op_name):
        entry = {"call": len(self.log), "op": op_name, "fallback": None}
        self.log.append(entry)
        try:
            cands = candidates(choices)
            ids = [c for c, _ in cands]
            entry["offered"] = ids
            entry.update(describe(mm_context(kernel_inputs), op_name))
            want, why = self._want(entry["key"], ids)
            by_id = dict(cands)
            # (never .choice here: Inductor fixes the output layout after this
            # method, and a template's code cannot be generated before that)
            entry.update(forced=want, rank=ids.index(want), kind=kind_of(want), fallback=why)
            return [by_id[want]]
        except Exception as e:  # never break a compile over the forcing itself
            if self.strict:
                raise
            entry["error"] = f"{type(e).__name__}: {str(e)[:200]}"
            aten = [c for c in choices if is_aten(c)]
            entry.update(forced=choice_id(aten[0]) if aten else None,
                         kind="aten" if aten else None, rank=None)
            return aten[:1] if aten else choices


# ---- install / uninstall ---------------------------------------------------

_INSTALLED = {}   # mmrank.inductor.set_handler's slot: this module's handler


def _factory(_tag):
    """config.inductor_choices_class: the installed handler (_tag names the
    forcing for whatever keys on the config)."""
    return inductor.slot_handler(_INSTALLED)


def install(handler, tag="force"):
    """Make HANDLER Inductor's choices handler in every thread; TAG (e.g.
    the variant) goes into config.inductor_choices_class."""
    return inductor.set_handler(_INSTALLED, handler, _factory, f"mmrank-force:{tag}")


def uninstall():
    """Undo install(); False when nothing was installed."""
    return inductor.restore_handler(_INSTALLED)
