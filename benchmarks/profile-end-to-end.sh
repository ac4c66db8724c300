#!/usr/bin/env bash
# Where the per-request time goes with the agent: runs APP with the agent and CONFIG under JFR
# (settings=profile, method sampling every 1 ms) while wrk loads GET /hello (15 s warm-up, 20 s recorded), then counts the
# execution samples whose stack contains a frame of the agent (io.tollgate.*, not the test app's
# io.tollgate.testapps), and the top frames under it.
# Output: benchmarks/results/profile-e2e-APP.txt. Usage: benchmarks/profile-end-to-end.sh [APP] [CONFIG]
#   env: AGENT=agent/target/tollgate-agent.jar (profile another build) OUT=path (output file)
#        DURATION=20 (seconds recorded) KEEP_JFR=path (keep the recording there)
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-servlet-jakarta}; CONFIG=${2:-benchmarks/e2e-rules.yaml}; PORT=${PORT:-18093}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}; DURATION=${DURATION:-20}
JFR=${KEEP_JFR:-/tmp/tollgate-e2e-$$.jfr}; OUT=${OUT:-benchmarks/results/profile-e2e-$APP.txt}
PORT=$PORT java -Xms512m -Xmx512m -javaagent:$AGENT=config=$CONFIG \
  -jar test-apps/$APP/target/$APP.jar >/dev/null 2>&1 &
pid=$!
until [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 http://127.0.0.1:$PORT/hello || true)" = 200 ]; do sleep 0.1; done
wrk -t2 -c32 -d15s http://127.0.0.1:$PORT/hello >/dev/null
# JFR's "profile" settings with method sampling at its "max" (every 1 ms instead of 10 ms), for
# enough samples to tell a 1% cost from noise
JFC=/tmp/tollgate-e2e-$$.jfc
sed 's|control="method-sampling-java-interval">[^<]*<|control="method-sampling-java-interval">1 ms<|' \
  "$(dirname "$(readlink -f "$(command -v java)")")/../lib/jfr/profile.jfc" >"$JFC"
jcmd $pid JFR.start name=e2e settings=$JFC filename=$JFR >/dev/null
wrk -t2 -c32 -d${DURATION}s http://127.0.0.1:$PORT/hello | grep Requests/sec
jcmd $pid JFR.stop name=e2e >/dev/null
kill $pid; wait $pid 2>/dev/null || true
jfr print --events jdk.ExecutionSample --stack-depth 64 $JFR | python3 -c '
import sys, re, collections
samples = sys.stdin.read().split("jdk.ExecutionSample")[1:]
top = collections.Counter(); inside = collections.Counter(); tg = 0
for s in samples:
    frames = re.findall(r"^\s+([\w.$<>]+)\(", s, re.M)
    if not frames: continue
    top[frames[0]] += 1
    t = [f for f in frames if f.startswith("io.tollgate") and not f.startswith("io.tollgate.testapps")]
    if t:
        tg += 1
        for f in set(frames[:frames.index(t[-1]) + 1]): inside[f] += 1
n = len(samples)
print(f"{n} execution samples; {tg} ({100*tg/max(n,1):.1f}%) have a Tollgate frame on the stack")
print("\ntop frames (self), all samples:")
for f, c in top.most_common(25): print(f"{c:6d} {100*c/n:5.1f}%  {f}")
print("\nframes under a Tollgate frame (inclusive, samples with a Tollgate frame):")
for f, c in inside.most_common(60): print(f"{c:6d} {100*c/n:5.1f}%  {f}")
' | tee "$OUT"
rm -f "$JFC"; [ -n "${KEEP_JFR:-}" ] || rm -f $JFR
