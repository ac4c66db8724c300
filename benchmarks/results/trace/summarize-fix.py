#!/usr/bin/env python3
"""Per group (D-fix, D-main, E-fix, E-main): passes, over the limit, admitted, 503s, p99 median (range), load at the
start; then each pass's bets by path (bets-by-path.py). Usage: summarize-fix.py DIR"""
import glob, os, re, statistics, sys
d = sys.argv[1]
groups = {}
for f in sorted(glob.glob(os.path.join(d, '[DE]-*.txt'))):
    m = re.match(r'([DE]-(?:fix|main))-(\d+)\.txt$', os.path.basename(f))
    text = open(f).read()
    r = re.search(r'^RESULT round=(\S+) .*?admitted=(\d+) .*?unavailable=(\d+) .*?p99_ms=(\d+)', text, re.M)
    if not m or not r:
        continue
    load = float(re.search(r'load ([\d.]+)', text).group(1))
    groups.setdefault((m.group(1), r.group(1)), []).append((int(r.group(2)), int(r.group(3)), int(r.group(4)), load))
for (g, rnd), rows in sorted(groups.items()):
    adm = [x[0] for x in rows]; p99 = [x[2] for x in rows]; loads = [x[3] for x in rows]
    over = [a for a in adm if a > 100]
    print(f"{g:8s} {rnd:12s} passes={len(rows)} over={len(over)} {over} admitted={min(adm)}-{max(adm)} "
          f"(100 in {adm.count(100)}) all={sorted(adm)} 503s={sum(x[1] for x in rows)} p99 median={statistics.median(p99)} "
          f"({min(p99)}-{max(p99)}) load={min(loads)}-{max(loads)} (median {statistics.median(loads)})")
