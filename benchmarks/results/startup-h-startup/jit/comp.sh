#!/usr/bin/env bash
# mode round -> PrintCompilation lines up to the first 200
cd /work/wt-startup
mode=$1; r=$2; PORT=18777
args=(-XX:+PrintCompilation)
[ "$mode" = agent ] && args+=(-javaagent:/tmp/su/after.jar=config=config-examples/quickstart.yaml)
[ "$mode" = before ] && args+=(-javaagent:/work/baseline/tollgate-agent-aaed529.jar=config=config-examples/quickstart.yaml)
PORT=$PORT java "${args[@]}" ${EXTRA:-} ${LC:+-XX:+UnlockDiagnosticVMOptions -XX:+LogCompilation -XX:LogFile=/tmp/su/lc-${APP:-spring-boot3}-$mode-$r.xml} -jar test-apps/${APP:-spring-boot3}/target/${APP:-spring-boot3}.jar > /tmp/su/comp-$mode-$r.log 2>&1 &
pid=$!
t0=$(date +%s%N)
until ! kill -0 $pid 2>/dev/null || [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://127.0.0.1:$PORT/hello)" = 200 ]; do sleep 0.01; done
t1=$(date +%s%N)
cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) * 1000 / hz }' /proc/$pid/stat)
n=$(wc -l < /tmp/su/comp-$mode-$r.log)
cp /tmp/su/comp-$mode-$r.log /tmp/su/comp-$mode-$r.cut
kill $pid; wait $pid 2>/dev/null
echo "$mode $r wall=$(( (t1-t0)/1000000 )) cpu=$cpu lines=$n"
sleep 1
