"""mmrank — the Python side of mmrank: a learned ranking of Inductor's mm
kernel choices (the C pipeline in the repository trains and emits it).

  mmrank.inductor          Inductor's choices handler: autotune only the top
                           k of the ranking (needs torch 2.11)
                           `python -m mmrank.inductor`: which artifact this
                           GPU would use, or why none
  mmrank.settings          the handler's settings and environment, checked
                           without torch (`python -m mmrank.settings`)
  mmrank.force             a choices handler forcing one choice per mm/addmm
                           (perf/models/truth.py's in-graph truth; torch)
  mmrank.install_artifact  copy an artifact into torch's AutoHeuristic
                           artifacts folder (make install-artifact)
  mmrank.rules             the ranking rules of stages/formats/rules.h
  mmrank.bench             the Python back ends of bench (Triton AOT
                           compiles, Inductor's own collection)
  mmrank/artifacts/        the shipped _MMRanking<GPU>.py (an installed
                           package; a checkout reads gen/, their one home)

Importing mmrank needs no torch.  From a checkout without installing:
PYTHONPATH=<repo>/python (make, check/lib.sh and the perf drivers set it).
"""
import os

__version__ = "0.1.0"

_HERE = os.path.dirname(os.path.abspath(__file__))


def checkout():
    """The repository this package runs from (PYTHONPATH=<repo>/python), or
    None for an installed package."""
    root = os.path.dirname(os.path.dirname(_HERE))
    if (os.path.isfile(os.path.join(root, "stages", "formats", "rules.h"))
            and os.path.isdir(os.path.join(root, "gen"))):
        return root
    return None


def data_path(*parts):
    """A file the package ships (artifacts/..., rules.h): in a checkout its
    committed home (gen/, stages/formats/), else the installed copy the
    build made (python/setup.py)."""
    root = checkout()
    if root is not None:
        home = {"artifacts": ("gen",), "rules.h": ("stages", "formats", "rules.h")}[parts[0]]
        return os.path.join(root, *home, *parts[1:])
    return os.path.join(_HERE, *parts)


def artifact_dir():
    """The folder of the shipped _MMRanking<GPU>.py."""
    return data_path("artifacts")
