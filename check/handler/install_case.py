#!/usr/bin/env python3
"""install_case.py — mmrank.inductor's install/uninstall against the torch
stand-in check/stub (check/t6150-handler.sh); the fake GPU comes from
MMRANK_STUB_*.

usage: install_case.py ARTIFACT K [--force] [--aten WORD] [--import-only]
Prints "installed k=K artifact=NAME" or "refused: MESSAGE", then the state:
"state handler=<class of V.choices> config=<set|unset>"; then, if
installed, uninstalls and prints the state again and "uninstall-again
False".  --import-only: only import the module (MMRANK_INDUCTOR at import)
and print the state."""
import sys

from torch._inductor import config
from torch._inductor.virtualized import V

from mmrank import inductor as mi


def state():
    print(f"state handler={type(V.choices).__name__} "
          f"config={'set' if config.inductor_choices_class else 'unset'}")


def main(argv):
    if "--import-only" in argv:
        h = mi.installed()
        print(f"import installed={h is not None}" + (f" k={h.k} aten={h.aten}" if h else ""))
        state()
        return 0
    artifact, k = argv[0], argv[1]
    try:
        h = mi.install(k="auto" if k == "auto" else int(k), artifact=artifact,
                       force="--force" in argv,
                       aten=argv[argv.index("--aten") + 1] if "--aten" in argv else "auto")
        print(f"installed k={h.k} artifact={type(h.heuristic).__name__}")
        print(f"borrowed {h.stats()['borrowed']}")
        state()
        print(f"config-makes-ours {config.inductor_choices_class() is h}")
        print(f"key {config.inductor_choices_class.args[0]}")
        print(f"uninstall {mi.uninstall()}")
        state()
        print(f"uninstall-again {mi.uninstall()}")
    except mi.Refused as e:
        print(f"refused: {e}")
        state()
    except ValueError as e:
        print(f"value-error: {e}")
        state()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
