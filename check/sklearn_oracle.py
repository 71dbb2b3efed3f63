#!/usr/bin/env python3
"""sklearn_oracle.py — check our CART (fit) against scikit-learn's
DecisionTreeClassifier on the same training matrix (spec §5.2 expansion,
§5.4 fitting).

usage: sklearn_oracle.py --feat MAIN.feat.tsv --tree TREE.tsv [--tol-pp 0.5]

TREE.tsv must be fit's *unpruned* tree trained on MAIN.feat.tsv alone with
no hold-out (`fit MAIN.feat.tsv --split none -o TREE.tsv ...`), so that the
training matrix is exactly spec §5.2's expansion of MAIN:
  for every input with a finite best time b, one row per choice c with a
  near-best time t (mmrank.rules: b/t >= 0.98): features = the tree's feature columns (by
  name), label = c, sample weight = b/t.
(Until fit can dump its matrix, e.g. `fit --dump-train FILE`, the oracle
rebuilds it; with --train FILE it reads such a dump instead: TSV, header =
feature names then `label`, `weight`.)

Fits DecisionTreeClassifier(criterion, max_depth, min_samples_leaf from the
tree's param records, random_state=42) with the weights and checks:
  1. training accuracy (unweighted fraction of rows whose label is the
     leaf's most probable class, first class on ties) of ours and sklearn's
     within --tol-pp percentage points;
  2. at the root and at both second-level nodes: the same split feature and
     the same threshold, where "same threshold" means the same partition of
     the node's training rows (sklearn splits float32 values, we split
     float64, so the printed thresholds differ in late digits) — unless the
     node's best split is tied (another feature or threshold partition within
     1e-9 relative of the best weighted child impurity), which is reported
     as "tie" and not checked.
Prints one line per check: "ok NAME", "FAIL NAME: why" or "skip NAME: why"
(check/lib.sh vocabulary); exit status 1 if any check failed, 2 on usage or
input errors.
"""
import argparse
import math
import sys

import numpy as np
from sklearn.tree import DecisionTreeClassifier

from mmrank import rules  # (near-best: stages/formats/rules.h)


def read_tree(path):
    t = {"feat": [], "cls": [], "node": [], "param": {}}
    with open(path) as f:
        f.readline()
        for line in f:
            r = line.rstrip("\n").split("\t")
            if r[0] == "param":
                t["param"][r[1]] = r[2]
            elif r[0] == "feature":
                t["feat"].append(r[2])
            elif r[0] == "class":
                t["cls"].append(r[2])
            elif r[0] == "node":
                probs = {}
                if r[9]:
                    for kv in r[9].split(","):
                        c, p = kv.split(":")
                        probs[int(c)] = float(p)
                t["node"].append(dict(feature=int(r[2]), threshold=float(r[3]),
                                      left=int(r[4]), right=int(r[5]), probs=probs))
    return t


def read_feat(path, feats):
    """Spec §5.2 expansion of a feat TSV onto the named feature columns."""
    with open(path) as f:
        f.readline()
        head = f.readline().rstrip("\n").split("\t")
        col = {h: i for i, h in enumerate(head)}
        missing = [x for x in feats if x not in col]
        if missing:
            sys.exit("sklearn_oracle: %s: no column(s) %s" % (path, missing))
        fi = [col[x] for x in feats]
        ci, ti, ii = col["choice"], col["median_ms"], col["input"]
        groups = {}
        order = []
        for line in f:
            r = line.rstrip("\n").split("\t")
            key = r[ii]
            if key not in groups:
                groups[key] = []
                order.append(key)
            groups[key].append(r)
    X, y, w = [], [], []
    for key in order:
        rows = groups[key]
        times = [float(r[ti]) for r in rows]
        best = min(times)
        if not math.isfinite(best):
            continue
        x = [float(rows[0][j]) for j in fi]
        for r, t in zip(rows, times):
            if rules.near_best(t, best):
                X.append(x)
                y.append(r[ci])
                w.append(best / t)
    return np.array(X, dtype=np.float64), np.array(y, dtype=object), np.array(w)


def read_train(path, feats):
    with open(path) as f:
        head = f.readline().rstrip("\n").split("\t")
        col = {h: i for i, h in enumerate(head)}
        fi = [col[x] for x in feats]
        X, y, w = [], [], []
        for line in f:
            r = line.rstrip("\n").split("\t")
            X.append([float(r[j]) for j in fi])
            y.append(r[col["label"]])
            w.append(float(r[col["weight"]]))
    return np.array(X, dtype=np.float64), np.array(y, dtype=object), np.array(w)


def ours_predict(t, X):
    out, leaves = [], []
    for x in X:
        i = 0
        while t["node"][i]["feature"] >= 0:
            n = t["node"][i]
            i = n["left"] if x[n["feature"]] <= n["threshold"] else n["right"]
        probs = t["node"][i]["probs"]
        best = max(probs.items(), key=lambda kv: (kv[1], -kv[0])) if probs else (-1, 0)
        out.append(t["cls"][best[0]] if best[0] >= 0 else None)
        leaves.append(i)
    return np.array(out, dtype=object)


def entropy_sum(counts):
    """Weighted child impurity W*H for rows of class-weight vectors."""
    tot = counts.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tot[..., None] > 0, counts / tot[..., None], 0)
        h = -np.where(p > 0, p * np.log(p), 0).sum(axis=-1)
    return tot * h


def gini_sum(counts):
    tot = counts.sum(axis=-1)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(tot[..., None] > 0, counts / tot[..., None], 0)
    return tot * (1 - (p * p).sum(axis=-1))


def candidates(X, yi, w, ncls, min_leaf, crit):
    """All valid splits of the rows: list of (impurity, feature, left mask key)."""
    imp = entropy_sum if crit == "entropy" else gini_sum
    n = len(yi)
    onehot = np.zeros((n, ncls))
    onehot[np.arange(n), yi] = w
    total = onehot.sum(axis=0)
    res = []
    for f in range(X.shape[1]):
        order = np.argsort(X[:, f], kind="stable")
        v = X[order, f]
        cum = np.cumsum(onehot[order], axis=0)
        pos = np.nonzero(v[1:] > v[:-1])[0]  # split after index pos
        pos = pos[(pos + 1 >= min_leaf) & (n - pos - 1 >= min_leaf)]
        if len(pos) == 0:
            continue
        left = cum[pos]
        val = imp(left) + imp(total - left)
        for p_, s in zip(pos, val):
            res.append((s, f, v[p_], v[p_ + 1]))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--feat", required=True)
    ap.add_argument("--tree", required=True)
    ap.add_argument("--train")
    ap.add_argument("--tol-pp", type=float, default=0.5)
    a = ap.parse_args()
    t = read_tree(a.tree)
    feats = t["feat"]
    X, y, w = read_train(a.train, feats) if a.train else read_feat(a.feat, feats)
    if len(y) == 0:
        sys.exit("sklearn_oracle: empty training matrix")
    crit = t["param"].get("criterion", "entropy")
    depth = int(t["param"].get("max_depth", "5"))
    msl = float(t["param"].get("min_samples_leaf", "1"))
    msl = int(msl) if msl >= 1 else msl
    clf = DecisionTreeClassifier(criterion=crit, max_depth=depth,
                                 min_samples_leaf=msl, random_state=42)
    clf.fit(X, y, sample_weight=w)
    bad = 0

    acc_sk = float((clf.predict(X) == y).mean())
    acc_ours = float((ours_predict(t, X) == y).mean())
    d = 100 * abs(acc_sk - acc_ours)
    line = "accuracy ours %.3f%% sklearn %.3f%% (%d rows)" % (100 * acc_ours, 100 * acc_sk, len(y))
    if d <= a.tol_pp:
        print("ok oracle-accuracy: " + line)
    else:
        print("FAIL oracle-accuracy: %s differ by %.3f pp > %.2f" % (line, d, a.tol_pp))
        bad = 1

    # root and second level
    classes = {c: i for i, c in enumerate(sorted(set(y)))}
    yi = np.array([classes[c] for c in y])
    min_leaf = math.ceil(msl * len(y)) if isinstance(msl, float) else msl
    sk = clf.tree_
    # (name, sklearn node, our node, row mask)
    todo = [("root", 0, 0, np.ones(len(y), dtype=bool))]
    checked = 0
    while todo:
        name, sn, on, mask = todo.pop(0)
        sf, of = sk.feature[sn], (t["node"][on]["feature"] if on >= 0 else -1)
        if sf < 0 and of < 0:
            print("ok oracle-%s: both leaves" % name)
            continue
        if sf < 0 or of < 0:
            print("FAIL oracle-%s: %s is a leaf, the other splits" % (name, "sklearn" if sf < 0 else "ours"))
            bad = 1
            continue
        st = sk.threshold[sn]
        ot = t["node"][on]["threshold"]
        xs = X[mask]
        cand = candidates(xs, yi[mask], w[mask], len(classes), min_leaf, crit)
        best = min(c[0] for c in cand)
        tied = {(c[1], c[2]) for c in cand if c[0] <= best + 1e-9 * max(1.0, abs(best))}
        same_part = np.array_equal(xs[:, sf] <= st, xs[:, of] <= ot)
        desc = "sklearn %s <= %.9g, ours %s <= %.9g" % (feats[sf], st, feats[of], ot)
        if len(tied) > 1:
            print("skip oracle-%s: tie between %d best splits (%s)" % (name, len(tied), desc))
        elif sf == of and same_part:
            print("ok oracle-%s: %s" % (name, desc))
            checked += 1
        else:
            print("FAIL oracle-%s: different split: %s" % (name, desc))
            bad = 1
            continue
        if name == "root":
            lm = mask.copy()
            lm[mask] = xs[:, sf] <= st
            rm = mask.copy()
            rm[mask] = ~(xs[:, sf] <= st)
            todo.append(("left", sk.children_left[sn], t["node"][on]["left"], lm))
            todo.append(("right", sk.children_right[sn], t["node"][on]["right"], rm))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
