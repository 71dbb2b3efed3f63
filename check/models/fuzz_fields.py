#!/usr/bin/env python3
"""fuzz_fields.py — a reader of perf/models records never tracebacks on a
record of wrong field types (check/t6160-models.sh, check/t6170-truth.sh).

usage: fuzz_fields.py MODULE RECORDS.jsonl ARG... (an ARG "{}" is the
mutated file)

Each field of each record of RECORDS (nested objects and the first two
items of each list too) is, in turn, replaced by each of WRONG or removed;
the mutated records go to a scratch file and MODULE.main(ARGS) runs in this
process (MODULE from PYTHONPATH: perf/models).  It must return or exit with
0 or 1, and a 1 must come with a message on stderr; any other exception is
a failure.  Prints "N mutations, M bad" and the first bad ones; exit 1 if
any was bad.
"""
import contextlib
import copy
import importlib
import io
import json
import os
import sys
import tempfile
import traceback

WRONG = ("x", "a,b", {"a": 1}, [1], -1, 1.5, 10 ** 30, None, True)
REMOVE = object()


def paths(v, p=()):
    yield p
    if isinstance(v, dict):
        for k, x in v.items():
            yield from paths(x, p + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v[:2]):
            yield from paths(x, p + (i,))


def mutate(v, p, new):
    for k in p[:-1]:
        v = v[k]
    if new is REMOVE:
        del v[p[-1]]
    else:
        v[p[-1]] = copy.deepcopy(new)


def run(mod, args):
    """(exit status or a traceback's last line, stderr)."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            rc = mod.main(args)
    except SystemExit as e:
        rc = 0 if e.code is None else e.code if isinstance(e.code, int) else 1
        if not isinstance(e.code, int) and e.code is not None:
            err.write(str(e.code))
    except Exception:  # noqa: BLE001 - what this script looks for
        rc = "raised " + traceback.format_exc().strip().splitlines()[-1]
    return rc, err.getvalue()


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__.split("\n\n")[1])
    mod = importlib.import_module(argv[0])
    with open(argv[1], encoding="utf-8") as fh:
        recs = [json.loads(line) for line in fh if line.strip()]
    fd, tmp = tempfile.mkstemp(suffix=".jsonl")
    os.close(fd)
    args = [tmp if a == "{}" else a for a in argv[2:]]
    n, bad = 0, []
    try:
        for i, rec in enumerate(recs):
            for p in list(paths(rec)):
                if not p:
                    continue
                for new in WRONG + (REMOVE,):
                    mutated = copy.deepcopy(recs)
                    mutate(mutated[i], p, new)
                    with open(tmp, "w", encoding="utf-8") as fh:
                        fh.writelines(json.dumps(r) + "\n" for r in mutated)
                    rc, err = run(mod, args)
                    n += 1
                    if rc not in (0, 1) or (rc == 1 and not err.strip()):
                        bad.append(f"record {i + 1} {'.'.join(map(str, p))} = "
                                   f"{'(removed)' if new is REMOVE else json.dumps(new)}: {rc}")
    finally:
        os.unlink(tmp)
    print(f"{n} mutations, {len(bad)} bad")
    for b in bad[:10]:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
