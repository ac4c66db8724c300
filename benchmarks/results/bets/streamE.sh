#!/usr/bin/env bash
# late1000 (every reply 1 s late), fix and main alternating, a call per decision
cd /tmp/bets-bench
FIX=/tmp/bets-agent-fix.jar; MAIN=/tmp/bets-agent-da47f3f.jar
for i in $(seq 1 ${N:-5}); do
  for which in fix main; do
    [ $which = fix ] && J=$FIX || J=$MAIN
    echo "$(date -u +%T) load $(cut -d' ' -f1-3 /proc/loadavg) start $which $i"
    ROUNDS=late1000 AGENT=$J AGENT_OPTS=-Dtollgate.redis.batch=false NAME=bets/E-late1000-$which-$i \
      benchmarks/run-redis-faults.sh > /dev/null 2>&1 || echo "pass $which $i rc=$?"
    echo "$(date -u +%T) $which $i $(grep ^RESULT benchmarks/results/bets/E-late1000-$which-$i.txt | cut -c1-140)"
  done
done
