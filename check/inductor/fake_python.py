#!/usr/bin/env python3
"""fake_python.py — a stand-in interpreter for mmrank.bench.inductor_collect
(check/t6100-inductor-collect.sh, t6120-inductor-agree.sh, t4140-bench-triton.sh;
the dry runs of perf/experiments): `python3 check/inductor/fake_python.py
-m mmrank.bench.inductor_collect ARGS...` runs that module (found on
PYTHONPATH, as python3 -m would) with ARGS on the CPU, no torch: its Inductor
back end replaced by FakeBackend, which writes the scratch log the way
AutoHeuristic does.  Any other command line (a script, -c CODE) is handed
to python3 unchanged.  Its own options, taken out of ARGS wherever they stand:

  --fake-delay-ms D     sleep D ms per input
  --fake-die INPUT:WHERE
                        exit abruptly (status 137) at input INPUT, WHERE =
                        inductor (scratch log half written), torn-rows (half
                        its rows appended), before-sidecar (rows appended,
                        sidecar line not) or torn-sidecar (half the sidecar
                        line)
"""
import importlib
import json
import os
import sys
import time

FAKE_META = json.dumps({
    "shared_memory": 232448, "device_capa": [9, 0], "name": "mm",
    "numerical_features": ["m", "k", "n", "mat1_stride_0", "mat1_stride_1",
                           "mat2_stride_0", "mat2_stride_1"],
    "categorical_features": ["mat1_dtype", "mat2_dtype", "mat1_iscontig",
                             "mat2_iscontig", "using_tf32"]})
FAKE_HEADER = ("m,k,n,mat1_dtype,mat2_dtype,mat1_stride_0,mat1_stride_1,mat2_stride_0,"
               "mat2_stride_1,mat1_iscontig,mat2_iscontig,using_tf32,choice,feedback")
FAKE_CHOICES = ["extern_mm"] + [
    f"type=triton_BLOCK-M={bm}_BLOCK-K={bk}_BLOCK-N={bn}_numstages={s}_numwarps={w}"
    for bm, bk, bn, s, w in ((16, 32, 32, 4, 2), (64, 32, 64, 3, 4), (128, 64, 128, 3, 8),
                             (128, 128, 128, 4, 8))]
WHERES = ("inductor", "torn-rows", "before-sidecar", "torn-sidecar")


class FakeBackend:
    """CPU stand-in for Inductor: writes a scratch log the way AutoHeuristic
    does (metadata + header when the file is new, one appended row per
    candidate and rep), deterministic times, the 128x128x128 config inf for
    float32 (as an over-shared-memory config), no rows at m = 1 (Inductor
    does not autotune there)."""

    def __init__(self, delay_ms, die):
        self.delay_ms, self.die = delay_ms, die
        self.rep_secs = []

    def versions(self):
        return {"torch": "fake", "triton": "fake", "cuda": "none", "device": "FAKE",
                "capability": "9.0"}

    def measure(self, inp, path, reps):
        self.rep_secs = [self.delay_ms / 1000 / reps] * reps
        time.sleep(self.delay_ms / 1000)
        if inp.m == 1:
            return "no_rows"
        for r in range(reps):
            for j, c in enumerate(FAKE_CHOICES):
                if self.die == (inp.id, "inductor") and r == reps - 1 and j == 2:
                    os._exit(137)
                fb = (float("inf") if inp.dtype == "torch.float32" and j == 4 else
                      round(1e-6 * inp.m * inp.k * inp.n / (1 + j) * (1 + 0.01 * r) + 0.001 * j, 6))
                new = not os.path.exists(path)
                with open(path, "a") as fh:
                    head = FAKE_META + "\n" + FAKE_HEADER + "\n" if new else ""
                    fh.write(f"{head}{inp.features},{c},{fb}\n")
        return "ok"


def faulty_shard_log(ilog, die):
    """ilog.ShardLog that, at input DIE[0], is killed in the middle of the
    write DIE[1] names (torn-rows, before-sidecar, torn-sidecar): the part
    written reaches the disk, then the process exits with status 137."""

    class FaultyShardLog(ilog.ShardLog):
        def append(self, input_id, meta, header, rows, seconds, status):
            if die and die[0] == input_id and die[1] != "inductor":
                real, block = ilog._fsync_write, ("\n".join(rows) + "\n").encode()

                def write(fh, data):
                    if die[1] == "torn-rows" and fh is self.fh and data == block:
                        part = data[:len(data) // 2]
                    elif die[1] != "torn-rows" and fh is self.dfh:
                        part = data[:len(data) // 2] if die[1] == "torn-sidecar" else b""
                    else:
                        return real(fh, data)
                    real(fh, part)
                    os._exit(137)
                ilog._fsync_write = write
            super().append(input_id, meta, header, rows, seconds, status)

    return FaultyShardLog


def take_options(args):
    """(delay ms, die or None, the other args)."""
    delay, die, rest, i = 0.0, None, [], 0
    while i < len(args):
        if args[i] in ("--fake-delay-ms", "--fake-die") and i + 1 < len(args):
            if args[i] == "--fake-delay-ms":
                delay = float(args[i + 1])
            else:
                n, _, where = args[i + 1].partition(":")
                if where not in WHERES:
                    sys.exit(f"fake_python: --fake-die {args[i + 1]}: WHERE must be "
                             + ", ".join(WHERES))
                die = (int(n), where)
            i += 2
        else:
            rest.append(args[i])
            i += 1
    return delay, die, rest


MODULE = "mmrank.bench.inductor_collect"


def main(argv):
    if argv[:2] != ["-m", MODULE]:
        os.execvp("python3", ["python3"] + argv)
    delay, die, args = take_options(argv[2:])
    ic = importlib.import_module(MODULE)
    ic.TorchBackend = ic.ProcessBackend = lambda *_: FakeBackend(delay, die)
    ic.ilog.ShardLog = faulty_shard_log(ic.ilog, die)
    return ic.main(args)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
