#!/usr/bin/env python3
"""Per pass (its -bets.log: the agents' late-bets lines), the share's bets while Redis was counted silent
([share ...] entries), split by what the instance had heard of the key: never answered (answered_ago_ms=-1: the
key's first calls, the share's as before h-silent) or after a grant (the L-6 / L-11 case: a grant saying `remaining`
left, then silence); for those after a grant the grants' remaining, share_left, answered_ago_ms and sent_ago_ms
ranges. Counts every bet in the logs, also those decided after the flood's end (the quota lifted, wrk gone: requests
JVM 3 still held), which the TRACE lines' at_end counts leave out (K-10of1000-1's 4). Usage: share-bets.py FILE-bets.log..."""
import re, sys
for f in sys.argv[1:]:
    never, after = {}, {}
    for line in open(f):
        if "late-bets" not in line:
            continue
        jvm = re.search(r"jvm(\d)\.log", line).group(1)
        for e in re.findall(r"\[share (call=[^\]]*)\]", line):
            kv = dict(re.findall(r"(\w+)=(-?\w+)", e))
            if kv["answered_ago_ms"] == "-1":
                never[jvm] = never.get(jvm, 0) + 1
            else:
                after.setdefault(jvm, []).append(kv)
    if not never and not after:
        continue
    parts = []
    for jvm in sorted(set(never) | set(after)):
        a = after.get(jvm, [])
        rng = lambda k: "%s-%s" % (min(int(x[k]) for x in a), max(int(x[k]) for x in a)) if a else "-"
        parts.append("jvm%s: never_answered=%d after_grant=%d%s" % (jvm, never.get(jvm, 0), len(a),
            " (remaining %s, share_left %s, answered_ago_ms %s, sent_ago_ms %s)" % (
                rng("remaining"), rng("share_left"), rng("answered_ago_ms"), rng("sent_ago_ms")) if a else ""))
    print("%-16s %s" % (f.split("/")[-1][:-9], "; ".join(parts)))
