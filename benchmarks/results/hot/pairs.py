#!/usr/bin/env python3
"""Per-pass paired ratios of run-end-to-end.sh's ALTERNATE passes (same round, same pass = same
minute): geometric mean of each ratio of requests/s, ± standard error of the log ratio, and the
server's CPU per request (µs, medians). Usage: pairs.py RESULTS_DIR [APP]"""
import glob, math, os, re, statistics, sys

res, app = sys.argv[1], (sys.argv[2] if len(sys.argv) > 2 else 'servlet-jakarta')
passes = {}
for f in glob.glob(os.path.join(res, f'e2e-{app}-*-r*.*.txt')):
    m = re.match(rf'e2e-{app}-(.+)-r(\d+)\.(\d+)\.txt$', os.path.basename(f))
    if not m:
        continue
    text = open(f).read()
    rps = re.search(r'Requests/sec:\s+([\d.]+)', text)
    n = re.search(r'(\d+) requests in', text)
    cpu = re.search(r'server CPU ticks: (\d+)', text)
    if rps and n and cpu:
        passes.setdefault((int(m.group(2)), int(m.group(3))), {})[m.group(1)] = (
            float(rps.group(1)), int(cpu.group(1)) * 1e4 / int(n.group(1)))
modes = sorted({mode for p in passes.values() for mode in p})
print(f'{len(passes)} passes; modes {modes}')
for mode in modes:
    us = [p[mode][1] for p in passes.values() if mode in p]
    print(f'  {mode:16s} server CPU per request: median {statistics.median(us):.2f} µs '
          f'(range {min(us):.2f}-{max(us):.2f})')
pairs = [('rule', 'none'), ('rule-baseline', 'none'), ('bucket4j-draft', 'none'),
         ('rule', 'bucket4j-draft'), ('rule-baseline', 'bucket4j-draft'), ('rule', 'rule-baseline')]
for a, b in pairs:
    logs = [math.log(p[a][0] / p[b][0]) for p in passes.values() if a in p and b in p]
    if len(logs) < 2:
        continue
    mean = statistics.mean(logs)
    se = statistics.stdev(logs) / math.sqrt(len(logs))
    above = sum(1 for x in logs if x >= 0)
    print(f'  {a:>14s} / {b:<14s} {math.exp(mean):.3f} ± {se:.3f} over {len(logs)} passes '
          f'(range {math.exp(min(logs)):.3f}-{math.exp(max(logs)):.3f}; at or above 1: {above})')
