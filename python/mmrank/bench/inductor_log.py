"""AutoHeuristic logs of one shard, built input by input and resumable
(no torch needed).

LOG.part holds Inductor's two metadata lines (spec §1.1) and the rows of the
inputs collected so far; LOG.part.done, the sidecar, has one line per input
collected (its id, rows, the byte length of LOG.part after its rows, wall
seconds, status), written after the rows are fsync'd.  So a kill at any point
loses at most the input in flight: on resume LOG.part is truncated to the
length the last complete sidecar line names, and the sidecar's torn last line
(if any) is dropped.  When every input of the shard is in, LOG.part becomes
LOG and the sidecar LOG.inputs.tsv (kept: per-input times and the versions).
The sidecar's first line is a stamp (torch, Triton, device, reps, the shapes
file's sha256); a resume under another stamp is refused.
"""
import os

from mmrank.bench.inductor_text import read_lines

DONE_HEADER = "input\trows\tend\tseconds\tstatus"


class LogError(Exception):
    """A bad or inconsistent log; the message names file:line where known."""


def parse_feedback(where, v):
    if v == "inf":
        return float("inf")
    try:
        x = float(v)
    except ValueError:
        raise LogError(f"{where}: bad feedback '{v}'") from None
    if not (x > 0) or x != x:
        raise LogError(f"{where}: bad feedback '{v}' (expected a time > 0 ms or inf)")
    return x


def read_inductor_log(path):
    """(metadata line, header line, rows) of an AutoHeuristic log written by
    Inductor for one input; rows keep their text (no trailing newline).
    A missing file is (None, None, []): Inductor did not autotune."""
    if not os.path.exists(path):
        return None, None, []
    lines = read_lines(path, LogError, "missing final newline (a torn write?)")
    if len(lines) < 2 or not lines[0].startswith("{"):
        raise LogError(f"{path}:1: not an AutoHeuristic log (no metadata and header lines)")
    ncol = len(lines[1].split(","))
    if lines[1].split(",")[-2:] != ["choice", "feedback"]:
        raise LogError(f"{path}:2: header does not end with choice,feedback")
    for i, row in enumerate(lines[2:], 3):
        f = row.split(",")
        if len(f) != ncol or "\r" in row:
            raise LogError(f"{path}:{i}: expected {ncol} comma-separated fields")
        if not f[-2]:
            raise LogError(f"{path}:{i}: empty choice")
        parse_feedback(f"{path}:{i}", f[-1])
    return lines[0], lines[1], lines[2:]


def _fsync_write(fh, data):
    fh.write(data)
    fh.flush()
    os.fsync(fh.fileno())


class ShardLog:
    """LOG.part + LOG.part.done of one shard (see the module docstring)."""

    def __init__(self, log, stamp):
        if os.path.exists(log):
            raise LogError(f"'{log}' exists: this shard is complete (remove it to measure again)")
        self.log, self.part, self.done_path = log, log + ".part", log + ".part.done"
        self.stamp = "# " + stamp
        self.done = []          # (input id, rows, end, seconds, status)
        self.meta = None        # LOG.part's first two lines, once written
        self.dropped = 0        # bytes of a partly written input dropped on resume
        self._resume()
        self.fh = open(self.part, "ab")
        self.dfh = open(self.done_path, "ab")
        if os.path.getsize(self.done_path) == 0:
            _fsync_write(self.dfh, (self.stamp + "\n" + DONE_HEADER + "\n").encode())

    def _resume(self):
        if not os.path.exists(self.done_path):
            if os.path.exists(self.part) and os.path.getsize(self.part) > 0:
                raise LogError(f"{self.part} exists without {self.done_path}: not made by "
                               "inductor_collect; remove it to start over")
            open(self.part, "wb").close()
            return
        with open(self.done_path, "rb") as fh:
            text = fh.read().decode("utf-8", "replace")
        keep = text.rfind("\n") + 1          # drop a torn last line
        lines = text[:keep].split("\n")[:-1]
        if len(lines) < 2 or lines[1] != DONE_HEADER:
            lines, keep = [], 0              # torn before the header: start over
        elif lines[0] != self.stamp:
            raise LogError(f"{self.done_path}:1: made with '{lines[0][2:]}', this run is "
                           f"'{self.stamp[2:]}': resume with the same settings, or remove "
                           f"{self.part} and {self.done_path} to start over")
        end = 0
        for i, line in enumerate(lines[2:], 3):
            f = line.split("\t")
            try:
                rec = (int(f[0]), int(f[1]), int(f[2]), float(f[3]), f[4])
            except (ValueError, IndexError):
                raise LogError(f"{self.done_path}:{i}: malformed line") from None
            if len(f) != 5 or rec[2] < end:
                raise LogError(f"{self.done_path}:{i}: malformed line")
            end = rec[2]
            self.done.append(rec)
        size = os.path.getsize(self.part) if os.path.exists(self.part) else 0
        if size < end:
            raise LogError(f"{self.part} is {size} bytes, {self.done_path} says {end}: "
                           "the log lost data; remove both to start over")
        if size > end:
            self.dropped = size - end
            with open(self.part, "r+b") as fh:
                fh.truncate(end)
                os.fsync(fh.fileno())
        if keep < len(text.encode("utf-8")):
            with open(self.done_path, "r+b") as fh:
                fh.truncate(len(text[:keep].encode("utf-8")))
                os.fsync(fh.fileno())
        if end > 0:
            with open(self.part, "rb") as fh:
                two = fh.read(1 << 20).split(b"\n")[:2]
            self.meta = (two[0].decode(), two[1].decode())

    def append(self, input_id, meta, header, rows, seconds, status):
        """Add one input's rows (Inductor's lines), then its sidecar line."""
        if rows:
            if self.meta is None:
                _fsync_write(self.fh, (meta + "\n" + header + "\n").encode())
                self.meta = (meta, header)
            elif self.meta != (meta, header):
                raise LogError(
                    f"input {input_id}: Inductor's metadata differs from {self.part}'s "
                    f"(another GPU, torch or feature set?):\n  {self.part}: {self.meta[0]}\n"
                    f"  input {input_id}: {meta}")
            _fsync_write(self.fh, ("\n".join(rows) + "\n").encode())
        end = self.fh.tell()
        line = f"{input_id}\t{len(rows)}\t{end}\t{seconds:.3f}\t{status}\n".encode()
        _fsync_write(self.dfh, line)
        self.done.append((input_id, len(rows), end, seconds, status))

    def close(self):
        self.fh.close()
        self.dfh.close()

    def finish(self):
        """The shard is complete: LOG.part -> LOG, sidecar -> LOG.inputs.tsv."""
        self.close()
        if self.meta is None:
            raise LogError(f"{self.part}: no input of the shard produced rows (Inductor "
                           "autotuned none of them); nothing to write")
        os.replace(self.part, self.log)
        os.replace(self.done_path, self.log + ".inputs.tsv")
