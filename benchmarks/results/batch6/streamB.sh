#!/usr/bin/env bash
# Stream B: new jar batched drop+late1000, and a call per decision reload-deny, alternating; then dead-behind-proxy(-deny) batched with TRACE=1
cd /work/h-batch6
NEW=/work/baseline/tollgate-agent-f64a251.jar
for i in $(seq 1 ${N:-10}); do
  ROUNDS="drop late1000" AGENT=$NEW AGENT_OPTS=-Dtollgate.redis.batch=true NAME=batch6/B-new-batched-droplate-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass droplate $i failed rc=$?"
  echo "$(date -u +%T) B droplate $i"; grep ^RESULT benchmarks/results/batch6/B-new-batched-droplate-$i.txt
  ROUNDS=reload-deny AGENT=$NEW AGENT_OPTS=-Dtollgate.redis.batch=false NAME=batch6/B-new-perdecision-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass perdecision $i failed rc=$?"
  echo "$(date -u +%T) B perdecision $i $(grep ^RESULT benchmarks/results/batch6/B-new-perdecision-$i.txt)"
done
for i in $(seq 1 ${M:-3}); do
  ROUNDS="dead-behind-proxy dead-behind-proxy-deny" TRACE=1 AGENT=$NEW AGENT_OPTS=-Dtollgate.redis.batch=true NAME=batch6/C-new-batched-dead-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass dead $i failed rc=$?"
  echo "$(date -u +%T) C dead $i"; grep -E '^(RESULT|BOUND)' benchmarks/results/batch6/C-new-batched-dead-$i.txt
done
