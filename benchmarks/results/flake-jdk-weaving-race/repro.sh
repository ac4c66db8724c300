#!/bin/bash
# Starts test-apps/outbound-client (which makes its java.net.http.HttpClient in main, as the agent
# starts) with each agent jar in turn, interleaved, ROUNDS times, and says whether the JDK's
# HttpClientImpl was woven ("instrumented ..."; "(already loaded)": retransformed by the start-up
# thread) or not (UNWOVEN: its calls pass every outbound rule, for the life of the JVM).
#   usage: [EXTRA=-javaagent:delay.jar] [PORT=18491] repro.sh ROUNDS LABEL=AGENT_JAR [LABEL=AGENT_JAR...]
# EXTRA=-javaagent:delay.jar (DelayDefinition.java, a second agent after Tollgate's) forces the race.
# Build delay.jar: javac --release 11 -d c DelayDefinition.java &&
#   printf 'Premain-Class: DelayDefinition\nCan-Retransform-Classes: true\n' > m.txt && jar cfm delay.jar m.txt -C c .
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
ROUNDS=$1; shift
APP=${APP:-$ROOT/test-apps/outbound-client/target/outbound-client.jar}
RULES=$HERE/outbound.yaml
PORT=${PORT:-18491}
LOGS=${LOGS:-/tmp/flake-repro-logs}
mkdir -p "$LOGS"
for r in $(seq 1 "$ROUNDS"); do
  for spec in "$@"; do
    label=${spec%%=*}; jar=${spec#*=}
    log=$LOGS/$label-$r.log
    PORT=$PORT java -Xmx256m -XX:TieredStopAtLevel=1 "-javaagent:$jar=config=$RULES" $EXTRA -jar "$APP" >"$log" 2>&1 &
    pid=$!
    for i in $(seq 1 900); do
      if grep -q "ready; watching" "$log" && grep -q "listening on port" "$log"; then break; fi
      sleep 0.1
    done
    kill "$pid"; wait "$pid" 2>/dev/null
    how=$(grep -o "instrumented jdk.internal.net.http.HttpClientImpl.*" "$log" | head -1)
    delay=$(grep -o "\[delay\].*" "$log" | tr '\n' ' ')
    echo "$label $r ${how:-UNWOVEN} ${delay}load=$(cut -d' ' -f1 /proc/loadavg)"
  done
done
