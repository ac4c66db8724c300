#!/usr/bin/env bash
# The request path as the JIT compiles it (issue 29 item 2): servlet-jakarta in MODE (none, rule,
# rule-noheaders, nomatch, bucket4j-draft) with -XX:+LogCompilation, warmed by a fixed number of
# requests (REQUESTS, default 200,000, wrk-count.lua: counted, not timed, so that a busy machine
# changes how long the warm-up takes and not what the JIT has seen), then Compiler.codelist.
# benchmarks/jit-path.py reads the log: for each method on the request path (the woven
# StandardHostValve.invoke, the bridge, the engine's allowed path), its tier-4 nmethods and their
# sizes, every inlining decision under it with its reason, uncommon traps and deopts.
#   usage: benchmarks/jit-path.sh MODE OUT_DIR        (then: python3 benchmarks/jit-path.py OUT_DIR)
#   env:   AGENT=agent/target/tollgate-agent.jar REQUESTS=200000 SETTLE=3 PORT=18095 APP=servlet-jakarta
#          SERVER_CPU=0 WRK_CPU=1 JAVA=java JAVA_OPTS (more server JVM options)
# Writes OUT_DIR/compilation.log (LogCompilation's XML, large: keep it out of results/),
# OUT_DIR/codelist.txt, OUT_DIR/run.txt (what ran).
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:?mode}; OUT=${2:?out dir}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}; REQUESTS=${REQUESTS:-200000}; SETTLE=${SETTLE:-3}
PORT=${PORT:-18095}; APP=${APP:-servlet-jakarta}; JAVA=${JAVA:-java}
SERVER_CPU=${SERVER_CPU:-0}; WRK_CPU=${WRK_CPU:-1}
args=()
case $MODE in
  rule) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules.yaml) ;;
  nomatch) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-nomatch.yaml) ;;
  rule-noheaders) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-noheaders.yaml) ;;
  bucket4j-draft) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=draft) ;;
  none) ;;
  *) echo "MODE is none, rule, rule-noheaders, nomatch or bucket4j-draft" >&2; exit 2 ;;
esac
mkdir -p "$OUT"; OUT=$(readlink -f "$OUT")
URL=http://127.0.0.1:$PORT/hello
rm -f "$OUT/compilation.log"
PORT=$PORT taskset -c $SERVER_CPU $JAVA -Xms512m -Xmx512m -XX:+UnlockDiagnosticVMOptions \
  -XX:+LogCompilation -XX:LogFile="$OUT/compilation.log" ${JAVA_OPTS:-} "${args[@]}" \
  -jar test-apps/$APP/target/$APP.jar >"$OUT/app.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
until [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)" == 200 ]]; do
  kill -0 $PID 2>/dev/null || { cat "$OUT/app.log" >&2; exit 1; }; sleep 0.1
done
start=$(date +%s.%N)
done_dir=$(mktemp -d)
REQUESTS=$REQUESTS THREADS=2 DONE_DIR=$done_dir taskset -c $WRK_CPU wrk -t2 -c32 -d3600s \
  -s benchmarks/wrk-count.lua "$URL" >"$OUT/wrk.txt" &
WRK=$!
until [ "$(ls "$done_dir" | wc -l)" -ge 2 ]; do
  kill -0 $WRK 2>/dev/null || { echo "wrk ended before $REQUESTS responses" >&2; exit 1; }; sleep 0.2
done
end=$(date +%s.%N)
kill $WRK; wait $WRK 2>/dev/null || true; rm -rf "$done_dir"
sleep "$SETTLE" # compilations queued by the last requests finish
jcmd $PID Compiler.codelist >"$OUT/codelist.txt"
{
  echo "mode=$MODE agent=$AGENT ($(sha1sum "$AGENT" | cut -c1-12)) requests=$REQUESTS java=$($JAVA -version 2>&1 | head -1)"
  echo "warm-up: $REQUESTS responses in $(awk -v a="$start" -v b="$end" 'BEGIN{printf "%.1f", b-a}') s; load $(cut -d' ' -f1-3 /proc/loadavg)"
} >"$OUT/run.txt"
kill $PID; wait $PID 2>/dev/null || true # the JVM writes the compiler threads' logs into LogFile at exit
trap - EXIT
cat "$OUT/run.txt"
