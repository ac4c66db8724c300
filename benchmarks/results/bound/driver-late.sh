#!/bin/bash
# after the ladder: late20 and late200 once each way (the mend's cost where every reply is late), same jar, 4 loops
while kill -0 $(cat /tmp/bound-driver2.pid) 2>/dev/null; do sleep 2; done
cd /tmp/bound/ladder
for b in false true; do
  loops=()
  for i in 1 2 3 4; do (while :; do :; done) & loops+=($!); done
  sleep 5
  echo "late batch=$b start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
  TRACE=1 ROUNDS="late20 late200" AGENT_OPTS=-Dtollgate.redis.batch=$b \
    NAME=bound/late-$b-1 benchmarks/run-redis-faults.sh > /dev/null 2>&1
  echo "late batch=$b end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) rc=$?"
  for p in "${loops[@]}"; do kill $p; done
  wait "${loops[@]}" 2>/dev/null
done
