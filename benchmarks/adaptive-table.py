#!/usr/bin/env python3
"""The tables of benchmarks/run-adaptive.sh from its results: adaptive-table.py RES CONFIG...
(RES holds runs.txt and CONFIG-summary.json for each configuration). Markdown on stdout."""
import json, os, sys
res, configs = sys.argv[1], sys.argv[2:]
NO_LIMIT = ('none', 'static', 'static8')
CAPACITY = {'1x': 400, '2x': 400, '4x': 400, '2x-again': 400, 'slow': 200}
print(open(os.path.join(res, 'runs.txt')).read().strip().replace('\n', '  \n'))
print()
print('| configuration | phase | offered/s | goodput/s | of capacity | 2xx p50 ms | 2xx p99 ms | refused/s | refusal p50 / p99 ms | pool timeouts/s | client timeouts + errors /s | settle after the slow-down (s): limit / goodput / 2xx p50 |')
print('|---|---|---|---|---|---|---|---|---|---|---|---|')
f = lambda v, d=1: '-' if v is None else f'{v:,.{d}f}'
goals = []
for c in configs:
    p = os.path.join(res, c + '-summary.json')
    if not os.path.exists(p):
        print(f'| {c} | not run (see runs.txt) | | | | | | | | | | |'); continue
    phases = {x['name']: x for x in json.load(open(p))['phases']}
    unloaded = phases['warm1']['ok_p50_ms']
    for name in ['1x', '2x', '4x', 'slow']:
        x = phases[name]
        settle = ''
        if name == 'slow':
            settle = ' / '.join('n/a' if (k == 'settle_limit_s' and c in NO_LIMIT) else
                                ('never' if x.get(k) is None else f"{x[k]:.1f}")
                                for k in ('settle_limit_s', 'settle_goodput_s', 'settle_p50_s'))
        print(f"| {c} | {name} | {x['due_per_s']:,.0f} | {f(x['goodput'])} | {100 * x['goodput'] / CAPACITY[name]:.0f}% | {f(x['ok_p50_ms'])} | {f(x['ok_p99_ms'])} | {f(x['refused_per_s'])} | {f(x['refused_p50_ms'], 2)} / {f(x['refused_p99_ms'], 2)} | {f(x['pool_timeout_per_s'])} | {f(x['timeout_per_s'] + x['error_per_s'])} | {settle} |")
    x4, xs = phases['4x'], phases['slow']
    # settled: the limit's settle time where the limit is observed (Netflix's, Tollgate's), else
    # the goodput's; and only if the goodput after the change is at least 90% of the new capacity
    # (a limit that settles while the service has collapsed has not settled anything)
    limited = c not in NO_LIMIT
    st = xs.get('settle_limit_s') if limited else xs.get('settle_goodput_s')
    collapsed = xs['goodput'] < 0.9 * CAPACITY['slow']
    ref = x4['refused_p99_ms']
    goals.append((c, unloaded, x4['goodput'] >= 0.9 * 400, x4['ok_p99_ms'] is not None and x4['ok_p99_ms'] <= 2 * unloaded,
                  None if ref is None else ref <= 1.0, st is not None and st <= 10 and not collapsed, st, collapsed,
                  x4, xs))
print()
print('Goals. At 4x: goodput >= 90% of 400/s; 2xx p99 <= 2x the unloaded latency (the 2xx p50 at 200/s); '
      'refusals p99 <= 1 ms. After the slow-down: settled within 10 s (the limit where it is observed, else the '
      'goodput), with a goodput of at least 90% of the new capacity (200/s).')
print()
print('| configuration | unloaded p50 ms | goodput at 4x | 2xx p99 at 4x | refusal p99 at 4x | settled after the slow-down |')
print('|---|---|---|---|---|---|')
yn = lambda b: 'n/a (nothing refused)' if b is None else 'met' if b else 'NOT met'
for c, u, g, p99, r, s, st, collapsed, x4, xs in goals:
    what = 'limit' if c not in NO_LIMIT else 'goodput'
    why = f"{what} {'never' if st is None else f'{st:.1f} s'}" + (f", but goodput {xs['goodput']:.0f}/s" if collapsed else '')
    print(f"| {c} | {u:.1f} | {yn(g)} ({x4['goodput']:.0f}/s) | {yn(p99)} ({f(x4['ok_p99_ms'])} ms) | {yn(r)} ({f(x4['refused_p99_ms'], 2)} ms) | {yn(s)} ({why}) |")
