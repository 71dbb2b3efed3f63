#!/usr/bin/env python3
"""records.py — the whole-model judge's model names and record files, one
home each (run.py, run.sh, truth.sh, report.py, gap.py, replay.py, clocks.py
and, for truth.py's records, truth_model.py and truth_log.py use it).

  name_error(name)      why NAME is not a model name, or None.  A name is
                        [A-Za-z0-9._-]+, not starting with '.' or '-', at
                        most 100 characters: it becomes part of file and
                        folder names (run.sh's CACHE_ROOT/<name>_<phase>_...),
                        so it can never leave its folder, glob or split
  positive_int(text)    the int of TEXT, ASCII digits 1..999999999 without
                        sign or leading zero, or None
  append(path, rec)     one record, written by the json library as one
                        line (after a newline when a killed writer left the
                        file's last line without one)
  record_error(rec)     why REC is not a run.py record (RUN_RECORD), or None
  truth_error(rec)      why REC is not a truth.py record (TRUTH_RECORD), or None
                        Each names the first bad field by its path
                        ("field 'autotuned[3].ms': ..."): every field a
                        reader uses is typed here, so no reader meets a
                        missing key, a string for a number or a dict for
                        a string; the key fields (model, phase, mode, rep)
                        hold only their words, so a record cannot stand for
                        another run's key
  autotuned_gid(entry)  (m, k, n, dtype, strides) of a record's "autotuned"
                        entry, the GEMM as every clock names it, or None
                        (a symbolic size: no clock's key)
  read(path, bad, error=record_error)
                        (line number, record) of each line; a line that is
                        not JSON or not a record is passed to bad(message
                        naming path:line and the field): report.py stops
                        there, a resume names it and goes on

usage (run.sh, truth.sh):
  records.py names [--by PROG] MODELS_FILE [NAME ...]
        the names to run, one a line: each NAME checked and looked up in
        MODELS_FILE (none: all of the file's, in its order); exit 1 on the
        first bad one (the message starts with PROG:, default run.sh)
  records.py done RECORDS
        "model phase mode rep" of each record already in RECORDS (missing:
        none); each bad line or record is named on stderr and skipped, so
        its run is redone and no good record is
  records.py timeout RECORDS MODEL PHASE MODE REP CACHE WHY
        append a "timeout" record
"""
import json
import math
import os
import re
import sys

PHASES = ("prefill", "decode", "train")
MODES = ("a", "b", "c", "d", "e", "f")
STATUSES = ("ok", "error", "timeout", "skipped")                     # run.py, run.sh
TRUTH_STATUSES = ("ok", "partial", "unmapped", "error", "skipped")   # truth.py
NAME_RULE = "[A-Za-z0-9._-]+, not starting with '.' or '-', at most 100 characters"


def name_error(name):
    """Why NAME is not a model name, or None."""
    if not isinstance(name, str):
        return f"{name!r} is not a model name (a string: {NAME_RULE})"
    if (len(name) > 100 or not re.fullmatch(r"[A-Za-z0-9._-]+", name)
            or name[0] in ".-"):
        return f"{shown(name)} is not a model name ({NAME_RULE})"
    return None


def shown(text, most=40):
    """TEXT quoted for a message, cut to MOST characters."""
    return repr(text) if len(text) <= most else f"{text[:most]!r}... ({len(text)} characters)"


def positive_int(text):
    """The int of TEXT (ASCII digits, 1..999999999, no sign, no leading
    zero), or None: '²', '+5', '1_0' and 5000 digits are not."""
    if isinstance(text, str) and re.fullmatch(r"[1-9][0-9]{0,8}", text):
        return int(text)
    return None


def append(path, rec):
    """Append REC as one JSON line."""
    line = (json.dumps(rec) + "\n").encode("utf-8")
    with open(path, "ab+") as fh:
        fh.seek(0, os.SEEK_END)
        if fh.tell() > 0:
            fh.seek(-1, os.SEEK_END)
            if fh.read(1) != b"\n":
                line = b"\n" + line
        fh.write(line)


# ---- the record schemas ----------------------------------------------------
# A check is a function of a decoded JSON value: None when the value is
# good, else (where, why): WHERE the path inside it ("", ".ms", "[3].key"),
# WHY a sentence about the value found there.

def _value(v):
    """V for a message: a string quoted, anything else as JSON; cut."""
    if isinstance(v, str):
        return shown(v)
    text = json.dumps(v)
    return text if len(text) <= 60 else f"{text[:50]}... ({len(text)} characters)"


def _is(test, what):
    return lambda v: None if test(v) else ("", f"{_value(v)} is not {what}")


# The physical bounds of every number a reader uses, so that no sum, mean,
# product or ratio of record values overflows a float (a whole number of
# 400 digits is valid JSON; 1e308 is a finite float):
#   TIME_MAX  a time, in its field's unit (s, ms or us), is at most 1e9
#             (11.6 days in ms); a signed time or ratio is within +-1e9
#   TIME_MIN  a positive time (step_ms, a slot's us) is at least 1e-6: 1 ns
#             in ms (the AutoHeuristic log writes ms to 1e-9), 1 ps in us
#   SIZE_MAX  a size, count or stride is a whole number within +-2**62
TIME_MAX = 1e9
TIME_MIN = 1e-6
SIZE_MAX = 2 ** 62


def _number(v, lo=-TIME_MAX, hi=TIME_MAX):
    """V is an int or finite float in [LO, HI] (no OverflowError: a huge int
    is compared, never converted)."""
    return (isinstance(v, (int, float)) and not isinstance(v, bool)
            and (isinstance(v, int) or math.isfinite(v)) and lo <= v <= hi)


def _whole(v, lo=-SIZE_MAX, hi=SIZE_MAX):
    return isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi


STR = _is(lambda v: isinstance(v, str), "a string")
BOOL = _is(lambda v: isinstance(v, bool), "true or false")
REAL = _is(_number, "a number in [-1e9, 1e9]")
NUM = _is(lambda v: _number(v, 0), "a number >= 0 (at most 1e9)")
POS = _is(lambda v: _number(v, TIME_MIN), "a number > 0 (a time in [1e-06, 1e9])")
INT = _is(_whole, "a whole number in [-2**62, 2**62]")
COUNT = _is(lambda v: _whole(v, 0), "a whole number in [0, 2**62]")
REP = _is(lambda v: _whole(v) and 1 <= v <= 999999999, "a whole number 1..999999999")


def _rules():
    """mmrank.rules (PYTHONPATH=<repo>/python): the log's rules, which only
    the truth records' checks need."""
    from mmrank import rules
    return rules


# a choice id (extern_mm, type=triton_BLOCK-M=..., decompose_k|k_split=4):
# a field of a CSV row in the AutoHeuristic log and a name emit writes
# (mmrank.rules.emittable_problem, the log reader's rule), and no comma
def _choice(v):
    if not isinstance(v, str):
        return "", f"{_value(v)} is not a choice id (a string)"
    why = "contains a comma" if "," in v else _rules().emittable_problem(v)
    return ("", f"{_value(v)} is not a choice id: {why}") if why else None


CHOICE = _choice
# a size of a GEMM key: ASCII digits, no leading zero, at most SIZE_MAX
_SIZE = r"(0|[1-9][0-9]{0,18})"
_KEY = re.compile(rf"([a-z_]+) {_SIZE}x{_SIZE}x{_SIZE} ([A-Za-z0-9_.]+) {_SIZE},{_SIZE} "
                  rf"{_SIZE},{_SIZE}")


def gemm_size(text):
    """The int of a size's text (ASCII digits, no leading zero, at most
    SIZE_MAX), or None."""
    if isinstance(text, str) and re.fullmatch(_SIZE, text) and int(text) <= SIZE_MAX:
        return int(text)
    return None


def gemm_key(text):
    """(op, (m, k, n), dtype, ((s10, s11), (s20, s21))) of a GEMM key
    'OP MxKxN DTYPE S10,S11 S20,S21', or None when TEXT is not one (a size
    over SIZE_MAX included)."""
    g = _KEY.fullmatch(text) if isinstance(text, str) else None
    if not g:
        return None
    x = [int(v) for v in g.groups()[1:4] + g.groups()[5:]]
    if max(x) > SIZE_MAX:
        return None
    return g[1], tuple(x[:3]), g[5], ((x[3], x[4]), (x[5], x[6]))


def autotuned_gid(a):
    """(m, k, n, dtype, ((s10, s11), (s20, s21))) of an "autotuned" entry of a
    checked record: the GEMM less its op, as every clock names it; None for
    an entry with a symbolic size or dtype or without two strides of two."""
    st = a.get("strides")
    if (any(a.get(f) is None for f in ("m", "k", "n", "dtype")) or not isinstance(st, list)
            or len(st) != 2 or any(s is None or len(s) != 2 for s in st)):
        return None
    return (a["m"], a["k"], a["n"], str(a["dtype"]), tuple(tuple(s) for s in st))


GEMM_KEY = _is(lambda v: gemm_key(v) is not None,
               "a GEMM key ('OP MxKxN DTYPE S10,S11 S20,S21', sizes 0..2**62)")
# a text that reaches a table or a log line: printable, one line
TEXT = _is(lambda v: isinstance(v, str) and v.isprintable() and len(v) <= 200,
           "a text of at most 200 printable characters (no control character)")


def WORD(*words):
    return _is(lambda v: isinstance(v, str) and v in words, f"one of {', '.join(words)}")


def NAME(v):
    why = name_error(v)
    return ("", why) if why else None


def OPT(check):
    """CHECK, or null."""
    return lambda v: None if v is None else check(v)


def EITHER(a, b):
    """A or B (B's message when neither holds)."""
    return lambda v: a(v) and b(v)


def LIST(check, n=None):
    """A list of CHECK values (of N, when given)."""
    def f(v):
        if not isinstance(v, list):
            return "", f"{_value(v)} is not a list"
        if n is not None and len(v) != n:
            return "", f"a list of {len(v)}, not of {n}"
        for i, x in enumerate(v):
            e = check(x)
            if e:
                return f"[{i}]{e[0]}", e[1]
        return None
    return f


def TUPLE(*checks):
    """A list of len(CHECKS) values, the i-th a CHECKS[i]."""
    def f(v):
        if not isinstance(v, list) or len(v) != len(checks):
            return "", f"{_value(v)} is not a list of {len(checks)}"
        for i, (x, check) in enumerate(zip(v, checks)):
            e = check(x)
            if e:
                return f"[{i}]{e[0]}", e[1]
        return None
    return f


def MAP(check):
    """An object whose every value is a CHECK."""
    def f(v):
        if not isinstance(v, dict):
            return "", f"{_value(v)} is not an object"
        for k, x in v.items():
            e = check(x)
            if e:
                return f".{k}{e[0]}", e[1]
        return None
    return f


def OBJ(fields, need=(), when=None, also=None):
    """An object: the fields NEED present, each field of FIELDS that is
    present a value of its check (in FIELDS' order), then each field of
    the dict when(obj) present and a value of its check, then also(obj)
    (a check of the fields together); others free."""
    def f(v):
        if not isinstance(v, dict):
            return "", f"{_value(v)} is not an object"
        for k in need:
            if k not in v:
                return f".{k}", "missing"
        for k, check in fields.items():
            if k in v:
                e = check(v[k])
                if e:
                    return f".{k}{e[0]}", e[1]
        for k, check in (when(v) if when else {}).items():
            if k not in v:
                return f".{k}", "missing"
            e = check(v[k])
            if e:
                return f".{k}{e[0]}", e[1]
        return also(v) if also else None
    return f


STRIDES = LIST(OPT(LIST(INT)))
# one GEMM autotuning of run.py (autotuning_entry): sizes and dtype null when
# symbolic; a choice's ms null when it failed
AUTOTUNED = OBJ({"op": TEXT, "m": OPT(COUNT), "k": OPT(COUNT), "n": OPT(COUNT), "dtype": OPT(TEXT),
                 "strides": STRIDES, "ms": MAP(OPT(NUM))}, need=("op", "ms"))
HANDLER = OBJ({"decisions": MAP(COUNT), "k_sum": MAP(COUNT), "kept_triton_sum": MAP(COUNT),
               "fallbacks": MAP(COUNT), "artifact": STR},
              need=("decisions", "k_sum", "kept_triton_sum", "fallbacks"))
HANDLER_LOG = OBJ({"op": TEXT, "m": COUNT, "k": COUNT, "n": COUNT, "strides": OPT(STRIDES),
                   "kept": LIST(STR)}, need=("op", "m", "k", "n", "kept"))
# a run.py record (run.sh's timeout record too): what report.py, gap.py,
# replay.py and clocks.py read; a record with status ok has its times
RUN_RECORD = OBJ({
    "model": NAME, "phase": WORD(*PHASES), "mode": WORD(*MODES), "rep": REP,
    "status": WORD(*STATUSES), "cache": STR, "autotune": TEXT, "error": STR, "why": STR,
    "device": OPT(TEXT), "torch": OPT(TEXT), "transformers": OPT(TEXT), "triton": OPT(TEXT),
    "compile_s": NUM, "step_ms": POS, "wall_s": NUM, "gemm_choices_s": OPT(NUM),
    "gemm_autotune_s": OPT(NUM), "gemm_select_s": OPT(NUM), "counters": MAP(OPT(NUM)),
    "handler": OPT(HANDLER), "handler_log": LIST(HANDLER_LOG), "autotuned": LIST(AUTOTUNED)},
    need=("model", "phase", "mode", "rep", "status"),
    when=lambda r: {"compile_s": NUM, "step_ms": POS} if r.get("status") == "ok" else {})

# a truth.py record: what truth_model.py, truth_log.py, clocks.py and
# truth.py's resume read.  A decision with a key and candidates has its
# shape; a usable slot measurement (status ok, no check, a key and a time)
# has its forced id and shape.
FEATURE = TUPLE(_is(lambda v: isinstance(v, str) and re.fullmatch(r"[A-Za-z0-9_]+", v) is not None,
                    "a feature name ([A-Za-z0-9_]+)"),
                _is(lambda v: isinstance(v, str) and re.fullmatch(r"[^\s,]+", v) is not None,
                    "a feature value (no comma or blank)"),
                BOOL)
SHAPE = {"m": COUNT, "k": COUNT, "n": COUNT}


def _agrees(v):
    """A decision's or slot's m, k, n and features (the AutoHeuristic
    context the forcing handler logged: mm's features, each once, values
    the log reader takes: mmrank.rules.mm_features_problem) agree with its
    key, so no log row stands for another GEMM."""
    key = gemm_key(v.get("key"))
    for i, f in enumerate(("m", "k", "n")):
        if key and v.get(f) is not None and v[f] != key[1][i]:
            return f".{f}", f"{v[f]} differs from the key's {key[1][i]}"
    feats = v.get("features")
    if feats is None:
        return None
    e = _rules().mm_features_problem(feats)
    if e:
        return f".features[{e[0]}]", e[1]
    if key:
        fv = {name: val for name, val, _ in feats}
        want = dict(zip(("m", "k", "n"), key[1]), mat1_dtype=key[2],
                    mat1_stride_0=key[3][0][0], mat1_stride_1=key[3][0][1],
                    mat2_stride_0=key[3][1][0], mat2_stride_1=key[3][1][1])
        for i, (name, val, _) in enumerate(feats):
            if name in want and val != str(want[name]):
                return f".features[{i}]", (f"feature '{name}' {shown(val)} differs from the "
                                           f"key's {want[name]}")
    return None


DECISION = OBJ({"key": OPT(GEMM_KEY), "offered": OPT(LIST(CHOICE)), "features": OPT(LIST(FEATURE)),
                "m": OPT(COUNT), "k": OPT(COUNT), "n": OPT(COUNT), "forced": OPT(CHOICE)},
               when=lambda d: SHAPE if d.get("key") and d.get("offered") else {}, also=_agrees)


def _usable(s):
    return (s.get("status") == "ok" and not s.get("check") and s.get("key")
            and s.get("us") is not None)


# a slot's in-graph time in us: a positive time (TIME_MIN..TIME_MAX)
SLOT = OBJ({"status": OPT(STR), "key": OPT(GEMM_KEY), "us": OPT(POS), "forced": OPT(CHOICE),
            "kind": OPT(STR), "fused": EITHER(BOOL, OPT(LIST(STR))), "m": OPT(COUNT),
            "k": OPT(COUNT), "n": OPT(COUNT)},
           when=lambda s: dict(SHAPE, forced=CHOICE) if _usable(s) else {}, also=_agrees)
# truth.py's variants (parse_variants, plan): a rank, a rank with one key
# isolated, a mixed assignment, the row's set-up
VARIANT = _is(lambda v: isinstance(v, str) and re.fullmatch(
    r"setup|rank:[0-9]{1,4}(@[0-9]{1,4})?|mix:best|mix:random:[0-9]{1,9}", v) is not None,
    "a variant (rank:J, rank:J@I, mix:best, mix:random:SEED or setup)")
CANDIDATES = _is(lambda v: _whole(v) and 0 <= v <= 10000, "a whole number 0..10000")
TRUTH_RECORD = OBJ({
    "model": NAME, "phase": WORD(*PHASES), "variant": VARIANT, "status": WORD(*TRUTH_STATUSES),
    "mode": OPT(TEXT), "layers": OPT(COUNT), "batch": OPT(COUNT), "seq": OPT(COUNT),
    "device": OPT(TEXT), "capability": OPT(TUPLE(COUNT, COUNT)), "shared_memory": OPT(COUNT),
    "decisions": OPT(LIST(DECISION)), "analysis": OPT(OBJ({"status": OPT(STR),
                                                           "slots": LIST(SLOT)})),
    "step_ms": OPT(POS), "gemm_ms": OPT(REAL), "nongemm_ms": OPT(REAL),
    "prediction": OPT(OBJ({"step_ms": OPT(REAL), "naive_step_ms": OPT(REAL),
                           "method": OPT(TEXT)})),
    "measured_over_predicted": OPT(REAL), "measured_over_naive": OPT(REAL),
    "error": STR, "why": STR, "wall_s": OPT(NUM), "n_candidates_max": OPT(CANDIDATES)},
    need=("model", "phase", "variant", "status"))


def _error(schema, rec):
    if not isinstance(rec, dict):
        return "not a JSON object"
    e = schema(rec)
    return f"field '{e[0][1:]}': {e[1]}" if e else None


def record_error(rec):
    """Why the decoded line REC is not a run.py record, or None."""
    return _error(RUN_RECORD, rec)


def truth_error(rec):
    """Why the decoded line REC is not a truth.py record, or None."""
    return _error(TRUTH_RECORD, rec)


def read(path, bad, error=record_error):
    """[(line number, record)] of PATH's non-blank lines; a line that is not
    JSON, or whose record ERROR (record_error, truth_error) refuses, goes to
    bad(message naming path:line) and is skipped (bad may raise instead)."""
    out = []
    with open(path, "rb") as fh:
        for i, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError) as e:
                # ValueError: JSONDecodeError, or an int of over 4300 digits
                bad(f"{path}:{i}: not JSON ({str(e)[:120]})")
                continue
            why = error(rec)
            if why:
                bad(f"{path}:{i}: {why}")
                continue
            out.append((i, rec))
    return out


def write_all(outputs):
    """Write each (path, text) of OUTPUTS all or none: every text to
    PATH.tmp<pid> first, then each renamed over its path; on an OSError the
    temporary files left are removed and it is raised (os_error words it)."""
    tmps, path = [], None
    try:
        for path, text in outputs:
            tmps.append(f"{path}.tmp{os.getpid()}")
            with open(tmps[-1], "w", encoding="utf-8") as fh:
                fh.write(text)
        for tmp, (path, _) in zip(tmps, outputs):
            os.replace(tmp, path)
    except OSError as e:
        for tmp in tmps:
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise OSError(e.errno, e.strerror, path) from None


def cell(x):
    """X as the text of a markdown table cell: '|' escaped (a choice id
    such as decompose_k|k_split=4 holds one)."""
    return str(x).replace("|", "\\|")


def os_error(e):
    """An OSError as one line: 'FILE: why'."""
    return f"{e.filename}: {e.strerror}" if e.filename else str(e)


def json_text(data):
    """DATA as indented JSON with a final newline; ValueError when it holds
    a NaN or an infinity (not JSON)."""
    return json.dumps(data, indent=1, allow_nan=False) + "\n"


def _names(models_file, names):
    import run   # this script's folder: the list's reader
    rows = run.read_models(models_file)
    for n in names:
        why = name_error(n)
        if why:
            raise run.BadInput(f"MODELS: {why}")
        if n not in rows:
            raise run.BadInput(f"MODELS: {shown(n)}: not in {models_file} ({', '.join(rows)})")
    if not rows:
        raise run.BadInput(f"{models_file}: no model")
    return names or list(rows)


def main(argv):
    cmd, args = (argv[0], argv[1:]) if argv else (None, [])
    if cmd == "names" and args:
        import run
        who = "run.sh"
        if args[0] == "--by" and len(args) >= 3:
            who, args = args[1], args[2:]
        try:
            print("\n".join(_names(args[0], args[1:])))
        except (OSError, run.BadInput) as e:
            print(f"{who}: {e}", file=sys.stderr)
            return 1
        return 0
    if cmd == "done" and len(args) == 1:
        if not os.path.exists(args[0]):
            return 0
        def skip(msg):
            print(f"run.sh: {msg}: ignored (its run, if any, is redone)", file=sys.stderr)
        for _, r in read(args[0], skip):
            print(r["model"], r["phase"], r["mode"], r["rep"])
        return 0
    if cmd == "timeout" and len(args) == 7:
        path, model, phase, mode, rep, cache, why = args
        rec = {"model": model, "phase": phase, "mode": mode, "rep": positive_int(rep),
               "status": "timeout", "cache": cache, "why": why}
        bad = record_error(rec)
        if bad:
            print(f"run.sh: timeout record not written: {bad}", file=sys.stderr)
            return 1
        append(path, rec)
        return 0
    print(__doc__.split("usage (run.sh, truth.sh):\n", 1)[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
