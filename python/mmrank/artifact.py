"""mmrank.artifact — finding, reading and loading an emitted _MMRanking<GPU>.py
(no torch needed to find or read one; loading runs it, and it imports
torch's AutoHeuristic interface).

  read(path)            its bytes: a regular file only (a FIFO, a device
                        such as /dev/zero or a folder is refused without
                        being read), at most MAX_BYTES
  load(path)            (the one LearnedHeuristicDecision subclass's fresh
                        instance, the file's bytes); any failure while the
                        file runs (a syntax error, an exception, sys.exit:
                        any BaseException but KeyboardInterrupt) is a
                        Refused naming the file.  KeyboardInterrupt is how
                        Python delivers the user's Ctrl-C, and one the file
                        raises cannot be told from a real one: it
                        propagates, an interrupt is never swallowed
  find(artifact, device_name, facts=)
                        the file to use: ARTIFACT (a file, or a folder of
                        _MMRanking*.py), else $MMRANK_ARTIFACT, else the
                        package's shipped artifacts; in a folder the file
                        trained for this GPU, else the first (in name order)
                        whose GPU data has this GPU's precondition FACTS
                        (capability, shared memory), borrowed; else the
                        only one
  gpu_of(cls)           the GPU an artifact carries as data (emit --gpu: the
                        class attribute gpu, from its row of datasets/GPUS.tsv),
                        checked; None for one without (PyTorch's shipped
                        _MMRanking*.py, or an older emit)
  gpu_in(data, path)    the same read from a file's text, without running it
  gpu_tag(name)         the fallback for an artifact without GPU data: the GPU
                        of its class or file name, MMRankingH200 -> "H200"
  trained_for(gpu, device_name)
                        whether the device is that GPU (its GPU data, else the
                        tag): the one place the artifact's GPU is matched
                        against a device name
  describe(gpu)         the GPU in words, and where that came from
"""
import ast
import glob
import os
import re
import stat
import types

from mmrank import artifact_dir

PREFIX = "MMRanking"
MAX_BYTES = 16 << 20    # an emitted artifact is tens of kB


class Refused(RuntimeError):
    """Nothing was installed or changed; the message says why."""


def failure(e):
    """'TypeName: message' of exception E that an artifact's code raised,
    even where its message cannot be made (a __str__ that raises)."""
    try:
        msg = e.msg if isinstance(e, SyntaxError) else str(e)
    except Exception:  # noqa: BLE001 - the artifact's own __str__
        msg = "(its message cannot be shown)"
    what = "syntax error" if isinstance(e, SyntaxError) else type(e).__name__
    return f"{what}: {str(msg)[:200]}"


def read(path):
    """The bytes of PATH, a regular file of at most MAX_BYTES.  The file is
    opened without blocking and checked on the open descriptor, so a FIFO, a
    device or a folder is refused without a read (no hang)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
                     | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise Refused(f"{path}: cannot open: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Refused(f"{path}: not a regular file (a folder, FIFO or device): not read")
        if st.st_size > MAX_BYTES:
            raise Refused(f"{path}: {st.st_size} bytes, over {MAX_BYTES}: not an artifact")
        chunks, n = [], 0
        while True:
            b = os.read(fd, 1 << 16)
            if not b:
                break
            n += len(b)
            if n > MAX_BYTES:
                raise Refused(f"{path}: over {MAX_BYTES} bytes: not an artifact")
            chunks.append(b)
        return b"".join(chunks)
    except OSError as e:
        raise Refused(f"{path}: cannot read: {e.strerror}") from None
    finally:
        os.close(fd)


def _where(path, e):
    """path:line of exception E raised while PATH ran, where its traceback
    has a frame of that file."""
    if isinstance(e, SyntaxError) and e.lineno:
        return f"{path}:{e.lineno}"
    tb, line = e.__traceback__, None
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == path:
            line = tb.tb_lineno
        tb = tb.tb_next
    return f"{path}:{line}" if line else path


def load(path):
    """(a fresh instance of the one LearnedHeuristicDecision subclass that
    PATH defines, PATH's bytes).  Raises Refused, naming the file, for a
    file that is not read (read()), does not compile, raises anything
    (SystemExit, GeneratorExit, a BaseException subclass of its own; not
    KeyboardInterrupt, module doc) while it runs or is instantiated, or
    defines no such class or several."""
    from torch._inductor.autoheuristic.learnedheuristic_interface import LearnedHeuristicDecision
    data = read(path)
    name = f"mmrank_artifact_{abs(hash(os.path.abspath(path)))}"
    mod = types.ModuleType(name)
    mod.__file__ = path
    try:
        code = compile(data, path, "exec", dont_inherit=True)
        exec(code, mod.__dict__)  # noqa: S102 - an artifact is code by design (spec §6.1)
        cls = [v for v in vars(mod).values() if isinstance(v, type)
               and issubclass(v, LearnedHeuristicDecision) and v is not LearnedHeuristicDecision]
        if len(cls) != 1:
            raise Refused(f"{path}: expected one LearnedHeuristicDecision subclass, "
                          f"found {len(cls)}")
        return cls[0](), data
    except (Refused, KeyboardInterrupt):
        raise
    except BaseException as e:  # noqa: BLE001 - the artifact's own failure, reported
        raise Refused(f"{_where(path, e)}: the artifact fails to load ({failure(e)})") from None


# The GPU data's rules (stages/formats/emittable.h: emittable_gpu_problem,
# emittable_device_name_problem; mk/gpus.awk checks the table with them).
GPU_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
DEVICE_NAME = re.compile(r"[A-Z0-9][A-Z0-9-]{0,31}")
GPU_KEYS = ("name", "device_name", "shared_memory", "capability")


def _int(x):
    return isinstance(x, int) and not isinstance(x, bool)


def _shown(g):
    """The start of G in words for a message, even where it cannot be
    printed (an int over Python's digit limit, a __repr__ that raises)."""
    try:
        return str(g)[:200]
    except Exception:  # noqa: BLE001 - the value is the artifact's
        return "(it cannot be shown)"


def check_gpu_data(g, where):
    """G, an artifact's GPU data, when it is a dict of exactly GPU_KEYS with
    a GPU name and a device-name pattern of the rules above, shared memory
    a positive int and the capability a (major, minor) pair of ints; else
    Refused naming WHERE."""
    ok = (isinstance(g, dict) and set(g) == set(GPU_KEYS)
          and isinstance(g["name"], str) and GPU_NAME.fullmatch(g["name"])
          and isinstance(g["device_name"], str) and DEVICE_NAME.fullmatch(g["device_name"])
          and _int(g["shared_memory"]) and g["shared_memory"] > 0
          and isinstance(g["capability"], tuple) and len(g["capability"]) == 2
          and all(_int(c) and c >= 0 for c in g["capability"]))
    if not ok:
        raise Refused(f"{where}: its GPU data (the class attribute gpu) is not "
                      f"{{'name': a-z0-9_-, 'device_name': A-Z0-9-, 'shared_memory': int, "
                      f"'capability': (int, int)}}: {_shown(g)}")
    return g


def gpu_of(cls):
    """The GPU data class CLS (or an instance's class) carries, checked
    (check_gpu_data); None when it has none."""
    if not isinstance(cls, type):
        cls = type(cls)
    g = cls.__dict__.get("gpu")
    return None if g is None else check_gpu_data(g, cls.__name__)


# emit writes the GPU data as one line of the class body (templates/heuristic.py.m4)
_GPU_LINE = re.compile(rb"^[ \t]+gpu[ \t]*=[ \t]*(\{[^\n]*\})[ \t]*$", re.M)


def gpu_in(data, path):
    """The GPU data of the artifact whose text is DATA (bytes), read without
    running it: the dict literal of emit's line `    gpu = {...}` (the
    first such line; ast.literal_eval); None without one.  Refused, naming
    PATH and the line, for data that break the rules or cannot be read (any
    exception of literal_eval: a malformed or unhashable literal).  (A fast
    look for find(); gpu_of, on the loaded class, is what install checks.)"""
    m = _GPU_LINE.search(data)
    if not m:
        return None
    line = data.count(b"\n", 0, m.start()) + 1
    where = f"{path}:{line}"
    try:
        value = ast.literal_eval(m.group(1).decode("ascii"))
    except Exception:  # noqa: BLE001 - a malformed literal, whatever it raises
        value = None
    return check_gpu_data(value, where)


def gpu_tag(name):
    """The GPU tag of a class or file name: MMRankingH200 or
    _MMRankingH200.py -> "H200"; None where the name has none."""
    base = os.path.basename(name)
    if base.endswith(".py"):
        base = base[:-3]
    base = base[1:] if base.startswith("_") else base
    if base.startswith(PREFIX) and len(base) > len(PREFIX):
        return base[len(PREFIX):].upper()
    return None


def trained_for(gpu, device_name):
    """True when DEVICE_NAME (torch.cuda.get_device_name()) is the GPU: GPU
    is an artifact's GPU data (gpu_of, gpu_in: its device-name pattern) or,
    for an artifact without, the tag of its name (gpu_tag); the pattern is
    words of the name: it starts at the name's start or after a space, - or
    _, and ends at its end or before one; upper case, the name's spaces
    ignored within it: H100 is in "NVIDIA H100 80GB HBM3", A100 in "NVIDIA
    A100-SXM4-80GB", RTX4090 in "NVIDIA GeForce RTX 4090", but H200 is not
    in "NVIDIA GH200 480GB", nor H20 in "NVIDIA H200"."""
    pattern = (gpu["device_name"] if isinstance(gpu, dict) else gpu or "").upper()
    if not pattern:
        return False
    words = " *".join(map(re.escape, pattern))   # the name's spaces ignored within it
    return re.search(rf"(?<![^ _-]){words}(?![^ _-])", device_name.upper()) is not None


def describe(gpu):
    """GPU (data, tag or None) in words: (what, whence), e.g. ('an H200',
    'its GPU data: h200 of datasets/GPUS.tsv'), ('an H100', 'its class
    name: the artifact carries no GPU data'), ('an unnamed GPU', ...)."""
    if isinstance(gpu, dict):
        return f"an {gpu['device_name']}", f"its GPU data: {gpu['name']} of datasets/GPUS.tsv"
    if gpu:
        return f"an {gpu}", "its class name: the artifact carries no GPU data"
    return ("an unnamed GPU", "no GPU data and no GPU in its class name: only its "
            "precondition is checked")


def _gpu_of_file(path):
    """The GPU of the artifact file PATH for find(): its data, else the tag
    of its file name; a file that cannot be read has its tag only."""
    try:
        g = gpu_in(read(path), path)
    except Refused:
        g = None
    return g or gpu_tag(path)


def _candidates(path):
    if os.path.isdir(path):
        return sorted(glob.glob(os.path.join(path, "_" + PREFIX + "*.py")))
    return [path]


def same_precondition(gpu, facts):
    """True when GPU (an artifact's GPU data) was trained on a GPU of the
    precondition FACTS, (capability, shared memory per block) as torch
    reports them: what the artifact's check_precondition compares."""
    return (isinstance(gpu, dict) and facts is not None
            and tuple(gpu["capability"]) == tuple(facts[0]) and gpu["shared_memory"] == facts[1])


def find(artifact=None, device_name=None, environ=None, facts=None):
    """The artifact file: ARTIFACT (a file, or a folder of _MMRanking*.py);
    else $MMRANK_ARTIFACT; else the package's shipped artifacts (a
    checkout's gen/).  In a folder, the file trained for DEVICE_NAME's GPU
    (trained_for: its GPU data, else its name's tag); else the first, in
    name order, whose GPU data has the precondition FACTS ((capability,
    shared memory), same_precondition), borrowed for a GPU no artifact
    was trained on; else the only one.  Raises Refused when there is none."""
    env = os.environ if environ is None else environ
    given = artifact or env.get("MMRANK_ARTIFACT") or None
    places = [given] if given else [artifact_dir()]
    for place in places:
        if not os.path.exists(place):
            if given:
                raise Refused(f"{place}: no such file or folder")
            continue
        files = _candidates(place)
        gpus = [_gpu_of_file(f) for f in files]
        if device_name:
            match = [f for f, g in zip(files, gpus) if trained_for(g, device_name)]
            if match:
                return match[0]
        alike = [f for f, g in zip(files, gpus) if same_precondition(g, facts)]
        if alike:
            return alike[0]
        if len(files) == 1:
            return files[0]
        if given and not files:
            raise Refused(f"{place}: no _{PREFIX}*.py in it")
    raise Refused(f"no artifact for {device_name or 'this GPU'} in {', '.join(places)} "
                  "(pass artifact= or set MMRANK_ARTIFACT)")
