# h-refusal5: server CPU per request (and without the JIT's) of each run of an end-to-end results
# directory, and each refused run over the allowed run of the same build in the same round.
# usage: python3 pairs.py RESULTS_DIR [APP]
import sys, re, collections
d = sys.argv[1]; app = sys.argv[2] if len(sys.argv) > 2 else 'servlet-jakarta'
runs = collections.defaultdict(dict)
for line in open(f"{d}/e2e-{app}-runs.txt"):
    if line.startswith('#'): continue
    mode, r, f = line.split(); t = open(f).read()
    reqs = int(re.search(r'(\d+) requests in', t).group(1))
    cpu = re.search(r'server CPU ticks: (\d+) of 1/(\d+) s', t); jit = re.search(r'JIT compiler threads CPU ticks: (\d+) of 1/(\d+) s', t)
    us = 1e6 * int(cpu.group(1)) / int(cpu.group(2)) / reqs; jus = 1e6 * int(jit.group(1)) / int(jit.group(2)) / reqs
    settled = 'never settled' not in t
    runs[r][mode] = (us, us - jus, reqs / 15.0, settled)
for r in sorted(runs):
    print(f"round {r}: " + "  ".join(f"{m} {v[0]:.1f} ({v[1]:.1f} not JIT){'' if v[3] else ' UNSETTLED'}" for m, v in runs[r].items()))
    for refused, rule in (('refused', 'rule'), ('refused-baseline', 'rule-baseline')):
        if refused in runs[r] and rule in runs[r]:
            a, b = runs[r][refused], runs[r][rule]
            print(f"   {refused}/{rule}: {a[0]/b[0]:.2f} (not JIT {a[1]/b[1]:.2f})")
