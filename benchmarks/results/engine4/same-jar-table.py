#!/usr/bin/env python3
"""same-jar-rounds.sh's directory tabled: per method and round, the process's CPU ns per op (median
of the last 3 iterations of cpu.time.norm), B/op, the JMH JVM's share of a core."""
import json, sys, statistics, glob, os, re, collections
rows = collections.OrderedDict()
for path in sorted(glob.glob(os.path.join(sys.argv[1], 'r*-*.json'))):
    m = re.match(r'r(\d+)-(.+)\.json$', os.path.basename(path))
    try:
        data = json.load(open(path))
    except Exception:
        continue
    for r in data:
        sec = r['secondaryMetrics']
        raw = [x for fork in sec['cpu.time.norm']['rawData'] for x in fork]
        rows.setdefault((m.group(2), r['params']['rules']), []).append(
            (int(m.group(1)), statistics.median(raw[-3:]), sec['gc.alloc.rate.norm']['score'],
             sec['cpu.share']['score']))
for (method, rules), vals in rows.items():
    vals.sort()
    print(f"{method:40s} {rules:10s} " + "  ".join(
        f"r{v[0]} {v[1]:7.1f} ns {v[2]:5.0f} B ({v[3]:.2f})" for v in vals))
