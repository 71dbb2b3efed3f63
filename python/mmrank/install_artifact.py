"""mmrank.install_artifact — make Inductor use our _MMRanking<GPU>.py without
editing any of torch's shipped files (make install-artifact).

usage: python3 -m mmrank.install_artifact install ARTIFACT.py [--artifacts-dir DIR]
       python3 -m mmrank.install_artifact uninstall (--name NAME | --all) [--artifacts-dir DIR]
       python3 -m mmrank.install_artifact order [--artifacts-dir DIR] [--shared-memory B]
                                               [--capability MAJOR.MINOR] [--if-importable]
       python3 -m mmrank.install_artifact check [--artifacts-dir DIR]
       python3 -m mmrank.install_artifact dir

How torch 2.11 picks a learned heuristic (torch/_inductor/autoheuristic/
learned_heuristic_controller.py): on first use (:77-92) it walks the
package torch._inductor.autoheuristic.artifacts with pkgutil.walk_packages
(:21), imports every module whose basename starts with '_' (:26),
instantiates every LearnedHeuristic subclass found in it (:32-39) and
appends it to the list of its get_name() (:87-91); get_decisions_ranked
then takes the FIRST heuristic of the list whose check_precondition passes
(:110-111) and keeps its ranking's ids that are candidates of the call, at
most top_k (:115-118).
pkgutil lists a folder sorted by file name (pkgutil._iter_file_finder_modules:
filenames.sort()), so on an H200, where the shipped _MMRankingH100.py's
precondition (shared memory 232448, capability (9, 0)) holds as well, the
module that sorts first wins.  install therefore copies ARTIFACT.py, byte
for byte, into that folder as _0mmrank_<NAME>.py (NAME = the artifact's
class, e.g. MMRankingH200): '_0' sorts before every shipped '_<Letter>...'
module.  Nothing shipped is touched; uninstall removes exactly the files
install made (and their __pycache__ entries).  Inductor consults it when
TORCHINDUCTOR_AUTOHEURISTIC_USE includes mm (spec §7.1) in a process started
after the install.

  ARTIFACT.py      an emitted heuristic module (make emit: _MMRanking<GPU>.py)
  --artifacts-dir  torch's artifacts folder (make: TORCH_ARTIFACTS=DIR;
                   default: the one of the torch on sys.path, which must then
                   import: install and check refuse a torch that does not,
                   before writing anything; uninstall without any torch says
                   there is nothing to uninstall and exits 0)
  order            list the mm heuristics in Inductor's discovery order and
                   say which one it uses for a device with the given shared
                   memory per block and capability (default: the GPU data of
                   the first artifact install made there, mmrank.artifact;
                   without any, 232448 and 9.0, the shipped _MMRankingH100.py's
                   precondition); imports torch (or the stand-in on
                   PYTHONPATH) as Inductor does.  --if-importable: where that
                   torch does not import here, say so and exit 0
  check            what install needs, without installing: the folder (and
                   its torch importable, when not given), writable
  dir              print the artifacts folder of the torch on sys.path (it
                   holds PyTorch's shipped _MMRanking<GPU>.py: make compare
                   REFERENCE_DIR=...); where that torch does not import, one
                   line on stderr and exit 1, nothing on stdout
Exit status: 0 done; 1 error (no torch, folder not writable, not an artifact).
"""
import argparse
import ast
import glob
import importlib.util
import os
import sys

from mmrank import artifact as art

PREFIX = "_0mmrank_"


def die(msg):
    sys.exit(f"install_artifact: {msg}")


WAY_OUT = ("give the torch/_inductor/autoheuristic/artifacts folder of the torch Inductor "
           "runs: make install-artifact TORCH_ARTIFACTS=DIR (python3 -m "
           "mmrank.install_artifact --artifacts-dir DIR), or run with the python3 of that torch")


def torch_import_error(d):
    """None if the torch python3 imports here is one whose artifacts package
    is folder d (what order needs), else why not."""
    try:
        importlib.import_module("torch._inductor.autoheuristic.learnedheuristic_interface")
        loaded = importlib.import_module("torch._inductor.autoheuristic.artifacts")
    except Exception as e:  # any failure of torch's import: ImportError, OSError, ...
        return f"python3 cannot import torch ({type(e).__name__}: {e})"
    if os.path.realpath(loaded.__path__[0]) != os.path.realpath(d):
        return f"the torch imported here has its artifacts in {loaded.__path__[0]}, not {d}"
    return None


def artifacts_dir(given, uninstalling=False, way_out=f"nothing installed: {WAY_OUT}"):
    """The artifacts folder: given, else the one of the torch on sys.path (which
    must import, except for uninstall: its files are removed without importing
    it; else the error ends with WAY_OUT).  uninstall without any torch: None
    (nothing can be installed)."""
    if given:
        d = given
    else:
        spec = importlib.util.find_spec("torch")
        if spec is None or not spec.origin:
            if uninstalling:
                return None
            die(f"no torch on sys.path; {way_out}")
        d = os.path.join(os.path.dirname(spec.origin), "_inductor", "autoheuristic", "artifacts")
        why = None if uninstalling else torch_import_error(d)
        if why:
            die(f"{why}; {way_out}")
    if not os.path.isfile(os.path.join(d, "__init__.py")):
        die(f"{d}: not torch's autoheuristic artifacts package (no __init__.py)")
    return d


def need_writable(d):
    if not os.access(d, os.W_OK):
        die(f"cannot write to {d} (a system-wide torch?): run as its owner, or use a "
            "virtual environment's torch; nothing installed")


def read_artifact(path):
    """(PATH's bytes, its text, its parse tree): a regular file only (a FIFO
    or a device is refused unread), parsed, never run."""
    try:
        data = art.read(path)
        src = data.decode("utf-8")
        return data, src, ast.parse(src, path)
    except art.Refused as e:
        die(str(e))
    except (UnicodeDecodeError, SyntaxError) as e:
        die(f"{path}: not a readable Python module: {e}")


def heuristic_class(path, src, tree):
    """The artifact's LearnedHeuristicDecision subclass name (parsed, not run)."""
    names = [n.name for n in tree.body if isinstance(n, ast.ClassDef)
             and any(getattr(b, "id", None) == "LearnedHeuristicDecision" for b in n.bases)]
    if len(names) != 1:
        die(f"{path}: expected one LearnedHeuristicDecision subclass, found {len(names)} "
            "(not an emitted heuristic)")
    if "return 'mm'" not in src and 'return "mm"' not in src:
        die(f"{path}: class {names[0]} is not an mm heuristic (get_name() != 'mm')")
    return names[0]


def check_inductor_ids(path, tree):
    """Refuse an artifact that ranks choice ids Inductor's tuned_mm never
    offers (our NVRTC kernels: type=nvrtc_...): installed first, it would
    leave Inductor nothing to autotune but extern_mm."""
    ids = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant)
           and isinstance(n.value, str) and n.value.startswith("type=")}
    foreign = sorted(i for i in ids if not i.startswith("type=triton_"))
    if foreign or not ids:
        what = (f"{len(foreign)} of its {len(ids)} choice ids are not Inductor's "
                f"(e.g. {foreign[0]})" if foreign else "it ranks no type=triton_... choice")
        die(f"{path}: {what}: Inductor would autotune extern_mm alone for every mm "
            "it matches; install a heuristic trained on Inductor's candidates "
            "(make collect KERNEL_TEMPLATE=triton, or GPU=h200); nothing installed")


def install(path, d):
    data, src, tree = read_artifact(path)
    name = heuristic_class(path, src, tree)
    check_inductor_ids(path, tree)
    need_writable(d)
    dst = os.path.join(d, PREFIX + name + ".py")
    tmp = dst + ".tmp"
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, dst)
    _remove_pyc(d, PREFIX + name)
    print(f"installed {path} as {dst} (class {name}); Inductor takes it first when "
          "TORCHINDUCTOR_AUTOHEURISTIC_USE includes mm")


def _remove_pyc(d, module):
    for f in glob.glob(os.path.join(d, "__pycache__", module + ".*.pyc")):
        os.remove(f)


def uninstall(d, name, all_):
    pat = PREFIX + ("*" if all_ else name) + ".py"
    files = sorted(glob.glob(os.path.join(d, pat)))
    if not files:
        print(f"nothing to uninstall: no {pat} in {d}")
        return
    for f in files:
        if not os.access(d, os.W_OK):
            die(f"cannot write to {d}: nothing removed")
        os.remove(f)
        _remove_pyc(d, os.path.basename(f)[:-3])
        print(f"removed {f}")


# the device order shows without --shared-memory, --capability and without
# an installed artifact that carries its GPU: the shipped MMRankingH100's
SHIPPED_DEVICE = (232448, (9, 0))


def installed_device(d):
    """(shared memory, capability) of the GPU data of the first artifact
    install made in D (its file name order), or None."""
    for f in sorted(glob.glob(os.path.join(d, PREFIX + "*.py"))):
        try:
            g = art.gpu_in(art.read(f), f)
        except art.Refused:
            g = None
        if g:
            return g["shared_memory"], tuple(g["capability"])
    return None


def order(d, smem, capa, if_importable):
    """Inductor's own discovery (its function when importable), then the
    precondition loop of get_decisions_ranked, for shared memory SMEM and
    capability CAPA (None: installed_device, else SHIPPED_DEVICE)."""
    why = torch_import_error(d)
    if why and if_importable:
        print(f"discovery order not shown: {why} (python3 -m mmrank.install_artifact "
              f"order --artifacts-dir {d}, run with that torch's python3, shows it)")
        return
    if why:
        die(why)
    from torch._inductor.autoheuristic import learnedheuristic_interface as lhi
    from torch._inductor.autoheuristic.autoheuristic_utils import AHContext, AHMetadata
    pkg = "torch._inductor.autoheuristic.artifacts"
    try:
        from torch._inductor.autoheuristic.learned_heuristic_controller import (
            find_and_instantiate_subclasses)
        how = "torch's find_and_instantiate_subclasses"
    except ImportError:
        find_and_instantiate_subclasses = _find_and_instantiate
        how = "pkgutil.walk_packages as learned_heuristic_controller.py:15-43"
    found = [h for h in find_and_instantiate_subclasses(pkg, lhi.LearnedHeuristic)
             if h.get_name() == "mm"]
    if smem is None or capa is None:
        dev = installed_device(d) or SHIPPED_DEVICE
        smem = dev[0] if smem is None else smem
        capa = dev[1] if capa is None else capa
    md = AHMetadata(smem, capa, [], "mm")
    used = None
    print(f"mm heuristics in discovery order ({how}), precondition for shared memory "
          f"{smem}, capability {capa}:")
    for h in found:
        ok = bool(h.check_precondition(md, AHContext()))
        used = used or (h if ok else None)
        print(f"  {type(h).__name__:24} {type(h).__module__:60} {'passes' if ok else 'fails'}")
    if used is None:
        print("Inductor uses: none (no mm heuristic for this device)")
    else:
        print(f"Inductor uses: {type(used).__name__} from {type(used).__module__}")


def set_mm_heuristics(heuristics):
    """In this process: the AutoHeuristic controller's mm list, HEURISTICS
    (instances, consulted in order; autoheuristic_use="mm" must be on), or
    None for Inductor's own discovery, rerun (learned_heuristic_controller.py:
    77-92).  Nothing is copied into torch."""
    from collections import defaultdict
    from torch._inductor.autoheuristic import learned_heuristic_controller as lhc
    ctl = lhc.LearnedHeuristicController
    ctl.existing_heuristics = defaultdict(list)
    if heuristics is None:
        ctl.heuristics_initialized = False
    else:
        ctl.existing_heuristics["mm"] = list(heuristics)
        ctl.heuristics_initialized = True


def _find_and_instantiate(package_name, base_class):
    """The algorithm of torch's find_and_instantiate_subclasses, for a torch
    stand-in that lacks learned_heuristic_controller (tests)."""
    import inspect
    import pkgutil
    out = []
    package = importlib.import_module(package_name)
    for _, module_name, _ in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        if not module_name.split(".")[-1].startswith("_"):
            continue
        module = importlib.import_module(module_name)
        for _, obj in inspect.getmembers(module):
            if inspect.isclass(obj) and issubclass(obj, base_class) and obj != base_class:
                out.append(obj())
    return out


def main(argv):
    p = argparse.ArgumentParser(prog="python3 -m mmrank.install_artifact", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                epilog=__doc__.split("\n\n", 2)[2])
    sub = p.add_subparsers(dest="cmd", required=True)
    pi = sub.add_parser("install")
    pi.add_argument("artifact", metavar="ARTIFACT.py")
    pu = sub.add_parser("uninstall")
    g = pu.add_mutually_exclusive_group(required=True)
    g.add_argument("--name", help="the artifact's class, e.g. MMRankingH200")
    g.add_argument("--all", action="store_true", help="every artifact install made")
    po = sub.add_parser("order")
    po.add_argument("--shared-memory", type=int, metavar="B")
    po.add_argument("--capability", metavar="MAJOR.MINOR")
    po.add_argument("--if-importable", action="store_true")
    pc = sub.add_parser("check")
    for q in (pi, pu, po, pc):
        q.add_argument("--artifacts-dir", metavar="DIR")
    sub.add_parser("dir")
    a = p.parse_args(argv)
    if a.cmd == "dir":
        print(artifacts_dir(None, way_out="torch's artifacts folder is unknown: run this with "
                                          "the python3 of the torch you mean"))
        return 0
    d = artifacts_dir(a.artifacts_dir, uninstalling=a.cmd == "uninstall")
    if d is None:
        print("nothing to uninstall: python3 has no torch here, so none of ours is installed "
              "(another torch's folder: make uninstall-artifact TORCH_ARTIFACTS=DIR)")
        return 0
    if a.cmd == "check":
        need_writable(d)
    elif a.cmd == "install":
        install(a.artifact, d)
    elif a.cmd == "uninstall":
        uninstall(d, a.name, a.all)
    else:
        try:
            capa = None if a.capability is None else tuple(int(x) for x in a.capability.split("."))
        except ValueError:
            die(f"--capability {a.capability}: expected MAJOR.MINOR")
        order(d, a.shared_memory, capa, a.if_importable)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
