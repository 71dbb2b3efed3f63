#!/usr/bin/env python3
"""oracle_report.py LOG -- what each kernel family adds over extern_mm: from
one bench log (AutoHeuristic format; a .part is fine), per input
the median time (ms) of every choice (inf if any repetition is inf), then:

  * the share of inputs where a non-default choice beats extern_mm (cuBLAS's
    default, cublasGemmEx) by >= 5 %  (extern / best_other >= 1.05);
  * the geometric-mean speedup of the oracle (best of all choices) over
    extern_mm, and its maximum;
  * the same with only one family added to extern_mm: cuBLASLt alternatives
    (type=cublaslt_...), mma.sync template (type=nvrtc_mma_...), wgmma
    template (type=nvrtc_wgmma_...), CUDA-core template (type=nvrtc_BLOCK...);
  * per type class (f32, tf32, f16, bf16) and for inputs with m, n, k all
    >= 1024 ("large");
  * how often each family holds the input's best choice.
Inputs whose extern_mm is inf are left out (counted)."""
import math
import sys
from collections import Counter, OrderedDict

from lt_speedup import cls, inputs, median  # this script's folder

FAMILIES = (('cublaslt', 'type=cublaslt_'), ('wgmma', 'type=nvrtc_wgmma_'),
            ('mma', 'type=nvrtc_mma_'), ('mm', 'type=nvrtc_BLOCK'))


def family(choice):
    for name, prefix in FAMILIES:
        if choice.startswith(prefix):
            return name
    return 'extern_mm' if choice == 'extern_mm' else 'other'


def main(path):
    ins = list(inputs(path))
    if path.endswith('.part') and ins:
        ins = ins[:-1]
    groups = OrderedDict((g, []) for g in ('all', 'f32', 'tf32', 'f16', 'bf16', 'large'))
    best_family, skipped = Counter(), 0
    for feat, rows in ins:
        med = {c: median(v) for c, v in rows.items()}
        ext = med.get('extern_mm', math.inf)
        if not math.isfinite(ext):
            skipped += 1
            continue
        others = {c: m for c, m in med.items() if c != 'extern_mm' and math.isfinite(m)}
        best_other = min(others.values(), default=math.inf)
        per_fam = {}
        for name, _ in FAMILIES:
            fm = [m for c, m in others.items() if family(c) == name]
            if fm:
                per_fam[name] = ext / min(ext, min(fm))
        bc = min(med, key=med.get)
        best_family[family(bc)] += 1
        rec = (ext / best_other >= 1.05, ext / min(ext, best_other), per_fam)
        f = feat.split(',')
        m, k, n = int(f[0]), int(f[1]), int(f[2])
        for g in ('all', cls(feat)) + (('large',) if min(m, n, k) >= 1024 else ()):
            groups[g].append(rec)
    print(f'{path}: {len(ins)} inputs, {skipped} with extern_mm inf (left out)')
    fams = [name for name, _ in FAMILIES]
    print(f'  {"set":6} {"inputs":>6} {">=5%":>6} {"share":>6} {"oracle_gm":>9} {"max":>6}  '
          + '  '.join(f'{"+" + x:>9}' for x in fams))
    for g, recs in groups.items():
        if not recs:
            continue
        n = len(recs)
        w = sum(r[0] for r in recs)
        gm = math.exp(sum(math.log(r[1]) for r in recs) / n)
        mx = max(r[1] for r in recs)
        cols = []
        for x in fams:
            v = [r[2][x] for r in recs if x in r[2]]
            cols.append(f'{math.exp(sum(map(math.log, v)) / len(v)):9.4f}' if v else f'{"-":>9}')
        print(f'  {g:6} {n:6d} {w:6d} {100.0 * w / n:5.1f}% {gm:9.4f} {mx:6.2f}  ' + '  '.join(cols))
    print('  (+family: geometric mean over the inputs where the family has a choice of extern / '
          'min(extern, best of that family))')
    print('  family of the best choice:', ', '.join(f'{k} {v}' for k, v in best_family.most_common()))


if __name__ == '__main__':
    for p in sys.argv[1:]:
        try:
            main(p)
        except FileNotFoundError:
            print(f'{p}: missing')
