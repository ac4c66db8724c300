#!/usr/bin/env python3
"""Per QUOTA3 setting and round (from the pass names <TAG>-<RUN>of<PERIOD>-<i>.txt): passes, over the limit,
admitted, 503s, p99 median, load at the start; passes with share bets (the share's while Redis counted silent),
passes with share bets Redis refused (admitted here over Redis's count), the bets by path summed (TRACE lines,
at the flood's end), the silent share's requests held by h-silent's part; JVM 3's throttled periods (QUOTA lines).
Then one line per pass with a share bet or over the limit. Usage: summarize.py DIR"""
import glob, os, re, statistics, sys
d = sys.argv[1]
keys = ["share_bet", "refused_share_bet", "silent_share_held", "covered_bet", "covered_before_answer",
        "covered_no_in_time", "refused_before_answer", "refused_covered_no_in_time", "refused_covered_in_time",
        "no_reply_bet"]
groups, lines = {}, []
for f in sorted(glob.glob(os.path.join(d, '*.txt'))):
    m = re.match(r'([A-Z])-(\d+of\d+|none)-(\d+)\.txt$', os.path.basename(f))
    text = open(f).read()
    r = re.search(r'^RESULT round=(\S+) .*?admitted=(\d+) .*?unavailable=(\d+) .*?p99_ms=(\d+)', text, re.M)
    if not m or not r:
        continue
    load = float(re.search(r'load ([\d.]+)', text).group(1))
    limit = int(re.search(r'LIMIT=(\d+)', text).group(1))
    q = re.search(r'^QUOTA .*?periods=(\d+) throttled_periods=(\d+)', text, re.M)
    g = groups.setdefault((m.group(2).replace('of', '/'), r.group(1), limit), {"rows": [], "tot": {k: 0 for k in keys}})
    per, c3 = [], {}
    for t in re.finditer(r"^TRACE round=\S+ jvm=(\d) admitted=(\d+) .*?\| at_end: (.*?) \| last", text, re.M):
        c = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(-?\d+)", t.group(3)))
        for k in keys:
            g["tot"][k] += c.get(k, 0)
            c3[k] = c3.get(k, 0) + c.get(k, 0)
        per.append("jvm%s=%s[%s]" % (t.group(1), t.group(2), " ".join(
            "%s=%d" % (k, c.get(k, 0)) for k in keys if c.get(k, 0))))
    adm = int(r.group(2))
    g["rows"].append(dict(adm=adm, u=int(r.group(3)), p99=int(r.group(4)), load=load, sh=c3.get("share_bet", 0),
                          rsh=c3.get("refused_share_bet", 0), thr="%s/%s" % (q.group(2), q.group(1)) if q else "-"))
    if c3.get("share_bet", 0) or adm > limit:
        lines.append("%s admitted=%d load=%s throttled=%s %s" % (os.path.basename(f)[:-4], adm, load,
                     g["rows"][-1]["thr"], " ".join(per)))
for (s, rnd, limit), g in sorted(groups.items(), key=lambda kv: (kv[0][1], kv[0][2], int(kv[0][0].split('/')[0]) if '/' in kv[0][0] else 0)):
    rows = g["rows"]; adm = [x["adm"] for x in rows]; loads = [x["load"] for x in rows]
    print(f"{s:9s} {rnd:12s} limit={limit} passes={len(rows)} over={sum(a > limit for a in adm)} admitted={min(adm)}-{max(adm)} "
          f"all={sorted(adm)} 503s={sum(x['u'] for x in rows)} p99 median={statistics.median(x['p99'] for x in rows)} "
          f"load={min(loads)}-{max(loads)} (median {statistics.median(loads)}) "
          f"with_share_bets={sum(x['sh'] > 0 for x in rows)} with_refused_share_bets={sum(x['rsh'] > 0 for x in rows)}")
    print(" " * 22 + " ".join(f"{k}={v}" for k, v in g["tot"].items()))
print()
for l in lines:
    print(l)
