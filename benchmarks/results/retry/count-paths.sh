#!/usr/bin/env bash
# scratch: run servlet-jakarta with the counting agent, the many-keys refused flood, print the detector's counts
cd /work/wt-retry
PORT=18741
PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m -javaagent:$1=config=benchmarks/e2e-rules-refused-many.yaml -jar test-apps/servlet-jakarta/target/servlet-jakarta.jar > /tmp/retry-count-app.log 2>&1 &
PID=$!
until [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://127.0.0.1:$PORT/hello || true)" =~ ^(200|429)$ ]]; do sleep 0.2; done
taskset -c 0 wrk -t2 -c32 -d${2:-40}s -s benchmarks/wrk-many-keys.lua http://127.0.0.1:$PORT/hello
kill $PID; wait $PID
grep scratch /tmp/retry-count-app.log
