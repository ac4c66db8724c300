#!/usr/bin/env bash
# Where the agent's start-up time goes: launches APP with the agent (quickstart.yaml) RUNS times,
# stamps every line of its output with the ms since launch, and records the first 200 on GET /hello.
# Output: benchmarks/results/startup-timeline-APP.txt. Usage: benchmarks/startup-timeline.sh [APP] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-servlet-jakarta}; RUNS=${2:-3}; PORT=${PORT:-18092}
OUT=benchmarks/results/startup-timeline-$APP.txt
FIFO=$(mktemp -u); mkfifo "$FIFO"; trap 'rm -f "$FIFO"' EXIT
: >"$OUT"
for i in $(seq 1 "$RUNS"); do
  echo "## run $i" >>"$OUT"
  t0=$(date +%s%N)
  while IFS= read -r l; do echo "$(( ($(date +%s%N) - t0) / 1000000 )) ms  $l"; done <"$FIFO" >>"$OUT" &
  stamper=$!
  PORT=$PORT java -javaagent:agent/target/tollgate-agent.jar=config=config-examples/quickstart.yaml \
      -jar test-apps/$APP/target/$APP.jar >"$FIFO" 2>&1 &
  pid=$!
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://127.0.0.1:$PORT/hello || true)" = 200 ]; do sleep 0.01; done
  t1=$(date +%s%N)
  kill $pid; wait $pid 2>/dev/null || true; wait $stamper 2>/dev/null || true
  echo "$(( (t1 - t0) / 1000000 )) ms  first 200 on GET /hello" >>"$OUT"
  sleep 2
done
cat "$OUT"
