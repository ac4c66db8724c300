#!/usr/bin/env bash
# The request path's compiled code, counted after a fixed warm-up (the JIT's choices, not timings):
# starts servlet-jakarta with AGENT and one rule (benchmarks/e2e-rules.yaml), sends WARM seconds of
# wrk (-t1 -c8) in 5 s slices, then lists the compiled methods (jcmd Compiler.codelist) and sums the
# nmethods of the agent's classes and Tomcat's host valve. Usage: codesize.sh AGENT_JAR OUT_PREFIX [PORT]
set -euo pipefail
cd "$(dirname "$0")/../../.."
AGENT=$1; OUT=$2; PORT=${3:-18191}; WARM=${WARM:-40}
PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m -javaagent:$AGENT=config=benchmarks/e2e-rules.yaml \
  -jar test-apps/servlet-jakarta/target/servlet-jakarta.jar >"$OUT.server.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for i in $(seq 1 100); do curl -sf "http://127.0.0.1:$PORT/hello" >/dev/null && break; sleep 0.3; done
for i in $(seq 1 $((WARM / 5))); do taskset -c 1 wrk -t1 -c8 -d5s "http://127.0.0.1:$PORT/hello" >/dev/null; done
curl -si "http://127.0.0.1:$PORT/hello" | grep -i ratelimit >"$OUT.headers.txt" || true
jcmd $pid Compiler.codelist >"$OUT.codelist.txt"
python3 benchmarks/results/hot/codesize.py "$OUT.codelist.txt" >"$OUT.summary.txt"
cat "$OUT.summary.txt"
