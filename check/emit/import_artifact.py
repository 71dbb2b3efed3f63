#!/usr/bin/env python3
"""import_artifact.py — turn a generated Python heuristic (e.g. PyTorch's
shipped _MMRankingA100.py, read from ../shared/reference; never copied into
the repository) back into a tree TSV (stages/FORMATS.md), for the emit
tests: re-emitting it must reproduce the artifact's tree text, and its C
twin must rank like the artifact.

usage: import_artifact.py ARTIFACT.py > TREE.tsv

Leaves keep the artifact's list order: each printed probability v becomes
v + (1 - sum)/len - j*1e-7 (j = position among equal printed values), then
renormalised by an equal shift of all entries; it prints back as v with %.3f, sums to 1, and sorts (p desc, index asc) into
the printed order.  Internal nodes get the mean of their children's
distributions (emit does not print them); n_samples/weighted_n are 0.
"""
import ast
import json
import re
import sys

NUM = ["m", "k", "n", "mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1"]
DERIVED = ["m*k", "m*n", "k*n", "arith_intensity"]
CATS = {
    "mat1_dtype": ["torch.float16", "torch.bfloat16", "torch.float32"],
    "mat2_dtype": ["torch.float16", "torch.bfloat16", "torch.float32"],
    "mat1_iscontig": ["True", "False"],
    "mat2_iscontig": ["True", "False"],
    "using_tf32": ["not_float_32", "False", "True"],
}


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    text = open(sys.argv[1]).read()
    shm = int(re.search(r"metadata\.shared_memory == (\d+)", text).group(1))
    capa = ast.literal_eval(re.search(r'str\(metadata\.device_capa\) == "(\([^"]*\))"', text).group(1))
    name = re.search(r"def get_name\(self\) -> str:\n\s*return '([^']*)'", text).group(1)
    thr = float(re.search(r"def get_confidence_threshold\(self\) -> float:\n\s*return (\S+)", text).group(1))
    choices = re.findall(r"self\.choices\.append\('([^']*)'\)", text)
    assert choices == sorted(choices), "choices not sorted"
    body = text.split("def get_best_choices", 1)[1].split("\n")[1:]
    lines = [(len(l) - len(l.lstrip(" ")), l.strip()) for l in body if l.strip()]

    feats = NUM + DERIVED + [f"{c}_{v}" for c, vs in CATS.items() for v in vs]
    nodes = []  # [feature, threshold, left, right, probs(dict)]
    pos = 0

    def parse():
        nonlocal pos
        ind, s = lines[pos]
        pos += 1
        i = len(nodes)
        nodes.append(None)
        m = re.fullmatch(r"if context\.get_value\('([^']*)'\) <= (\S+):", s)
        d = re.fullmatch(r"if str\(context\.get_value\('([^']*)'\)\) != '([^']*)':", s)
        if m or d:
            if m:
                fname, t = m.group(1), float(m.group(2))
            else:
                fname, t = f"{d.group(1)}_{d.group(2)}", 0.5
                if fname not in feats:
                    feats.append(fname)
            left = parse()
            assert lines[pos] == (ind, "else:"), lines[pos]
            pos += 1
            right = parse()
            pl, pr = nodes[left][4], nodes[right][4]
            probs = {c: (pl.get(c, 0) + pr.get(c, 0)) / 2 for c in set(pl) | set(pr)}
            nodes[i] = [feats.index(fname), t, left, right, probs]
            return i
        r = re.fullmatch(r"return (\[.*\])", s)
        assert r, s
        pairs = ast.literal_eval(r.group(1))
        shift = (1 - sum(p for p, _ in pairs)) / len(pairs)
        assert abs(shift) < 0.0004, shift
        probs, seen = {}, {}
        for p, c in pairs:
            j = seen.get(p, 0)
            seen[p] = j + 1
            probs[c] = (p + shift - j * 1e-7) if p > 0 else 1e-5
        fix = (1 - sum(probs.values())) / len(probs)
        for p, c in pairs:
            probs[c] += fix
            assert f"{probs[c]:.3f}" == f"{p:.3f}" and probs[c] > 0
        nodes[i] = [-1, 0.0, -1, -1, probs]
        return i

    parse()
    meta = {"shared_memory": shm, "device_capa": list(capa), "name": name,
            "numerical_features": NUM, "categorical_features": list(CATS)}
    w = sys.stdout.write
    w(json.dumps(meta) + "\n")
    for k, v in [("criterion", "entropy"), ("max_depth", "5"), ("min_samples_leaf", "1"),
                 ("ranking_k", "10"), ("confidence_threshold", repr(thr))]:
        w(f"param\t{k}\t{v}\n")
    for i, f in enumerate(feats):
        w(f"feature\t{i}\t{f}\n")
    for i, c in enumerate(choices):
        w(f"class\t{i}\t{c}\n")
    for i, (f, t, l, r, probs) in enumerate(nodes):
        ps = ",".join(f"{c}:{probs[c]!r}" for c in sorted(probs))
        w(f"node\t{i}\t{f}\t{t!r}\t{l}\t{r}\t0\t0\t{len(probs)}\t{ps}\n")


if __name__ == "__main__":
    main()
