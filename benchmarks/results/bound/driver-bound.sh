#!/bin/bash
# item 1 passes: the bound behind a proxy against a refusal, a call per decision and batched in turn
/tmp/bound-mkroot.sh
cd /tmp/bound/root
for pass in 1 2 3 4 5; do
  case $pass in 2|4) b=true ;; *) b=false ;; esac
  echo "pass $pass batch=$b start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  TRACE=1 ROUNDS="dead-behind-proxy unreachable dead-behind-proxy-deny unreachable-deny" \
    AGENT_OPTS=-Dtollgate.redis.batch=$b NAME=bound/bound-$b-$pass benchmarks/run-redis-faults.sh > /dev/null 2>&1
  echo "pass $pass end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) rc=$?"
done
