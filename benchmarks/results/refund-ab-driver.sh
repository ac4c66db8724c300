#!/usr/bin/env bash
# Interleaved A/B of the 1 s rows: before = main's baseline jar, after = this branch's jar.
cd /work/wt-refund
log=benchmarks/results/refund-ab-driver.log
for pass in 1 2 3; do
  for side in before after; do
    if [ $side = before ]; then jar=/work/baseline/tollgate-agent-3d1a17a.jar; else jar=benchmarks/target/baseline/tollgate-agent-refund-after.jar; fi
    echo "$(date -u +%FT%TZ) pass $pass $side start load $(cut -d' ' -f1-3 /proc/loadavg)" >> $log
    AGENT=$jar TRACE=1 ROUNDS="late1000 late1000-deny late1000-local" NAME=refund-ab-$side-$pass benchmarks/run-redis-faults.sh > /tmp/refund-ab-$side-$pass.out 2>&1
    echo "$(date -u +%FT%TZ) pass $pass $side end rc $? load $(cut -d' ' -f1-3 /proc/loadavg)" >> $log
  done
done
echo done >> $log
