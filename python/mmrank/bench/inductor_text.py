"""Text files of the Inductor back end and its reports: strict reading
(UTF-8, '\\n' line ends, a final newline; a .xz file decompressed) and
atomic writing (a temporary file renamed over the target, so no partial
output is ever left)."""
import lzma
import os


def read_lines(path, error, missing_newline="missing final newline"):
    """The lines of PATH without their '\\n' (PATH.xz: of its contents); bad
    files raise ERROR(message)."""
    try:
        with (lzma.open if path.endswith(".xz") else open)(path, "rb") as fh:
            raw = fh.read()
    except OSError as e:
        raise error(f"{path}: cannot read: {e.strerror}") from None
    except (lzma.LZMAError, EOFError):
        raise error(f"{path}: not a complete xz file") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise error(f"{path}: not UTF-8") from None
    if not text.endswith("\n"):
        raise error(f"{path}: {missing_newline}")
    return text[:-1].split("\n")


def write_atomic(path, text):
    """Write TEXT to PATH through PATH.tmp and a rename."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
    os.replace(tmp, path)
