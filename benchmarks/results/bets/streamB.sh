#!/usr/bin/env bash
# the trace jar (main's behaviour + a late-bets line per covered bet), a call per decision, TRACE=1
cd /tmp/bets-bench
J=/tmp/bets-agent-trace.jar
for i in $(seq ${START:-1} ${END:-8}); do
  echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start bettrace $i"
  ROUNDS=reload-deny TRACE=1 AGENT=$J AGENT_OPTS=-Dtollgate.redis.batch=${BATCH:-false} NAME=bets/bettrace-${BATCH:-false}-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $i rc=$?"
  echo "$(date -u +%T) bettrace $i $(grep ^RESULT benchmarks/results/bets/bettrace-${BATCH:-false}-$i.txt | cut -c1-160)"
done
