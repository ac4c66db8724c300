#!/usr/bin/env bash
cd /work/wt-engine5
while kill -0 $(cat /tmp/engine5-e2e.pid) 2>/dev/null; do sleep 5; done
export JAVA_TOOL_OPTIONS=-Djmh.ignoreLock=true
NOFILTER=1 benchmarks/request-path-rounds.sh benchmarks/results/engine5/jmh-rounds 3 /work/baseline/benchmarks-4d18742.jar /tmp/engine5-jars/benchmarks-new.jar rule > /tmp/engine5-jmh1.log 2>&1
benchmarks/results/engine4/same-jar-rounds.sh benchmarks/results/engine5/jmh-commit 2 /tmp/engine5-jars/benchmarks-new.jar rule tollgateThenCommit bucket4jFilterDraftHeadersThenCommit bucket4jFilterThenCommit > /tmp/engine5-jmh2.log 2>&1
unset JAVA_TOOL_OPTIONS
P=benchmarks/results/engine5/profiles
for m in rule bucket4j rule-noheaders; do
  echo "$(date -u +%T) after $m load $(cut -d' ' -f1-3 /proc/loadavg)" >> $P/runs.txt
  AGENT=/tmp/engine5-jars/tollgate-agent-new.jar INTERVAL=100us JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" PORT=18517 SERVER_CPU=0 PIN=same WARMUP=40 DURATION=30 OUT=$P/after-$m benchmarks/profile-async.sh $m > /dev/null 2>&1
  if [ $m = rule ]; then
    echo "$(date -u +%T) baseline rule load $(cut -d' ' -f1-3 /proc/loadavg)" >> $P/runs.txt
    AGENT=/work/baseline/tollgate-agent-4d18742.jar INTERVAL=100us JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" PORT=18517 SERVER_CPU=0 PIN=same WARMUP=40 DURATION=30 OUT=$P/baseline-rule benchmarks/profile-async.sh rule > /dev/null 2>&1
  fi
done
echo "$(date -u +%T) all done" >> $P/runs.txt
