#!/usr/bin/env python3
"""truth_log.py — perf/models/truth.py's in-graph truth as an AutoHeuristic
mm log (the pipeline's input: make heuristic / featurize take it), and a
summary per GEMM key; no torch needed.

usage: truth_log.py OUT.txt TRUTH.jsonl [MORE.jsonl ...] [--summary FILE.md]
                    [--json FILE.json] [--ops mm,addmm] [--epilogue none|attribute]
                    [--all-choices] [--shared-memory N --device-capa MAJOR.MINOR]

The log is PyTorch's (spec §1, stages/FORMATS.md): line 1 the metadata JSON
(shared_memory and device_capa of the GPU the records ran on, name "mm", the
AutoHeuristic context's numerical and categorical features), line 2 the CSV
header (the features in context order, choice, feedback), then one row per
(GEMM key, choice) of each model x phase: the key's features as the forcing
handler logged them (mat1 @ mat2's context; addmm's too, as mmrank.inductor
ranks addmm with the mm tree), the choice id, and feedback = the key's
IN-GRAPH milliseconds with that choice: the mean over every usable slot
measurement of the key (perf/models/truth_model.py's t(key, c)).  Choice ids:
triton::mm's AutoHeuristic ids as they are; the ATen choices as extern_mm
(for addmm the faster of extern_bias_addmm and extern_addmm: bias_addmm on
every key measured so far; the handler keeps only bias_addmm where Inductor
offers it, docs/INDUCTOR.md); other templates
(decompose_k, persistent TMA) only with --all-choices, under the forcing
handler's ids.  --epilogue attribute adds to an ATen choice's feedback the
non-GEMM time the model attributes to the key's fused epilogue (lam x m x n
per slot, truth_model's line fit; 0 where the key's template fused
nothing): the step cost of the choice rather than its kernels'.
--ops: the GEMM ops logged (default mm,addmm).
Records: status ok or partial, their usable slots only.  The GPU facts come
from the records (every record must agree); a --device cpu dry run has none:
--shared-memory and --device-capa give them.
--summary: markdown, per model x phase and GEMM key: slots per step,
choices measured of those offered, the in-graph winner and its time, the
best ATen choice's time and its rank among the measured choices (1 = it
won), their ratio, the step-model winner where it differs; per model x
phase the non-GEMM spread over the variants and, for each mixed variant, the
predicted and measured step.  --json: the same as data.
Bad input (a line that is not JSON, records of two GPUs, features that
differ between keys) is an error naming the file and line; no output is left.
Needs the mmrank package (mmrank.bench.inductor_log): PYTHONPATH=<repo>/python
(truth.sh sets it), or pip install <repo>/python.
"""
import argparse
import json
import os
import sys

import records       # this script's folder: the record files
import truth_model
from mmrank.bench import inductor_log   # the AutoHeuristic log reader

ROW_FIELDS = ("model", "phase", "layers", "batch", "seq", "device")


class Bad(Exception):
    pass


def read(paths):
    """[(where, record)] of every line of PATHS; a bad line is an error."""
    def bad(where, why):
        raise Bad(f"{where}: {why}")
    out = []
    for path in paths:
        try:
            out += truth_model.read_jsonl(path, bad)
        except OSError as e:
            raise Bad(f"{path}: cannot read: {e.strerror}") from None
    return out


def one_gpu(recs):
    """((shared_memory, capability), where) that the records with status ok
    or partial agree on; Bad when there is none or two GPUs' records
    (clocks.py applies it too)."""
    seen = {}
    for where, r in recs:
        if r.get("status") not in ("ok", "partial"):
            continue
        fact = (r.get("shared_memory"), tuple(r["capability"]) if r.get("capability") else None)
        seen.setdefault(fact, where)
    if not seen:
        raise Bad("no record with status ok or partial")
    if len(seen) > 1:
        a, b = list(seen.items())[:2]
        raise Bad(f"{b[1]}: shared_memory/capability {b[0]} differ from {a[1]}'s {a[0]} "
                  "(records of two GPUs: convert them apart)")
    return next(iter(seen.items()))


def device_facts(recs, sm, capa):
    """(shared_memory, [major, minor]) the records agree on, or the overrides."""
    if sm is not None or capa is not None:
        if sm is None or capa is None:
            raise Bad("--shared-memory and --device-capa go together")
        return sm, list(capa)
    (fsm, fcapa), where = one_gpu(recs)
    if fsm is None or fcapa is None:
        raise Bad(f"{where}: no shared_memory/capability (a --device cpu dry run?): pass "
                  "--shared-memory and --device-capa")
    return fsm, list(fcapa)


def log_choice(cid, all_choices):
    """The log's id of a forced choice id, or None when it is not logged."""
    if cid.startswith("extern_"):
        return "extern_mm"
    if cid.startswith("type=triton_") or all_choices:
        return cid
    return None


def row_truth(tr, ops, all_choices, epilogue):
    """{key: {"features", "choices": {log id: ms}, ...}} of one row."""
    out = {}
    for key, cs in tr.t.items():
        op = key.split(" ")[0]
        if op not in ops or key not in tr.features or not tr.features[key]:
            continue
        share = (tr.lam * tr.weight(key) / tr.slots[key]
                 if epilogue == "attribute" and tr.slots.get(key) else 0.0)
        ms = {}
        for c, us in cs.items():
            lid = log_choice(c, all_choices)
            if lid is None:
                continue
            v = us / 1e3 + (share if lid == "extern_mm" else 0.0)
            ms[lid] = min(ms[lid], v) if lid in ms else v
        if ms:
            out[key] = {"features": tr.features[key], "choices": ms, "share_ms": share}
    return out


def fmt(x):
    """A feedback value: str(float), rounded to 1e-9 ms (means print long)."""
    return str(round(float(x), 9))


def build(recs, args):
    """(log text, summary dict)."""
    sm, capa = device_facts(recs, args.shared_memory, args.device_capa)
    rows = {}
    for where, r in recs:
        rows.setdefault(tuple(r.get(f) for f in ROW_FIELDS), []).append(r)
    names, lines, summary = None, [], {"rows": []}
    for ident, rs in rows.items():
        tr = truth_model.Truth(rs)
        keys = row_truth(tr, args.ops, args.all_choices, args.epilogue)
        srow = {"row": dict(zip(ROW_FIELDS, ident)), "variants": len(rs),
                "usable_variants": len(tr.records), "nongemm": tr.nongemm_spread(),
                "keys": [], "mixed": []}
        for key in sorted(keys):
            k = keys[key]
            feats = k["features"]
            these = [(n, bool(c)) for n, _, c in feats]
            if names is None:
                names = these
            elif these != names:
                raise Bad(f"{ident[0]} {ident[1]} {key}: its features {[n for n, _ in these]} "
                          f"differ from the first key's {[n for n, _ in names]}")
            vals = ",".join(v for _, v, _ in feats)
            for cid, ms in k["choices"].items():
                if not ms > 0:
                    raise Bad(f"{ident[0]} {ident[1]} {key} {cid}: in-graph time {ms} ms is not > 0")
                lines.append(f"{vals},{cid},{fmt(ms)}")
            order = sorted(k["choices"], key=lambda c: (k["choices"][c], c))
            win = order[0]
            ext = k["choices"].get("extern_mm")
            model_best = tr.best("step").get(key)
            srow["keys"].append({
                "key": key, "slots": tr.slots.get(key), "measured": len(tr.t[key]),
                "offered": len(tr.offered.get(key, ())), "winner": win,
                "winner_ms": k["choices"][win], "extern_ms": ext,
                "extern_rank": order.index("extern_mm") + 1 if ext is not None else None,
                "extern_over_winner": ext / k["choices"][win] if ext is not None else None,
                "step_winner": model_best, "epilogue_share_ms": k["share_ms"]})
        for r in rs:
            p = r.get("prediction")
            if p and r.get("status") in ("ok", "partial") and r.get("step_ms") is not None:
                srow["mixed"].append({"variant": r["variant"], "predicted_ms": p.get("step_ms"),
                                      "method": p.get("method"), "naive_ms": p.get("naive_step_ms"),
                                      "measured_ms": r["step_ms"],
                                      "measured_over_predicted": r.get("measured_over_predicted"),
                                      "measured_over_naive": r.get("measured_over_naive")})
        summary["rows"].append(srow)
    if not lines:
        raise Bad("no usable in-graph time of a logged op and choice in the records")
    meta = json.dumps({"shared_memory": sm, "device_capa": capa, "name": "mm",
                       "numerical_features": [n for n, c in names if not c],
                       "categorical_features": [n for n, c in names if c]})
    header = ",".join([n for n, _ in names] + ["choice", "feedback"])
    summary["log_rows"] = len(lines)
    return meta + "\n" + header + "\n" + "\n".join(lines) + "\n", summary


def _f(x, spec=".4f"):
    return "-" if x is None else format(x, spec)


def markdown(summary):
    out = ["# In-graph truth: per GEMM key", ""]
    for s in summary["rows"]:
        r = s["row"]
        out.append(f"## {r['model']} {r['phase']} (layers {r['layers']}, batch {r['batch']}, "
                   f"seq {r['seq']}, {r['device']}): {s['variants']} variants, "
                   f"{s['usable_variants']} usable")
        n = s["nongemm"]
        if n:
            out.append(f"non-GEMM ms over {n['variants']} variants: min {_f(n['min_ms'])}, "
                       f"median {_f(n['median_ms'])}, max {_f(n['max_ms'])} "
                       f"(range {100 * n['range_vs_step']:.2f} % of the median step; "
                       f"{n['patterns']} template patterns; line a {_f(n['a_ms'])} ms, "
                       f"lam {_f(n['lam_ms_per_melem'])} ms per M output elements)")
            out.append("by template pattern (keys running a template: variants, median, range ms): "
                       + "; ".join(f"{b['template_keys']}: {b['variants']}, {_f(b['median_ms'])}, "
                                   f"{_f(b['range_ms'])}" for b in n["by_pattern"]))
        out += ["", "| key | slots | measured/offered | in-graph winner | ms | ATen ms | ATen rank "
                "| ATen/winner | step-model winner |", "|---|---|---|---|---|---|---|---|---|"]
        for k in s["keys"]:
            sw = k["step_winner"] and log_choice(k["step_winner"], True)
            sw = "same" if sw in (k["winner"], None) else sw
            out.append(f"| {k['key']} | {k['slots']} | {k['measured']}/{k['offered']} | "
                       f"{records.cell(k['winner'])} | {_f(k['winner_ms'])} | {_f(k['extern_ms'])} | "
                       f"{k['extern_rank'] or '-'} | {_f(k['extern_over_winner'])} | "
                       f"{records.cell(sw)} |")
        if s["mixed"]:
            out += ["", "| mixed variant | predicted ms | method | measured ms | measured/predicted "
                    "| measured/naive |", "|---|---|---|---|---|---|"]
            for m in s["mixed"]:
                out.append(f"| {m['variant']} | {_f(m['predicted_ms'])} | {records.cell(m['method'])} | "
                           f"{_f(m['measured_ms'])} | {_f(m['measured_over_predicted'])} | "
                           f"{_f(m['measured_over_naive'])} |")
        out.append("")
    return "\n".join(out)


def write_tmp(path, text):
    """TEXT in PATH.tmp (renamed over PATH once everything is written)."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    return tmp


def main(argv):
    p = argparse.ArgumentParser(prog="truth_log.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("out", metavar="OUT.txt")
    p.add_argument("truth", nargs="+", metavar="TRUTH.jsonl")
    p.add_argument("--summary")
    p.add_argument("--json")
    p.add_argument("--ops", default="mm,addmm")
    p.add_argument("--epilogue", choices=("none", "attribute"), default="none")
    p.add_argument("--all-choices", action="store_true")
    p.add_argument("--shared-memory", type=int)
    p.add_argument("--device-capa")
    args = p.parse_args(argv)
    args.ops = tuple(x for x in args.ops.split(",") if x)
    done = []          # (temporary file, destination)
    try:
        if args.device_capa is not None:
            try:
                args.device_capa = [int(x) for x in args.device_capa.split(".")]
                assert len(args.device_capa) == 2
            except (ValueError, AssertionError):
                raise Bad(f"--device-capa {args.device_capa}: MAJOR.MINOR") from None
        text, summary = build(read(args.truth), args)
        done.append((write_tmp(args.out, text), args.out))
        inductor_log.read_inductor_log(done[0][0])
        if args.summary:
            done.append((write_tmp(args.summary, markdown(summary)), args.summary))
        if args.json:
            try:
                text = records.json_text(summary)
            except ValueError:
                raise Bad("a summary figure is not finite (NaN or infinity)") from None
            done.append((write_tmp(args.json, text), args.json))
    except (Bad, inductor_log.LogError, OSError) as e:
        for tmp, _ in done:
            os.unlink(tmp)
        why = f"{e.filename}: {e.strerror}" if isinstance(e, OSError) and e.filename else e
        print(f"truth_log.py: {why}", file=sys.stderr)
        return 1
    for tmp, dst in done:
        os.replace(tmp, dst)
    print(f"truth_log.py: {args.out}: {summary['log_rows']} rows, "
          f"{sum(len(s['keys']) for s in summary['rows'])} GEMM keys of "
          f"{len(summary['rows'])} model x phase rows", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
