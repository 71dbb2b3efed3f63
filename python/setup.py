"""The build of the mmrank package (pyproject.toml holds its metadata).

The package data has its one committed home outside this folder: the shipped
artifacts in the repository's gen/ (make promote writes them) and the ranking
rules' header stages/formats/rules.h.  The build copies them into the wheel as
mmrank/artifacts/_MMRanking*.py and mmrank/rules.h, byte for byte; an sdist
carries the copies, so a wheel built from it has them too.  Nothing is copied
into this source folder: a checkout's mmrank (PYTHONPATH=<repo>/python) reads
gen/ and stages/formats/ directly (mmrank.data_path).
"""
import glob
import os
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def package_data():
    """(source, path inside the package folder) of every shipped data file:
    from the repository when this folder is its python/, else (an unpacked
    sdist) the copies the sdist carries."""
    gen = sorted(glob.glob(os.path.join(REPO, "gen", "_MMRanking*.py")))
    rules = os.path.join(REPO, "stages", "formats", "rules.h")
    if gen and os.path.isfile(rules):
        return [(f, os.path.join("artifacts", os.path.basename(f))) for f in gen] + \
            [(rules, "rules.h")]
    carried = sorted(glob.glob(os.path.join(HERE, "mmrank", "artifacts", "_MMRanking*.py")))
    if carried and os.path.isfile(os.path.join(HERE, "mmrank", "rules.h")):
        return [(f, os.path.relpath(f, os.path.join(HERE, "mmrank"))) for f in carried] + \
            [(os.path.join(HERE, "mmrank", "rules.h"), "rules.h")]
    raise SystemExit(f"mmrank: no gen/_MMRanking*.py and stages/formats/rules.h next to {HERE} "
                     "(build from the repository's python/ folder)")


def copy_data(pkg_dir):
    for src, rel in package_data():
        dst = os.path.join(pkg_dir, rel)
        if os.path.abspath(src) != os.path.abspath(dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copyfile(src, dst)


class BuildPy(build_py):
    def run(self):
        super().run()
        copy_data(os.path.join(self.build_lib, "mmrank"))


class Sdist(sdist):
    def make_release_tree(self, base_dir, files):
        super().make_release_tree(base_dir, files)
        copy_data(os.path.join(base_dir, "mmrank"))


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
