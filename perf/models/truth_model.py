"""truth_model — per-GEMM in-graph truth and the step it predicts, from the
variant records of one model x phase (perf/models/truth.py's JSONL); no
torch needed.  The model (perf/models/README.md, "In-graph truth"):

  step(A) = sum over GEMM keys of  slots(key) x t(key, A[key])  +  N(A)

t(key, c): the in-graph time of one GEMM slot of KEY forced to choice c,
the mean over every usable slot measurement of (key, c) in the records
(slot status ok, its forced id is what ran).  N(A): the non-GEMM time (the
step, CUDA events, minus the GEMM slots' medians) of assignment A.  Triton
templates fuse pointwise epilogues (and prologues) that an ATen GEMM leaves
to separate kernels, so N depends on which keys run a template: the
TEMPLATE PATTERN of A (the set of keys whose choice is a Triton template).
  * "pattern": a measured variant with A's pattern: the median N of those.
  * "line": else N = a - lam * X(A), X(A) = sum over A's template keys of
    w(key), w(key) = slots(key) x m x n when its template kernel fused
    something (an op besides mm/addmm in the kernel's name), else 0: the
    epilogue work a template takes over, in output elements; a and lam
    fitted by least squares over the measured variants (lam 0 when X
    never varies).
  * "naive" (reported only): the median N over every variant.
The step-optimal choice of a key under this model minimises
slots x t(key, c) - [c is a template] x lam x w(key).
"""
import random
import statistics

import records   # this script's folder: the record schemas and reader


def is_template(cid):
    """A Triton template's choice id (mmrank.force's ids)."""
    return cid.startswith(("type=triton_", "triton::"))


def read_jsonl(path, bad):
    """[(PATH:LINE, record)] of a truth.py JSONL file (records.read, the one
    reader: UTF-8, JSON, records.truth_error); BAD(where, why) is called on
    a line that is not a record (the field named; it may raise or return)."""
    def refused(msg):
        ln, why = msg[len(path) + 1:].split(": ", 1)   # records.read's "PATH:LINE: why"
        bad(f"{path}:{ln}", why)
    return [(f"{path}:{ln}", r) for ln, r in records.read(path, refused, error=records.truth_error)]


def usable_slots(rec):
    """(key, choice, slot) of a record's usable slot measurements."""
    a = rec.get("analysis") or {}
    for s in a.get("slots", ()):
        if s.get("status") == "ok" and not s.get("check") and s.get("key") and s.get("us") is not None:
            yield s["key"], s["forced"], s


def ok_records(records):
    return [r for r in records if r.get("status") in ("ok", "partial") and r.get("analysis")
            and r.get("step_ms") is not None]


class Truth:
    """What the records of one row say (module doc)."""

    def __init__(self, records):
        self.records = ok_records(records)
        self.samples = {}       # key -> choice -> [us]
        self.slots = {}         # key -> slots per step (the most seen in one record)
        self.shape = {}         # key -> (m, k, n)
        self.fused = {}         # key -> True if a template slot fused an op
        self.offered = {}       # key -> candidate ids (a decision's offered list)
        self.features = {}      # key -> the decision's features
        for r in records:
            for d in r.get("decisions") or ():
                if d.get("key") and d.get("offered"):
                    self.offered.setdefault(d["key"], d["offered"])
                    self.features.setdefault(d["key"], d.get("features"))
                    self.shape.setdefault(d["key"], (d["m"], d["k"], d["n"]))
        for r in self.records:
            count = {}
            for key, choice, s in usable_slots(r):
                self.samples.setdefault(key, {}).setdefault(choice, []).append(s["us"])
                count[key] = count.get(key, 0) + 1
                if s.get("kind") == "template" and s.get("fused"):
                    self.fused[key] = True
                self.shape.setdefault(key, (s["m"], s["k"], s["n"]))
            for s in (r.get("analysis") or {}).get("slots", ()):
                if s.get("key") and s.get("kind") == "template":
                    self.fused.setdefault(s["key"], bool(s.get("fused")))
            for key, c in count.items():
                self.slots[key] = max(self.slots.get(key, 0), c)
        self.t = {key: {c: statistics.fmean(v) for c, v in cs.items()}
                  for key, cs in self.samples.items()}
        self._fit()

    # ---- per key ----------------------------------------------------------
    def weight(self, key):
        m, _, n = self.shape.get(key, (0, 0, 0))
        return self.slots.get(key, 0) * m * n if self.fused.get(key) else 0

    def pattern(self, assign):
        return frozenset(k for k, c in assign.items() if c and is_template(c))

    def record_assign(self, r):
        """key -> forced id of a record (its decisions)."""
        out = {}
        for d in r.get("decisions") or ():
            if d.get("key") and d.get("forced"):
                out.setdefault(d["key"], d["forced"])
        return out

    # ---- the non-GEMM model --------------------------------------------------
    def _fit(self):
        pts = []
        self.by_pattern = {}
        for r in self.records:
            if r.get("nongemm_ms") is None:
                continue
            p = self.pattern(self.record_assign(r))
            x = sum(self.weight(k) for k in p)
            pts.append((x, r["nongemm_ms"]))
            self.by_pattern.setdefault(p, []).append(r["nongemm_ms"])
        self.points = pts
        ys = [y for _, y in pts]
        self.naive = statistics.median(ys) if ys else None
        xs = [x for x, _ in pts]
        if len(set(xs)) >= 2:
            mx, my = statistics.fmean(xs), statistics.fmean(ys)
            sxx = sum((x - mx) ** 2 for x in xs)
            slope = sum((x - mx) * (y - my) for x, y in pts) / sxx
            self.a, self.lam = my - slope * mx, -slope
        else:
            self.a, self.lam = (statistics.fmean(ys) if ys else None), 0.0

    def nongemm_spread(self):
        """min, median, max of the measured non-GEMM ms, and (max - min) / median step."""
        ys = [y for _, y in self.points]
        if not ys:
            return None
        steps = [r["step_ms"] for r in self.records]
        return {"min_ms": round(min(ys), 6), "median_ms": round(statistics.median(ys), 6),
                "max_ms": round(max(ys), 6), "variants": len(ys),
                "range_vs_step": round((max(ys) - min(ys)) / statistics.median(steps), 6),
                "patterns": len(self.by_pattern), "a_ms": _r(self.a),
                "lam_ms_per_melem": _r(self.lam * 1e6 if self.lam is not None else None),
                "by_pattern": sorted(({"template_keys": len(p), "variants": len(v),
                                       "median_ms": _r(statistics.median(v)),
                                       "range_ms": _r(max(v) - min(v))}
                                      for p, v in self.by_pattern.items()),
                                     key=lambda d: (d["template_keys"], d["median_ms"]))}

    def nongemm(self, assign):
        """(N ms, method) for assignment ASSIGN (module doc)."""
        p = self.pattern(assign)
        if p in self.by_pattern:
            return statistics.median(self.by_pattern[p]), "pattern"
        if self.a is None:
            return None, "none"
        return self.a - self.lam * sum(self.weight(k) for k in p), "line"

    # ---- predictions ---------------------------------------------------------------
    def predict(self, assign):
        """{step_ms, gemm_ms, nongemm_ms, method, naive_step_ms, missing} of
        ASSIGN (key -> choice id) over the keys the records know."""
        gemm, missing = 0.0, []
        for key, n in self.slots.items():
            c = assign.get(key)
            t = self.t.get(key, {}).get(c)
            if t is None:
                missing.append(key)
                continue
            gemm += n * t / 1e3
        ng, how = self.nongemm(assign)
        out = {"gemm_ms": round(gemm, 6), "nongemm_ms": _r(ng), "method": how,
               "missing": missing}
        out["step_ms"] = _r(gemm + ng) if ng is not None and not missing else None
        out["naive_step_ms"] = (_r(gemm + self.naive) if self.naive is not None and not missing
                                else None)
        return out

    def cost(self, key, c):
        """A slot group's step cost under the model: slots x t - [template] x lam x w."""
        t = self.t[key][c]
        bonus = self.lam * self.weight(key) if is_template(c) else 0.0
        return self.slots[key] * t / 1e3 - bonus

    def best(self, by="step"):
        """key -> the choice of least model cost (by="step") or least in-graph
        GEMM time (by="gemm")."""
        out = {}
        for key, cs in self.t.items():
            if key not in self.slots:
                continue
            f = (lambda c, key=key: self.cost(key, c)) if by == "step" else (lambda c, cs=cs: cs[c])
            out[key] = min(sorted(cs), key=f)
        return out

    def random(self, seed):
        """key -> a seeded random measured choice: the kind (ATen or
        template) with probability 1/2 each where both were measured, then a
        uniform choice of that kind."""
        rng = random.Random(seed)
        out = {}
        for key in sorted(self.t):
            if key not in self.slots:
                continue
            cs = sorted(self.t[key])
            kinds = sorted({is_template(c) for c in cs})
            k = rng.choice(kinds)
            out[key] = rng.choice([c for c in cs if is_template(c) == k])
        return out


def _r(x):
    return None if x is None else round(x, 6)
