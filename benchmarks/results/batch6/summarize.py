#!/usr/bin/env python3
"""Per group of passes (A-new-batched, A-old-batched, B-..., C-...): each RESULT round's admitted,
503s, p99 and the load at the pass's start, then a summary line per group and round."""
import glob, re, os, sys, collections
here = os.path.dirname(os.path.abspath(__file__))
rows = collections.defaultdict(list)
for f in sorted(glob.glob(os.path.join(here, '*.txt'))):
    name = os.path.basename(f)[:-4]
    m = re.match(r'(.*)-(\d+)$', name)
    if not m: continue
    group, n = m.group(1), int(m.group(2))
    load = '?'
    for line in open(f):
        if line.startswith('#'):
            lm = re.search(r'load ([\d.]+)', line)
            if lm: load = lm.group(1)
        if line.startswith('RESULT'):
            kv = dict(x.split('=', 1) for x in line.split()[1:] if '=' in x)
            rows[(group, kv['round'])].append((n, int(kv['admitted']), int(kv['unavailable']), int(kv['p99_ms']), float(load), int(kv.get('fellback', 0))))
def med(v):
    v = sorted(v); k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) / 2
for (group, rnd), r in sorted(rows.items()):
    r.sort()
    adm = [x[1] for x in r]; over = [a for a in adm if a > 100]
    print(f"{group:32s} {rnd:24s} passes={len(r):3d} over={len(over)} {over if over else ''} admitted={min(adm)}-{max(adm)} "
          f"(100 in {adm.count(100)}) 503s={sum(x[2] for x in r)} p99_ms median={med([x[3] for x in r])} ({min(x[3] for x in r)}-{max(x[3] for x in r)}) "
          f"load={min(x[4] for x in r)}-{max(x[4] for x in r)} (median {med([x[4] for x in r])})")
    if '-v' in sys.argv:
        print('   ', ' '.join(f"{x[0]}:{x[1]}" for x in r))
