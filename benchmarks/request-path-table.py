#!/usr/bin/env python3
"""RequestPathBenchmark rounds tabled: CPU ns per op (median of the last 3 iterations of cpu.time.norm) and B/op per case, per JSON file of the directory given (benchmarks/request-path-rounds.sh writes them)."""
import json, sys, statistics, glob, os, re
d = sys.argv[1]
rows = {}
for path in sorted(glob.glob(os.path.join(d, '*.json'))):
    name = os.path.basename(path)[:-5]
    m = re.match(r'(before|after|[a-z0-9]+)-r(\d+)(-filter|-draft)?$', name)
    try:
        data = json.load(open(path))
    except Exception:
        continue
    for r in data:
        case = ('filter' if r['benchmark'].endswith('bucket4jFilter')
                else 'filter-draft-headers' if r['benchmark'].endswith('bucket4jFilterDraftHeaders')
                else r['params']['rules'])
        sec = r['secondaryMetrics']
        raw = [x for fork in sec['cpu.time.norm']['rawData'] for x in fork]
        cpu = statistics.median(raw[-3:])
        w = [x for fork in sec.get("cpu.worker.norm", {}).get("rawData", [[]]) for x in fork]
        wcpu = statistics.median(w[-3:]) if w else float("nan")
        allcpu = statistics.median(raw)
        alloc = sec['gc.alloc.rate.norm']['score']
        share = sec['cpu.share']['score']
        rows.setdefault(case, []).append((name, cpu, allcpu, alloc, share, r["primaryMetric"]["score"], wcpu))
for case, vals in rows.items():
    print(case)
    for v in vals:
        print(f"  {v[0]:18s} cpu(last3) {v[1]:8.1f}  cpu(all) {v[2]:8.1f}  worker {v[6]:8.1f}  alloc {v[3]:6.1f} B  share {v[4]:.2f}  wall {v[5]:8.1f}")
