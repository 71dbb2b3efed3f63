"""Read a shapes list for the Inductor back end (no torch needed).

Accepted input (tab separated, UTF-8, '\\n' line ends; lines starting with
'#' are comments):
  * sample's shapes.tsv (stages/sample.c: input sample m k n dtype tf32
    transpose_left transpose_right mat1_stride_0 mat1_stride_1 mat2_stride_0
    mat2_stride_1 mat1_iscontig mat2_iscontig using_tf32), or
  * any TSV whose header names its columns: m, k, n, dtype are required;
    the strides come from mat1_stride_0 .. mat2_stride_1 (elements; padded
    leading dimensions allowed) or else from transpose_left/transpose_right
    (0/1, default 0); tf32 from tf32 (0/1) or using_tf32 (True/False/
    not_float_32), default 0; input (an id) defaults to the 0-based row
    number; other columns (source, ...) are ignored.  Where both a derived
    column (iscontig, using_tf32, strides next to transposes) and its
    sources are present they must agree.
dtype: torch.float16 | torch.bfloat16 | torch.float32 (or float16, f16,
fp16, bfloat16, bf16, float32, f32, fp32).

Every error names FILE:LINE: field.  Each input carries `features`, the
comma-joined feature values Inductor logs for it (spec §1.1 rows 1-12).
"""
from dataclasses import dataclass

from mmrank.bench.inductor_text import read_lines

DTYPES = {
    "torch.float16": "torch.float16", "float16": "torch.float16", "f16": "torch.float16",
    "fp16": "torch.float16",
    "torch.bfloat16": "torch.bfloat16", "bfloat16": "torch.bfloat16", "bf16": "torch.bfloat16",
    "torch.float32": "torch.float32", "float32": "torch.float32", "f32": "torch.float32",
    "fp32": "torch.float32",
}
ITEMSIZE = {"torch.float16": 2, "torch.bfloat16": 2, "torch.float32": 4}
STRIDES = ("mat1_stride_0", "mat1_stride_1", "mat2_stride_0", "mat2_stride_1")
BIG = 1 << 40


class ShapesError(Exception):
    """A malformed shapes file: the message names file:line: field."""


@dataclass(frozen=True)
class Input:
    id: int
    line: int
    m: int
    k: int
    n: int
    dtype: str            # torch.float16 | torch.bfloat16 | torch.float32
    tf32: bool            # allow TF32 for this float32 input
    strides: tuple        # (mat1_stride_0, mat1_stride_1, mat2_stride_0, mat2_stride_1)

    @property
    def using_tf32(self) -> str:
        if self.dtype != "torch.float32":
            return "not_float_32"
        return "True" if self.tf32 else "False"

    @property
    def iscontig(self) -> tuple:
        s = self.strides
        return (is_contiguous((self.m, self.k), s[0:2]),
                is_contiguous((self.k, self.n), s[2:4]))

    @property
    def features(self) -> str:
        c1, c2 = self.iscontig
        return ",".join(str(v) for v in (
            self.m, self.k, self.n, self.dtype, self.dtype, *self.strides, c1, c2,
            self.using_tf32))

    def storage(self) -> tuple:
        """Elements each operand's buffer needs: 1 + sum((size-1)*stride)."""
        s = self.strides
        return (1 + (self.m - 1) * s[0] + (self.k - 1) * s[1],
                1 + (self.k - 1) * s[2] + (self.n - 1) * s[3])


def is_contiguous(sizes, strides) -> bool:
    """torch's is_contiguous_strides_for_shape: size-1 dimensions ignored."""
    expected = 1
    for size, st in reversed(list(zip(sizes, strides))):
        if size == 1:
            continue
        if st != expected:
            return False
        expected *= size
    return True


def _int(where, name, v, lo=1, hi=BIG):
    try:
        x = int(v, 10)
    except ValueError:
        raise ShapesError(f"{where}: field '{name}': not an integer: '{v}'") from None
    if not (lo <= x <= hi) or v.strip() != v or v.startswith("+"):
        raise ShapesError(f"{where}: field '{name}': '{v}' out of range [{lo}, {hi}]")
    return x


def _bool01(where, name, v):
    if v not in ("0", "1"):
        raise ShapesError(f"{where}: field '{name}': expected 0 or 1, got '{v}'")
    return v == "1"


def _check_layout(where, rows, cols, s0, s1, name):
    """A dense or padded row- or column-major operand (no overlap)."""
    row_major = s1 == 1 and s0 >= cols
    col_major = s0 == 1 and s1 >= rows
    if not (row_major or col_major):
        raise ShapesError(
            f"{where}: field '{name}_stride_0': strides ({s0}, {s1}) of a {rows}x{cols} "
            f"operand are neither row-major (stride_1 = 1, stride_0 >= {cols}) nor "
            f"column-major (stride_0 = 1, stride_1 >= {rows})")


def parse_row(where, col, f, rowno):
    def get(name, default=None):
        i = col.get(name)
        return f[i] if i is not None else default

    m = _int(where, "m", get("m"))
    k = _int(where, "k", get("k"))
    n = _int(where, "n", get("n"))
    dt = get("dtype")
    if dt not in DTYPES:
        raise ShapesError(f"{where}: field 'dtype': unknown '{dt}'")
    dtype = DTYPES[dt]
    iid = _int(where, "input", get("input"), 0) if "input" in col else rowno
    ut = get("using_tf32")
    if "tf32" in col:
        tf32 = _bool01(where, "tf32", get("tf32"))
    else:
        tf32 = ut == "True"
    if tf32 and dtype != "torch.float32":
        raise ShapesError(f"{where}: field 'tf32': on but dtype is {dtype} (TF32 is for float32)")
    if ut is not None:
        want = "not_float_32" if dtype != "torch.float32" else ("True" if tf32 else "False")
        if ut != want:
            raise ShapesError(f"{where}: field 'using_tf32': '{ut}' disagrees with dtype/tf32 "
                              f"(expected '{want}')")
    ta = _bool01(where, "transpose_left", get("transpose_left")) if "transpose_left" in col else None
    tb = _bool01(where, "transpose_right", get("transpose_right")) if "transpose_right" in col else None
    from_t = (1 if ta else k, m if ta else 1, 1 if tb else n, k if tb else 1)
    if all(s in col for s in STRIDES):
        strides = tuple(_int(where, s, get(s)) for s in STRIDES)
        if ta is not None and tb is not None and strides != from_t:
            raise ShapesError(f"{where}: field 'mat1_stride_0': strides {strides} disagree with "
                              f"the transposes ({int(ta)}, {int(tb)}): expected {from_t}")
    elif any(s in col for s in STRIDES):
        raise ShapesError(f"{where}: field 'mat1_stride_0': give all four of {', '.join(STRIDES)}")
    else:
        strides = from_t
    _check_layout(where, m, k, strides[0], strides[1], "mat1")
    _check_layout(where, k, n, strides[2], strides[3], "mat2")
    inp = Input(iid, int(where.rsplit(":", 1)[1]), m, k, n, dtype, tf32, strides)
    for i, name in enumerate(("mat1_iscontig", "mat2_iscontig")):
        v = get(name)
        if v is not None and v != str(inp.iscontig[i]):
            raise ShapesError(f"{where}: field '{name}': '{v}' disagrees with the strides "
                              f"(expected '{inp.iscontig[i]}')")
    return inp


def read_shapes(path):
    """All inputs of the shapes file PATH, in file order."""
    lines = read_lines(path, ShapesError, "empty or missing final newline")
    col, out, ids = None, [], {}
    for lineno, line in enumerate(lines, 1):
        where = f"{path}:{lineno}"
        if "\r" in line:
            raise ShapesError(f"{where}: carriage return (CRLF line ends)")
        if line.startswith("#") or (col is not None and line == ""):
            continue
        f = line.split("\t")
        if col is None:
            col = {name: i for i, name in enumerate(f)}
            if len(col) != len(f):
                raise ShapesError(f"{where}: header: a column name appears twice")
            missing = [c for c in ("m", "k", "n", "dtype") if c not in col]
            if missing:
                raise ShapesError(f"{where}: header: no column {', '.join(missing)} "
                                  "(not a shapes list; see mmrank.bench.inductor_shapes)")
            continue
        if len(f) != len(col):
            raise ShapesError(f"{where}: expected {len(col)} fields, got {len(f)}")
        inp = parse_row(where, col, f, len(out))
        if inp.id in ids:
            raise ShapesError(f"{where}: field 'input': id {inp.id} already on line {ids[inp.id]}")
        ids[inp.id] = lineno
        out.append(inp)
    if col is None:
        raise ShapesError(f"{path}: no header")
    if not out:
        raise ShapesError(f"{path}: no inputs")
    return out


def parse_shard(v):
    """'I/N' -> (I, N) with 0 <= I < N."""
    try:
        i, n = (int(x, 10) for x in v.split("/"))
    except ValueError:
        raise ValueError(f"bad value for '--shard': '{v}' (expected I/N)") from None
    if not (n >= 1 and 0 <= i < n):
        raise ValueError(f"bad value for '--shard': '{v}' (I must be < N)")
    return i, n


def shard_of(inputs, i, n):
    """bench's rule: the inputs whose 0-based row index % N == I."""
    return [x for r, x in enumerate(inputs) if r % n == i]
