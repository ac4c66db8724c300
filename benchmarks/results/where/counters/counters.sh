#!/usr/bin/env bash
# h-where, 2026-12-07 (eighth session): per-request counters without a profiler, PIN=1 (the server
# alone on CPU 0, wrk on CPU 1). For ROUNDS rounds of MODES, interleaved: starts servlet-jakarta,
# warms it WARMUP s under wrk -t2 -c32, then over DURATION s of wrk reads, from /proc, the server's
# CPU (all its threads), wrk's CPU, the server's read and write syscalls (/proc/PID/io syscr, syscw:
# read/recv and write/send calls; epoll_wait is in neither) and its context switches (voluntary,
# involuntary, summed over its threads), each per request. One line per run in OUT.
# usage: counters.sh OUT ROUNDS MODE...  (MODE: none rule rule-noheaders nomatch bucket4j
# bucket4j-draft bucket4j-padded); env AGENT APP_JAR PORT WARMUP DURATION
set -euo pipefail
cd "$(dirname "$0")/../../../.."
out=$1; rounds=$2; shift 2
AGENT=${AGENT:-agent/target/tollgate-agent.jar}; APP_JAR=${APP_JAR:-test-apps/servlet-jakarta/target/servlet-jakarta.jar}
PORT=${PORT:-18472}; WARMUP=${WARMUP:-20}; DURATION=${DURATION:-10}; URL=http://127.0.0.1:$PORT/hello
snap() { # wrk ticks, server ticks, syscr, syscw, voluntary cs, involuntary cs
  echo "$(awk '{print $14+$15}' /proc/$2/stat) $(awk '{print $14+$15}' /proc/$1/stat)" \
    "$(awk '/^syscr/{r=$2}/^syscw/{w=$2}END{print r, w}' /proc/$1/io)" \
    "$(cat /proc/$1/task/*/status 2>/dev/null | awk '/^voluntary_ctxt/{v+=$2}/^nonvoluntary_ctxt/{n+=$2}END{print v, n}')"
}
for r in $(seq 1 "$rounds"); do
  for m in "$@"; do
    case $m in
      rule) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules.yaml) ;;
      rule-noheaders) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-noheaders.yaml) ;;
      nomatch) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-nomatch.yaml) ;;
      bucket4j) args=(-Dtestapp.bucket4j=map) ;;
      bucket4j-draft) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=draft) ;;
      bucket4j-padded) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=padded) ;;
      none) args=() ;;
      *) echo "unknown mode $m" >&2; exit 2 ;;
    esac
    PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m "${args[@]}" -jar "$APP_JAR" >/tmp/where-counters-app.log 2>&1 &
    pid=$!
    until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)" = 200 ]; do
      kill -0 $pid 2>/dev/null || { cat /tmp/where-counters-app.log >&2; exit 1; }; sleep 0.1; done
    bytes=$(curl -s -D - "$URL" | wc -c)
    taskset -c 1 wrk -t2 -c32 -d"${WARMUP}s" "$URL" >/dev/null
    # wrk runs DURATION + 2 s; the counters are read 1 s in and DURATION s later, both while it runs,
    # and divided by its mean rate times the window (steady load: the window is inside the run)
    taskset -c 1 wrk -t2 -c32 -d"$((DURATION + 2))s" "$URL" >/tmp/where-counters-wrk.txt &
    wpid=$!; sleep 1
    t0=$(date +%s.%N); a=($(snap $pid $wpid)); sleep "$DURATION"; b=($(snap $pid $wpid)); t1=$(date +%s.%N)
    wait $wpid
    rps=$(grep -oE 'Requests/sec: *[0-9.]+' /tmp/where-counters-wrk.txt | grep -oE '[0-9.]+$')
    kill $pid; wait $pid 2>/dev/null || true
    python3 - "$m" "$r" "$bytes" "$rps" "$t0" "$t1" "$(getconf CLK_TCK)" "${a[@]}" "${b[@]}" <<'PY' | tee -a "$out"
import sys
m, r, nbytes, rps, t0, t1, hz = sys.argv[1:8]; a = list(map(int, sys.argv[8:14])); b = list(map(int, sys.argv[14:20]))
n = float(rps) * (float(t1) - float(t0)); d = [y - x for x, y in zip(a, b)]; us = 1e6 / int(hz) / n
print(f"{m:16s} round={r} response={nbytes}B req/s={float(rps):8.0f} server_us/req={d[1]*us:6.2f} wrk_us/req={d[0]*us:5.2f} "
      f"reads/req={d[2]/n:.3f} writes/req={d[3]/n:.3f} vcs/req={d[4]/n:.3f} ivcs/req={d[5]/n:.3f}")
PY
  done
done
