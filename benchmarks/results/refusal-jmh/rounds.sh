#!/usr/bin/env bash
# Issue 29 item 6, before/after on the same benchmark jar (built from main at c4479f4): "before" is
# the jar as built, "after" the same jar with this branch's agent classes first on the class path.
# Run from the repository root.
set -euo pipefail
OUT=benchmarks/results/refusal-jmh
ARGS=('RequestPathBenchmark.(tollgate|refusalWrittenByHand)$' -p rules=rule,refused -f 1 -wi 10 -w 1s -i 6 -r 1s
      -prof gc -prof io.tollgate.benchmarks.CpuTimeProfiler -foe false)
for r in 1 2; do
  for side in before after; do
    cp=benchmarks/target/benchmarks.jar
    [ $side = after ] && cp=agent/target/classes:$cp
    echo "round $r $side $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>$OUT/rounds.txt
    # another engineer's JMH run may hold /tmp/jmh.lock: run beside it (the machine is shared anyway)
    java -Djmh.ignoreLock=true -cp "$cp" org.openjdk.jmh.Main "${ARGS[@]}" -rf json -rff $OUT/$side-r$r.json >$OUT/$side-r$r.txt 2>&1 || true
  done
done
echo "done $(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg)" >>$OUT/rounds.txt
