#!/bin/bash
# item 2's busy ladder: after's jar (a827da3), a call per decision and batched in turn, 5 passes each,
# LOOPS busy loops beside each pass (started 5 s before, killed by pid after)
R=/tmp/bound/ladder; rm -rf $R; mkdir -p $R/agent/target $R/test-apps/servlet-jakarta/target
cp -r /work/h-bound/benchmarks $R/
cp -r /work/h-bound/agent/target/test-classes $R/agent/target/
cp /work/h-bound/agent/target/tollgate-agent.jar $R/agent/target/
cp /work/h-bound/test-apps/servlet-jakarta/target/servlet-jakarta.jar $R/test-apps/servlet-jakarta/target/
cd $R
LOOPS=${LOOPS:-4}
for pass in 1 2 3 4 5; do
  for b in false true; do
    loops=()
    for i in $(seq $LOOPS); do (while :; do :; done) & loops+=($!); done
    sleep 5
    echo "pass $pass batch=$b start $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg)"
    TRACE=1 ROUNDS="reload-deny drop late1000" AGENT_OPTS=-Dtollgate.redis.batch=$b \
      NAME=bound/ladder-$b-$pass benchmarks/run-redis-faults.sh > /dev/null 2>&1
    rc=$?
    echo "pass $pass batch=$b end $(date -u +%T) load $(cut -d' ' -f1 /proc/loadavg) rc=$rc"
    for p in "${loops[@]}"; do kill $p; done
    wait "${loops[@]}" 2>/dev/null
  done
done
