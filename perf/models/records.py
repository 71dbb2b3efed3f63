#!/usr/bin/env python3
"""records.py — the whole-model judge's model names and record files, one
home each (run.py, run.sh, report.py, gap.py and replay.py use it).

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
  read(path, bad)       (line number, record) of each line; a line that is
                        not a JSON object with a model name is passed to
                        bad(message naming path:line): report.py stops
                        there, a resume names it and goes on

usage (run.sh):
  records.py names MODELS_FILE [NAME ...]
        the names to run, one a line: each NAME checked and looked up in
        MODELS_FILE (none: all of the file's, in its order); exit 1 on the
        first bad one
  records.py done RECORDS
        "model phase mode rep" of each record already in RECORDS (missing:
        none); each bad line is named on stderr and skipped, so its run is
        redone and no good record is
  records.py timeout RECORDS MODEL PHASE MODE REP CACHE WHY
        append a "timeout" record
"""
import json
import os
import re
import sys

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


def record_error(rec):
    """Why the decoded line REC is not a record, or None."""
    if not isinstance(rec, dict):
        return "not a JSON object"
    why = name_error(rec.get("model"))
    return f"field 'model': {why}" if why else None


def read(path, bad):
    """[(line number, record)] of PATH's non-blank lines; a bad line goes
    to bad(message) and is skipped (bad may raise instead)."""
    out = []
    with open(path, "rb") as fh:
        for i, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            try:
                rec = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                bad(f"{path}:{i}: not JSON ({e})")
                continue
            why = record_error(rec)
            if why:
                bad(f"{path}:{i}: {why}")
                continue
            out.append((i, rec))
    return out


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
        try:
            print("\n".join(_names(args[0], args[1:])))
        except (OSError, run.BadInput) as e:
            print(f"run.sh: {e}", file=sys.stderr)
            return 1
        return 0
    if cmd == "done" and len(args) == 1:
        if not os.path.exists(args[0]):
            return 0
        def skip(msg):
            print(f"run.sh: {msg}: ignored (its run, if any, is redone)", file=sys.stderr)
        for _, r in read(args[0], skip):
            print(r["model"], r.get("phase"), r.get("mode"), r.get("rep"))
        return 0
    if cmd == "timeout" and len(args) == 7:
        path, model, phase, mode, rep, cache, why = args
        append(path, {"model": model, "phase": phase, "mode": mode, "rep": int(rep),
                      "status": "timeout", "cache": cache, "why": why})
        return 0
    print(__doc__.split("usage (run.sh):\n", 1)[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
