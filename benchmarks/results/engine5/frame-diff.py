#!/usr/bin/env python3
"""Inclusive µs of server CPU per request by frame, for profile-async.sh runs, side by side.
usage: frame-diff.py A.collapsed:A.txt B.collapsed:B.txt ... [--top N] [--match SUBSTR]
Each run's frames: share of its samples (a sample counts once per frame name) times the server's
CPU per request that run's .txt reports (its first line), so runs of different load compare as
µs per request. Prints the frames whose spread across the runs is largest."""
import collections, re, sys
args = [a for a in sys.argv[1:] if not a.startswith('--')]
top = 40; match = None
for i, a in enumerate(sys.argv):
    if a == '--top': top = int(sys.argv[i + 1])
    if a == '--match': match = sys.argv[i + 1]
args = [a for a in args if ':' in a]
runs = []
for a in args:
    col, txt = a.split(':')
    cpu = float(re.search(r'server CPU ([0-9.]+)', open(txt).readline()).group(1))
    inc = collections.Counter(); total = 0
    for line in open(col):
        s, _, n = line.rstrip().rpartition(' ')
        n = int(n); total += n
        for f in set(s.split(';')):
            inc[f] += n
    runs.append((col.split('/')[-1].replace('.collapsed', ''), {f: cpu * n / total for f, n in inc.items()}, cpu))
names = set().union(*(r[1] for r in runs))
if match:
    names = {n for n in names if match in n}
rows = sorted(names, key=lambda f: -(max(r[1].get(f, 0) for r in runs) - min(r[1].get(f, 0) for r in runs)))[:top]
print('| frame | ' + ' | '.join(r[0] for r in runs) + ' |')
print('| cpu/req | ' + ' | '.join(f'{r[2]:.2f}' for r in runs) + ' |')
for f in rows:
    print(f'| {f[-90:]} | ' + ' | '.join(f'{r[1].get(f, 0):.3f}' for r in runs) + ' |')
