#!/usr/bin/env bash
# main's jar (f8190fa), a call per decision, TRACE=1, reload-deny; keeps the agents' logs of a pass over 100
cd /tmp/trace-bench
J=${JAR:-/tmp/trace-agent-main.jar}; TAG=${TAG:-A}
for i in $(seq ${START:-1} ${END:-30}); do
  echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $i"
  ROUNDS=reload-deny TRACE=1 AGENT=$J AGENT_OPTS=-Dtollgate.redis.batch=false NAME=trace/$TAG-$i \
    benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $i rc=$?"
  r=$(grep ^RESULT benchmarks/results/trace/$TAG-$i.txt | cut -c1-140)
  echo "$(date -u +%T) $i $r"
  adm=$(echo "$r" | sed -n 's/.*admitted=\([0-9]*\).*/\1/p')
  if [ -n "$adm" ] && [ "$adm" -le 100 ]; then grep -H "late-bets\|instances share\|WARN\|reloaded\|counts are kept" benchmarks/results/trace/$TAG-$i-logs/*.log > benchmarks/results/trace/$TAG-$i-bets.log; rm -rf benchmarks/results/trace/$TAG-$i-logs; else echo "KEPT logs $TAG-$i"; fi
done
