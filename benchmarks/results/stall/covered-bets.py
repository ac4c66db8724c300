#!/usr/bin/env python3
"""Per pass and JVM, every bet in the agents' late-bets lines by path (share, before_answer, covered_in_time,
covered_no_in_time), and the share's bets after a grant apart. Usage: covered-bets.py FILE-bets.log..."""
import re, sys
for f in sys.argv[1:]:
    per = {}
    for line in open(f):
        if "late-bets" not in line:
            continue
        jvm = re.search(r"jvm(\d)\.log", line).group(1)
        for path, e in re.findall(r"\[([a-z_]+) (call=[^\]]*)\]", line):
            c = per.setdefault(jvm, {})
            c[path] = c.get(path, 0) + 1
            if path == "share" and "answered_ago_ms=-1" not in e:
                c["share_after_grant"] = c.get("share_after_grant", 0) + 1
    if per:
        print("%-14s %s" % (f.split("/")[-1][:-9], "; ".join("jvm%s: %s" % (j, " ".join(
            "%s=%d" % kv for kv in sorted(per[j].items()))) for j in sorted(per))))
