#!/usr/bin/env bash
# End-to-end overhead measured inside ONE JVM, to take out what differs from one JVM start to the
# next (the JIT's inlining choices, code and heap layout), which on this 2-core machine moves the
# bare app's throughput by ±15% and hides a few-percent cost (see benchmarks/HISTORY.md, section 3):
#
#   1. start APP without the agent, pinned to CPU 0 (wrk on CPU 1); warm up until the JIT settles;
#   2. measure SLICES slices of SLICE s:                                   mode "none";
#   3. attach the agent (java -jar tollgate-agent.jar attach PID config=FILE) with the one rule of
#      benchmarks/e2e-rules.yaml (matches GET /hello, never refuses); warm up until the JIT settles;
#   4. alternate, SLICES times: a slice with that rule in force           mode "rule",
#      and one with the rules file swapped for benchmarks/e2e-rules-nomatch.yaml  "nomatch"
#      (the agent reloads it within about a second; a 5 s unmeasured slice follows each swap),
#      the pair's order turning each time (rule first, then nomatch first, ...).
#
# "rule" against "nomatch" is the cost of deciding (same JVM, same code, alternating); "nomatch"
# against "none" is the cost of the advice being there at all (same JVM, before and after the
# attach; the retransformation recompiles the instrumented methods, hence the second warm-up).
# Each slice records wrk's requests/s and p99, and the server's CPU time per request split into the
# JIT compiler threads' share and the rest (/proc/PID/task/*/stat).
# START=premain instead starts the JVM with -javaagent (the rule in force from the start) and
# skips steps 2 and 3: rule against nomatch in a JVM that had the agent from its first class on.
# Output: benchmarks/results/e2e-same-jvm-APP.txt (e2e-same-jvm-premain-APP.txt with START=premain). Needs: mvn -B -q -o package -DskipTests, wrk,
# taskset. Usage: benchmarks/run-end-to-end-same-jvm.sh [APP]
# ALT_RULES=FILE ALT_NAME=NAME alternate "rule" with another file than the no-match one, e.g.
# ALT_RULES=benchmarks/e2e-rules-noheaders.yaml ALT_NAME=noheaders (the quota headers' cost).
# RULES_FILE=FILE puts another file in the place of e2e-rules.yaml ("rule"), e.g.
# benchmarks/e2e-rules-legacy.yaml (the X-RateLimit-* headers instead of the IETF ones).
#   env: AGENT=agent/target/tollgate-agent.jar OUT=(the file above) START=attach SLICES=6 SLICE=10 WARMUP=20 WARMUP_MAX=120 JIT_QUIET_MS=50 THREADS=2 CONNS=32 PORT=18092
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-servlet-jakarta}
SLICES=${SLICES:-6}; SLICE=${SLICE:-10}; WARMUP=${WARMUP:-20}; WARMUP_MAX=${WARMUP_MAX:-120}
ALT_RULES=${ALT_RULES:-benchmarks/e2e-rules-nomatch.yaml}; ALT_NAME=${ALT_NAME:-nomatch}
JIT_QUIET_MS=${JIT_QUIET_MS:-50}; THREADS=${THREADS:-2}; CONNS=${CONNS:-32}; PORT=${PORT:-18092}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
JAR=test-apps/$APP/target/$APP.jar
URL=http://127.0.0.1:$PORT/hello
START=${START:-attach}
DEFAULT_OUT=benchmarks/results/e2e-same-jvm-$APP.txt
[ "$START" = premain ] && DEFAULT_OUT=benchmarks/results/e2e-same-jvm-premain-$APP.txt
OUT=${OUT:-$DEFAULT_OUT}
HZ=$(getconf CLK_TCK)
work=$(mktemp -d)
RULES=$work/rules.yaml
RULES_FILE=${RULES_FILE:-benchmarks/e2e-rules.yaml}
cp "$RULES_FILE" "$RULES"
mkdir -p benchmarks/results

AGENT_ARGS=(); [ "$START" = premain ] && AGENT_ARGS=("-javaagent:$AGENT=config=$RULES")
PORT=$PORT taskset -c 0 java -Xms512m -Xmx512m "${AGENT_ARGS[@]}" -jar "$JAR" >"$work/app.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 600); do
  [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "$URL" || true)" = 200 ] && break
  kill -0 $PID 2>/dev/null || { cat "$work/app.log" >&2; exit 1; }
  sleep 0.1
done

ticks() { awk '{print $14 + $15}' /proc/$PID/stat; }
# shellcheck source=jit-ticks.sh
. benchmarks/jit-ticks.sh
load() { taskset -c 1 wrk -t"$THREADS" -c"$CONNS" -d"$1s" "${@:2}" "$URL"; }
warm_up() { # until the JIT used at most JIT_QUIET_MS in a 5 s slice, after at least WARMUP s
  local warmed=0 j0 ms
  while :; do
    j0=$(jit_ticks); load 5 >/dev/null; warmed=$((warmed + 5))
    ms=$(( ($(jit_ticks) - j0) * 1000 / HZ ))
    [ $warmed -ge "$WARMUP" ] && [ $ms -le "$JIT_QUIET_MS" ] && break
    [ $warmed -ge "$WARMUP_MAX" ] && { ms="$ms, never settled"; break; }
  done
  echo "# warm-up $1: $warmed s (JIT in the last 5 s: $ms ms)" | tee -a "$OUT"
}
slice() { # mode
  local c0 j0 out n
  c0=$(ticks); j0=$(jit_ticks)
  out=$(load "$SLICE" --latency)
  n=$(echo "$out" | grep -oE '[0-9]+ requests in' | cut -d' ' -f1)
  python3 - "$1" "$n" "$(($(ticks) - c0))" "$(($(jit_ticks) - j0))" "$HZ" "$out" <<'PY' | tee -a "$OUT"
import re, sys
mode, n, cpu, jit, hz, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), sys.argv[6]
rps = float(re.search(r'Requests/sec:\s+([\d.]+)', out).group(1))
def ms(v):
    x, u = re.match(r'([\d.]+)(us|ms|s)', v).groups(); return float(x) * {'us': 1e-3, 'ms': 1, 's': 1e3}[u]
p99 = ms(re.search(r'\s99%\s+(\S+)', out).group(1))
bad = re.search(r'Non-2xx or 3xx responses: (\d+)', out)
us = 1e6 / hz / n
print(f"{mode} rps={rps:.0f} p99_ms={p99:.3f} cpu_us={cpu * us:.2f} jit_us={jit * us:.2f} nonjit_us={(cpu - jit) * us:.2f}"
      + (f" NON2XX={bad.group(1)}" if bad else ""))
PY
}

{
  echo "# $(date -u +%FT%TZ) $APP same JVM ($START): none, then attach, then rule/nomatch alternating"
  echo "#   (with START=premain: the agent from the start, rule/nomatch alternating only);"
  echo "# $SLICES x ${SLICE}s slices, wrk -t$THREADS -c$CONNS, server on CPU 0 and wrk on CPU 1;"
  echo "# $(java -version 2>&1 | head -1); load=$(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$OUT"
if [ "$START" = attach ]; then
  warm_up none
  for _ in $(seq "$SLICES"); do slice none; done
  java -jar "$AGENT" attach "$PID" "config=$RULES" | tee -a "$OUT"
fi
warm_up agent
rule_slice() { cp "$RULES_FILE" "$RULES"; sleep 3; load 5 >/dev/null; slice rule; }
alt_slice() { cp "$ALT_RULES" "$RULES"; sleep 3; load 5 >/dev/null; slice "$ALT_NAME"; }
for i in $(seq "$SLICES"); do
  # which file goes first turns each pair, so that neither always follows the other. An A/A check
  # (the rule against a copy of itself) measured 105% with the rule always first and 96% turned:
  # this method resolves about 5% on the project's machine (benchmarks/HISTORY.md, section 3)
  if [ $((i % 2)) = 1 ]; then rule_slice; alt_slice; else alt_slice; rule_slice; fi
done
grep -c 'rules reloaded\|reloaded' "$work/app.log" | sed 's/^/# reload lines in the agent log: /' | tee -a "$OUT" || true

python3 - "$OUT" "$ALT_NAME" <<'PY' | tee -a "$OUT"
import re, statistics, sys, collections
rows = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) rps=(\S+) p99_ms=(\S+) cpu_us=(\S+) jit_us=(\S+) nonjit_us=(\S+)', line)
    if m:
        rows[m.group(1)].append([float(x) for x in m.groups()[1:]])
med = {k: [statistics.median(c) for c in zip(*v)] for k, v in rows.items()}
print()
print("| mode (medians of the slices) | req/s | p99 ms | server CPU µs/req | of which not JIT |")
print("|---|---|---|---|---|")
for k in ("none", "rule", sys.argv[2]):
    if k in med:
        r, p, c, j, nj = med[k]
        print(f"| {k} ({len(rows[k])} slices) | {r:,.0f} | {p:.3f} | {c:.2f} | {nj:.2f} |")
def ratio(a, b, what):
    if a in med and b in med:
        print(f"{a} / {b}: req/s {100 * med[a][0] / med[b][0]:.1f}%, p99 {100 * med[a][1] / med[b][1]:.1f}%,"
              f" CPU per request (not JIT) {100 * med[a][4] / med[b][4]:.1f}% ({what})")
print()
ratio("rule", sys.argv[2], "the cost of deciding" if sys.argv[2] == "nomatch" else "against the other file")
ratio(sys.argv[2], "none", "the cost of the advice being there" if sys.argv[2] == "nomatch" else "against the bare app")
ratio("rule", "none", "both")
PY
