#!/usr/bin/env python3
"""Per pass of run-redis-faults.sh ROUNDS=drop: admitted, fell back, 503s, the load, and the
DecisionPathTrace counts summed over the three JVMs (each JVM's last path-trace line)."""
import glob, os, re, sys
d = sys.argv[1]
print("pass | load at start | admitted (a round each) | fell back | 503 | no conn., nothing failed (before: allow; after: share) | a reconnect failed: breaker open / not conn. breaker / rejected, failed | lost | late | answered")
for txt in sorted(glob.glob(os.path.join(d, "*.txt")), key=lambda p: (("batched" in p), os.path.basename(p).split("-")[-1], p)):
    name = os.path.basename(txt)[:-4]
    if not (name.startswith("before") or name.startswith("after")):
        continue
    head = open(txt).readline()
    m = re.search(r"load ([\d.]+)", head); load = m.group(1) if m else "?"
    res = [l for l in open(txt) if l.startswith("RESULT")]
    if not res:
        print(f"{name} | {load} | (no result)"); continue
    rounds = [dict(re.findall(r"(\w+)=([\w.-]+)", r)) for r in res]
    kv = {k: ", ".join(r.get(k, "?") for r in rounds) for k in ("admitted", "fellback", "unavailable")}
    tot = {}
    for j in (1, 2, 3):
        log = os.path.join(d, name + "-logs", f"drop-jvm{j}.log")
        last = None
        if os.path.exists(log):
            for line in open(log, errors="replace"):
                if "path-trace" in line:
                    last = line
        if last:
            for part in ("single", "batched"):
                seg = last.split(part + ":")[1].split(" batched:" if part == "single" else " other=")[0]
                for k, v in re.findall(r"(\w+)=(\d+)", seg):
                    tot[k] = tot.get(k, 0) + int(v)
    g = lambda *ks: sum(tot.get(k, 0) for k in ks)
    print(f"{name} | {load} | {kv.get('admitted')} | {kv.get('fellback')} | {kv.get('unavailable')} | "
          f"{g('not_connected_by_timeout','not_connected_by_reconnect_wait','rejected_past_deadline')} | "
          f"{g('circuit_open')} / {g('not_connected_breaker')} / {g('rejected_reconnect_failed')} | "
          f"{g('lost_with_connection')} | {g('late')} | {g('answered')}")
