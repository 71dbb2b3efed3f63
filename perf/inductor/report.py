#!/usr/bin/env python3
"""report — the In-Inductor table of perf/inductor/dropin.py's JSONL
(ours inside Inductor).  Pure Python, no torch.

usage: report.py OUT.jsonl [--json FILE]

Per shape (rows with every mode measured at least once): the compiled mm's
kernel time per mode, the median over rounds (ms), and its spread
(max/min - 1 over rounds, %); ours/full and shipped/full kernel ratios;
compile seconds per mode with a cold Triton cache (round 0) and a warm one
(median of the later rounds); candidates Inductor
benchmarked; 'ok' when every shipped/ours round benchmarked exactly the
ranking's candidates (benchmarked_is_expected).
Summary: shapes, geometric-mean kernel ratio ours/full, shipped/full,
ours/shipped (all shapes, and the real-model ones: source not starting with
'sample'), shapes where ours / shipped are within 2 % of full, the largest
ratios, compile time (cold and warm) summed per mode and its ratio to full,
the median and
largest per-(shape, mode) spread, failed compiles, which heuristic classes
and files Inductor consulted per mode, and the torch / Triton versions.
"""
import argparse
import json
import math
import sys

from mmrank.bench.inductor_text import write_atomic


def median(v):
    s = sorted(v)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def geomean(v):
    return math.exp(sum(math.log(x) for x in v) / len(v)) if v else None


def load(path):
    recs = []
    try:
        with open(path, encoding="utf-8") as fh:
            for i, line in enumerate(fh, 1):
                if line.strip():
                    try:
                        recs.append(json.loads(line))
                    except json.JSONDecodeError as e:
                        sys.exit(f"report: {path}:{i}: not JSON: {e}")
    except OSError as e:
        sys.exit(f"report: {path}: {e.strerror}")
    return recs


def summarize(recs):
    modes = ("full", "shipped", "ours")
    by = {}
    for r in recs:
        by.setdefault(r["row"], {}).setdefault(r["mode"], []).append(r)
    shapes, errors = [], sum(1 for r in recs if "error" in r)
    consulted = {}
    for r in recs:
        if r.get("heuristic"):
            consulted.setdefault(r["mode"], set()).add(f"{r['heuristic']} ({r['heuristic_file']})")
    for row in sorted(by):
        d = by[row]
        ok_recs = {m: [r for r in d.get(m, []) if "error" not in r] for m in modes}
        if not all(ok_recs[m] for m in modes):
            continue
        first = ok_recs["full"][0]
        s = {"row": row, "source": first.get("source", ""), "shape": first["shape"],
             "dtype": first["dtype"].replace("torch.", "")}
        for m in modes:
            ks = [r["kernel_ms"] for r in ok_recs[m]]
            cold = [r["compile_s"] for r in ok_recs[m] if r.get("triton_cache") == "cold"]
            warm = [r["compile_s"] for r in ok_recs[m] if r.get("triton_cache") == "warm"]
            s[m] = {"kernel_ms": median(ks), "spread": max(ks) / min(ks) - 1,
                    "compile_cold_s": median(cold) if cold else None,
                    "compile_warm_s": median(warm) if warm else None,
                    "n_benchmarked": median([r["n_benchmarked"] or 0 for r in ok_recs[m]]),
                    "rounds": len(ks)}
            if m != "full":
                s[m]["checks_ok"] = all(r.get("benchmarked_is_expected") for r in ok_recs[m])
                s[m]["fallback"] = any(r.get("fallback") for r in ok_recs[m])
        for m in ("shipped", "ours"):
            s[m]["vs_full"] = s[m]["kernel_ms"] / s["full"]["kernel_ms"]
        shapes.append(s)
    out = {"shapes": len(shapes), "errors": errors, "per_shape": shapes,
           "consulted": {m: sorted(v) for m, v in consulted.items()},
           "versions": sorted({f"torch {r.get('torch')}, triton {r.get('triton')}, "
                               f"{r.get('device')}, Triton cache {r.get('triton_cache')}"
                               for r in recs})}
    for label, sel in (("all", shapes),
                       ("real", [s for s in shapes if not s["source"].startswith("sample")])):
        if not sel:
            continue
        out[label] = {
            "shapes": len(sel),
            "ours_vs_full": geomean([s["ours"]["vs_full"] for s in sel]),
            "shipped_vs_full": geomean([s["shipped"]["vs_full"] for s in sel]),
            "ours_vs_shipped": geomean([s["ours"]["kernel_ms"] / s["shipped"]["kernel_ms"]
                                        for s in sel]),
            "ours_within_2pct": sum(s["ours"]["vs_full"] <= 1.02 for s in sel),
            "shipped_within_2pct": sum(s["shipped"]["vs_full"] <= 1.02 for s in sel),
            "ours_worst": max(s["ours"]["vs_full"] for s in sel),
            "shipped_worst": max(s["shipped"]["vs_full"] for s in sel),
        }
    if shapes:
        for kind in ("cold", "warm"):
            key = f"compile_{kind}_s"
            sel = [s for s in shapes if all(s[m][key] is not None for m in modes)]
            if sel:
                comp = {m: sum(s[m][key] for s in sel) for m in modes}
                out[f"{key}_sum"] = dict(comp, shapes=len(sel))
                out[f"compile_{kind}_vs_full"] = {m: comp[m] / comp["full"]
                                                  for m in ("shipped", "ours")}
        spreads = [s[m]["spread"] for s in shapes for m in modes]
        out.update({"spread_median": median(spreads), "spread_max": max(spreads),
                    "checks_ok": {m: sum(s[m]["checks_ok"] for s in shapes)
                                  for m in ("shipped", "ours")},
                    "fallbacks": {m: sum(s[m]["fallback"] for s in shapes)
                                  for m in ("shipped", "ours")}})
    return out


def _f2(v):
    return "-" if v is None else f"{v:.2f}"


def print_table(o):
    print("| row | source | shape | dtype | kernel ms full / shipped / ours (spread %) | "
          "ours/full | shipped/full | compile s cold; warm, full / shipped / ours | "
          "candidates | checks |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for s in o["per_shape"]:
        k = " / ".join(f"{s[m]['kernel_ms']:.4f} ({100 * s[m]['spread']:.1f})"
                       for m in ("full", "shipped", "ours"))
        c = " / ".join(_f2(s[m]["compile_cold_s"]) + "; " + _f2(s[m]["compile_warm_s"])
                       for m in ("full", "shipped", "ours"))
        n = " / ".join(f"{s[m]['n_benchmarked']:g}" for m in ("full", "shipped", "ours"))
        chk = "ok" if s["ours"]["checks_ok"] and s["shipped"]["checks_ok"] else (
            f"shipped {'ok' if s['shipped']['checks_ok'] else 'NO'}, ours "
            f"{'ok' if s['ours']['checks_ok'] else 'NO'}")
        print(f"| {s['row']} | {s['source']} | {s['shape']} | {s['dtype']} | {k} | "
              f"{s['ours']['vs_full']:.3f} | {s['shipped']['vs_full']:.3f} | {c} | {n} | {chk} |")
    print()
    print(f"shapes with every mode measured: {o['shapes']}; failed compiles: {o['errors']}")
    for label in ("all", "real"):
        if label in o:
            g = o[label]
            print(f"{label} ({g['shapes']} shapes): kernel geomean ours/full {g['ours_vs_full']:.4f}, "
                  f"shipped/full {g['shipped_vs_full']:.4f}, ours/shipped {g['ours_vs_shipped']:.4f}; "
                  f"within 2 % of full: ours {g['ours_within_2pct']}, shipped "
                  f"{g['shipped_within_2pct']}; worst ours {g['ours_worst']:.3f}, shipped "
                  f"{g['shipped_worst']:.3f}")
    if o["shapes"]:
        for kind in ("cold", "warm"):
            c = o.get(f"compile_{kind}_s_sum")
            if c:
                r = o[f"compile_{kind}_vs_full"]
                print(f"compile s summed, Triton cache {kind} ({c['shapes']} shapes): full "
                      f"{c['full']:.1f}, shipped {c['shipped']:.1f} ({r['shipped']:.3f}x), ours "
                      f"{c['ours']:.1f} ({r['ours']:.3f}x)")
        print(f"kernel time spread over rounds: median {100 * o['spread_median']:.2f} %, max "
              f"{100 * o['spread_max']:.2f} %")
        print(f"benchmarked = the ranking's candidates on every round: shipped "
              f"{o['checks_ok']['shipped']}/{o['shapes']}, ours {o['checks_ok']['ours']}/"
              f"{o['shapes']} (fallbacks: shipped {o['fallbacks']['shipped']}, ours "
              f"{o['fallbacks']['ours']})")
    for m, v in o["consulted"].items():
        print(f"heuristic consulted in mode {m}: {'; '.join(v)}")
    for v in o["versions"]:
        print(f"measured with {v}")


def main(argv):
    p = argparse.ArgumentParser(prog="report.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("jsonl", metavar="OUT.jsonl")
    p.add_argument("--json")
    a = p.parse_args(argv)
    o = summarize(load(a.jsonl))
    print_table(o)
    if a.json:
        write_atomic(a.json, json.dumps(o, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
