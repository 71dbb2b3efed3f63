"""ctxrows.py — the context rows of a TSV, shared by rank_py.py (torch
stand-in) and rank_torch.py (a real torch): no torch import here.

context_rows(path, prog) yields one {column: string} per context: a feat TSV
(line 1 metadata JSON, line 2 header; one context per distinct `input`, its
first row) or a plain TSV with a header.  Every column of COLUMNS must be
present (else exit naming prog, the file and the column)."""
import sys

COLUMNS = ["m", "k", "n", "mat1_dtype", "mat2_dtype", "mat1_stride_0", "mat1_stride_1",
           "mat2_stride_0", "mat2_stride_1", "mat1_iscontig", "mat2_iscontig", "using_tf32"]


def context_rows(path, prog):
    with open(path) as f:
        lines = [ln for ln in f.read().split("\n") if ln]
    if lines and lines[0].startswith("{"):
        lines.pop(0)
    if not lines:
        sys.exit(f"{prog}: {path}: no header")
    col = {name: i for i, name in enumerate(lines[0].split("\t"))}
    for name in COLUMNS:
        if name not in col:
            sys.exit(f"{prog}: {path}: no column '{name}'")
    last = None
    for line in lines[1:]:
        f = line.split("\t")
        if "input" in col:
            if f[col["input"]] == last:
                continue
            last = f[col["input"]]
        yield {name: f[col[name]] for name in COLUMNS}
