#!/usr/bin/env bash
# usage: engine5-inl.sh MODE OUTFILE  (rule | none | bucket4j)
cd /work/wt-engine5
MODE=$1; OUT=$2; PORT=18533
args=()
case $MODE in
  rule) args=(-javaagent:agent/target/tollgate-agent.jar=config=benchmarks/e2e-rules.yaml) ;;
  rule-base) args=(-javaagent:/work/baseline/tollgate-agent-4d18742.jar=config=benchmarks/e2e-rules.yaml) ;;
  bucket4j) args=(-Dtestapp.bucket4j=map) ;;
esac
PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:+PrintInlining "${args[@]}" -jar test-apps/servlet-jakarta/target/servlet-jakarta.jar > "$OUT" 2>&1 &
PID=$!
until [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://127.0.0.1:$PORT/hello || true)" == 200 ]]; do sleep 0.2; done
taskset -c 0 wrk -t2 -c32 -d40s http://127.0.0.1:$PORT/hello > "$OUT.wrk"
kill $PID; wait $PID
