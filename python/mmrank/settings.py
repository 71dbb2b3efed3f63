"""mmrank.settings — the choices handler's settings (mmrank.inductor), checked
in one place and importable without torch: install()'s arguments and the
environment variables read at import.

  check_k(k), check_unranked(v), check_aten(v)   install()'s arguments: the
        value, or ValueError naming it ("mmrank.inductor: aten='x': ...")
  env_k(value), env_flag(name), env_unranked(), env_aten()
        the environment's values (docs/INDUCTOR.md); ValueError naming the
        variable for any other value (words are matched exactly)
  env_problems(environ=None)   every handler variable's error message, [] if
        none: `python -m mmrank.settings` prints them and exits 1 (drivers
        such as perf/models/run.sh check the environment before a sweep)
"""
import os
import re
import sys

MAX_K = 1000                        # k's upper bound, for install() and MMRANK_INDUCTOR alike
# the first word is the default: "auto" lets the artifact decide (mmrank.inductor.resolve)
UNRANKED_WORDS = ("auto", "keep", "drop")   # unranked=: templates the tree does not rank
ATEN_WORDS = ("auto", "always", "listed")   # aten=: when the ATen choices are kept
ON_WORDS = ("1", "on", "yes", "true")
OFF_WORDS = ("", "0", "off", "no", "false")


def check_k(k):
    if k == "auto":
        return k
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise ValueError(f"mmrank.inductor: k={k!r}: 'auto' or an int 1..{MAX_K}")
    return k


def _check_word(name, v, words):
    if not isinstance(v, str) or v not in words:
        raise ValueError(f"mmrank.inductor: {name}={v!r}: {' or '.join(repr(w) for w in words)}")
    return v


def check_unranked(v):
    return _check_word("unranked", v, UNRANKED_WORDS)


def check_aten(v):
    return _check_word("aten", v, ATEN_WORDS)


def env_k(value):
    """MMRANK_INDUCTOR's VALUE: None (off), "auto" or an int 1..MAX_K; any
    other value raises ValueError naming the variable."""
    if value in OFF_WORDS:
        return None
    if value == "auto":
        return "auto"
    if re.fullmatch(r"[1-9][0-9]{0,3}", value) and int(value) <= MAX_K:
        return int(value)
    raise ValueError(f"MMRANK_INDUCTOR={value!r}: expected auto, a whole number 1..{MAX_K} "
                     f"(digits 0-9 only), or 0, off, no, false or empty for off (lower case, "
                     f"no spaces)")


def env_flag(name, environ=None):
    """The on/off variable NAME: True for 1, on, yes, true; False unset or
    for empty, 0, off, no, false; anything else raises ValueError."""
    v = (os.environ if environ is None else environ).get(name, "")
    if v in ON_WORDS:
        return True
    if v in OFF_WORDS:
        return False
    raise ValueError(f"{name}={v!r}: expected 1, on, yes or true (on) or 0, off, no, false or "
                     f"empty (off), lower case")


def _env_word(name, words, environ):
    v = (os.environ if environ is None else environ).get(name, "")
    if v in ("",) + words:
        return v or words[0]
    raise ValueError(f"{name}={v!r}: expected {' or '.join(words)}")


def env_unranked(environ=None):
    """MMRANK_INDUCTOR_UNRANKED: "auto" (also unset or empty), "keep" or "drop"."""
    return _env_word("MMRANK_INDUCTOR_UNRANKED", UNRANKED_WORDS, environ)


def env_aten(environ=None):
    """MMRANK_INDUCTOR_ATEN: "auto" (also unset or empty), "always" or "listed"."""
    return _env_word("MMRANK_INDUCTOR_ATEN", ATEN_WORDS, environ)


def env_problems(environ=None):
    """The error message of every handler variable with a bad value."""
    env = os.environ if environ is None else environ
    out = []
    for check in (lambda: env_k(env.get("MMRANK_INDUCTOR", "")),
                  lambda: env_flag("MMRANK_INDUCTOR_EXTRA", env),
                  lambda: env_flag("MMRANK_INDUCTOR_STRICT", env),
                  lambda: env_unranked(env), lambda: env_aten(env)):
        try:
            check()
        except ValueError as e:
            out.append(str(e))
    return out


if __name__ == "__main__":
    bad = env_problems()
    for b in bad:
        print(f"mmrank.settings: {b}", file=sys.stderr)
    sys.exit(1 if bad else 0)
