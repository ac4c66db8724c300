#!/usr/bin/env bash
# Runs DecisionBenchmark at 1 and 2 threads with the GC profiler, and keeps JMH's JSON and text
# output in benchmarks/results/. Build first: mvn -B package -DskipTests (from the repository root).
# Extra arguments go to JMH, e.g. ./benchmarks/run-decision.sh -p keys=1
set -euo pipefail
cd "$(dirname "$0")/.."
jar=benchmarks/target/benchmarks.jar
out=benchmarks/results
mkdir -p "$out"
for t in 1 2; do
  java -jar "$jar" DecisionBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s -t "$t" -prof gc -prof io.tollgate.benchmarks.CpuTimeProfiler \
    -rf json -rff "$out/decision-t$t.json" "$@" | tee "$out/decision-t$t.txt"
done
