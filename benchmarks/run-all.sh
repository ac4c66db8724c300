#!/usr/bin/env bash
# Every benchmark of BENCHMARKS.md, one after the other, as its figures were taken: about
# 70 minutes on a 2-core machine. Run it on an otherwise idle machine (each benchmark keeps both
# cores busy; a build or test beside it moves the figures by more than what they measure).
#
#   mvn -B -q package -DskipTests     # once, from the repository root (needs wrk, redis-server,
#   benchmarks/run-all.sh             # redis-benchmark, curl and python3 on the PATH)
#
# Output: benchmarks/results/current/ (each benchmark's own files and its console output), and
# benchmarks/results/current/environment.txt (the commit, the machine, the JDK).
# ONLY="decision memory" runs some of them: request-path jersey-path decision memory e2e-servlet
# e2e-spring redis startup rule-count replay adaptive slow-senders. (replay includes its burst row,
# issue 28 row 6; slow-senders is issue 28 row 3. run-redis-faults.sh, section 7, runs on its own.)
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=benchmarks/results/current
ONLY=${ONLY:-"request-path jersey-path decision memory e2e-servlet e2e-spring redis startup rule-count replay adaptive slow-senders"}
JAR=benchmarks/target/benchmarks.jar
mkdir -p "$OUT"
[ -f "$JAR" ] && [ -f agent/target/tollgate-agent.jar ] \
  || { echo "build first: mvn -B -q package -DskipTests" >&2; exit 1; }

{
  echo "commit: $(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet 2>/dev/null || echo ' (with uncommitted changes)')"
  echo "started: $(date -u +%FT%TZ)"
  echo "cpus: $(nproc); $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
  echo "memory: $(free -g | awk '/Mem:/ {print $2 " GiB"}')"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
  java -version 2>&1 | head -2
} >"$OUT/environment.txt"

wants() { [[ " $ONLY " == *" $1 "* ]]; }
step() { echo "== $(date -u +%T) $*" | tee -a "$OUT/environment.txt"; }

if wants request-path; then
  step "RequestPathBenchmark (section 6)"
  java -jar "$JAR" RequestPathBenchmark -f 1 -wi 3 -i 5 -prof gc \
    -rf json -rff "$OUT/request-path.json" >"$OUT/request-path.txt" 2>&1
fi
if wants jersey-path; then
  step "JerseyPathBenchmark (section 6)"
  java -jar "$JAR" JerseyPathBenchmark -f 1 -wi 3 -i 5 -prof gc \
    -rf json -rff "$OUT/jersey-path.json" >"$OUT/jersey-path.txt" 2>&1
fi
if wants decision; then
  for t in 1 2; do
    step "DecisionBenchmark, $t thread(s) (section 1)"
    java -jar "$JAR" DecisionBenchmark -f 1 -wi 2 -w 2s -i 3 -r 3s -t "$t" -prof gc \
      -prof io.tollgate.benchmarks.CpuTimeProfiler \
      -rf json -rff "$OUT/decision-t$t.json" >"$OUT/decision-t$t.txt" 2>&1
  done
fi
if wants memory; then
  step "MemoryPerKey (section 2)"
  java -Xms2g -Xmx2g -XX:+UseG1GC -cp "$JAR" io.tollgate.benchmarks.MemoryPerKey \
    >"$OUT/memory.txt" 2>&1
fi
if wants e2e-servlet; then
  step "end to end, servlet-jakarta (section 3)"
  RES=$OUT benchmarks/run-end-to-end.sh servlet-jakarta 3 none rule nomatch bucket4j none-again \
    >"$OUT/e2e-servlet-jakarta-console.txt" 2>&1
fi
if wants e2e-spring; then
  step "end to end, spring-boot3 (section 3)"
  RES=$OUT benchmarks/run-end-to-end.sh spring-boot3 2 none rule bucket4j \
    >"$OUT/e2e-spring-boot3-console.txt" 2>&1
fi
if wants redis; then
  step "Redis mode (section 4)"
  NAME=current/redis benchmarks/run-redis.sh >"$OUT/redis-console.txt" 2>&1
fi
if wants startup; then
  step "start-up (section 5)"
  RES=$OUT benchmarks/run-startup.sh 9 servlet-jakarta spring-boot3 >"$OUT/startup-console.txt" 2>&1
fi
if wants rule-count; then
  step "loading a long rules file (section 6)"
  RES=$OUT benchmarks/run-rule-count.sh 5 >"$OUT/rule-count-console.txt" 2>&1
fi
if wants replay; then
  step "replay (section 8)"
  benchmarks/run-replay.sh >"$OUT/replay-console.txt" 2>&1
fi
if wants slow-senders; then
  step "slow senders against a shared concurrency limit (section 7)"
  NAME=current/slow-senders benchmarks/run-slow-senders.sh >"$OUT/slow-senders-console.txt" 2>&1
fi
if wants adaptive; then
  step "adaptive concurrency (section 9)"
  RES=$OUT/adaptive benchmarks/run-adaptive.sh >"$OUT/adaptive-console.txt" 2>&1
fi
step "done"
