# h-refusal5: per round and case, CPU ns per request (cpu.time.norm, the median of the last 3
# iterations), the benchmark thread's share of a core (cpu.share, median) and bytes allocated
# (gc.alloc.rate.norm). usage: python3 table.py DIR
import json, sys, glob, re, statistics, collections
rows = collections.OrderedDict()
for f in sorted(glob.glob(sys.argv[1] + '/r*-*.json')):
    r = re.search(r'/r(\d+)-', f).group(1)
    try:
        runs = json.load(open(f))
    except ValueError:
        continue  # a run still going
    for b in runs:
        m = b['benchmark'].split('.')[-1] + ' ' + b['params']['rules']
        sec = b['secondaryMetrics']
        cpu = [x for run in sec['cpu.time.norm']['rawData'] for x in run]
        share = [x for run in sec['cpu.share']['rawData'] for x in run] if 'cpu.share' in sec else [float('nan')]
        alloc = sec['gc.alloc.rate.norm']['score']
        rows.setdefault(m, {})[r] = (statistics.median(cpu[-3:]), statistics.median(share), alloc)
for m, byr in rows.items():
    print(f"{m:34s} " + "  ".join(f"r{r}: {v[0]:7.1f} ns ({100*v[1]:3.0f}% core) {v[2]:4.0f} B" for r, v in sorted(byr.items())))
