#!/usr/bin/env bash
# Everything the agent adds to an application's start, by thread and by kind, to the first 200:
# launches APP once per mode (none, agent, and before with BEFORE_AGENT=<an older jar>), the modes
# alternating ROUNDS times (their order turned each round), each with async-profiler (itimer,
# 1 ms, per thread, from the JVM's start) and JFR (startup-whole-cpu/startup.jfc: every
# compilation, allocation samples with stacks, collections). Polls GET /hello every 10 ms; at the
# first 200 it reads, in this order, the CPU of every live thread with its name
# (/proc/PID/task/*/stat), the JVM's CPU (/proc/PID/stat), then stops the profiler and dumps JFR
# (whose events after the first 200 are left out).
# startup-whole-cpu.py then says, per start and as medians over the starts of a mode:
#   - CPU by thread group (main, request threads, the agent's, C1, C2, GC, the measurement's, other);
#   - the agent's share of the main thread's and the other application threads' samples (premain,
#     the class file transformer, the first decision), as a share and as ms of that thread's CPU;
#   - C1's and C2's compile time on the agent's methods against the application's and the JDK's
#     (JFR's jdk.Compilation durations: wall times of the compiler threads, read as shares);
#   - the agent's share of the bytes allocated (JFR's allocation samples whose stack holds an
#     agent frame), and so of the GC's work;
#   - the ended threads (the agent's start-up thread) from the profile: itimer samples are CPU ms.
# Both measurers cost CPU of their own in every mode ("measurement" in the table): read the shares
# and the with-minus-without differences, not the totals.
# Output: $RES/whole-APP-MODE-ROUND.{tasks,collapsed,jfr-summary.txt,out} and $RES/whole-APP.txt.
# Usage: benchmarks/startup-whole-cpu.sh [APP] [ROUNDS]
#   env: PORT=18391 AGENT= BEFORE_AGENT= MODES="none agent before empty empty-plain empty-jar" RES= JAVA_OPTS= ANALYZE_ONLY=1
# Needs: mvn -B -q -o install -DskipTests (the agent, the test apps, benchmarks/target/benchmarks.jar).
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-spring-boot3}; ROUNDS=${2:-5}
PORT=${PORT:-18391}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
BEFORE_AGENT=${BEFORE_AGENT:-}
CONFIG=config-examples/quickstart.yaml
RES=${RES:-benchmarks/results/startup-whole-cpu}
TIMEOUT_MS=${TIMEOUT_MS:-240000}
if [ -n "${MODES:-}" ]; then read -r -a MODES <<<"$MODES"; else MODES=(none agent); [ -n "$BEFORE_AGENT" ] && MODES+=(before); fi
mkdir -p "$RES"
AP_VERSION=4.1
AP_JAR=$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
[ -f "$AP_JAR" ] || mvn -B -q dependency:get -Dartifact=tools.profiler:async-profiler:$AP_VERSION
unzip -q -o "$AP_JAR" linux-x64/libasyncProfiler.so -d "$work"
LIB=$work/linux-x64/libasyncProfiler.so
JFC=$(readlink -f benchmarks/startup-whole-cpu/startup.jfc)
javac -d "$work" benchmarks/startup-whole-cpu/JfrStartupSummary.java
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# MODES="none empty agent": an agent whose one transformer changes nothing (benchmarks/empty-agent),
# the floor that any instrumenting agent pays (the class file load hook for every class);
# "empty-plain" the same unable to retransform (Tollgate's can); "empty-jar" the empty agent in a
# copy of AGENT's jar, appended to the bootstrap class path as Tollgate does (empty-agent/build.sh)
EMPTY_AGENT=$work/empty-agent.jar
[[ " ${MODES[*]} " == *" empty"* ]] && benchmarks/empty-agent/build.sh "$work" "$AGENT"

# shellcheck source=threads-cpu.sh
. benchmarks/threads-cpu.sh

one_run() { # mode round
  local mode=$1 round=$2 base pid t0 t1 code cpu
  base=$RES/whole-$APP-$mode-$round
  local args=(-agentpath:$LIB=start,event=itimer,interval=1ms,threads
    "-XX:StartFlightRecording=name=whole,settings=$JFC,filename=$(readlink -f "$RES")/whole-$APP-$mode-$round.jfr"
    ${JAVA_OPTS:-})
  [ "$mode" = agent ] && args+=(-javaagent:$AGENT=config=$CONFIG)
  [ "$mode" = before ] && args+=(-javaagent:$BEFORE_AGENT=config=$CONFIG)
  [ "$mode" = empty ] && args+=(-javaagent:$EMPTY_AGENT)
  [ "$mode" = empty-plain ] && args+=(-javaagent:$work/empty-agent-plain.jar=plain)
  [ "$mode" = empty-jar ] && args+=(-javaagent:$work/empty-agent-in-tollgate-jar.jar=boot)
  t0=$(now_ms)
  PORT=$PORT java "${args[@]}" -jar test-apps/$APP/target/$APP.jar >"$base.out" 2>&1 &
  pid=$!
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$PORT/hello" || true)
    [ "$code" = 200 ] && break
    kill -0 $pid 2>/dev/null || { echo "FAILED $APP $mode" >&2; cat "$base.out" >&2; exit 1; }
    [ $(( $(now_ms) - t0 )) -gt "$TIMEOUT_MS" ] && { echo "TIMEOUT $APP $mode" >&2; kill $pid; exit 1; }
    sleep 0.01
  done
  t1=$(now_ms)
  thread_cpu_lines $pid >"$base.tasks"
  cpu=$(jvm_cpu_ms $pid)
  java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.LoadAgentPath $pid "$LIB" \
    "stop,collapsed,threads,file=$(readlink -f "$base").collapsed" >/dev/null
  jcmd $pid JFR.dump name=whole filename="$(readlink -f "$base").jfr" >/dev/null
  kill $pid; wait $pid 2>/dev/null || true
  while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/hello"; do sleep 0.1; done
  # the JFR file is tens of MB: keep what the summary reads
  java -cp "$work" JfrStartupSummary "$base.jfr" "$t1" >"$base.jfr-summary.txt"
  rm -f "$base.jfr"
  echo "$mode $round $(( t1 - t0 )) $cpu" >>"$RES/whole-$APP-runs.txt"
  sleep 1
}

if [ -z "${ANALYZE_ONLY:-}" ]; then
  echo "# $(date -u +%FT%TZ) load=$(cut -d' ' -f1-3 /proc/loadavg) mode round ms_to_first_200 jvm_cpu_ms" \
    >>"$RES/whole-$APP-runs.txt"
  for i in $(seq 1 "$ROUNDS"); do
    for k in "${!MODES[@]}"; do one_run "${MODES[$(( (k + i - 1) % ${#MODES[@]} ))]}" "$i"; done
  done
  echo "# $(date -u +%FT%TZ) load=$(cut -d' ' -f1-3 /proc/loadavg) done" >>"$RES/whole-$APP-runs.txt"
fi
python3 benchmarks/startup-whole-cpu.py "$RES" "$APP" | tee "$RES/whole-$APP.txt"
