#!/usr/bin/env bash
# What one request costs the server in system calls and bytes on the wire, mode by mode: does a
# refused request (a flood's common case) write more often, write more, read more, or go back to
# the poller more often than an allowed one? Each MODE (none, rule, refused, refused-baseline:
# the rules of run-end-to-end.sh) starts APP on CPU 0 with wrk beside it (PIN=same, as the
# one-core end-to-end runs), warms it WARMUP s, then counts over DURATION s of wrk:
#   - from /proc/PID/io (no privileges): read and write system calls per request (syscr, syscw:
#     every read/recv and write/send/writev the JVM made) and bytes read and written per request
#     (rchar, wchar: the socket bytes, with the little the JVM itself reads and writes);
#   - with perf (tracepoints: root, or perf_event_paranoid <= 1): each system call on the
#     request path per request (read, write, writev, epoll_ctl, epoll_wait, futex, accept,
#     close) and context switches; "perf: not available" otherwise;
#   - the response itself: status line, headers and body size, from curl after the run.
# The modes alternate within a round, as in run-end-to-end.sh. Counts of system calls do not
# depend on the machine's load the way times do, which is why they are worth taking on a busy
# machine; one connection in 100 is closed and reopened by Tomcat's maxKeepAliveRequests, which
# shows as ~0.01 accept per request.
# usage: benchmarks/wire-per-request.sh APP ROUNDS MODE...
#   env: PORT=18097 WARMUP=25 DURATION=5 AGENT=agent/target/tollgate-agent.jar
#        BASELINE_AGENT (for refused-baseline) RES=benchmarks/results/wire (output directory)
#        KEYS=many: wrk names one of 10,000 clients (wrk-many-keys.lua), the rules key by it,
#        as run-end-to-end.sh's KEYS=many
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:?usage: wire-per-request.sh APP ROUNDS MODE...}; ROUNDS=${2:?}; shift 2
MODES=("$@"); [ ${#MODES[@]} -gt 0 ] || MODES=(rule refused)
PORT=${PORT:-18097}; WARMUP=${WARMUP:-25}; DURATION=${DURATION:-5}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
RES=${RES:-benchmarks/results/wire}
URL=http://127.0.0.1:$PORT/hello
mkdir -p "$RES"
MANY=""; WRK_SCRIPT=(); CLIENT=()
[ "${KEYS:-one}" = many ] &&
  { MANY=-many; WRK_SCRIPT=(-s benchmarks/wrk-many-keys.lua); CLIENT=(-H "X-Client: client-1"); }
CALLS=(read write writev epoll_ctl epoll_wait futex accept close)
EVENTS=$(printf 'syscalls:sys_enter_%s,' "${CALLS[@]}")context-switches
PERF=0
perf stat -e syscalls:sys_enter_write -- true >/dev/null 2>&1 && PERF=1

io() { awk '{ printf "%s ", $2 } END { print "" }' "/proc/$1/io"; } # rchar wchar syscr syscw ...

run_mode() { # mode round
  local mode=$1 r=$2 args=() out="$RES/wire-$APP-$1-r$2"
  case $mode in
    none) ;;
    rule) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules$MANY.yaml) ;;
    refused) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-refused$MANY.yaml) ;;
    refused-baseline) args=(-javaagent:${BASELINE_AGENT:?set BASELINE_AGENT}=config=benchmarks/e2e-rules-refused$MANY.yaml) ;;
    *) echo "MODE is none, rule, refused or refused-baseline" >&2; exit 2 ;;
  esac
  if curl -s -o /dev/null --max-time 1 "$URL"; then
    echo "port $PORT is already served by another process: stop it, or set PORT" >&2; exit 1
  fi
  PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m "${args[@]}" -jar "test-apps/$APP/target/$APP.jar" \
    >"$out.log" 2>&1 &
  local pid=$! code
  for _ in $(seq 1 600); do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)
    [ "$code" = 200 ] || [ "$code" = 429 ] && break
    kill -0 $pid 2>/dev/null || { cat "$out.log" >&2; exit 1; }
    sleep 0.1
  done
  taskset -c 0 wrk -t2 -c32 -d"${WARMUP}s" "${WRK_SCRIPT[@]}" "$URL" >/dev/null
  local before perf_pid=""
  [ $PERF = 1 ] && { perf stat -x, -e "$EVENTS" -p $pid -o "$out.perf" & perf_pid=$!; sleep 0.3; }
  before=$(io $pid)
  taskset -c 0 wrk -t2 -c32 -d"${DURATION}s" "${WRK_SCRIPT[@]}" "$URL" >"$out.wrk"
  local after; after=$(io $pid)
  [ -n "$perf_pid" ] && { kill -INT $perf_pid; wait $perf_pid || true; }
  local n; n=$(grep -oE '^ +[0-9]+ requests' "$out.wrk" | grep -oE '[0-9]+')
  curl -s "${CLIENT[@]}" -D "$out.head" -o "$out.body" "$URL"
  kill $pid; wait $pid 2>/dev/null || true
  while curl -s -o /dev/null --max-time 1 "$URL"; do sleep 0.1; done
  python3 - "$mode" "$r" "$n" "$before" "$after" "$out" $PERF >>"$RES/wire-$APP.txt" <<'PY'
import sys, os
mode, r, n, before, after, out, perf = sys.argv[1:8]; n = int(n)
b = [int(x) for x in before.split()]; a = [int(x) for x in after.split()]
rchar, wchar, syscr, syscw = [(a[i] - b[i]) / n for i in range(4)]
head = open(out + '.head', 'rb').read(); body = os.path.getsize(out + '.body')
status = head.split(b'\r\n', 1)[0].decode()
line = (f"{mode:17s} r{r}  {n:8d} req  reads {syscr:5.2f}  writes {syscw:5.2f}  bytes in {rchar:6.0f}"
        f"  out {wchar:6.0f} /req  response: {status!r}, head {len(head)} + body {body} B")
if perf == '1' and os.path.exists(out + '.perf'):
    counts = {}
    for l in open(out + '.perf'):
        f = l.strip().split(',')
        if len(f) > 2 and f[0].replace('.', '').isdigit():
            counts[f[2].replace('syscalls:sys_enter_', '')] = float(f[0]) / n
    line += "\n    perf: " + "  ".join(f"{k} {v:.3f}" for k, v in counts.items())
else:
    line += "\n    perf: not available"
print(line)
PY
  tail -2 "$RES/wire-$APP.txt"
}

echo "# $(date -u +%FT%TZ) $APP rounds=$ROUNDS modes=${MODES[*]} keys=${KEYS:-one} agent=$AGENT baseline=${BASELINE_AGENT:-none} wrk -t2 -c32 -d${DURATION}s after ${WARMUP}s, both on CPU 0; load=$(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/wire-$APP.txt"
for r in $(seq 1 "$ROUNDS"); do
  for k in "${!MODES[@]}"; do
    run_mode "${MODES[$(( (k + r - 1) % ${#MODES[@]} ))]}" "$r"
  done
done
