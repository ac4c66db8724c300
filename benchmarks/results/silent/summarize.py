#!/usr/bin/env python3
"""Per group (<TAG>-fix, <TAG>-main): passes, over the limit, admitted, 503s, p99 median (range), load at the
start; then, per group, the bets by path summed over its passes' TRACE lines (at the flood's end) and those Redis
refused (admitted here over Redis's count), and the silent share's requests held by h-silent's cap. And one line per
pass that went over. Usage: summarize.py DIR"""
import glob, os, re, statistics, sys
d = sys.argv[1]
keys = ["share_bet", "covered_bet", "covered_before_answer", "covered_no_in_time", "refused_share_bet",
        "refused_before_answer", "refused_covered_no_in_time", "refused_covered_in_time", "no_reply_bet",
        "silent_share_held"]
groups, bets, overs = {}, {}, []
for f in sorted(glob.glob(os.path.join(d, '*-*-*.txt'))):
    m = re.match(r'([A-Z]-(?:fix|main))-(\d+)\.txt$', os.path.basename(f))
    text = open(f).read()
    r = re.search(r'^RESULT round=(\S+) .*?admitted=(\d+) .*?unavailable=(\d+) .*?p99_ms=(\d+)', text, re.M)
    if not m or not r:
        continue
    load = float(re.search(r'load ([\d.]+)', text).group(1))
    g = (m.group(1), r.group(1))
    groups.setdefault(g, []).append((int(r.group(2)), int(r.group(3)), int(r.group(4)), load))
    tot = bets.setdefault(g, {k: 0 for k in keys})
    per = []
    for t in re.finditer(r"^TRACE round=\S+ jvm=(\d) admitted=(\d+) .*?\| at_end: (.*?) \| last", text, re.M):
        c = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(-?\d+)", t.group(3)))
        for k in keys:
            tot[k] += c.get(k, 0)
        per.append("jvm%s=%s[%s]" % (t.group(1), t.group(2), " ".join(
            "%s=%d" % (k, c.get(k, 0)) for k in keys if c.get(k, 0))))
    if int(r.group(2)) > 100:
        overs.append("%s admitted=%s load=%s %s" % (os.path.basename(f)[:-4], r.group(2), load, " ".join(per)))
for (g, rnd), rows in sorted(groups.items()):
    adm = [x[0] for x in rows]; p99 = [x[2] for x in rows]; loads = [x[3] for x in rows]
    over = [a for a in adm if a > 100]
    print(f"{g:8s} {rnd:12s} passes={len(rows)} over={len(over)} {over} admitted={min(adm)}-{max(adm)} "
          f"(100 in {adm.count(100)}) all={sorted(adm)} 503s={sum(x[1] for x in rows)} p99 median={statistics.median(p99)} "
          f"({min(p99)}-{max(p99)}) load={min(loads)}-{max(loads)} (median {statistics.median(loads)})")
print()
for (g, rnd), tot in sorted(bets.items()):
    print(f"{g:8s} {rnd:12s} " + " ".join(f"{k}={v}" for k, v in tot.items()))
print()
for o in overs:
    print("over:", o)
