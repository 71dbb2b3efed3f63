"""mmrank.bench.inductor_collect — Inductor's own AutoHeuristic collection as a bench back
end (labels from the path the official data took; spec §3.4, the gen_data_mm.py flow).

usage: python3 -m mmrank.bench.inductor_collect [options] SHAPES LOG

For each input of SHAPES in this shard (row index % N == I, as bench), run
torch.compile(torch.mm, mode="max-autotune-no-cudagraphs") with AutoHeuristic
collection on (autoheuristic_collect = "mm": base + "mm-ah" configs, every
candidate timed by Inductor and logged), in fresh Inductor caches per
compile (torch._inductor.utils.fresh_cache), dynamo reset around it, on
operands with the input's exact sizes, dtype, strides (transposed and
padded layouts as as_strided views) and TF32 setting.  Inductor writes each
input's rows to a scratch log (LOG.part.input); they are then appended to
LOG.part, fsync'd, and the input is recorded in the sidecar LOG.part.done.
When every input of the shard is in, LOG.part is renamed to LOG (an
AutoHeuristic log, spec §1: merge and featurize read it) and the sidecar to
LOG.inputs.tsv (input, rows, end byte, wall seconds, status; first line: the
torch and Triton versions, device, reps, sha256 of SHAPES).

Resumable: rerun the same command after a crash, a kill or a --time-limit
stop: complete inputs are skipped, the input in flight is redone (its partly
written rows are dropped); a resume with another torch, Triton, device,
--reps or SHAPES is refused.  One process per shard: Inductor is reset
between inputs instead of restarting Python (see --process-per-input).

  SHAPES    sample's shapes.tsv, or a TSV naming its columns (m k n dtype,
            strides or transposes, tf32; mmrank.bench.inductor_shapes)
  LOG       the shard's AutoHeuristic log (feedback in ms, Inductor's own
            autotuning times; failed candidates inf)

Exit status: 0 shard complete; 1 error; 2 stopped by --time-limit or
--max-inputs (rerun to resume).  Progress on stderr.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys
import time

from mmrank.bench import inductor_log as ilog
from mmrank.bench import inductor_shapes as ish
from mmrank.bench.inductor_text import write_atomic

class TorchBackend:
    """Inductor itself, in this process."""

    def __init__(self, triton_cache):
        from mmrank.bench import inductor_torch as it
        self.it, self.triton_cache = it, triton_cache
        self.rep_secs = []
        import torch
        self.torch = torch
        torch.cuda.init()

    def versions(self):
        return self.it.versions()

    def measure(self, inp, path, reps):
        it, torch = self.it, self.torch
        it.configure(collect=True, log_path=path)
        it.set_tf32(inp.tf32)
        self.rep_secs = []
        try:
            a, b = it.operands(inp, seed=inp.id)
            for _ in range(reps):
                t0 = time.perf_counter()
                with it.fresh_inductor(self.triton_cache):
                    it.clear_savers()
                    fn, _ = it.compile_mm(a, b)
                    del fn
                self.rep_secs.append(time.perf_counter() - t0)
            status = "ok"
        except Exception as e:  # a compile or OOM error: recorded, input skipped
            status = "error:" + type(e).__name__
            print(f"inductor_collect: input {inp.id}: {type(e).__name__}: {str(e)[:300]}",
                  file=sys.stderr)
        a = b = None
        torch.cuda.synchronize()   # a sticky CUDA error ends the run here (exit 1)
        torch.cuda.empty_cache()
        if status == "ok" and not os.path.exists(path):
            status = "no_rows"
        return status


class ProcessBackend:
    """A fresh Python process per input (the cost baseline): the child runs
    TorchBackend.measure on one input (--measure-one)."""

    def __init__(self, argv_base):
        self.argv_base = argv_base
        self.rep_secs = []   # not known across the process boundary
        out = subprocess.run(argv_base + ["--print-versions"], capture_output=True, text=True)
        if out.returncode != 0:
            raise SystemExit(f"inductor_collect: child failed: {out.stderr[-500:]}")
        self.v = json.loads(out.stdout)

    def versions(self):
        return self.v

    def measure(self, inp, path, reps):
        r = subprocess.run(self.argv_base + ["--measure-one", str(inp.id), path])
        if r.returncode != 0:
            return f"error:child_exit_{r.returncode}"
        return "ok" if os.path.exists(path) else "no_rows"


def sha256(path):
    with open(path, "rb") as fh:
        return hashlib.sha256(fh.read()).hexdigest()


REP_TIMES_HEADER = "input\trep\tseconds\n"


def open_rep_times(path, fix=True):
    """Before anything is measured: a new (or empty) --rep-times file gets
    its header; an existing one must start with it, and a torn last line (a
    run killed while appending; that input is redone) is cut off.  With fix
    False only checks, changing nothing.  Returns an error message, or None."""
    hdr = REP_TIMES_HEADER.encode()
    try:
        if not fix and not os.path.exists(path):
            d = os.path.dirname(path) or "."
            if not os.path.isdir(d) or not os.access(d, os.W_OK):
                return f"--rep-times {path}: {d} is not a writable folder"
            return None
        with open(path, "a+b" if fix else "rb") as fh:
            fh.seek(0)
            data = fh.read()
            if data and not data.startswith(hdr):
                first = data.split(b"\n")[0][:60].decode(errors="replace")
                return (f"{path}:1: expected the header 'input<TAB>rep<TAB>seconds' (a "
                        f"--rep-times file of this script), got {first!r}")
            if not fix:
                return None
            if not data:
                fh.write(hdr)
            elif not data.endswith(b"\n"):
                keep, line = data.rindex(b"\n") + 1, data.count(b"\n") + 1
                fh.truncate(keep)
                print(f"inductor_collect: {path}:{line}: dropping "
                      f"{len(data) - keep} bytes of a partly written line", file=sys.stderr)
            fh.flush()
            os.fsync(fh.fileno())
    except OSError as e:
        return f"--rep-times {path}: {e.strerror}"
    return None


def append_rep_times(path, input_id, secs):
    """input, rep, seconds lines (after open_rep_times), fsync'd; a resumed
    input's reps are appended again (readers keep the last)."""
    with open(path, "a") as fh:
        fh.write("".join(f"{input_id}\t{r}\t{t:.3f}\n" for r, t in enumerate(secs, 1)))
        fh.flush()
        os.fsync(fh.fileno())


def write_stats(path, kv):
    write_atomic(path, "key\tvalue\n" + "".join(f"{k}\t{v}\n" for k, v in kv.items()))


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog="python3 -m mmrank.bench.inductor_collect", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    p.add_argument("shapes", metavar="SHAPES")
    p.add_argument("log", metavar="LOG")
    p.add_argument("--device", type=int, default=0, metavar="I",
                   help="GPU I of those visible (sets CUDA_VISIBLE_DEVICES before torch "
                        "loads, so Inductor's device-0 queries see it; default 0)")
    p.add_argument("--shard", default="0/1", metavar="I/N",
                   help="inputs whose 0-based row index %% N == I (default 0/1)")
    p.add_argument("--reps", type=int, default=1, metavar="R",
                   help="fresh compiles (autotunings) per input, each one row per "
                        "candidate (default 1; gen_data_mm.py uses 3)")
    p.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="after S seconds stop once the input in flight is written "
                        "(exit 2; rerun to resume)")
    p.add_argument("--max-inputs", type=int, default=None, metavar="K",
                   help="stop once the shard's first K inputs are in (exit 2 if the shard "
                        "has more; e.g. a second run on exactly the inputs a first finished)")
    p.add_argument("--stats", metavar="FILE",
                   help="write a key/value TSV: inputs, rows, seconds, inputs/hour, "
                        "startup, torch/Triton/CUDA versions")
    p.add_argument("--rep-times", metavar="FILE",
                   help="append one line per input and rep to FILE: input, rep (1-based), "
                        "seconds of that fresh compile + autotune (e.g. --reps 2 as two "
                        "runs A and B, rep 2 reusing rep 1's Triton kernels when "
                        "--triton-cache is given); not with --process-per-input")
    p.add_argument("--triton-cache", metavar="DIR",
                   help="share Triton's compiled-kernel cache in DIR across inputs and "
                        "runs (default: a fresh one inside each fresh Inductor cache, as "
                        "gen_data_mm.py); autotuning results are never shared")
    p.add_argument("--process-per-input", action="store_true",
                   help="a fresh Python process per input instead of one per shard "
                        "(the slower reference setting, to measure what it costs)")
    p.add_argument("--measure-one", nargs=2, metavar=("INPUT", "SCRATCH"), help=argparse.SUPPRESS)
    p.add_argument("--print-versions", action="store_true", help=argparse.SUPPRESS)
    a = p.parse_args(argv)
    if a.reps < 1:
        p.error(f"--reps {a.reps}: expected >= 1")
    try:
        a.shard_i, a.shard_n = ish.parse_shard(a.shard)
    except ValueError as e:
        p.error(str(e))
    if a.rep_times and a.process_per_input:
        p.error("--rep-times: the per-rep seconds are not known with --process-per-input")
    return a


def child_argv(a):
    argv = [sys.executable, "-m", "mmrank.bench.inductor_collect", "--device", "0", "--reps", str(a.reps)]
    if a.triton_cache:
        argv += ["--triton-cache", a.triton_cache]
    return argv + [a.shapes, a.log]


def main(argv):
    t_start = time.perf_counter()
    a = parse_args(argv)
    try:
        inputs = ish.read_shapes(a.shapes)
    except ish.ShapesError as e:
        sys.exit(f"inductor_collect: {e}")
    if a.triton_cache:
        a.triton_cache = os.path.abspath(a.triton_cache)
        os.makedirs(a.triton_cache, exist_ok=True)
    from mmrank.bench import inductor_torch
    inductor_torch.pick_device(a.device)
    if a.print_versions or a.measure_one:
        be = TorchBackend(a.triton_cache)
        if a.print_versions:
            print(json.dumps(be.versions()))
            return 0
        inp = {x.id: x for x in inputs}[int(a.measure_one[0])]
        status = be.measure(inp, a.measure_one[1], a.reps)
        return 0 if status in ("ok", "no_rows") else 3
    todo = ish.shard_of(inputs, a.shard_i, a.shard_n)
    if a.process_per_input:
        be = ProcessBackend(child_argv(a))
    else:
        be = TorchBackend(a.triton_cache)
    v = be.versions()
    stamp = (f"inductor_collect torch={v['torch']} triton={v['triton']} device={v['device']} "
             f"reps={a.reps} shapes_sha256={sha256(a.shapes)}")
    if a.rep_times and (err := open_rep_times(a.rep_times, fix=False)):
        sys.exit(f"inductor_collect: {err}")
    try:
        slog = ilog.ShardLog(a.log, stamp)
    except ilog.LogError as e:
        sys.exit(f"inductor_collect: {e}")
    done_ids = [d[0] for d in slog.done]
    if done_ids != [x.id for x in todo[:len(done_ids)]]:
        sys.exit(f"inductor_collect: {slog.done_path}: its inputs {done_ids[:5]}... are not "
                 f"this shard's first ones: made with another shard or SHAPES; remove "
                 f"{slog.part} and {slog.done_path} to start over")
    if slog.dropped:
        print(f"inductor_collect: {slog.part}: dropping {slog.dropped} bytes of a partly "
              "written input", file=sys.stderr)
    resumed = len(done_ids)
    if a.rep_times and (err := open_rep_times(a.rep_times)):
        sys.exit(f"inductor_collect: {err}")
    what = f"inductor_collect[dev {a.device} shard {a.shard}]"
    print(f"{what}: {v['device']}, torch {v['torch']}, triton {v['triton']}: {len(todo)} "
          f"inputs, {resumed} already done", file=sys.stderr)
    startup = time.perf_counter() - t_start
    t0 = time.perf_counter()
    scratch = slog.part + ".input"
    stopped, rows_written, mismatch, measure_s = False, 0, 0, 0.0
    for j in range(resumed, len(todo)):
        if (a.time_limit is not None and time.perf_counter() - t0 >= a.time_limit) or \
                (a.max_inputs is not None and j >= a.max_inputs):
            stopped = True
            break
        inp = todo[j]
        if os.path.exists(scratch):
            os.remove(scratch)
        ti = time.perf_counter()
        status = be.measure(inp, scratch, a.reps)
        secs = time.perf_counter() - ti
        measure_s += secs
        try:
            meta, header, rows = ilog.read_inductor_log(scratch)
        except ilog.LogError as e:
            sys.exit(f"inductor_collect: input {inp.id}: {e}")
        bad = [r for r in rows if r.rsplit(",", 2)[0] != inp.features]
        if bad:
            mismatch += 1
            print(f"inductor_collect: input {inp.id} ({a.shapes}:{inp.line}): Inductor logged "
                  f"'{bad[0].rsplit(',', 2)[0]}', the shapes file gives '{inp.features}'",
                  file=sys.stderr)
        if status.startswith("error"):
            rows = []   # whatever a failed compile logged is not kept
        if a.rep_times:   # before the sidecar line: a killed input is redone and appended again
            append_rep_times(a.rep_times, inp.id, be.rep_secs)
        try:
            slog.append(inp.id, meta, header, rows, secs, status)
        except ilog.LogError as e:
            sys.exit(f"inductor_collect: {e}")
        rows_written += len(rows)
        if os.path.exists(scratch):
            os.remove(scratch)
        n = j + 1 - resumed
        el = time.perf_counter() - t0
        print(f"{what}: {j + 1}/{len(todo)} inputs ({status}, {len(rows)} rows, {secs:.1f} s), "
              f"{3600 * n / el:.0f} inputs/h, ETA {el / n * (len(todo) - j - 1):.0f} s",
              file=sys.stderr)
    wall = time.perf_counter() - t0
    measured = len(slog.done) - resumed
    if not stopped:
        try:
            slog.finish()
        except ilog.LogError as e:
            sys.exit(f"inductor_collect: {e}")
    else:
        slog.close()
    statuses = [d[4] for d in slog.done]
    if a.stats:
        write_stats(a.stats, {
            "backend": "inductor",
            "device": v["device"], "capability": v["capability"], "torch": v["torch"],
            "triton": v["triton"], "cuda": v["cuda"], "shard": a.shard, "reps": a.reps,
            "process": "per-input" if a.process_per_input else "per-shard",
            "triton_cache": "shared" if a.triton_cache else "fresh",
            "inputs_total": len(todo), "inputs_resumed": resumed, "inputs_measured": measured,
            "inputs_without_rows": statuses.count("no_rows"),
            "inputs_failed": sum(s.startswith("error") for s in statuses),
            "feature_mismatches": mismatch, "rows_written": rows_written,
            "startup_s": f"{startup:.3f}", "measure_s": f"{measure_s:.3f}",
            "wall_s": f"{wall:.3f}",
            "inputs_per_hour": f"{3600 * measured / wall:.1f}" if wall > 0 and measured else "0",
            "complete": int(not stopped)})
    print(f"{what}: {len(slog.done)}/{len(todo)} inputs in {slog.part if stopped else a.log} "
          f"({measured} measured in {wall:.1f} s)"
          + (": stopped (--time-limit or --max-inputs), rerun to resume" if stopped else ""), file=sys.stderr)
    return 2 if stopped else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
