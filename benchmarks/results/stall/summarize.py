#!/usr/bin/env python3
"""h-stall's passes (names <TAG>-<fix|main>-<i>.txt, stream.sh): per round, limit, JVM 3's quota and jar: passes,
over the limit (for LIMIT=1000: above the control's 1002), admitted, 503s, p99 median and range, load at the start;
passes with share bets and with share bets Redis refused (TRACE at_end, all JVMs), the bets by path summed; the event
loop barrier's counts from each JVM's last path-trace line (-bets.log; the fix's jar only): waits, ms waited, the
longest, and how often the loop had not run within the bound (not_run), all JVMs and JVM 3 apart.
Then one line per pass with a share bet or over. Usage: summarize.py DIR"""
import glob, os, re, statistics, sys
d = sys.argv[1]
keys = ["share_bet", "refused_share_bet", "silent_share_held", "covered_bet", "covered_before_answer",
        "covered_no_in_time", "refused_before_answer", "refused_covered_no_in_time", "refused_covered_in_time",
        "no_reply_bet"]
bk = ["waited", "waited_ms", "longest_ms", "not_run"]
groups, lines = {}, []
for f in sorted(glob.glob(os.path.join(d, '*.txt'))):
    m = re.match(r'([A-Z]+)-(fix|main)-(\d+)\.txt$', os.path.basename(f))
    text = open(f).read()
    r = re.search(r'^RESULT round=(\S+) .*?admitted=(\d+) .*?unavailable=(\d+) .*?p99_ms=(\d+)', text, re.M)
    if not m or not r:
        continue
    load = float(re.search(r'load ([\d.]+)', text).group(1))
    limit = int(re.search(r'LIMIT=(\d+)', text).group(1))
    quota = re.search(r'QUOTA3=(\S*)', text)
    quota = quota.group(1) if quota and quota.group(1) else "none"
    over_at = 1002 if limit == 1000 else limit
    g = groups.setdefault((r.group(1), limit, quota, m.group(2)),
                          {"rows": [], "tot": {k: 0 for k in keys}, "bar": {k: 0 for k in bk}, "bar3": {k: 0 for k in bk}})
    per, c3 = [], {}
    for t in re.finditer(r"^TRACE round=\S+ jvm=(\d) admitted=(\d+) .*?\| at_end: (.*?) \| last", text, re.M):
        c = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(-?\d+)", t.group(3)))
        for k in keys:
            g["tot"][k] += c.get(k, 0)
            c3[k] = c3.get(k, 0) + c.get(k, 0)
        per.append("jvm%s=%s[%s]" % (t.group(1), t.group(2), " ".join(
            "%s=%d" % (k, c.get(k, 0)) for k in keys if c.get(k, 0))))
    bets = f[:-4] + "-bets.log"
    bar = ""
    if os.path.exists(bets):
        for line in open(bets):
            b = re.search(r"jvm(\d)\.log.*loop_barrier: waited=(\d+) waited_ms=(\d+) longest_ms=(\d+) not_run=(\d+)", line)
            if b:
                v = [int(x) for x in b.groups()[1:]]
                for tgt in (g["bar"], g["bar3"]) if b.group(1) == "3" else (g["bar"],):
                    for k, x in zip(bk, v):
                        tgt[k] = max(tgt[k], x) if k == "longest_ms" else tgt[k] + x
                bar += " barrier_jvm%s=%s" % (b.group(1), "/".join(map(str, v)))
    adm = int(r.group(2))
    g["rows"].append(dict(adm=adm, u=int(r.group(3)), p99=int(r.group(4)), load=load, sh=c3.get("share_bet", 0),
                          rsh=c3.get("refused_share_bet", 0), over=adm > over_at))
    if c3.get("share_bet", 0) or adm > over_at:
        lines.append("%s admitted=%d load=%s %s%s" % (os.path.basename(f)[:-4], adm, load, " ".join(per), bar))
for (rnd, limit, quota, jar), g in sorted(groups.items()):
    rows = g["rows"]; adm = [x["adm"] for x in rows]; loads = [x["load"] for x in rows]; p99 = [x["p99"] for x in rows]
    print(f"{rnd:12s} limit={limit} quota={quota} {jar:4s} passes={len(rows)} over={sum(x['over'] for x in rows)} "
          f"admitted={min(adm)}-{max(adm)} all={sorted(adm)} 503s={sum(x['u'] for x in rows)} "
          f"p99 median={statistics.median(p99)} ({min(p99)}-{max(p99)}) "
          f"load={min(loads)}-{max(loads)} (median {statistics.median(loads)}) "
          f"with_share_bets={sum(x['sh'] > 0 for x in rows)} with_refused_share_bets={sum(x['rsh'] > 0 for x in rows)}")
    print(" " * 13 + " ".join(f"{k}={v}" for k, v in g["tot"].items()))
    if jar == "fix":
        print(" " * 13 + "loop_barrier all JVMs: " + " ".join(f"{k}={v}" for k, v in g["bar"].items())
              + "; JVM 3: " + " ".join(f"{k}={v}" for k, v in g["bar3"].items()))
print()
for l in lines:
    print(l)
