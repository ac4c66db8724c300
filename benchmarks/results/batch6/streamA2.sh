#!/usr/bin/env bash
# Stream A: batched reload-deny, this session's start jar (new) against the jar before h-bound's mend (old), alternating, order flipped each pass
cd /work/h-batch6
NEW=/work/baseline/tollgate-agent-f64a251.jar; OLD=/work/baseline/tollgate-agent-7b10c50.jar
for i in $(seq ${START:-1} ${END:-30}); do
  if [ $((i % 2)) -eq 1 ]; then order="new old"; else order="old new"; fi
  for which in $order; do
    jar=$NEW; [ $which = old ] && jar=$OLD
    ROUNDS=reload-deny AGENT=$jar AGENT_OPTS=-Dtollgate.redis.batch=true NAME=batch6/A-$which-batched-$i \
      benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $which $i failed rc=$?"
    echo "$(date -u +%T) A $which $i $(grep ^RESULT benchmarks/results/batch6/A-$which-batched-$i.txt)"
  done
done
