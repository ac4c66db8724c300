#!/usr/bin/env python3
"""Who decided an agent's decisions around an outage, from its path-trace lines (TRACE=1).

Usage: redis-fault-timeline.py LOG FAULT_MS BACK_MS
  LOG       an agent's log with DecisionPathTrace's lines (-Dtollgate.test.late-trace=true),
            cumulative counts printed every 250 ms while they change, each with its ms= time
  FAULT_MS  when the outage began (epoch ms: Redis killed, or the proxy stopped listening)
  BACK_MS   when it ended (Redis started again, or the proxy listening again)

Prints one line: the decisions made during the outage by Redis, by the rule's local share and by
on-failure; when the last answer before the outage and the first on-failure decision came,
relative to FAULT_MS (to a print's 250 ms); and how long after BACK_MS Redis answered again.
The paths (DecisionPathTrace.Path) are grouped as RedisBackend decides them: by the share
(RECONNECTING, LOST, SLOW, BUSY) or by on-failure (the breaker open, UNREACHABLE).
"""
import re
import sys

REDIS = ("answered",)
SHARE = ("not_connected_by_timeout", "not_connected_by_reconnect_wait", "rejected_past_deadline",
         "lost_with_connection", "late", "not_sent_busy")
ON_FAILURE = ("circuit_open", "not_connected_breaker", "rejected_reconnect_failed",
              "unreachable_other")


def points(log):
    """(ms, {path: count}) of every path-trace line, the single and batched counts summed."""
    out = []
    for line in open(log, errors="replace"):
        m = re.search(r"path-trace ms=(\d+) single:(.*) batched:(.*) other=", line)
        if not m:
            continue
        counts = {}
        for part in (m.group(2), m.group(3)):
            for k, v in re.findall(r"(\w+)=(\d+)", part):
                counts[k] = counts.get(k, 0) + int(v)
        out.append((int(m.group(1)), counts))
    return out


def total(counts, paths):
    return sum(counts.get(p, 0) for p in paths)


def main():
    log, fault, back = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pts = points(log)
    if not pts:
        print("no path-trace lines (TRACE=1?)")
        return
    def at(ms):  # the counts printed last at or before ms
        last = {}
        for t, c in pts:
            if t > ms:
                break
            last = c
        return last
    start, end = at(fault), at(back)
    window = {name: total(end, paths) - total(start, paths)
              for name, paths in (("redis", REDIS), ("share", SHARE), ("on_failure", ON_FAILURE))}
    last_answer = first_on_failure = redis_again = None
    prev = {}
    for t, c in pts:
        if total(c, REDIS) > total(prev, REDIS):
            if t <= back:
                last_answer = t
            elif redis_again is None:
                redis_again = t
        if (first_on_failure is None and t > fault
                and total(c, ON_FAILURE) > total(prev, ON_FAILURE)):
            first_on_failure = t
        prev = c
    rel = lambda t, base: "-" if t is None else str(t - base)
    print("outage_ms=%d by_redis=%d by_share=%d by_on_failure=%d last_answer_ms=%s "
          "first_on_failure_ms=%s (after the last answer: %s) redis_again_after_back_ms=%s"
          % (back - fault, window["redis"], window["share"], window["on_failure"],
             rel(last_answer, fault), rel(first_on_failure, fault),
             "-" if first_on_failure is None or last_answer is None
             else str(first_on_failure - last_answer),
             rel(redis_again, back)))


if __name__ == "__main__":
    main()
