#!/usr/bin/env bash
# Round trips to Redis per request for one agent jar with the lease rules (one hot key, one core).
# usage: calls-per-request.sh JAR LABEL
set -euo pipefail
cd /work/wt-lease2
JAR=$1; LABEL=$2; RP=16592; PORT=18392
taskset -c 0 redis-server --port $RP --save '' --appendonly no >/tmp/lease2/redis.log 2>&1 &
RPID=$!
for _ in $(seq 1 50); do redis-cli -p $RP ping >/dev/null 2>&1 && break; sleep 0.1; done
REDIS_URL=redis://127.0.0.1:$RP PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m -javaagent:$JAR=config=benchmarks/e2e-rules-redis-lease.yaml -jar test-apps/servlet-jakarta/target/servlet-jakarta.jar >/tmp/lease2/app-$LABEL.log 2>&1 &
APID=$!
for _ in $(seq 1 300); do curl -s -o /dev/null --max-time 1 http://127.0.0.1:$PORT/hello && break; sleep 0.2; done
taskset -c 0 wrk -t2 -c32 -d15s http://127.0.0.1:$PORT/hello >/dev/null
redis-cli -p $RP config resetstat >/dev/null
taskset -c 0 wrk -t2 -c32 -d10s http://127.0.0.1:$PORT/hello >/tmp/lease2/wrk-$LABEL.txt
redis-cli -p $RP info commandstats > /tmp/lease2/stats-$LABEL.txt
REQ=$(grep -o '[0-9]* requests in' /tmp/lease2/wrk-$LABEL.txt | cut -d' ' -f1)
CALLS=$(redis-cli -p $RP info commandstats | tr -d '\r' | grep -E '^cmdstat_(evalsha|eval):' | sed 's/^[^:]*:calls=\([0-9]*\).*/\1/' | paste -sd+ | bc)
echo "$LABEL: $REQ requests, $CALLS script calls, $(echo "scale=4; $CALLS/$REQ" | bc) per request; $(grep Requests/sec /tmp/lease2/wrk-$LABEL.txt)"
kill $APID; wait $APID 2>/dev/null || true
kill $RPID; wait $RPID 2>/dev/null || true
