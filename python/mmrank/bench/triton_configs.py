"""mmrank.bench.triton_configs — Inductor's mm candidate tables, read from a torch.

usage: python3 -m mmrank.bench.triton_configs (--source DIR | --import) (--configs | --params)
       python3 -m mmrank.bench.triton_configs --check-rule CANDS   (needs an importable torch)

Prints kernels/inductor_mm_configs.tsv (--configs) or
kernels/inductor_mm_params.tsv (--params), the two tables the C candidate
rule (stages/gpu/policy/inductor_cands.c) reads, for the torch at hand:

  --source DIR  parse the Python sources under DIR (the folder that holds
                torch/, e.g. an unpacked wheel); torch is not imported, so
                this works without its C extension (make check does this
                with /work/torch211 when it exists);
  --import      import the installed torch and read the live objects
                (CUDAMMTemplateConfigHeuristic().mm_configs, the "mm-ah"
                heuristic's list, torch._inductor.config values, so env
                overrides such as TORCHINDUCTOR_FORCE_SAME_PRECISION are
                followed); line references still come from its sources.

Both print the same bytes for the same torch.  Regenerate the committed
tables after a torch upgrade with
    python3 -m mmrank.bench.triton_configs --import --configs > kernels/inductor_mm_configs.tsv
    python3 -m mmrank.bench.triton_configs --import --params  > kernels/inductor_mm_params.tsv
A structure the tool does not recognise (a renamed list, a heuristic that
no longer takes the extra configs) is an error naming file:line, never a
silently different table.

--check-rule CANDS: CANDS is `triton_cands --candidates` output (the C rule
applied to a shapes file).  For every input it recomputes with torch's own
code (BaseConfigHeuristic.preprocess_mm_configs of the "mm" and "mm-ah"
heuristics, get_k_splits, use_decompose_k_choice, under a stand-in graph
whose size hints are the literal sizes) the candidate ids in order, and
compares them with the C rule's.  Prints "rule ok: N inputs" or the first
differences; exit status 1 on a difference.  Python never computes the
candidate list for bench: C is the one home of the rule, this only checks
it against the torch it claims to follow.
"""
import ast
import os
import sys

HEUR = "torch/_inductor/template_heuristics/triton.py"
CONFIG = "torch/_inductor/config.py"
MM = "torch/_inductor/kernel/mm.py"
INIT = "torch/_inductor/__init__.py"
UTILS = "torch/_inductor/utils.py"
VERSION = "torch/version.py"


class SourceError(Exception):
    pass


def parse(root, rel):
    path = os.path.join(root, rel)
    try:
        with open(path, encoding="utf-8") as f:
            return ast.parse(f.read(), path)
    except OSError as e:
        raise SourceError(f"{rel}: cannot read: {e.strerror}")


def find_class(tree, name, rel):
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == name:
            return node
    raise SourceError(f"{rel}: class {name} not found")


def find_method(cls, name, rel):
    for node in cls.body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            return node
    raise SourceError(f"{rel}:{cls.lineno}: {cls.name}.{name} not found")


def self_assign(fn, attr):
    """The value node and line of `self.<attr>[: T] = value` in fn."""
    for node in ast.walk(fn):
        tgt = None
        if isinstance(node, ast.AnnAssign):
            tgt = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            tgt = node.targets[0]
        if (isinstance(tgt, ast.Attribute) and tgt.attr == attr
                and isinstance(tgt.value, ast.Name) and tgt.value.id == "self"):
            return node.value, node.lineno
    return None, None


def int_const(node, where):
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return node.value
    raise SourceError(f"{where}: expected an integer literal, found {ast.dump(node)[:60]}")


def gemm_list(value, line, rel, group_m_default):
    if not isinstance(value, ast.List):
        raise SourceError(f"{rel}:{line}: expected a list of GemmConfig(...)")
    rows = []
    for e in value.elts:
        where = f"{rel}:{e.lineno}"
        if not (isinstance(e, ast.Call) and isinstance(e.func, ast.Name) and e.func.id == "GemmConfig"):
            raise SourceError(f"{where}: expected GemmConfig(...)")
        if len(e.args) != 5:
            raise SourceError(f"{where}: GemmConfig with {len(e.args)} positional fields, 5 expected")
        vals = [int_const(a, where) for a in e.args]
        gm = group_m_default
        for kw in e.keywords:
            if kw.arg == "group_m":
                gm = int_const(kw.value, where)
            elif kw.arg != "hint_override":
                raise SourceError(f"{where}: GemmConfig keyword {kw.arg} not understood")
        rows.append(tuple(vals) + (gm,))
    return rows


def field_default(cls, field, rel):
    """default= of `field: T = dataclasses.field(..., default=D)` in cls."""
    for node in cls.body:
        if (isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)
                and node.target.id == field and isinstance(node.value, ast.Call)):
            for kw in node.value.keywords:
                if kw.arg == "default":
                    return int_const(kw.value, f"{rel}:{node.lineno}"), node.lineno
    raise SourceError(f"{rel}:{cls.lineno}: {cls.name}.{field} default not found")


def env_default(node):
    """The default of os.environ.get(NAME, DEFAULT) inside node (an IfExp
    default `A if cond else B` gives B, the CUDA branch)."""
    for sub in ast.walk(node):
        if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute)
                and sub.func.attr == "get" and len(sub.args) == 2):
            d = sub.args[1]
            if isinstance(d, ast.IfExp):
                d = d.orelse
            if isinstance(d, ast.Constant):
                return sub.args[0].value if isinstance(sub.args[0], ast.Constant) else None, d.value
    return None, None


def find_assign(tree, name, rel, inside=None):
    """(value node, line) of `name = ...` or `name: T = ...` (in class inside)."""
    scope = tree if inside is None else find_class(tree, inside, rel)
    for node in ast.walk(scope):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == name:
            return node.value, node.lineno
        if (isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name) and node.targets[0].id == name):
            return node.value, node.lineno
    raise SourceError(f"{rel}: {name} not found" + (f" in class {inside}" if inside else ""))


def read_source(root):
    """Everything the tables hold, from the sources under root:
    (configs [(list, bm, bn, bk, stages, warps, group_m)], refs {list: ref},
     params [(name, value, ref)])."""
    heur = parse(root, HEUR)
    gemm = find_class(heur, "GemmConfig", HEUR)
    gm_default, _ = field_default(gemm, "group_m", HEUR)
    base = find_class(heur, "BaseConfigHeuristic", HEUR)
    init = find_method(base, "__init__", HEUR)
    mm_v, mm_l = self_assign(init, "mm_configs")
    ah_v, ah_l = self_assign(init, "extra_mm_configs")
    if mm_v is None or ah_v is None:
        raise SourceError(f"{HEUR}:{init.lineno}: BaseConfigHeuristic.__init__ lacks mm_configs/extra_mm_configs")
    # the CUDA heuristics: "mm" keeps the base list, "mm-ah" takes the extras
    cuda = find_class(heur, "CUDAMMTemplateConfigHeuristic", HEUR)
    for node in ast.walk(cuda):
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            v, l = self_assign(node, "mm_configs")
            if v is not None:
                raise SourceError(f"{HEUR}:{l}: CUDAMMTemplateConfigHeuristic overrides mm_configs (not understood)")
    ahc = find_class(heur, "CUDAMMAHTemplateConfigHeuristic", HEUR)
    ahi = find_method(ahc, "__init__", HEUR)
    v, ahc_l = self_assign(ahi, "mm_configs")
    if not (isinstance(v, ast.Attribute) and v.attr == "extra_mm_configs"):
        raise SourceError(f"{HEUR}:{ahi.lineno}: CUDAMMAHTemplateConfigHeuristic no longer sets mm_configs = extra_mm_configs")
    configs = [("mm",) + r for r in gemm_list(mm_v, mm_l, HEUR, gm_default)]
    configs += [("mm-ah",) + r for r in gemm_list(ah_v, ah_l, HEUR, gm_default)]
    refs = {"mm": f"BaseConfigHeuristic.mm_configs, {HEUR}:{mm_l}",
            "mm-ah": f"BaseConfigHeuristic.extra_mm_configs, {HEUR}:{ah_l} "
                     f"(CUDAMMAHTemplateConfigHeuristic, {HEUR}:{ahc_l})"}

    params = []
    ver = parse(root, VERSION)
    v, l = find_assign(ver, "__version__", VERSION)
    params.append(("torch_version", v.value, f"{VERSION}:{l}"))

    scale = find_method(base, "_scale_mm_configs", HEUR)
    mb = mbk = None
    for node in ast.walk(scale):
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            if node.targets[0].id == "min_block_size":
                mb = (int_const(node.value, f"{HEUR}:{node.lineno}"), node.lineno)
            elif node.targets[0].id == "min_block_size_k":
                val = node.value.orelse if isinstance(node.value, ast.IfExp) else node.value
                mbk = (int_const(val, f"{HEUR}:{node.lineno}"), node.lineno)
    if mb is None or mbk is None:
        raise SourceError(f"{HEUR}:{scale.lineno}: min_block_size / min_block_size_k not found")
    params.append(("min_block_size", mb[0], f"{HEUR}:{mb[1]}"))
    params.append(("min_block_size_k", mbk[0], f"{HEUR}:{mbk[1]}"))

    cfg = parse(root, CONFIG)
    v, l = find_assign(cfg, "force_same_precision", CONFIG)
    fsp = None
    if isinstance(v, ast.Call):
        for kw in v.keywords:
            if kw.arg == "default" and isinstance(kw.value, ast.Constant):
                fsp = kw.value.value
    if not isinstance(fsp, bool):
        raise SourceError(f"{CONFIG}:{l}: force_same_precision default not found")
    params.append(("force_same_precision", int(fsp), f"{CONFIG}:{l}"))
    v, l = find_assign(cfg, "max_autotune_prune_choices_based_on_shared_mem", CONFIG)
    _, d = env_default(v)
    params.append(("prune_shared_mem", int(d == "1"), f"{CONFIG}:{l}"))
    v, l = find_assign(cfg, "max_autotune_gemm_backends", CONFIG)
    _, d = env_default(v)
    if d is None:
        raise SourceError(f"{CONFIG}:{l}: max_autotune_gemm_backends default not found")
    backends = [x.strip().upper() for x in d.split(",")]
    params.append(("aten_gemm", int("ATEN" in backends), f"{CONFIG}:{l}"))
    params.append(("triton_gemm", int("TRITON" in backends), f"{CONFIG}:{l}"))
    v, l = find_assign(cfg, "num_decompose_k_splits", CONFIG, inside="triton")
    _, d = env_default(v)
    params.append(("num_decompose_k_splits", int(d), f"{CONFIG}:{l}"))
    v, l = find_assign(cfg, "decompose_k_threshold", CONFIG, inside="triton")
    _, d = env_default(v)
    params.append(("decompose_k_threshold", int(d), f"{CONFIG}:{l}"))

    mm = parse(root, MM)
    skip = None
    for node in ast.walk(mm):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id == "use_decompose_k_choice"):
            for kw in node.keywords:
                if kw.arg == "threshold_multiple":
                    skip = (int_const(kw.value, f"{MM}:{node.lineno}"), node.lineno)
    if skip is None:
        raise SourceError(f"{MM}: use_decompose_k_choice(..., threshold_multiple=N) not found")
    params.append(("decompose_k_template_skip_multiple", skip[0], f"{MM}:{skip[1]}"))

    init_py = parse(root, INIT)
    cdt = None
    for node in ast.walk(init_py):
        if isinstance(node, ast.Dict):
            for k, val in zip(node.keys, node.values):
                if isinstance(k, ast.Constant) and k.value == "max-autotune-no-cudagraphs" and isinstance(val, ast.Dict):
                    for k2, v2 in zip(val.keys, val.values):
                        if isinstance(k2, ast.Constant) and k2.value == "coordinate_descent_tuning":
                            cdt = (int(bool(v2.value)), k2.lineno)
                    if cdt is None:
                        cdt = (0, k.lineno)
    if cdt is None:
        raise SourceError(f"{INIT}: mode 'max-autotune-no-cudagraphs' not found")
    params.append(("coordinate_descent_tuning", cdt[0], f"{INIT}:{cdt[1]}"))
    return configs, refs, params


def read_import():
    """The same from the installed torch's live objects (line refs from its
    sources)."""
    import torch
    import torch._inductor.config as icfg
    from torch._inductor import list_mode_options
    from torch._inductor.template_heuristics.triton import (
        CUDAMMAHTemplateConfigHeuristic, CUDAMMTemplateConfigHeuristic)
    root = os.path.dirname(os.path.dirname(torch.__file__))
    _, refs, src_params = read_source(root)
    ref = {p[0]: p[2] for p in src_params}
    configs = []
    for lst, cls in (("mm", CUDAMMTemplateConfigHeuristic), ("mm-ah", CUDAMMAHTemplateConfigHeuristic)):
        for c in cls().mm_configs:
            configs.append((lst, c.block_m, c.block_n, c.block_k, c.num_stages, c.num_warps,
                            getattr(c, "group_m", 8)))
    backends = [x.strip().upper() for x in icfg.max_autotune_gemm_backends.split(",")]
    # min_block_size(_k) are locals of _scale_mm_configs: source values
    srcv = {p[0]: p[1] for p in src_params}
    mode = list_mode_options("max-autotune-no-cudagraphs")
    params = [
        ("torch_version", torch.__version__, ref["torch_version"]),
        ("min_block_size", srcv["min_block_size"], ref["min_block_size"]),
        ("min_block_size_k", srcv["min_block_size_k"], ref["min_block_size_k"]),
        ("force_same_precision", int(bool(icfg.force_same_precision)), ref["force_same_precision"]),
        ("prune_shared_mem", int(bool(icfg.max_autotune_prune_choices_based_on_shared_mem)), ref["prune_shared_mem"]),
        ("aten_gemm", int("ATEN" in backends), ref["aten_gemm"]),
        ("triton_gemm", int("TRITON" in backends), ref["triton_gemm"]),
        ("num_decompose_k_splits", int(icfg.triton.num_decompose_k_splits), ref["num_decompose_k_splits"]),
        ("decompose_k_threshold", int(icfg.triton.decompose_k_threshold), ref["decompose_k_threshold"]),
        ("decompose_k_template_skip_multiple", srcv["decompose_k_template_skip_multiple"],
         ref["decompose_k_template_skip_multiple"]),
        ("coordinate_descent_tuning", int(bool(mode.get("coordinate_descent_tuning", False))),
         ref["coordinate_descent_tuning"]),
    ]
    return configs, refs, params


def print_configs(configs, refs, version, out):
    out.write(f"# kernels/inductor_mm_configs.tsv — Inductor's Triton mm template configs for CUDA, torch {version}\n")
    out.write("# (BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps, GROUP_M before the per-problem shrink).\n")
    out.write(f"# mm:    {refs['mm']}\n")
    out.write(f"# mm-ah: {refs['mm-ah']}\n")
    out.write("# Written by python3 -m mmrank.bench.triton_configs (see its --help); read by stages/gpu/policy/inductor_cands.c.\n")
    out.write("list\tblock_m\tblock_n\tblock_k\tnum_stages\tnum_warps\tgroup_m\n")
    for r in configs:
        out.write("\t".join(str(x) for x in r) + "\n")


def print_params(params, version, out):
    out.write(f"# kernels/inductor_mm_params.tsv — the settings of Inductor's mm candidate rule, torch {version}\n")
    out.write("# (defaults of a plain install; source paths relative to the wheel's root).\n")
    out.write("# Written by python3 -m mmrank.bench.triton_configs (see its --help); read by stages/gpu/policy/inductor_cands.c.\n")
    out.write("param\tvalue\tsource\n")
    for name, val, ref in params:
        out.write(f"{name}\t{val}\t{ref}\n")


# ---- --check-rule: torch's own candidate list vs the C rule's ---------------

def torch_candidates(m, k, n, dtype, tf32):
    """Candidate ids torch computes for one input, in tuned_mm's order
    (extern_mm, decompose_k splits, mm configs, mm-ah configs)."""
    import sympy
    import torch
    import torch._inductor.config as icfg
    from torch._inductor.template_heuristics.triton import (
        CUDAMMAHTemplateConfigHeuristic, CUDAMMTemplateConfigHeuristic)
    from torch._inductor.utils import get_k_splits
    from torch._inductor.virtualized import V

    class SizeVars:
        def optimization_hint_with_override(self, x, hint_override=None):
            return int(x)

        def statically_known_true(self, e):
            return bool(e)

    class Graph:
        sizevars = SizeVars()
        aot_mode = False
        cpp_wrapper = False

    ids = []
    if m == 1 or n == 1:
        mode = __import__("torch._inductor", fromlist=["list_mode_options"]).list_mode_options(
            "max-autotune-no-cudagraphs")
        if mode.get("coordinate_descent_tuning", False):
            return ids
    backends = [x.strip().upper() for x in icfg.max_autotune_gemm_backends.split(",")]
    if "ATEN" in backends:
        ids.append("extern_mm")
    M, N, K = sympy.Integer(m), sympy.Integer(n), sympy.Integer(k)
    with V.set_graph_handler(Graph()):
        from torch._inductor.utils import use_decompose_k_choice
        mm_template_on = True
        if "TRITON" in backends:
            if use_decompose_k_choice(M, N, K):
                for s in get_k_splits(M, N, K):
                    if k % s == 0:
                        ids.append(f"subgraph_decompose_k_mm_{s}_split")
            mm_template_on = not use_decompose_k_choice(M, N, K, threshold_multiple=2)
        lists = []
        if "TRITON" in backends and mm_template_on:
            lists.append(CUDAMMTemplateConfigHeuristic())
        if "TRITON" in backends:
            lists.append(CUDAMMAHTemplateConfigHeuristic())
        itemsize = {"torch.float16": 2, "torch.bfloat16": 2, "torch.float32": 4}[dtype]
        for h in lists:
            for c in h.get_mm_configs()(M, N, K, dtype_size=itemsize, op_name="mm"):
                kw = c.kwargs
                ids.append(f"type=triton_BLOCK-M={kw['BLOCK_M']}_BLOCK-K={kw['BLOCK_K']}"
                           f"_BLOCK-N={kw['BLOCK_N']}_numstages={c.num_stages}_numwarps={c.num_warps}")
    return ids


def check_rule(path):
    import csv
    per = {}
    shapes = {}
    with open(path, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
    head = rows[0]
    need = ["input", "m", "k", "n", "dtype", "tf32", "id"]
    for c in need:
        if c not in head:
            print(f"{path}: column '{c}' missing", file=sys.stderr)
            return 1
    ix = {c: head.index(c) for c in head}
    for r in rows[1:]:
        i = int(r[ix["input"]])
        shapes[i] = (int(r[ix["m"]]), int(r[ix["k"]]), int(r[ix["n"]]), r[ix["dtype"]], r[ix["tf32"]] == "1")
        if r[ix["id"]] != "-":
            per.setdefault(i, []).append(r[ix["id"]])
    bad = 0
    for i, s in sorted(shapes.items()):
        want = torch_candidates(*s)
        got = per.get(i, [])
        if want != got:
            bad += 1
            if bad <= 5:
                print(f"input {i} {s}: torch {len(want)} ids, C rule {len(got)}")
                for a, b in zip(want + [""] * 40, got + [""] * 40):
                    if a != b:
                        print(f"  torch {a!r} != C {b!r}")
                        break
    if bad:
        print(f"rule differs on {bad} of {len(shapes)} inputs")
        return 1
    print(f"rule ok: {len(shapes)} inputs")
    return 0


def main(argv):
    if len(argv) == 2 and argv[0] == "--check-rule":
        return check_rule(argv[1])
    src = imp = None
    what = None
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--source" and i + 1 < len(argv):
            src = argv[i + 1]
            i += 1
        elif a == "--import":
            imp = True
        elif a in ("--configs", "--params"):
            what = a
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            print(f"triton_configs.py: unknown argument '{a}'\n{__doc__.splitlines()[2]}", file=sys.stderr)
            return 2
        i += 1
    if (src is None) == (imp is None) or what is None:
        print("usage: python3 -m mmrank.bench.triton_configs (--source DIR | --import) (--configs | --params)", file=sys.stderr)
        return 2
    try:
        configs, refs, params = read_source(src) if src else read_import()
    except SourceError as e:
        print(f"triton_configs.py: {e}", file=sys.stderr)
        return 1
    version = params[0][1]
    if what == "--configs":
        print_configs(configs, refs, version, sys.stdout)
    else:
        print_params(params, version, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
