#!/usr/bin/env python3
"""DecisionBenchmark.tollgate rounds (decision-rounds.sh) tabled: the process's CPU ns per decision
(cpu.time.norm, median of the last 3 iterations), the benchmark thread's own (cpu.worker.norm), and
the JMH JVM's share of a core, per JSON file of the directory given."""
import json, glob, os, statistics, sys
for p in sorted(glob.glob(os.path.join(sys.argv[1], '*.json'))):
    try:
        data = json.load(open(p))
    except ValueError:
        continue
    for r in data:
        sec = r['secondaryMetrics']
        raw = [x for f in sec['cpu.time.norm']['rawData'] for x in f]
        w = [x for f in sec.get('cpu.worker.norm', {}).get('rawData', [[]]) for x in f]
        print(f"{os.path.basename(p)[:-5]:10s} {r['params']['load']:8s} cpu(last3) {statistics.median(raw[-3:]):6.1f}"
              f"  worker(last3) {statistics.median(w[-3:]) if w else float('nan'):6.1f}"
              f"  alloc {sec['gc.alloc.rate.norm']['score']:.1f} B  share {sec['cpu.share']['score']:.2f}")
