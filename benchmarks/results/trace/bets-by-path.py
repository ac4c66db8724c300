#!/usr/bin/env python3
"""Per pass (a .txt of run-redis-faults.sh with TRACE=1 and the h-trace jar): admitted, and per JVM
the bets by path and those Redis refused (admitted here over Redis's count), from each TRACE line's
at_end counts. Usage: bets-by-path.py FILE... ; prints one line per pass and a total."""
import re, sys
keys = ["share_bet", "covered_bet", "covered_before_answer", "covered_no_in_time",
        "refused_share_bet", "refused_before_answer", "refused_covered_no_in_time",
        "refused_covered_in_time", "no_reply_bet"]
short = {"share_bet": "sh", "covered_bet": "cov", "covered_before_answer": "bef",
         "covered_no_in_time": "noit", "refused_share_bet": "R_sh", "refused_before_answer": "R_bef",
         "refused_covered_no_in_time": "R_noit", "refused_covered_in_time": "R_it",
         "no_reply_bet": "noreply"}
tot = {k: 0 for k in keys}; passes = 0
for f in sys.argv[1:]:
    text = open(f).read()
    m = re.search(r"^RESULT .*?admitted=(\d+)", text, re.M)
    if not m:
        continue
    passes += 1
    load = re.search(r"load ([\d.]+)", text)
    parts = []
    for t in re.finditer(r"^TRACE round=\S+ jvm=(\d) admitted=(\d+) .*?\| at_end: (.*?) \| last", text, re.M):
        c = dict((k, int(v)) for k, v in re.findall(r"(\w+)=(-?\d+)", t.group(3)))
        for k in keys:
            tot[k] += c.get(k, 0)
        parts.append("jvm%s=%s[%s]" % (t.group(1), t.group(2), " ".join(
            "%s=%d" % (short[k], c.get(k, 0)) for k in keys if c.get(k, 0))))
    print("%-14s admitted=%s load=%s %s" % (f.split("/")[-1][:-4], m.group(1),
          load.group(1) if load else "?", " ".join(parts)))
print("TOTAL passes=%d %s" % (passes, " ".join("%s=%d" % (k, tot[k]) for k in keys)))
