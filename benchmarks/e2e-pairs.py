#!/usr/bin/env python3
"""Paired ratios of run-end-to-end.sh's passes: each mode against a base mode in the same pass.

    python3 benchmarks/e2e-pairs.py [--base none] [--against MODE] RESULTS_DIR [RESULTS_DIR ...]

Passes of one run alternate every mode for DURATION seconds, so a pass's ratio (the mode's
requests per second over the base mode's, in the same pass) cancels what moved the machine
between passes; a quiet run still moves a few percent from one pass to the next. For each mode the
table gives the geometric mean of its per-pass ratios with the standard error of the mean of the
log ratios (the "±" of BENCHMARKS.md's paired figures), the range of the ratios, the passes at
0.98 or above, the server's CPU per request (median over passes), and the paired ratio of the
server's CPU per request (geometric mean ± s.e., the mode's over the base mode's in the same pass):
with TOGETHER=1 the modes run through the same seconds, and that ratio is the steadiest reading.
Several directories are pooled pass by pass (a pass is named by its directory and its number).

--against MODE adds the ratio of every mode to MODE as well (e.g. the rule against the filter
sending the same headers, `--against bucket4j-draft`).

--by-round gives each ratio's standard error over rounds instead of passes: the passes of one
round share their JVMs, whose own layout and JIT can move a mode's cost for the whole round, so
the passes' error understates the uncertainty; a round's ratio is the geometric mean of its passes'.
--skip N leaves out each round's first N passes.
"""
import argparse
import math
import os
import re
import statistics
import sys


def passes(directory):
    """{pass name: {mode: (requests per second, server CPU microseconds per request)}}."""
    found = {}
    for name in sorted(os.listdir(directory)):
        m = re.match(r'e2e-.+?-(?P<mode>[a-z0-9-]+)-r(?P<pass>\d+\.\d+)\.txt$', name)
        if not m:
            continue
        text = open(os.path.join(directory, name), encoding='utf-8').read()
        rps = re.search(r'Requests/sec:\s+([\d.]+)', text)
        total = re.search(r'(\d+) requests in ([\d.]+)s', text)
        ticks = re.search(r'server CPU ticks: (\d+)', text)
        if not rps:
            continue
        cpu = None
        if total and ticks and int(total.group(1)) > 0:
            cpu = int(ticks.group(1)) * 10_000.0 / int(total.group(1))
        key = directory.rstrip('/') + ':' + m.group('pass')  # "DIR:ROUND.PASS"
        found.setdefault(key, {})[_mode(name, m)] = (float(rps.group(1)), cpu)
    return found


def _mode(name, match):
    # The app's name may hold dashes (servlet-jakarta): the mode is what the runs file calls it,
    # i.e. the part between the app and "-r<pass>"; strip the known app prefixes.
    stem = name[len('e2e-'):match.start('pass') - 2]
    for app in ('servlet-jakarta', 'servlet-javax', 'spring-boot2', 'spring-boot3', 'spring-boot4',
                'jaxrs-jakarta', 'jaxrs-javax'):
        if stem.startswith(app + '-'):
            return stem[len(app) + 1:]
    return match.group('mode')


def summary(ratios):
    """The geometric mean and the standard error of the mean log ratio."""
    logs = [math.log(r) for r in ratios]
    se = statistics.stdev(logs) / math.sqrt(len(logs)) if len(logs) > 1 else float('nan')
    return math.exp(statistics.fmean(logs)), se


def by_round(pairs):
    """[(pass name, ratio)] -> one ratio per round: the geometric mean of its passes'."""
    rounds = {}
    for name, ratio in pairs:
        rounds.setdefault(name.rsplit('.', 1)[0], []).append(math.log(ratio))
    return [math.exp(statistics.fmean(logs)) for logs in rounds.values()]


def table(all_passes, base, rounds=False):
    modes = sorted({m for p in all_passes.values() for m in p})
    rows = []
    for mode in modes:
        if mode == base:
            continue
        pairs = [(k, p[mode][0] / p[base][0]) for k, p in all_passes.items() if mode in p and base in p]
        if not pairs:
            continue
        ratios = [r for _, r in pairs]
        g, se = summary(by_round(pairs) if rounds else ratios)
        cpus = [p[mode][1] for p in all_passes.values() if mode in p and p[mode][1] is not None]
        cpu_pairs = [(k, p[mode][1] / p[base][1]) for k, p in all_passes.items()
                     if mode in p and base in p and p[mode][1] and p[base][1]]
        cpu_ratios = by_round(cpu_pairs) if rounds else [r for _, r in cpu_pairs]
        cg, cse = summary(cpu_ratios) if cpu_ratios else (float('nan'), float('nan'))
        rows.append((mode, g, se, min(ratios), max(ratios), len(ratios),
                     sum(r >= 0.98 for r in ratios),
                     statistics.median(cpus) if cpus else float('nan'), cg, cse))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--base', default='none')
    parser.add_argument('--against', action='append', default=[])
    parser.add_argument('--by-round', action='store_true')
    parser.add_argument('--skip', type=int, default=0)
    parser.add_argument('dirs', nargs='+')
    args = parser.parse_args()
    all_passes = {}
    for d in args.dirs:
        all_passes.update(passes(d))
    all_passes = {k: v for k, v in all_passes.items() if int(k.rsplit('.', 1)[1]) > args.skip}
    if not all_passes:
        sys.exit('no e2e-*-r<pass>.txt files in ' + ' '.join(args.dirs))
    for base in [args.base] + args.against:
        base_cpu = [p[base][1] for p in all_passes.values() if base in p and p[base][1] is not None]
        print(f'against {base} (server CPU per request {statistics.median(base_cpu):.2f} us, median)'
              if base_cpu else f'against {base}')
        print(f'  {"mode":<18} {"ratio":>7} {"s.e.":>7} {"range":>13} {"passes":>6} {">=0.98":>6}'
              f' {"CPU us/req":>10} {"CPU ratio":>9} {"s.e.":>6}')
        for mode, g, se, low, high, n, above, cpu, cg, cse in table(all_passes, base, args.by_round):
            print(f'  {mode:<18} {g:7.3f} {se:7.3f} {low:6.3f}-{high:6.3f} {n:6d} {above:6d}'
                  f' {cpu:10.2f} {cg:9.3f} {cse:6.3f}')


if __name__ == '__main__':
    main()
