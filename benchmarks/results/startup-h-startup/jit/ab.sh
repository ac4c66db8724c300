#!/usr/bin/env bash
# mode round -> wall, JVM CPU and the compiler threads' CPU at the first 200 (spring-boot3), no logging
cd /work/wt-startup
mode=$1; r=$2; PORT=18779; APP=${APP:-spring-boot3}
args=()
[ "$mode" = agent ] && args+=(-javaagent:/tmp/su/after2.jar=config=config-examples/quickstart.yaml)
[ "$mode" = before ] && args+=(-javaagent:/work/baseline/tollgate-agent-aaed529.jar=config=config-examples/quickstart.yaml)
PORT=$PORT java "${args[@]}" -jar test-apps/$APP/target/$APP.jar > /tmp/su/ab.log 2>&1 &
pid=$!
t0=$(date +%s%N)
until ! kill -0 $pid 2>/dev/null || [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://127.0.0.1:$PORT/hello)" = 200 ]; do sleep 0.01; done
t1=$(date +%s%N)
hz=$(getconf CLK_TCK)
cpu=$(awk -v hz=$hz '{ printf "%d", ($14 + $15) * 1000 / hz }' /proc/$pid/stat)
comp=0; main=0
for t in /proc/$pid/task/*; do s=$(cat $t/stat 2>/dev/null) || continue; comm=${s#*(}; comm=${comm%)*}; rest=${s##*) }; read -r -a f <<<"$rest"
  case $comm in C1\ *|C2\ *) comp=$((comp + (f[11]+f[12])*1000/hz));; esac; done
kill $pid; wait $pid 2>/dev/null
echo "$APP $mode $r wall=$(( (t1-t0)/1000000 )) cpu=$cpu compilers=$comp load=$(cut -d' ' -f1 /proc/loadavg)"
sleep 1
