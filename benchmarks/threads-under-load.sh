#!/usr/bin/env bash
# Which of the server's threads work and switch under load: servlet-jakarta on CPU 0, wrk on CPU 1
# (as run-end-to-end.sh runs them), 40 s of warm-up, then 10 s measured; per thread name (numbers
# folded into '#'), the threads' count, their context switches and CPU ticks (1/CLK_TCK s) in
# those 10 s. Shows whether an agent's own threads (or a pool it uses, such as Caffeine's
# maintenance executor, ForkJoinPool.commonPool) wake up per request. Only names with more than
# 100 switches or 5 ticks are listed.
# Usage: benchmarks/threads-under-load.sh [JVM ARGS...], e.g.
#   benchmarks/threads-under-load.sh -javaagent:agent/target/tollgate-agent.jar=config=benchmarks/e2e-rules.yaml
set -euo pipefail
cd "$(dirname "$0")/.."
PORT=${PORT:-18093}
URL=http://127.0.0.1:$PORT/hello
PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m "$@" \
  -jar test-apps/servlet-jakarta/target/servlet-jakarta.jar >/tmp/threads-under-load.$$.log 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true' EXIT
until curl -s -o /dev/null "$URL"; do
  kill -0 $PID 2>/dev/null || { cat /tmp/threads-under-load.$$.log >&2; exit 1; }
  sleep 0.2
done
taskset -c 1 wrk -t2 -c32 -d40s "$URL" >/dev/null

snapshot() { # thread-name count switches ticks, per name
  for t in /proc/$PID/task/*; do
    echo "$(tr ' ' '_' <"$t/comm") $(awk '/ctxt_switches/ { n += $2 } END { print n + 0 }' "$t/status") $(awk '{ print $14 + $15 }' "$t/stat")"
  done | awk '{ name = $1; gsub(/[0-9]+$/, "#", name); s[name] += $2; c[name] += $3; k[name]++ }
              END { for (n in s) print n, k[n], s[n], c[n] }' | sort
}
before=$(snapshot)
taskset -c 1 wrk -t2 -c32 -d10s "$URL" | grep -E "requests in|Requests/sec"
after=$(snapshot)
join <(echo "$before") <(echo "$after") | awk '{ ds = $6 - $3; dc = $7 - $4
  if (ds > 100 || dc > 5) printf "%-18s threads %3d  switches %8d  CPU ticks %6d\n", $1, $5, ds, dc }'
