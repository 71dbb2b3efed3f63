#!/usr/bin/env python3
"""check/lengths.py — the length rule of the C sources (check/t7160-lengths.sh).

usage: check/lengths.py [--max N] [--list] FILE...

A function definition (from its first line, the return type, to its closing
brace) may have at most N lines (default 150), and so may a header (.h,
.cuh) as a whole.  Prints one line per breach, "FILE:LINE: function NAME:
L lines (more than N)" or "FILE: header: L lines (more than N)", and exits 1
if there is any, else 0; with --list, every function's length instead
("L<TAB>FILE:LINE<TAB>NAME", longest first), exit status 0.  Comments,
string and character literals are blanked before braces are counted; a
top-level brace block whose head has a parameter list and no '=' before it
is a function (not an initializer, struct, enum or union)."""
import re
import sys


def blank(src):
    """src with comments and the insides of literals turned into spaces
    (newlines kept, so line numbers stay)."""
    out, i, n = [], 0, len(src)
    while i < n:
        if src.startswith('/*', i):
            j = src.find('*/', i + 2)
            j = n if j < 0 else j + 2
        elif src.startswith('//', i):
            j = src.find('\n', i)
            j = n if j < 0 else j
        elif src[i] in '"\'':
            q, j = src[i], i + 1
            while j < n and src[j] != q and src[j] != '\n':
                j += 2 if src[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(q + re.sub(r'[^\n]', ' ', src[i + 1:j - 1]) + q)
            i = j
            continue
        else:
            out.append(src[i])
            i += 1
            continue
        out.append(re.sub(r'[^\n]', ' ', src[i:j]))
        i = j
    return ''.join(out)


def functions(path):
    """(first line, lines, name) of every function definition in path."""
    with open(path, encoding='utf-8', errors='replace') as fp:
        lines = blank(fp.read()).split('\n')
    found, depth, head, head_line, start = [], 0, '', None, None
    for ln, text in enumerate(lines, 1):
        if depth == 0 and text.lstrip().startswith('#'):
            continue   # preprocessor lines (macros may hold braces)
        for ch in text:
            if depth > 0:
                depth += ch == '{'
                depth -= ch == '}'
                if depth == 0:
                    if start is not None:
                        name = re.findall(r'(\w+)\s*\(', head)
                        found.append((start, ln - start + 1, name[0] if name else '?'))
                    head, head_line, start = '', None, None
            elif ch == '{':
                h = head.strip()
                is_fn = ('(' in h and '=' not in h.split('(')[0]
                         and not re.match(r'(typedef|struct|enum|union)\b', h))
                start = head_line if is_fn else None
                depth = 1
            elif ch == ';':
                head, head_line = '', None
            else:
                if head_line is None and not ch.isspace():
                    head_line = ln
                head += ch
        if depth == 0:
            head += '\n'
    return found


def main(argv):
    limit, listing, files = 150, False, []
    args = iter(argv)
    for a in args:
        if a == '--max':
            limit = int(next(args))
        elif a == '--list':
            listing = True
        else:
            files.append(a)
    if not files:
        sys.exit(__doc__.split('\n\n')[1])
    if listing:
        rows = [(n, f'{p}:{s}', name) for p in files for s, n, name in functions(p)]
        for n, where, name in sorted(rows, key=lambda r: -r[0]):
            print(f'{n}\t{where}\t{name}')
        return 0
    bad = 0
    for p in files:
        for s, n, name in functions(p):
            if n > limit:
                print(f'{p}:{s}: function {name}: {n} lines (more than {limit})')
                bad = 1
        if p.endswith(('.h', '.cuh')):
            with open(p, encoding='utf-8', errors='replace') as fp:
                n = sum(1 for _ in fp)
            if n > limit:
                print(f'{p}: header: {n} lines (more than {limit})')
                bad = 1
    return bad


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
