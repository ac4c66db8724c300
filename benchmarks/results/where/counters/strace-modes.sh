#!/usr/bin/env bash
# h-where: the server's system calls by kind per request (strace -c -f attached DURATION s under wrk, after
# WARMUP s of warm-up; ptrace slows the server several times, so the rates are not the real ones, the mix
# per request is). usage: strace-modes.sh OUTDIR MODE...  env AGENT APP_JAR PORT
set -euo pipefail
cd "$(dirname "$0")/../../../.."
outdir=$1; shift; mkdir -p "$outdir"
AGENT=${AGENT:-agent/target/tollgate-agent.jar}; APP_JAR=${APP_JAR:-test-apps/servlet-jakarta/target/servlet-jakarta.jar}
PORT=${PORT:-18473}; URL=http://127.0.0.1:$PORT/hello
for m in "$@"; do
  case $m in
    rule) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules.yaml) ;;
    rule-noheaders) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-noheaders.yaml) ;;
    bucket4j) args=(-Dtestapp.bucket4j=map) ;;
    bucket4j-draft) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=draft) ;;
    bucket4j-padded) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=padded) ;;
    none) args=() ;;
  esac
  PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m "${args[@]}" -jar "$APP_JAR" >/tmp/where-strace-app.log 2>&1 &
  pid=$!
  until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)" = 200 ]; do sleep 0.1; done
  taskset -c 1 wrk -t2 -c32 -d${WARMUP:-15}s "$URL" >/dev/null
  taskset -c 1 wrk -t2 -c32 -d$(( ${DURATION:-5} + 3 ))s "$URL" > "$outdir/$m-wrk.txt" &
  wpid=$!; sleep 1
  timeout -s INT ${DURATION:-5} strace -c -f -p $pid -o "$outdir/$m-strace.txt" || true
  wait $wpid; kill $pid; wait $pid 2>/dev/null || true
  echo "$m: $(grep -oE '[0-9]+ requests in' "$outdir/$m-wrk.txt")"; head -15 "$outdir/$m-strace.txt"
done
