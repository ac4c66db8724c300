#!/usr/bin/env python3
"""Per pass of the busy ladder (TRACE=1): admitted of the limit and 503s per round, and the
late-reply ledger's covered bets (and those Redis refused at their replies, approximately:
late_refusal_admitted_here) summed over the three JVMs' last TRACE counts of the round's key.
Usage: summarize-ladder.py ladder-*.txt"""
import re, sys
for path in sorted(sys.argv[1:], key=lambda p: (("true" in p), int(re.search(r"-(\d+)\.txt$", p).group(1)))):
    head = open(path).readline()
    load = re.search(r"load ([\d.]+)", head).group(1)
    out = []
    cur = None
    bets = {}
    for line in open(path):
        if line.startswith("RESULT "):
            cur = re.search(r"round=(\S+)", line).group(1)
            d = dict(re.findall(r"(\w+)=(\d+)", line))
            out.append([cur, d["admitted"], d["unavailable"]])
            bets[cur] = [0, 0]
        elif line.startswith("TRACE ") and cur:
            last = line.split("| last:")[-1]
            t = dict(re.findall(r"(\w+)=(\d+)", last))
            bets[cur][0] += int(t.get("covered_bet", 0))
            bets[cur][1] += int(t.get("late_refusal_admitted_here", 0))
    print("%s load=%s %s" % (path.split("/")[-1][:-4], load, "  ".join(
        "%s=%s (503 %s, covered %d, refused-at-reply %d)" % (r, a, u, bets[r][0], bets[r][1]) for r, a, u in out)))
