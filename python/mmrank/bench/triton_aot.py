"""mmrank.bench.triton_aot — compile the Triton mm variants a collection needs, ahead
of time, into the cubin cache that stages/gpu/bench/triton_launch.c reads.

usage: python3 -m mmrank.bench.triton_aot [--cache DIR] [--arch CC] [--jobs N] [--kernel FILE]
                                          [--retry-failed] [--entry-dir] VARIANTS

VARIANTS is `triton_cands --variants` output (stages/FORMATS.md "Triton
variant list"): one compile variant of kernels/triton_mm.py (--kernel;
default: the checkout's) per line.  Each
variant is compiled once per (kernel source, Triton version, arch) with
triton.compile(ASTSource(...), target=GPUTarget("cuda", CC, 32)) — no GPU
needed — in a pool of N processes (default: all CPUs), into

    DIR/triton-<srchash>-<tritonversion>-sm<CC>/<variant>.cubin
    DIR/triton-<srchash>-<tritonversion>-sm<CC>/<variant>.json

(DIR default build/cubin; srchash: FNV-1a 64 of the kernel file and of this
tool's compile ABI, so an edited kernel or a changed argument mapping gets a
new folder).  The .json (stages/FORMATS.md "Triton cubin metadata") holds
the launch metadata: kernel name, shared memory bytes, threads = 32 *
num_warps, the parameter list in launch order with Triton's two extra
scratch pointers, and the cubin's size and hash.  A variant that fails to
compile gets a .json with "status": "error" and its message and no cubin
(bench then writes inf); it is not retried unless --retry-failed.  Files
are written to a temporary name in the same folder and renamed, the .json
last, so a killed run never leaves a partial entry: an entry exists iff its
.json does.  Variants whose .json exists are skipped.

--entry-dir prints the entry folder and exits (nothing compiled).
Prints a summary: variants, compiled, cached, failed, seconds in all and per
compiled variant.  Exit status 0 if every variant has an entry (failures
included), 1 on a bad VARIANTS file or an I/O error, 2 on bad usage.
"""
import importlib.util
import json
import os
import sys
import time

from mmrank import checkout

ABI = "mmrank-triton-aot 1: A B C M N K stride_am stride_ak stride_bk stride_bn; unit strides constexpr"
FORMAT = "mmrank-triton-cubin 1"
COLS = ["variant", "dtype", "allow_tf32", "bm", "bn", "bk", "stages", "warps", "group_m",
        "even_k", "hint_a", "hint_b", "k_tiles", "idx64",
        "div_m", "div_n", "div_k", "div_am", "div_ak", "div_bk", "div_bn"]
INTS = ["M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn"]
DT = {"fp16": "f16", "bf16": "bf16", "fp32": "f32"}


def fnv1a64(data, h=0xcbf29ce484222325):
    for b in data:
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def source_hash(kernel_path):
    with open(kernel_path, "rb") as f:
        src = f.read()
    return "%016x" % fnv1a64(src + b"\0" + ABI.encode())


def entry_dir(cache, kernel_path, triton_version, arch):
    return os.path.join(cache, f"triton-{source_hash(kernel_path)}-{triton_version}-sm{arch}")


def variant_name(v):
    """The C name (ic_variant_name, stages/gpu/policy/inductor_cands.c) from fields."""
    d = ["u" if x == 0 else str(x) for x in (v["div_m"], v["div_n"], v["div_k"], v["div_am"],
                                              v["div_ak"], v["div_bk"], v["div_bn"])]
    dt = "tf32" if v["dtype"] == "fp32" and v["allow_tf32"] else DT[v["dtype"]]
    return (f"{dt}-{v['bm']}x{v['bn']}x{v['bk']}-s{v['stages']}w{v['warps']}g{v['group_m']}"
            f"-ek{v['even_k']}-h{v['hint_a']}{v['hint_b']}-kt{v['k_tiles']}"
            f"-i{64 if v['idx64'] else 32}-d{d[0]}.{d[1]}.{d[2]}-a{d[3]}.{d[4]}-b{d[5]}.{d[6]}")


class BadInput(Exception):
    pass


def parse_variant_name(name):
    """The fields of a variant from its name (the inverse of variant_name);
    raises BadInput on a malformed name."""
    import re
    m = re.fullmatch(r"(f16|bf16|f32|tf32)-(\d+)x(\d+)x(\d+)-s(\d+)w(\d+)g(\d+)-ek([01])-h([01])([01])"
                     r"-kt(\d)-i(32|64)-d(\w+)\.(\w+)\.(\w+)-a(\w+)\.(\w+)-b(\w+)\.(\w+)", name)
    if not m:
        raise BadInput(f"not a variant name: '{name}'")
    g = m.groups()
    dt = {"f16": "fp16", "bf16": "bf16", "f32": "fp32", "tf32": "fp32"}[g[0]]
    v = {"variant": name, "dtype": dt, "allow_tf32": int(g[0] == "tf32")}
    for k, x in zip(["bm", "bn", "bk", "stages", "warps", "group_m", "even_k", "hint_a", "hint_b",
                     "k_tiles"], g[1:11]):
        v[k] = int(x)
    v["idx64"] = int(g[11] == "64")
    for k, x in zip(COLS[14:], g[12:]):
        if x != "u" and not x.isdigit():
            raise BadInput(f"not a variant name: '{name}'")
        v[k] = 0 if x == "u" else int(x)
    if variant_name(v) != name:
        raise BadInput(f"not a canonical variant name: '{name}'")
    return v


def read_variants(path):
    try:
        with open(path, encoding="utf-8", newline="") as f:
            lines = f.read().split("\n")
    except OSError as e:
        raise BadInput(f"{path}: cannot read: {e.strerror}")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != COLS:
        raise BadInput(f"{path}:1: header is not the variant list's ({' '.join(COLS[:4])} ...)")
    out = []
    for no, line in enumerate(lines[1:], 2):
        if "\r" in line:
            raise BadInput(f"{path}:{no}: a '\\r' (CRLF line ends are not accepted)")
        f = line.split("\t")
        if len(f) != len(COLS):
            raise BadInput(f"{path}:{no}: {len(f)} fields, the header has {len(COLS)}")
        v = {"variant": f[0]}
        if f[1] not in DT:
            raise BadInput(f"{path}:{no}: field 'dtype': expected fp16, bf16 or fp32: '{f[1]}'")
        v["dtype"] = f[1]
        for name, s in zip(COLS[2:], f[2:]):
            if not s.isdigit():
                raise BadInput(f"{path}:{no}: field '{name}': not a non-negative integer: '{s}'")
            v[name] = int(s)
        for name in ("bm", "bn", "bk"):
            x = v[name]
            if x < 16 or x & (x - 1):
                raise BadInput(f"{path}:{no}: field '{name}': not a power of two >= 16: '{x}'")
        if v["k_tiles"] > 8:
            raise BadInput(f"{path}:{no}: field 'k_tiles': above 8: '{v['k_tiles']}'")
        for name in ("even_k", "hint_a", "hint_b", "idx64"):
            if v[name] > 1:
                raise BadInput(f"{path}:{no}: field '{name}': expected 0 or 1: '{v[name]}'")
        for name in COLS[14:]:
            x = v[name]
            if x not in (0, 1, 2, 4, 8, 16):
                raise BadInput(f"{path}:{no}: field '{name}': not 0 (unit) or a power of two <= 16: '{x}'")
        for name in ("div_m", "div_n", "div_k"):
            if v[name] == 0:
                raise BadInput(f"{path}:{no}: field '{name}': M, N and K are never unit constexprs")
        if not 1 <= v["stages"] <= 8 or v["warps"] not in (1, 2, 4, 8, 16, 32) or not 1 <= v["group_m"] <= 64:
            raise BadInput(f"{path}:{no}: field 'stages'/'warps'/'group_m': out of range")
        if variant_name(v) != v["variant"]:
            raise BadInput(f"{path}:{no}: field 'variant': '{v['variant']}' does not match its fields "
                           f"('{variant_name(v)}')")
        out.append(v)
    return out


# ---- compiling (in worker processes) ----------------------------------------

_W = {}


def _init(kernel_path, arch):
    import triton
    import triton.language as tl
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    spec = importlib.util.spec_from_file_location("mmrank_triton_mm", kernel_path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _W.update(triton=triton, tl=tl, ASTSource=ASTSource, target=GPUTarget("cuda", arch, 32),
              fn=mod.triton_mm, arch=arch)


def compile_args(v, tl):
    """(signature, constexprs, attrs, options) of variant v for ASTSource."""
    ptr = "*" + v["dtype"]
    sig = {"A": ptr, "B": ptr, "C": ptr}
    const = {}
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]],
             (2,): [["tt.divisibility", 16]]}
    divs = [v["div_m"], v["div_n"], v["div_k"], v["div_am"], v["div_ak"], v["div_bk"], v["div_bn"]]
    for i, (name, d) in enumerate(zip(INTS, divs)):
        if d == 0:
            sig[name] = "constexpr"
            const[name] = 1
        else:
            sig[name] = "i32"
            if d > 1:
                attrs[(3 + i,)] = [["tt.divisibility", d]]
    meta = dict(BLOCK_M=v["bm"], BLOCK_N=v["bn"], BLOCK_K=v["bk"], GROUP_M=v["group_m"],
                EVEN_K=bool(v["even_k"]), ALLOW_TF32=bool(v["allow_tf32"]), ACC_TYPE=tl.float32,
                HINT_A=bool(v["hint_a"]), HINT_B=bool(v["hint_b"]),
                K_TILES=v["k_tiles"], INDEX_DTYPE=tl.int64 if v["idx64"] else tl.int32)
    for k, x in meta.items():
        sig[k] = "constexpr"
        const[k] = x
    # Inductor's compile options (runtime/triton_heuristics.py:779-811)
    opts = dict(num_warps=v["warps"], num_stages=v["stages"], debug=False, sanitize_overflow=False,
                launch_pdl=False, launch_cooperative_grid=False)
    return sig, const, attrs, opts


def _write_atomic(path, data):
    tmp = f"{path}.tmp.{os.getpid()}"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def metadata_json(md, sig, variant, extra):
    """The launch metadata (stages/FORMATS.md "Triton cubin metadata")."""
    params = [{"name": k, "type": t} for k, t in sig.items() if t != "constexpr"]
    d = {"format": FORMAT, "variant": variant, "status": "ok", "name": md.name,
         "shared": md.shared, "num_warps": md.num_warps, "threads": 32 * md.num_warps,
         "num_stages": md.num_stages, "num_ctas": md.num_ctas,
         "launch_pdl": bool(md.launch_pdl), "launch_cooperative_grid": bool(md.launch_cooperative_grid),
         "global_scratch_size": md.global_scratch_size, "global_scratch_align": md.global_scratch_align,
         "profile_scratch_size": md.profile_scratch_size, "profile_scratch_align": md.profile_scratch_align,
         "params": params, "extra_params": ["global_scratch", "profile_scratch"],
         "triton_version": md.triton_version, "arch": md.target.arch}
    d.update(extra)
    return d


def compile_one(job):
    """Compile one variant into dirpath; returns (variant, status, seconds, message)."""
    v, dirpath, srchash = job
    name = v["variant"]
    tl = _W["tl"]
    t0 = time.time()
    sig, const, attrs, opts = compile_args(v, tl)
    try:
        ck = _W["triton"].compile(_W["ASTSource"](_W["fn"], sig, const, attrs), target=_W["target"],
                                  options=opts)
        cubin = ck.asm["cubin"]
        dt = time.time() - t0
        d = metadata_json(ck.metadata, sig, name,
                          {"block_m": v["bm"], "block_n": v["bn"], "source_hash": srchash,
                           "cubin_bytes": len(cubin), "cubin_fnv1a64": "%016x" % fnv1a64(cubin),
                           "compile_s": round(dt, 3)})
        _write_atomic(os.path.join(dirpath, name + ".cubin"), cubin)
        _write_atomic(os.path.join(dirpath, name + ".json"), (json.dumps(d) + "\n").encode())
        return name, "ok", dt, ""
    except Exception as e:  # a compiler error: recorded, never fatal
        dt = time.time() - t0
        msg = f"{type(e).__name__}: {e}".strip().replace("\n", " ")[:2000]
        d = {"format": FORMAT, "variant": name, "status": "error", "error": msg,
             "triton_version": _W["triton"].__version__, "arch": _W["arch"], "source_hash": srchash,
             "compile_s": round(dt, 3)}
        _write_atomic(os.path.join(dirpath, name + ".json"), (json.dumps(d) + "\n").encode())
        return name, "error", dt, msg


def main(argv):
    cache, arch, jobs, kernel = "build/cubin", 90, os.cpu_count() or 1, None
    retry = only_dir = False
    args = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--cache", "--arch", "--jobs", "--kernel") and i + 1 < len(argv):
            val = argv[i + 1]
            i += 1
            if a == "--cache":
                cache = val
            elif a == "--kernel":
                kernel = val
            else:
                try:
                    n = int(val)
                    assert n > 0
                except (ValueError, AssertionError):
                    print(f"triton_aot.py: {a}: not a positive integer: '{val}'", file=sys.stderr)
                    return 2
                if a == "--arch":
                    arch = n
                else:
                    jobs = n
        elif a == "--retry-failed":
            retry = True
        elif a == "--entry-dir":
            only_dir = True
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        elif a.startswith("--"):
            print(f"triton_aot.py: unknown option '{a}'", file=sys.stderr)
            return 2
        else:
            args.append(a)
        i += 1
    if kernel is None:
        root = checkout()
        if root is None:
            print("triton_aot.py: --kernel FILE: needed outside a checkout (kernels/triton_mm.py)",
                  file=sys.stderr)
            return 2
        kernel = os.path.join(root, "kernels", "triton_mm.py")
    try:
        import triton
    except ImportError as e:
        print(f"triton_aot.py: Triton is not importable by {sys.executable} ({e}): it compiles "
              "the cubins; pip install triton==3.6.0 (the committed collections' version), or "
              "carry a compiled cubin folder (make: TRITON_CUBINS=DIR)", file=sys.stderr)
        return 1
    if only_dir:
        if args:
            print("triton_aot.py: --entry-dir takes no VARIANTS", file=sys.stderr)
            return 2
        print(entry_dir(cache, kernel, triton.__version__, arch))
        return 0
    if len(args) != 1:
        print("usage: python3 -m mmrank.bench.triton_aot [--cache DIR] [--arch CC] [--jobs N] [--kernel FILE] "
              "[--retry-failed] [--entry-dir] VARIANTS", file=sys.stderr)
        return 2
    try:
        variants = read_variants(args[0])
    except BadInput as e:
        print(f"triton_aot.py: {e}", file=sys.stderr)
        return 1
    srchash = source_hash(kernel)
    dirpath = entry_dir(cache, kernel, triton.__version__, arch)
    os.makedirs(dirpath, exist_ok=True)
    os.environ.setdefault("TRITON_CACHE_DIR", os.path.join(cache, ".triton-cache"))
    todo, cached = [], 0
    seen = set()
    for v in variants:
        if v["variant"] in seen:
            continue
        seen.add(v["variant"])
        jpath = os.path.join(dirpath, v["variant"] + ".json")
        if os.path.exists(jpath):
            if not retry:
                cached += 1
                continue
            with open(jpath, encoding="utf-8") as f:
                if json.load(f).get("status") == "ok":
                    cached += 1
                    continue
        todo.append((v, dirpath, srchash))
    t0 = time.time()
    results = []
    if todo:
        if jobs == 1 or len(todo) == 1:
            _init(kernel, arch)
            results = [compile_one(j) for j in todo]
        else:
            import multiprocessing as mp
            ctx = mp.get_context("spawn")
            with ctx.Pool(min(jobs, len(todo)), initializer=_init, initargs=(kernel, arch)) as pool:
                results = pool.map(compile_one, todo, chunksize=1)
    wall = time.time() - t0
    failed = [r for r in results if r[1] != "ok"]
    for r in failed:
        print(f"triton_aot.py: variant {r[0]} failed to compile: {r[3][:300]}", file=sys.stderr)
    per = sum(r[2] for r in results) / len(results) if results else 0.0
    print(f"entry\t{dirpath}\nvariants\t{len(seen)}\ncompiled\t{len(results) - len(failed)}\n"
          f"cached\t{cached}\nfailed\t{len(failed)}\nwall_s\t{wall:.1f}\njobs\t{jobs}\n"
          f"compile_s_per_variant\t{per:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
