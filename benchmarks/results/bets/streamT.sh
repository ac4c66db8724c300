#!/usr/bin/env bash
# main jar (da47f3f), a call per decision, TRACE=1: evidence of the mechanism
cd /tmp/bets-bench
MAIN=/tmp/bets-agent-da47f3f.jar
for i in $(seq ${START:-1} ${END:-6}); do
  echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start main-trace $i"
  ROUNDS=reload-deny TRACE=1 AGENT=$MAIN AGENT_OPTS=-Dtollgate.redis.batch=false NAME=bets/main-perdecision-trace-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $i rc=$?"
  echo "$(date -u +%T) main-trace $i $(grep ^RESULT benchmarks/results/bets/main-perdecision-trace-$i.txt | cut -c1-200)"
done
