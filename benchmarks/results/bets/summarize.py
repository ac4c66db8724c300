#!/usr/bin/env python3
"""Per group (file name without its pass number) and round: passes, over the limit, admitted
range, 503s (unavailable), p99 median (range), load at the pass's start. Usage: summarize.py DIR"""
import glob, os, re, statistics, sys
d = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
groups = {}
for f in sorted(glob.glob(os.path.join(d, '*.txt'))):
    name = os.path.basename(f)[:-4]
    m = re.match(r'(.*)-(\d+)$', name)
    if not m:
        continue
    group, n = m.group(1), int(m.group(2))
    text = open(f).read()
    load = re.search(r'load ([\d.]+)', text)
    for r in re.finditer(r'^RESULT round=(\S+) .*?admitted=(\d+) .*?unavailable=(\d+) .*?p99_ms=(\d+)', text, re.M):
        groups.setdefault((group, r.group(1)), []).append(
            (n, int(r.group(2)), int(r.group(3)), int(r.group(4)), float(load.group(1)) if load else -1))
for (group, rnd), rows in sorted(groups.items()):
    adm = [r[1] for r in rows]; over = [a for a in adm if a > 100]
    p99 = [r[3] for r in rows]; loads = [r[4] for r in rows]
    print(f"{group:32s} {rnd:12s} passes={len(rows):3d} over={len(over)} {over} admitted={min(adm)}-{max(adm)}"
          f" (100 in {adm.count(100)}) 503s={sum(r[2] for r in rows)} p99_ms median={statistics.median(p99)}"
          f" ({min(p99)}-{max(p99)}) load={min(loads)}-{max(loads)} (median {statistics.median(loads)})")
    print("    " + " ".join(f"{r[0]}:{r[1]}" for r in sorted(rows)))
