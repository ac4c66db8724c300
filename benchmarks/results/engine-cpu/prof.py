#!/usr/bin/env python3
"""Inclusive and self shares from async-profiler collapsed stacks, for the benchmark's thread."""
import sys, collections
path = sys.argv[1]
root = sys.argv[2] if len(sys.argv) > 2 else 'RequestPathBenchmark.tollgate'
stacks = []
for line in open(path):
    s, _, n = line.rstrip().rpartition(' ')
    stacks.append((s.split(';'), int(n)))
total = sum(n for _, n in stacks)
mine = [(f, n) for f, n in stacks if any(root in x for x in f)]
inside = sum(n for _, n in mine)
print(f"total {total} samples; under {root}: {inside} ({100*inside/total:.1f}%)")
incl = collections.Counter(); self_ = collections.Counter()
for f, n in mine:
    i = max(i for i, x in enumerate(f) if root in x)
    sub = f[i+1:]
    seen = set()
    for x in sub:
        k = x.split('(')[0]
        if k not in seen:
            incl[k] += n; seen.add(k)
    if sub:
        self_[sub[-1].split('(')[0]] += n
    else:
        self_['<benchmark method itself>'] += n
print("\ninclusive (>=1.5%):")
for k, v in incl.most_common():
    if v * 100 / inside < 1.5: break
    print(f"  {100*v/inside:5.1f}%  {k[:150]}")
print("\nself (top 40):")
for k, v in self_.most_common(40):
    print(f"  {100*v/inside:5.1f}%  {k[:150]}")
