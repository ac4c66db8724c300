import sys, statistics, collections
rows = collections.defaultdict(dict)
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    f = line.split()
    app, mode, rnd, ms = f[0], f[1], int(f[2]), int(f[3]); cpu = int(f[4]) if len(f) > 4 else None
    rows[(app, rnd)][mode] = (ms, cpu)
apps = sorted({a for a, _ in rows})
for app in apps:
    rs = sorted(r for a, r in rows if a == app)
    print(f"## {app}: {len(rs)} rounds")
    for what, idx in (('wall ms', 0), ('JVM CPU ms', 1)):
        for a, b in (('agent', 'none'), ('before', 'none'), ('agent', 'before')):
            d = [rows[(app, r)][a][idx] - rows[(app, r)][b][idx] for r in rs if a in rows[(app, r)] and b in rows[(app, r)]]
            if d: print(f"  {what}: {a} - {b} per round: median {statistics.median(d):+.0f} (range {min(d):+d} to {max(d):+d}) [{' '.join(f'{x:+d}' for x in d)}]")
        for m in ('none', 'agent', 'before'):
            v = [rows[(app, r)][m][idx] for r in rs if m in rows[(app, r)]]
            if v: print(f"  {what} {m}: median {statistics.median(v):.0f} ({min(v)}-{max(v)})")
