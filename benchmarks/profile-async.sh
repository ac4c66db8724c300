#!/usr/bin/env bash
# Where the server's CPU goes per request, native code, the JIT and the kernel included: runs
# servlet-jakarta in MODE (none, rule, nomatch, rule-noheaders or noheaders, bucket4j,
# bucket4j-draft (the filter with the rule's two quota headers), bucket4j-padded (its one header
# padded to the two's length: the same response size), redis,
# redis-lease, refused: as in run-end-to-end.sh; refused answers every request after the first
# with the rule's 429) pinned to CPU 0 with wrk on CPU 1 (PIN=same: both on CPU 0,
# as the one-core end-to-end runs; for the redis modes, Redis: REDIS_URL, or a redis-server started
# here on CPU 1, port 16398), warms up WARMUP s, then samples DURATION s with async-profiler (itimer:
# this VM has no perf events) and stops. Prints the share of samples under Tollgate's request
# entry, a tree of what is under it, and the server's CPU per request (from /proc over the sampled
# run) split by frame families (Tomcat's header writing, the socket write, the JIT...): each
# family's share of the samples times the CPU per request, comparable across modes and builds. One
# sample is not one interval of CPU (itimer signals are coalesced), so raw counts are not
# microseconds.
# async-profiler comes from Maven Central (tools.profiler:async-profiler:4.1, which carries the
# Linux x64 library), fetched once into the local Maven repository.
# Output: benchmarks/results/profile-async-MODE.collapsed (collapsed stacks) and
#   profile-async-MODE.txt. Usage: benchmarks/profile-async.sh [MODE]
#   env: WARMUP=40 DURATION=15 PORT=18094 APP=servlet-jakarta AGENT=agent/target/tollgate-agent.jar PIN=1
#        SERVER_CPU=0 WRK_CPU=1 (the cores, e.g. SERVER_CPU=1 PIN=same beside another run on CPU 0)
#        OUT=benchmarks/results/profile-async-MODE (where the two files go, without extension)
#        INTERVAL=1ms (the sampling interval; on this VM itimer delivers ~85-170 samples a second
#        whatever it is: 100us gave no more samples than 1ms; longer DURATION or more runs do)
#        JAVA_OPTS (the server's JVM options, e.g. -XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints
#        to place samples inside inlined code)
#        KEYS=many: wrk names one of 10,000 clients per request (wrk-many-keys.lua) and the rule,
#        redis, redis-lease and refused modes key by it, as run-end-to-end.sh's KEYS=many
#        REDIS_PORT=16398 (the redis-server started here)
set -euo pipefail
cd "$(dirname "$0")/.."
MODE=${1:-rule}; WARMUP=${WARMUP:-40}; DURATION=${DURATION:-15}; PORT=${PORT:-18094}
KEYS=${KEYS:-one}; MANY=""; WRK_SCRIPT=()
[ "$KEYS" = many ] && { MANY=-many; WRK_SCRIPT=(-s benchmarks/wrk-many-keys.lua); }
REDIS_PORT=${REDIS_PORT:-16398}
APP=${APP:-servlet-jakarta}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
AP_VERSION=4.1
AP_JAR=$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar
[ -f "$AP_JAR" ] || mvn -B -q dependency:get -Dartifact=tools.profiler:async-profiler:$AP_VERSION
work=$(mktemp -d)
unzip -q -o "$AP_JAR" linux-x64/libasyncProfiler.so -d "$work"
LIB=$work/linux-x64/libasyncProfiler.so
OUT=${OUT:-benchmarks/results/profile-async-$MODE}
args=()
case $MODE in
  rule) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules$MANY.yaml) ;;
  nomatch) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-nomatch.yaml) ;;
  noheaders|rule-noheaders) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-noheaders.yaml) ;;
  bucket4j) args=(-Dtestapp.bucket4j=map) ;;
  bucket4j-draft) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=draft) ;;
  bucket4j-padded) args=(-Dtestapp.bucket4j=map -Dtestapp.bucket4j.headers=padded) ;;
  redis) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-redis$MANY.yaml) ;;
  redis-lease) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-redis-lease$MANY.yaml) ;;
  refused) args=(-javaagent:$AGENT=config=benchmarks/e2e-rules-refused$MANY.yaml) ;;
  none) ;;
  *) echo "MODE is none, rule, nomatch, rule-noheaders (noheaders), bucket4j, bucket4j-draft, bucket4j-padded, redis, redis-lease or refused" >&2; exit 2 ;;
esac
SERVER_CPU=${SERVER_CPU:-0}; WRK_CPU=${WRK_CPU:-1}; [ "${PIN:-1}" = same ] && WRK_CPU=$SERVER_CPU
REDIS_PID=""
if [[ $MODE == redis* && -z "${REDIS_URL:-}" ]]; then
  taskset -c 1 redis-server --port "$REDIS_PORT" --save '' --appendonly no --daemonize no >"$work/redis.log" 2>&1 &
  REDIS_PID=$!
  export REDIS_URL=redis://127.0.0.1:$REDIS_PORT
  for _ in $(seq 1 100); do redis-cli -p "$REDIS_PORT" ping >/dev/null 2>&1 && break; sleep 0.1; done
fi
export REDIS_URL=${REDIS_URL:-}
URL=http://127.0.0.1:$PORT/hello
PORT=$PORT taskset -c $SERVER_CPU java -Xms512m -Xmx512m ${JAVA_OPTS:-} "${args[@]}" -jar test-apps/$APP/target/$APP.jar >"$work/app.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; [ -z "$REDIS_PID" ] || kill $REDIS_PID 2>/dev/null || true; rm -rf "$work"' EXIT
# up: a 200, or in the refused mode the 429 of a request after the first
until [[ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)" =~ ^(200|429)$ ]]; do
  kill -0 $PID 2>/dev/null || { cat "$work/app.log" >&2; exit 1; }; sleep 0.1
done
taskset -c $WRK_CPU wrk -t2 -c32 -d"${WARMUP}s" "${WRK_SCRIPT[@]}" "$URL" >/dev/null
java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.LoadAgentPath $PID "$LIB" start,event=itimer,interval=${INTERVAL:-1ms}
cpu0=$(awk '{print $14 + $15}' /proc/$PID/stat)
requests=$(taskset -c $WRK_CPU wrk -t2 -c32 -d"${DURATION}s" "${WRK_SCRIPT[@]}" "$URL" | tee "$work/wrk.txt" | grep -oE '[0-9]+ requests in' | cut -d' ' -f1)
cpu_us=$(awk -v t0="$cpu0" -v hz="$(getconf CLK_TCK)" -v n="$requests" '{printf "%.2f", ($14 + $15 - t0) * 1e6 / hz / n}' /proc/$PID/stat)
java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.LoadAgentPath $PID "$LIB" "stop,collapsed,file=$(readlink -f "$(dirname "$OUT")")/$(basename "$OUT").collapsed"
python3 - "$OUT.collapsed" "$requests" "$MODE" "$cpu_us" <<'PY' | tee "$OUT.txt"
import collections, sys
stacks = []
for line in open(sys.argv[1]):
    s, _, n = line.rstrip().rpartition(' ')
    stacks.append((s.split(';'), int(n)))
total = sum(n for _, n in stacks); requests = int(sys.argv[2]); cpu = float(sys.argv[4])
print(f"mode {sys.argv[3]}: {total} samples over {requests} requests = {1000 * total / requests:.2f} per 1,000 requests; server CPU {cpu:.2f} us per request")
jit = sum(n for f, n in stacks if any(x.startswith('CompileBroker::') for x in f))
print(f"JIT compiler threads: {jit} samples ({100 * jit / total:.1f}%)")
# Frame families, each the samples with any frame that holds one of its strings (a sample counts
# once per family; families overlap where one calls the other, as toBytes under sendHeader).
families = [
    ('Tollgate, request start (TollgateBridge.enter)', ['io/tollgate/bootstrap/TollgateBridge.enter']),
    ('Tollgate, request end (TollgateBridge.exit)', ['io/tollgate/bootstrap/TollgateBridge.exit']),
    ('  of which a refusal written (ServletExchange.writeRefusal)', ['ServletExchange.writeRefusal']),
    ('  of which a refusal\'s bookkeeping (log, early retries: TollgateGate.refused)', ['TollgateGate.refused']),
    ('  of which a refusal\'s value (TollgateGate.refusalOf)', ['TollgateGate.refusalOf']),
    ('  of which the rule metrics (DecisionMetrics.record)', ['DecisionMetrics.record']),
    ('  of which Tomcat Request get/setAttribute', ['connector/Request.setAttribute', 'connector/Request.getAttribute']),
    ('  of which Tomcat Response.setHeader (strings)', ['connector/Response.setHeader']),
    ('  of which the quota headers as bytes (TomcatResponseHeaders)', ['TomcatResponseHeaders.set']),
    ('Tomcat writing response headers (Http11OutputBuffer.sendHeader)', ['Http11OutputBuffer.sendHeader']),
    ('  of which MessageBytes.toBytes (a string to bytes)', ['MessageBytes.toBytes']),
    ('Tomcat preparing the response (Http11Processor.prepareResponse)', ['Http11Processor.prepareResponse']),
    ('the socket write (NioChannel/SocketChannel write, kernel)', ['SocketChannelImpl.write', 'IOUtil.write']),
    ('the socket read', ['SocketChannelImpl.read', 'IOUtil.read']),
    ('the application filter chain (ApplicationFilterChain.doFilter)', ['ApplicationFilterChain.doFilter']),
    ('the hand-written Bucket4j filter', ['Bucket4jRateLimitFilter']),
    ('Tollgate\'s stores (io/tollgate/stores: Redis, leases, the failure policy)', ['io/tollgate/stores/']),
    ('  of which the leases (TokenLeaseStore)', ['TokenLeaseStore.']),
    ('  of which a Caffeine cache (the leases\' keys, the policy store\'s shares)', ['caffeine/cache/']),
    ('  of which the key (RedisKeys, a hash of the client key)', ['RedisKeys.', 'MessageDigest']),
    ('the Redis client, any thread (Lettuce, Netty)', ['lettuce/', 'io/netty/', 'netty/']),
    ('the Redis client\'s event loop (NioEventLoop.run)', ['NioEventLoop.run']),
    ('a request thread waiting for a reply (park)', ['LockSupport.park', 'Unsafe.park']),
    ('GC', ['G1', 'GCTask', 'gc/']),
    ('JIT compiler', ['CompileBroker::']),
]
print(f"| frames | samples | share | us per request |")
for name, keys in families:
    n = sum(c for f, c in stacks if any(k in x for x in f for k in keys))
    print(f"| {name} | {n} | {100 * n / total:.1f}% | {cpu * n / total:.3f} |")
entry = 'io/tollgate/bootstrap/TollgateBridge.enter'
under = [(f[f.index(entry):], n) for f, n in stacks if entry in f]
inside = sum(n for _, n in under)
print(f"under {entry}: {inside} samples ({100 * inside / total:.1f}% of all)")
tree = collections.Counter()
for f, n in under:
    for d in range(2, min(len(f), 6) + 1):
        tree[tuple(f[1:d])] += n
def show(prefix, depth):
    kids = sorted(((k, v) for k, v in tree.items() if len(k) == len(prefix) + 1 and k[:len(prefix)] == prefix), key=lambda kv: -kv[1])
    for k, v in kids:
        if v * 50 >= inside:  # 2% of the agent's samples or more
            print('  ' * (depth + 1) + f"{v:5d} {k[-1].split('/')[-1][:100]}")
            show(k, depth + 1)
show((), 0)
# The Redis client's I/O thread (Lettuce's Netty event loop) and the app's other threads, per
# 1,000 requests; then the frames that use the most CPU themselves, over every thread.
loop = sum(n for f, n in stacks if any('NioEventLoop.run' in x for x in f))
print(f"Redis client event loop (NioEventLoop.run): {loop} samples = {1000 * loop / requests:.2f} per 1,000 requests")
print(f"request threads (under {entry.split('/')[-1]}): {inside} samples = {1000 * inside / requests:.2f} per 1,000 requests")
leaf = collections.Counter()
for f, n in stacks:
    leaf[f[-1]] += n
print("top frames by own samples (per 1,000 requests):")
for k, v in leaf.most_common(25):
    print(f"  {1000 * v / requests:6.3f} {k[:110]}")
PY
