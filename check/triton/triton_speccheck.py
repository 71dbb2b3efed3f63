#!/usr/bin/env python3
"""triton_speccheck.py — does a specialised variant compile to the code
Inductor's static kernel would?  And the static kernels themselves, for
timing against ours.

usage: triton_speccheck.py compare [--jobs N] [--limit N] [--every N] CANDS
       triton_speccheck.py static  [--jobs N] [--limit N] [--every N] --cache DIR CANDS

CANDS is `triton_cands --candidates` output; its Triton rows are the cases
(every N-th one with --every, at most --limit).

The oracle, inductor_ref_mm below, transcribes Inductor's mm template
(torch 2.11 kernel/templates/triton_mm.py.jinja) as Inductor instantiates
it for one static mm: sizes and strides are literals (constexprs here), the
hint condition is evaluated on them in the kernel, the K loop recomputes
the addresses from k_idx.  It is a test oracle, not what bench runs.

compare: for each case compile the oracle with the input's literal sizes
and our kernel (kernels/triton_mm.py) as the case's variant (run-time sizes
with the variant's divisibility), both for sm_90, and compare
  * the shared memory size (metadata.shared) — must be equal;
  * the histogram of memory and tensor-core instructions in the PTX
    (cp.async*, ld/st.global/shared with their widths, ldmatrix, stmatrix,
    wgmma*, mma*, bar*, fence*, mbarrier*), of the kernel and of its main
    loop body;
  * the instruction count of the main loop body and of the kernel
    (reported: scalar address arithmetic differs, literals fold).
Verdict per case: "equal" (same shared memory, same histogram), "loop"
(same shared memory and main-loop histogram; only the code around the loop
differs — LLVM peels the last iteration of a loop whose trip count is a
literal, ours predicates it — allowed only for run-time trip counts,
k_tiles = 0), else "DIFFERS".  Prints one line per case and a summary;
exit status 1 if any case differs.

static: compile the oracle for each case into
DIR/triton-ref-<srchash>-<tritonversion>-sm90/<refname>.{cubin,json}
(the same entry format as triton_aot.py; refname in ref_name()), for
check/gpu/test_triton.sh to time Inductor-style static kernels against our
specialised ones.
"""
import os
import re
import sys
import time
from collections import Counter

from mmrank.bench import triton_aot  # noqa: E402

import triton  # noqa: E402
import triton.language as tl  # noqa: E402


@triton.jit
def inductor_ref_mm(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
                    stride_am: tl.constexpr, stride_ak: tl.constexpr,
                    stride_bk: tl.constexpr, stride_bn: tl.constexpr,
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                    GROUP_M: tl.constexpr, EVEN_K: tl.constexpr, ALLOW_TF32: tl.constexpr,
                    ACC_TYPE: tl.constexpr, INDEX_DTYPE: tl.constexpr):
    pid = tl.program_id(0).to(INDEX_DTYPE)
    grid_m = (M + BLOCK_M - 1) // BLOCK_M
    grid_n = (N + BLOCK_N - 1) // BLOCK_N
    width = GROUP_M * grid_n
    group_id = pid // width
    group_size = min(grid_m - group_id * GROUP_M, GROUP_M)
    pid_m = group_id * GROUP_M + (pid % group_size)
    pid_n = (pid % width) // (group_size)
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    if ((stride_am == 1 and stride_ak == M) or (stride_am == K and stride_ak == 1)) and (M >= BLOCK_M and K > 1):
        offs_a_m = tl.max_contiguous(tl.multiple_of(rm % M, BLOCK_M), BLOCK_M)
    else:
        offs_a_m = rm % M
    if ((stride_bk == 1 and stride_bn == K) or (stride_bk == N and stride_bn == 1)) and (N >= BLOCK_N and K > 1):
        offs_b_n = tl.max_contiguous(tl.multiple_of(rn % N, BLOCK_N), BLOCK_N)
    else:
        offs_b_n = rn % N
    offs_k = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=ACC_TYPE)
    for k_idx in range(0, tl.cdiv(K, BLOCK_K)):
        a_k_idx_vals = offs_k[None, :] + (k_idx * BLOCK_K)
        b_k_idx_vals = offs_k[:, None] + (k_idx * BLOCK_K)
        idx_m = offs_a_m[:, None]
        idx_n = a_k_idx_vals
        if EVEN_K:
            a = tl.load(A + (stride_ak * idx_n + stride_am * idx_m))
        else:
            a_mask = offs_k[None, :] < (K - k_idx * BLOCK_K)
            a = tl.load(A + (stride_ak * idx_n + stride_am * idx_m), mask=a_mask, other=0.0)
        idx_m = b_k_idx_vals
        idx_n = offs_b_n[None, :]
        if EVEN_K:
            b = tl.load(B + (stride_bn * idx_n + stride_bk * idx_m))
        else:
            b_mask = offs_k[:, None] < (K - k_idx * BLOCK_K)
            b = tl.load(B + (stride_bn * idx_n + stride_bk * idx_m), mask=b_mask, other=0.0)
        acc += tl.dot(a, b, allow_tf32=ALLOW_TF32, out_dtype=ACC_TYPE)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    idx_m = rm[:, None]
    idx_n = rn[None, :]
    mask = (idx_m < M) & (idx_n < N)
    tl.store(C + (idx_n + N * idx_m), acc, mask)


DT = {"torch.float16": "fp16", "torch.bfloat16": "bf16", "torch.float32": "fp32"}


def ref_name(case):
    """The static entry's name: ref-MxKxN-dtype[-tf32]-s10.s11.s20.s21-BMxBNxBK-sSwW."""
    tf = "-tf32" if case["allow_tf32"] else ""
    return (f"ref-{case['m']}x{case['k']}x{case['n']}-{case['dtype']}{tf}-"
            f"{case['s'][0]}.{case['s'][1]}.{case['s'][2]}.{case['s'][3]}-"
            f"{case['bm']}x{case['bn']}x{case['bk']}-s{case['stages']}w{case['warps']}")


def read_cases(path, every, limit):
    with open(path, encoding="utf-8") as f:
        rows = [l.rstrip("\n").split("\t") for l in f if not l.startswith("#")]
    head = rows[0]
    ix = {c: i for i, c in enumerate(head)}
    for c in ("m", "k", "n", "dtype", "mat1_stride_0", "kind", "variant", "id", "input"):
        if c not in ix:
            raise SystemExit(f"triton_speccheck.py: {path}: column '{c}' missing")
    cases = []
    n = 0
    for r in rows[1:]:
        if r[ix["kind"]] != "triton":
            continue
        n += 1
        if (n - 1) % every:
            continue
        v = triton_aot.parse_variant_name(r[ix["variant"]])
        case = dict(v)
        case.update(input=int(r[ix["input"]]), id=r[ix["id"]], m=int(r[ix["m"]]), k=int(r[ix["k"]]),
                    n=int(r[ix["n"]]),
                    s=[int(r[ix[c]]) for c in ("mat1_stride_0", "mat1_stride_1", "mat2_stride_0",
                                               "mat2_stride_1")])
        if DT[r[ix["dtype"]]] != case["dtype"]:
            raise SystemExit(f"triton_speccheck.py: {path}: dtype of input {case['input']} disagrees with its variant")
        cases.append(case)
        if limit and len(cases) == limit:
            break
    return cases


def ref_args(case):
    ptr = "*" + case["dtype"]
    sig = {"A": ptr, "B": ptr, "C": ptr}
    const = dict(M=case["m"], N=case["n"], K=case["k"], stride_am=case["s"][0], stride_ak=case["s"][1],
                 stride_bk=case["s"][2], stride_bn=case["s"][3], BLOCK_M=case["bm"], BLOCK_N=case["bn"],
                 BLOCK_K=case["bk"], GROUP_M=case["group_m"], EVEN_K=case["k"] % case["bk"] == 0,
                 # Inductor's collection runs fp16/bf16 at precision "high"
                 # (allow_tf32 on, spec §3.2), and ALLOW_TF32 follows the flag
                 # whatever the dtype: the oracle does too, ours compiles
                 # fp16/bf16 with ALLOW_TF32 = False (the same code)
                 ALLOW_TF32=bool(case["allow_tf32"]) or case["dtype"] != "fp32", ACC_TYPE=tl.float32,
                 INDEX_DTYPE=tl.int64 if case["idx64"] else tl.int32)
    for k in const:
        sig[k] = "constexpr"
    attrs = {(0,): [["tt.divisibility", 16]], (1,): [["tt.divisibility", 16]], (2,): [["tt.divisibility", 16]]}
    opts = dict(num_warps=case["warps"], num_stages=case["stages"], debug=False, sanitize_overflow=False,
                launch_pdl=False, launch_cooperative_grid=False)
    return sig, const, attrs, opts


MEMOP = re.compile(r"(cp\.async|ld\.global|st\.global|ld\.shared|st\.shared|ldmatrix|stmatrix|wgmma|mma|"
                   r"bar|fence|mbarrier|cvt\.rna\.tf32)")


def ptx_ops(ptx):
    """(memory/tensor op histogram of the kernel, the same of its longest
    loop body, that body's instruction count, the kernel's)."""
    lines = [l.strip() for l in ptx.splitlines()]
    labels = {}
    ops = []
    for i, l in enumerate(lines):
        m = re.match(r"(\$L__BB\d+_\d+):", l)
        if m:
            labels[m.group(1)] = i
        op = None
        if l.endswith(";") and not l.startswith("."):
            t = l.split()
            op = (t[1] if t[0].startswith("@") and len(t) > 1 else t[0]).rstrip(";")
        ops.append(op)
    hist = Counter(o for o in ops if o and MEMOP.match(o))
    best = (0, Counter())
    for i, l in enumerate(lines):
        m = re.search(r"bra(\.uni)?\s+(\$L__BB\d+_\d+);", l)
        if m and labels.get(m.group(2), 1 << 30) < i:
            body = [o for o in ops[labels[m.group(2)]:i + 1] if o]
            if len(body) > best[0]:
                best = (len(body), Counter(o for o in body if MEMOP.match(o)))
    return hist, best[1], best[0], sum(1 for o in ops if o)


_S = {}


def _init(kernel):
    from triton.backends.compiler import GPUTarget
    from triton.compiler import ASTSource
    import importlib.util
    spec = importlib.util.spec_from_file_location("mmrank_triton_mm", kernel)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    _S.update(ASTSource=ASTSource, target=GPUTarget("cuda", 90, 32), ours=mod.triton_mm)


def _compile(fn, sig, const, attrs, opts):
    return triton.compile(_S["ASTSource"](fn, sig, const, attrs), target=_S["target"], options=opts)


def compare_one(case):
    t0 = time.time()
    r = _compile(inductor_ref_mm, *ref_args(case))
    o = _compile(_S["ours"], *triton_aot.compile_args(case, tl))
    hr, br, lr, tr = ptx_ops(r.asm["ptx"])
    ho, bo, lo, to = ptx_ops(o.asm["ptx"])
    diff = {k: (hr[k], ho[k]) for k in sorted(set(hr) | set(ho)) if hr[k] != ho[k]}
    ldiff = {k: (br[k], bo[k]) for k in sorted(set(br) | set(bo)) if br[k] != bo[k]}
    # equal: the same shared memory and memory/tensor instructions; loop:
    # the same shared memory and main-loop body, the code around the loop
    # laid out differently (LLVM peels a constant-trip loop's last
    # iteration; ours, with a run-time trip count, predicates it)
    if r.metadata.shared != o.metadata.shared or (lr == 0) != (lo == 0):
        verdict = "DIFFERS"
    elif not diff:
        verdict = "equal"
    elif not ldiff and lr and case["k_tiles"] == 0:
        verdict = "loop"
    else:
        verdict = "DIFFERS"
    return dict(case=case, verdict=verdict, shared=(r.metadata.shared, o.metadata.shared), diff=diff,
                ldiff=ldiff, loop=(lr, lo), total=(tr, to), s=time.time() - t0)


def static_one(job):
    case, dirpath, srchash = job
    name = ref_name(case)
    sig, const, attrs, opts = ref_args(case)
    t0 = time.time()
    ck = _compile(inductor_ref_mm, sig, const, attrs, opts)
    cubin = ck.asm["cubin"]
    d = triton_aot.metadata_json(ck.metadata, sig, name,
                                 {"block_m": case["bm"], "block_n": case["bn"], "source_hash": srchash,
                                  "cubin_bytes": len(cubin),
                                  "cubin_fnv1a64": "%016x" % triton_aot.fnv1a64(cubin),
                                  "compile_s": round(time.time() - t0, 3)})
    import json
    triton_aot._write_atomic(os.path.join(dirpath, name + ".cubin"), cubin)
    triton_aot._write_atomic(os.path.join(dirpath, name + ".json"), (json.dumps(d) + "\n").encode())
    return name


def run_pool(fn, jobs, items, kernel):
    if jobs == 1 or len(items) <= 1:
        _init(kernel)
        return [fn(x) for x in items]
    import multiprocessing as mp
    with mp.get_context("spawn").Pool(min(jobs, len(items)), initializer=_init, initargs=(kernel,)) as p:
        return p.map(fn, items, chunksize=1)


def main(argv):
    if not argv or argv[0] not in ("compare", "static"):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    mode, argv = argv[0], argv[1:]
    jobs, limit, every, cache = os.cpu_count() or 1, 0, 1, None
    kernel = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "kernels", "triton_mm.py")
    rest = []
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--jobs", "--limit", "--every", "--cache", "--kernel") and i + 1 < len(argv):
            if a == "--cache":
                cache = argv[i + 1]
            elif a == "--kernel":
                kernel = argv[i + 1]
            else:
                val = int(argv[i + 1])
                if a == "--jobs":
                    jobs = val
                elif a == "--limit":
                    limit = val
                else:
                    every = max(1, val)
            i += 2
            continue
        rest.append(a)
        i += 1
    if len(rest) != 1 or (mode == "static" and cache is None):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    cases = read_cases(rest[0], every, limit)
    if mode == "static":
        srchash = "%016x" % triton_aot.fnv1a64(open(__file__, "rb").read())
        dirpath = os.path.join(cache, f"triton-ref-{srchash}-{triton.__version__}-sm90")
        os.makedirs(dirpath, exist_ok=True)
        todo = [(c, dirpath, srchash) for c in cases
                if not os.path.exists(os.path.join(dirpath, ref_name(c) + ".json"))]
        t0 = time.time()
        run_pool(static_one, jobs, todo, kernel)
        print(f"entry\t{dirpath}\nstatic\t{len(cases)}\ncompiled\t{len(todo)}\nwall_s\t{time.time() - t0:.1f}")
        return 0
    res = run_pool(compare_one, jobs, cases, kernel)
    bad = 0
    count = Counter(r["verdict"] for r in res)
    for r in res:
        c = r["case"]
        bad += r["verdict"] == "DIFFERS"
        extra = ""
        if r["verdict"] != "equal":
            extra = f"\tkernel {r['diff']}" + (f"\tloop body {r['ldiff']}" if r["ldiff"] else "")
        print(f"{r['verdict']}\tinput {c['input']} {c['m']}x{c['k']}x{c['n']} {c['variant']}"
              f"\tshared {r['shared'][0]}/{r['shared'][1]}\tloop {r['loop'][0]}/{r['loop'][1]}"
              f"\tinstrs {r['total'][0]}/{r['total'][1]}{extra}")
    print(f"speccheck: {len(res)} cases, {count['equal']} equal, {count['loop']} equal main loop "
          f"(different code around it), {bad} differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
