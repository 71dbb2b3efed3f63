#!/usr/bin/env python3
"""chain_tree.py — a tree TSV whose splits test feature m against many
thresholds (tricky for Python's float repr and for the C integer floor):
the root splits at t_0; each of its subtrees is a chain (node j splits at
the next threshold, its left child is a leaf, its right child the next
split; the last split's right child is a leaf), the left one of t_1 ..
t_h, the right one of the rest, so that the tree stays within the depth
cap (TREE_MAX_DEPTH, 64) and pre-order lists the thresholds in order.

usage: chain_tree.py SEED > TREE.tsv   (prints the thresholds, one per line,
with repr(), to fd 3 if open)
"""
import json
import os
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
T = [34.0, 62.5, 0.0, -0.0, 0.1, 1e16, 1e15, 9999999999999998.0, 1e-4, 1e-5, 0.00012345,
     123456789012345680.0, 2.2250738585072014e-308, 1.7976931348623157e308, -1e30, 1e30,
     -9.2233720368547758e18, 9.2233720368547748e18, 9.2233720368547758e18,
     52.6245059967041, 187.23922729492188, 2.5, -2.5, 1.5e-7, 4096.5, 12345678.9]
for _ in range(60):
    T.append(rng.choice([
        rng.uniform(0, 10000), rng.randint(0, 1 << 20) + 0.5,
        rng.random() * 10 ** rng.randint(-12, 22), float(rng.randint(0, 1 << 62)),
        rng.choice([-1, 1]) * rng.random() * 10 ** rng.randint(-300, 300)]))
meta = {"shared_memory": 0, "device_capa": [9, 0], "name": "mm",
        "numerical_features": ["m", "k", "n"], "categorical_features": ["using_tf32"]}
w = sys.stdout.write
w(json.dumps(meta) + "\n")
h = len(T) // 2
depth = 1 + max(h, len(T) - 1 - h)
for k, v in [("criterion", "gini"), ("max_depth", str(depth)), ("min_samples_leaf", "1"),
             ("ranking_k", "0"), ("confidence_threshold", "0")]:
    w(f"param\t{k}\t{v}\n")
w("feature\t0\tm\n")
w("class\t0\ta\nclass\t1\tb\n")


def chain(ts, node):
    """Write the chain of thresholds ts from node id node; return the next id."""
    for i, t in enumerate(ts):
        w(f"node\t{node}\t0\t{t!r}\t{node + 1}\t{node + 2}\t2\t2\t2\t0:0.5,1:0.5\n")
        w(f"node\t{node + 1}\t-1\t0\t-1\t-1\t1\t1\t1\t{i % 2}:1\n")
        node += 2
    w(f"node\t{node}\t-1\t0\t-1\t-1\t1\t1\t2\t0:0.25,1:0.75\n")
    return node + 1


left, right = T[1:h + 1], T[h + 1:]
w(f"node\t0\t0\t{T[0]!r}\t1\t{1 + 2 * len(left) + 1}\t2\t2\t2\t0:0.5,1:0.5\n")
chain(right, chain(left, 1))
try:
    with os.fdopen(3, "w") as f:
        for t in T:
            f.write(repr(t) + "\n")
except OSError:
    pass
