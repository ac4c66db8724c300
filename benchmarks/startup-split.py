#!/usr/bin/env python3
"""What any agent pays and what is Tollgate's, from one run of run-startup.sh with EMPTY=1 (and
EMPTY_PLAIN=1): per round, the differences empty - none (the floor of an agent that registers a
transformer which changes nothing), empty-jar - empty (Tollgate's jar on the class path and the
bootstrap class path, none of its code run), agent - empty-jar (Tollgate's code), agent - empty,
empty-plain - none and empty - empty-plain (what being able to retransform costs), for the wall to the first 200, the
JVM's CPU and each thread group's CPU at the first 200 (startup-threads.txt); medians over the
rounds, the range, and in how many rounds the difference was below zero. Same-round differences:
the modes of a round ran one after another, so they share the machine's load.
Usage: benchmarks/startup-split.py RES_DIR [APP]"""
import collections, statistics, sys

res = sys.argv[1]
app = sys.argv[2] if len(sys.argv) > 2 else 'spring-boot3'
rows = collections.defaultdict(dict)  # round -> mode -> {measure: value}
for line in open(f'{res}/startup.txt'):
    if line.startswith('#') or not line.strip():
        continue
    f = line.split()
    if f[0] != app:
        continue
    rows[f[2]].setdefault(f[1], {}).update({'wall': int(f[3]), 'jvm_cpu': int(f[4])})
for line in open(f'{res}/startup-threads.txt'):
    f = line.split()
    if len(f) < 4 or f[0] != app or f[2] == '0':
        continue
    for kv in f[3:]:
        k, v = kv.split('=')
        rows[f[2]].setdefault(f[1], {})[k] = int(v)
measures = ['wall', 'jvm_cpu', 'main', 'compiler', 'gc', 'request', 'agent', 'other']
pairs = [('empty', 'none'), ('empty-boot', 'empty'), ('empty-jar', 'empty-boot'), ('empty-jar', 'empty'), ('agent', 'empty-jar'), ('agent', 'empty'),
         ('agent', 'none'), ('empty-plain', 'none'), ('empty', 'empty-plain')]
modes = sorted({m for r in rows.values() for m in r})
print(f'{app}: {len(rows)} rounds; medians by mode (ms)')
print('| mode | ' + ' | '.join(measures) + ' |')
print('|---' * (len(measures) + 1) + '|')
for m in modes:
    vals = [statistics.median([r[m][k] for r in rows.values() if m in r and k in r[m]] or [0])
            for k in measures]
    print(f'| {m} | ' + ' | '.join(f'{v:.0f}' for v in vals) + ' |')
print()
print('same-round differences: median (min to max), rounds below zero')
print('| difference | ' + ' | '.join(measures) + ' |')
print('|---' * (len(measures) + 1) + '|')
for a, b in pairs:
    if a not in modes or b not in modes:
        continue
    cells = []
    for k in measures:
        d = [r[a][k] - r[b][k] for r in rows.values() if a in r and b in r and k in r[a] and k in r[b]]
        if not d:
            cells.append('-')
            continue
        cells.append(f'{statistics.median(d):+.0f} ({min(d):+d} to {max(d):+d}), {sum(x < 0 for x in d)}/{len(d)}')
    print(f'| {a} - {b} | ' + ' | '.join(cells) + ' |')
