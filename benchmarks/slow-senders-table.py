#!/usr/bin/env python3
"""The table of benchmarks/run-slow-senders.sh, from the RESULT lines of its output file.

    python3 benchmarks/slow-senders-table.py benchmarks/results/slow-senders.txt

Per mode and round: the legitimate clients' 2xx, 429 and 503 without the attack, during it and
after it; the share of their requests answered 2xx during the attack (what the machine's speed
does not move); and the attack phase's 2xx against the same mode's quiet phase and against the
no-agent run under the same attack in the same round (issue 28's goal: at least 80%). Then the
same summed over the rounds. On a busy machine a phase's count moves by 2-5x from one phase to
the next, so read the share and the sums before a single round's ratio.
"""
import re
import sys

PATTERN = re.compile(r'RESULT (\S+)/r(\d+) phase=(\S+) seconds=(\S+) ok=(\d+) r429=(\d+)'
                     r' r503=(\d+) other=(\d+) errors=(\d+)')


def read(path):
    rows = {}
    modes = []
    for line in open(path):
        m = PATTERN.match(line)
        if m:
            mode, rnd, phase = m.group(1), int(m.group(2)), m.group(3)
            ok, r429, r503, other, errors = (int(x) for x in m.group(5, 6, 7, 8, 9))
            rows[(mode, rnd, phase)] = {'ok': ok, '429': r429, '503': r503,
                                        'all': ok + r429 + r503 + other + errors}
            if mode not in modes:
                modes.append(mode)
    return rows, modes


def percent(a, b):
    return '%.0f%%' % (100.0 * a / b) if b else '-'


def summed(rows, mode, rounds, phase):
    cells = [rows[(mode, r, phase)] for r in rounds if (mode, r, phase) in rows]
    return {k: sum(c[k] for c in cells) for k in ('ok', '429', '503', 'all')} if cells else None


def main(path):
    rows, modes = read(path)
    rounds = sorted({r for (_, r, _) in rows})
    print()
    print('| mode | round | quiet: 2xx / 429 / 503 | attack: 2xx / 429 / 503 | after: 2xx'
          ' | 2xx share during the attack | attack / quiet | attack / none\'s attack |')
    print('|---|---|---|---|---|---|---|---|')
    for mode in modes:
        for r in rounds + ['all']:
            if r == 'all':
                if len(rounds) < 2:
                    continue
                both = [x for x in rounds
                        if (mode, x, 'attack') in rows and ('none', x, 'attack') in rows]
                q, a, f = (summed(rows, mode, both, p) for p in ('quiet', 'attack', 'after'))
                n = summed(rows, 'none', both, 'attack')
            else:
                q, a, f, n = (rows.get(k) for k in
                              ((mode, r, 'quiet'), (mode, r, 'attack'), (mode, r, 'after'),
                               ('none', r, 'attack')))
            if not (q and a):
                continue
            print('| %s | %s | %d / %d / %d | %d / %d / %d | %s | %s | %s | **%s** |' % (
                mode, r, q['ok'], q['429'], q['503'], a['ok'], a['429'], a['503'],
                f['ok'] if f else '-', percent(a['ok'], a['all']), percent(a['ok'], q['ok']),
                percent(a['ok'], n['ok']) if n else '-'))


if __name__ == '__main__':
    main(sys.argv[1])
