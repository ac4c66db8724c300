#!/usr/bin/env python3
"""Per round of run-redis-faults.sh's dead-behind-proxy / unreachable passes (TRACE=1): over the
passes' JVMs, when on-failure first decided after the fault (and after the last answer as the
path-trace printed it), the decisions by the share and by on-failure during the outage, what the
flood got admitted in the outage's first 5 s (wall seconds +0..+4 from the fault) and after them,
and how long after the restart Redis decided again. Usage: summarize-bound.py bound-*.txt"""
import re, statistics, sys
rows = {}
for path in sys.argv[1:]:
    mode = "batched" if "-true-" in path else "a call per decision"
    for line in open(path):
        if line.startswith("BOUND "):
            d = dict(re.findall(r"(\w+)=(-?\d+)", line))
            r = re.search(r"round=(\S+)", line).group(1)
            after = re.search(r"after the last answer: (-?\d+)", line)
            rows.setdefault((r, mode), {"b": [], "s": []})["b"].append(
                (int(d["first_on_failure_ms"]), int(after.group(1)) if after else None,
                 int(d["by_share"]), int(d["by_on_failure"]), int(d["redis_again_after_back_ms"])))
        elif line.startswith("SECONDS "):
            r = re.search(r"round=(\S+)", line).group(1)
            secs = {int(s): tuple(map(int, v.split("/"))) for s, v in re.findall(r" ([+-]\d+):(\S+)", line)}
            first5 = [secs.get(s, (0, 0, 0, 0)) for s in range(0, 5)]
            rows[(r, mode)]["s"].append((sum(x[0] for x in first5), sum(x[1] for x in first5),
                                         sum(x[3] for x in first5)))
def rng(v):
    v = [x for x in v if x is not None]
    return "%d (%d-%d)" % (statistics.median(v), min(v), max(v)) if v else "-"
print("round | mode | JVMs | on-failure first, ms after the fault | after the last answer | by the share | by on-failure | admitted in +0..+4 s (of them by on-failure) | 503 in +0..+4 s | Redis again after the restart, ms")
for (r, mode), v in sorted(rows.items()):
    b, s = v["b"], v["s"]
    print(" | ".join([r, mode, str(len(b)), rng([x[0] for x in b]), rng([x[1] for x in b]),
        rng([x[2] for x in b]), rng([x[3] for x in b]),
        "%s (%s)" % (rng([x[0] for x in s]), rng([x[1] for x in s])), rng([x[2] for x in s]),
        rng([x[4] for x in b])]))
