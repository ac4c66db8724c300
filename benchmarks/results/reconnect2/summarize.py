#!/usr/bin/env python3
"""Per pass of run-redis-faults.sh (TRACE=1): admitted per round, fell back, 503s, the load at
the start, and DecisionPathTrace's counts summed over the three JVMs (each JVM's last path-trace
line in each round's log), plus the agents' log lines about reconnect attempts."""
import glob, os, re, sys
d = sys.argv[1]
print("pass | load at start | admitted (a round each) | fell back | 503 | no conn., nothing says down (before: allow, or share since h-reconnect; after: share) | a reconnect failed: breaker open / not conn. breaker / rejected, failed (allow both) | lost | late | answered | log: attempts reset partway (after's reason) / 'cannot reconnect' warnings")
def order(p):
    n = os.path.basename(p)[:-4]
    return (n.split("-")[1] if "-" in n else n, int(n.split("-")[-1]) if n.split("-")[-1].isdigit() else 0, n)
for txt in sorted(glob.glob(os.path.join(d, "*.txt")), key=order):
    name = os.path.basename(txt)[:-4]
    if not (name.startswith("before") or name.startswith("after")):
        continue
    head = open(txt).readline()
    m = re.search(r"load ([\d.]+)", head); load = m.group(1) if m else "?"
    res = [l for l in open(txt) if l.startswith("RESULT")]
    if not res:
        print(f"{name} | {load} | (no result)"); continue
    rounds = [dict(re.findall(r"(\w+)=([\w.-]+)", r)) for r in res]
    kv = {k: ", ".join(r.get(k, "?") for r in rounds) for k in ("round", "admitted", "fellback", "unavailable")}
    tot = {}; reset_lines = 0; cannot = 0
    for log in sorted(glob.glob(os.path.join(d, name + "-logs", "*-jvm*.log"))):
        last = None
        for line in open(log, errors="replace"):
            if "path-trace" in line:
                last = line
            if "attempt(s) reset partway" in line:
                reset_lines += 1
            if "Cannot reconnect" in line or "cannot reconnect" in line:
                cannot += 1
        if last:
            for part in ("single", "batched"):
                seg = last.split(part + ":")[1].split(" batched:" if part == "single" else " other=")[0]
                for k, v in re.findall(r"(\w+)=(\d+)", seg):
                    tot[k] = tot.get(k, 0) + int(v)
    g = lambda *ks: sum(tot.get(k, 0) for k in ks)
    print(f"{name} ({kv['round']}) | {load} | {kv.get('admitted')} | {kv.get('fellback')} | {kv.get('unavailable')} | "
          f"{g('not_connected_by_timeout','not_connected_by_reconnect_wait','rejected_past_deadline')} | "
          f"{g('circuit_open')} / {g('not_connected_breaker')} / {g('rejected_reconnect_failed')} | "
          f"{g('lost_with_connection')} | {g('late')} | {g('answered')} | {reset_lines} / {cannot}")
