#!/usr/bin/env python3
"""Prints JMH JSON results (from -rf json) as side-by-side Markdown tables: one row per
(keys, load, threads), one column per benchmark method: wall-clock ns/op, CPU ns/op (cpu.time.norm, from
io.tollgate.benchmarks.CpuTimeProfiler) and gc.alloc.rate.norm (B/op).

usage: python3 benchmarks/jmh-table.py benchmarks/results/decision-t1.json benchmarks/results/decision-t2.json
"""
import json
import sys

ORDER = ["none", "caffeineLookup", "tollgate", "bucket4jCaffeine", "bucket4jMap", "resilience4jMap"]


def main(paths):
    rows = {}
    methods = []
    for path in paths:
        with open(path) as f:
            for r in json.load(f):
                method = r["benchmark"].rsplit(".", 1)[1]
                if method not in methods:
                    methods.append(method)
                params = r.get("params", {})
                row = tuple(params[k] for k in sorted(params)) + (r["threads"],)
                pm = r["primaryMetric"]
                sec = r.get("secondaryMetrics", {})
                alloc = sec.get("gc.alloc.rate.norm", {}).get("score")
                cpu = sec.get("cpu.time.norm", {}).get("score")
                share = sec.get("cpu.share", {}).get("score")
                rows.setdefault(row, {})[method] = (pm["score"], pm["scoreError"], alloc, cpu, share)
                names = sorted(params) + ["threads"]
    methods.sort(key=lambda m: ORDER.index(m) if m in ORDER else len(ORDER))
    tables = (
        ("CPU ns/op (process CPU time / ops)", lambda v: fmt_num(v[3])),
        ("wall-clock ns/op (JMH score ± 99.9% CI)", fmt_time),
        ("B/op allocated (gc.alloc.rate.norm)", lambda v: fmt_alloc(v[2])),
        ("cores the JVM had (cpu.share)", lambda v: fmt_num(v[4], 2)),
    )
    for title, pick in tables:
        print(f"\n{title}\n")
        print("| " + " | ".join(names + methods) + " |")
        print("|" + "---|" * (len(names) + len(methods)))
        for row in sorted(rows, key=lambda r: tuple(int(x) if str(x).isdigit() else x for x in r)):
            cells = [pick(rows[row][m]) if m in rows[row] else "" for m in methods]
            print("| " + " | ".join([str(x) for x in row] + cells) + " |")


def fmt_time(v):
    score, err = v[0], v[1]
    if err != err:  # NaN: a single iteration
        return f"{score:.1f}"
    return f"{score:.1f} ± {err:.1f}"


def fmt_num(x, digits=1):
    if x is None:
        return "n/a"
    return f"{x:.{digits}f}"


def fmt_alloc(a):
    if a is None:
        return "n/a"
    return "0" if a < 0.5 else f"{a:.0f}"


if __name__ == "__main__":
    main(sys.argv[1:])
