#!/usr/bin/env python3
"""Prints benchmarks/results/redis-runs.txt (RESULT lines of run-redis.sh) as the tables of
BENCHMARKS.md: decisions per second per side (median over rounds), the ratios of the same round's
runs (median, and their range when there are several rounds), and round trips per decision."""
import statistics
import sys
from collections import defaultdict

SIDES = ("tollgate", "redis-benchmark", "bucket4j")
WORKLOADS = ("many-keys", "hot-key", "hot-key-refused")


def read(path):
    runs = []
    for line in open(path):
        if line.startswith("RESULT "):
            runs.append(dict(field.split("=", 1) for field in line.split()[1:]))
    return runs


def number(value):
    return f"{value:,.0f}"


def ratio(values):
    if not values:
        return "-"
    text = f"{statistics.median(values):.2f}"
    if len(values) > 1:
        text += f" ({min(values):.2f}-{max(values):.2f})"
    return text


def main(path):
    runs = read(path)
    cells = defaultdict(dict)  # (workload, threads) -> {round: {side: run}}
    for run in runs:
        cells[(run["workload"], int(run["threads"]))].setdefault(run.get("round", "1"), {})[run["side"]] = run
    order = sorted(cells, key=lambda c: (WORKLOADS.index(c[0]) if c[0] in WORKLOADS else 9, c[1]))

    print("Decisions per second (median over rounds); ratios of the same round's runs.\n")
    print("| workload | threads | Tollgate | redis-benchmark | Bucket4j | Tollgate / redis-benchmark | Tollgate / Bucket4j | rounds |")
    print("|---|---|---|---|---|---|---|---|")
    for cell in order:
        rounds = cells[cell]
        medians = []
        for side in SIDES:
            values = [float(r[side]["per_second"]) for r in rounds.values() if side in r]
            medians.append(number(statistics.median(values)) if values else "-")
        vs_rb = [float(r["tollgate"]["per_second"]) / float(r["redis-benchmark"]["per_second"])
                 for r in rounds.values() if "tollgate" in r and "redis-benchmark" in r]
        vs_b4j = [float(r["tollgate"]["per_second"]) / float(r["bucket4j"]["per_second"])
                  for r in rounds.values() if "tollgate" in r and "bucket4j" in r]
        print(f"| {cell[0]} | {cell[1]} | {' | '.join(medians)} | {ratio(vs_rb)} | {ratio(vs_b4j)} | {len(rounds)} |")

    print("\nRound trips per decision (client commands sent / decisions, from INFO commandstats over"
          " the measured phase; median over rounds), Bucket4j's compare-and-swap EVALs per decision,"
          " and failed decisions (all rounds).\n")
    print("| workload | threads | Tollgate (EVALSHA + EVAL) | redis-benchmark (EVALSHA) | Bucket4j (GET + EVAL) | Bucket4j EVAL | refused (Tollgate / Bucket4j) | failed |")
    print("|---|---|---|---|---|---|---|---|")
    for cell in order:
        rounds = cells[cell]

        def med(side, field):
            values = [float(r[side][field]) for r in rounds.values() if side in r and field in r[side]]
            return f"{statistics.median(values):.3f}" if values else "-"

        def refused_share(side):
            shares = [int(r[side]["refused"]) / int(r[side]["decisions"]) for r in rounds.values()
                      if side in r and int(r[side]["decisions"]) > 0]
            return f"{statistics.median(shares):.1%}" if shares else "-"

        failed = sum(int(r[s].get("failed", 0)) for r in rounds.values() for s in r)
        print(f"| {cell[0]} | {cell[1]} | {med('tollgate', 'round_trips_per_decision')}"
              f" | {med('redis-benchmark', 'round_trips_per_decision')}"
              f" | {med('bucket4j', 'round_trips_per_decision')} | {med('bucket4j', 'eval_per_decision')}"
              f" | {refused_share('tollgate')} / {refused_share('bucket4j')} | {failed} |")

    print("\nCPU time per decision, in microseconds (median over rounds): the load generator's whole"
          " process (for Tollgate and Bucket4j the JVM: callers, Lettuce/Netty, JIT, GC) and"
          " redis-server. Waiting for a core does not count, so these hold better than decisions per"
          " second on a busy machine.\n")
    print("| workload | threads | Tollgate client | redis-benchmark client | Bucket4j client | Tollgate server | redis-benchmark server | Bucket4j server |")
    print("|---|---|---|---|---|---|---|---|")
    for cell in order:
        rounds = cells[cell]

        def cpu(side, field):
            values = [float(r[side][field]) for r in rounds.values() if side in r and field in r[side]]
            return f"{statistics.median(values):.1f}" if values else "-"

        print(f"| {cell[0]} | {cell[1]} | "
              + " | ".join(cpu(side, "client_cpu_us_per_decision") for side in SIDES) + " | "
              + " | ".join(cpu(side, "server_cpu_us_per_decision") for side in SIDES) + " |")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "benchmarks/results/redis-runs.txt")
