import sys, re, statistics, collections
def ms(v):
    n, u = re.match(r'([\d.]+)(us|ms|s)', v).groups(); return float(n) * {'us': 1e-3, 'ms': 1, 's': 1e3}[u]
rows = collections.defaultdict(list); order = []
for line in open(sys.argv[1]):
    if line.startswith('#'): print(line.strip()); continue
    mode, r, f = line.split(); t = open(f).read()
    rps = float(re.search(r'Requests/sec:\s+([\d.]+)', t).group(1))
    p50 = ms(re.search(r'\s50%\s+(\S+)', t).group(1)); p99 = ms(re.search(r'\s99%\s+(\S+)', t).group(1))
    bad = re.search(r'Non-2xx or 3xx responses: (\d+)', t); errs = re.search(r'Socket errors: (.*)', t)
    reqs = int(re.search(r'(\d+) requests in', t).group(1))
    cpu = re.search(r'server CPU ticks: (\d+) of 1/(\d+) s', t)
    us = 1e6 * int(cpu.group(1)) / int(cpu.group(2)) / reqs if cpu else float('nan')
    jit = re.search(r'JIT compiler threads CPU ticks: (\d+) of 1/(\d+) s', t)
    jus = 1e6 * int(jit.group(1)) / int(jit.group(2)) / reqs if jit else float('nan')
    warm = re.search(r'warm-up: (.*)', t)
    cs = re.search(r'server context switches: (\d+)', t)
    csr = int(cs.group(1)) / reqs if cs else float('nan')
    rows[mode].append((rps, p50, p99, us, us - jus, csr)); order.append(mode) if mode not in order else None
    print(f"{mode:8s} round {r}: {rps:10.0f} req/s  p50 {p50:7.3f} ms  p99 {p99:7.3f} ms  CPU {us:6.1f} us/req"
          + f" (JIT {jus:4.1f})" + f"  switches {csr:5.2f}/req" + (f"  [{warm.group(1)}]" if warm else "")
          + ((f"  refused (429) {bad.group(1)} of {reqs}" if mode.startswith('refused') else f"  NON-2XX {bad.group(1)}") if bad else "") + (f"  socket errors: {errs.group(1)}" if errs else ""))
print()
print(f"| {sys.argv[2]} | req/s (median of rounds) | vs none | p50 ms | vs none | p99 ms | vs none | server CPU µs/req | vs none | of which not JIT | vs none | context switches/req | req/s vs none, round by round |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
base = [statistics.median(x) for x in zip(*rows['none'])] if 'none' in rows else None
for mode in order:
    m = [statistics.median(x) for x in zip(*rows[mode])]
    rel = (lambda i: f"{100*m[i]/base[i]:.1f}%") if base else (lambda i: "-")
    per = (", ".join(f"{100*a[0]/b[0]:.0f}%" for a, b in zip(rows[mode], rows['none']))
           if base and len(rows[mode]) == len(rows['none']) else "-")
    print(f"| {mode} | {m[0]:,.0f} | {rel(0)} | {m[1]:.3f} | {rel(1)} | {m[2]:.3f} | {rel(2)} | {m[3]:.1f} | {rel(3)} | {m[4]:.1f} | {rel(4)} | {m[5]:.2f} | {per} |")
