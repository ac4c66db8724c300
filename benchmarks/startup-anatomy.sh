#!/usr/bin/env bash
# What the agent adds to an application's start, by thread and by kind: launches APP once per mode
# (none, agent, and before with BEFORE_AGENT=<an older jar>), the modes alternating ROUNDS times,
# each with -Xlog:class+load (uptime and thread id) and async-profiler (itimer, per thread) from the
# JVM's start, polls GET /hello every 10 ms, and at the first 200 stops the profiler and counts,
# up to that moment only:
#   - the classes loaded, by kind (the JDK's from its class-data archive, the JDK's read from jrt:,
#     spun at run time, the agent's, the application's) and by thread (main, the first request's,
#     the agent's start-up thread, others);
#   - the profile's samples by thread, and those in the agent's frames on the application's main
#     thread (premain, the class file transformer) and on the other threads;
#   - the first 200's own time (curl's time_total: the first request's cold path, the agent's
#     first decision included).
# Counts and shares, not timings: a busy machine changes the wall times, not what is loaded.
# Output: $RES/anatomy-APP-MODE-ROUND.{classes.log,collapsed,threads.txt} and $RES/anatomy-APP.txt.
# Usage: benchmarks/startup-anatomy.sh [APP] [ROUNDS]
#   env: PORT=18391 BEFORE_AGENT= MODES="agent before" RES= PROFILE=1 JAVA_OPTS= (more JVM options) ANALYZE_ONLY=1 (the summary again)
# Needs: mvn -B -q -o install -DskipTests (the agent, the test apps, benchmarks/target/benchmarks.jar).
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-spring-boot3}; ROUNDS=${2:-1}
PORT=${PORT:-18391}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
BEFORE_AGENT=${BEFORE_AGENT:-}
CONFIG=config-examples/quickstart.yaml
RES=${RES:-benchmarks/results/startup-anatomy}
PROFILE=${PROFILE:-1}
if [ -n "${MODES:-}" ]; then read -r -a MODES <<<"$MODES"; else MODES=(none agent); [ -n "$BEFORE_AGENT" ] && MODES+=(before); fi
mkdir -p "$RES"
AP_VERSION=4.1
AP_JAR=$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION.jar
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
LIB=""
if [ "$PROFILE" = 1 ]; then
  [ -f "$AP_JAR" ] || mvn -B -q dependency:get -Dartifact=tools.profiler:async-profiler:$AP_VERSION
  unzip -q -o "$AP_JAR" linux-x64/libasyncProfiler.so -d "$work"
  LIB=$work/linux-x64/libasyncProfiler.so
fi
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

one_run() { # mode round
  local mode=$1 round=$2 base pid t0 t1 reply
  base=$RES/anatomy-$APP-$mode-$round
  local args=(-Xlog:class+load:file=$base.classes.log:uptime,tid ${JAVA_OPTS:-})
  [ -n "$LIB" ] && args+=(-agentpath:$LIB=start,event=itimer,interval=1ms,threads)
  [ "$mode" = agent ] && args+=(-javaagent:$AGENT=config=$CONFIG)
  [ "$mode" = before ] && args+=(-javaagent:$BEFORE_AGENT=config=$CONFIG)
  t0=$(now_ms)
  PORT=$PORT java "${args[@]}" -jar test-apps/$APP/target/$APP.jar >"$base.out" 2>&1 &
  pid=$!
  while :; do
    reply=$(curl -s -o /dev/null -w '%{http_code} %{time_total}' --max-time 5 "http://127.0.0.1:$PORT/hello" || true)
    [ "${reply%% *}" = 200 ] && break
    kill -0 $pid 2>/dev/null || { echo "FAILED $APP $mode" >&2; cat "$base.out" >&2; exit 1; }
    sleep 0.01
  done
  t1=$(now_ms)
  local cpu; cpu=$(awk -v hz="$(getconf CLK_TCK)" '{ printf "%d", ($14 + $15) * 1000 / hz }' /proc/$pid/stat)
  if [ -n "$LIB" ]; then
    java -cp benchmarks/target/benchmarks.jar io.tollgate.benchmarks.LoadAgentPath $pid "$LIB" \
      "stop,collapsed,threads,file=$(readlink -f "$base").collapsed" >/dev/null
  fi
  jcmd $pid Thread.print >"$base.threads.txt" 2>/dev/null || true
  kill $pid; wait $pid 2>/dev/null || true
  while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/hello"; do sleep 0.1; done
  echo "$mode $round $(( t1 - t0 )) $cpu ${reply#* }" >>"$RES/anatomy-$APP-runs.txt"
  sleep 1
}

if [ -z "${ANALYZE_ONLY:-}" ]; then
: >"$RES/anatomy-$APP-runs.txt"
echo "# $(date -u +%FT%TZ) load=$(cut -d' ' -f1-3 /proc/loadavg) mode round ms_to_first_200 jvm_cpu_ms first_200_time_total_s" \
  >>"$RES/anatomy-$APP-runs.txt"
for i in $(seq 1 "$ROUNDS"); do
  for k in "${!MODES[@]}"; do one_run "${MODES[$(( (k + i - 1) % ${#MODES[@]} ))]}" "$i"; done
done
fi

python3 - "$RES" "$APP" <<'PY' | tee "$RES/anatomy-$APP.txt"
import collections, glob, gzip, os, re, sys
res, app = sys.argv[1], sys.argv[2]
runs = {}
for line in open(f"{res}/anatomy-{app}-runs.txt"):
    if line.startswith('#'): print(line.strip()); continue
    mode, rnd, ms, cpu, first = line.split()
    runs[(mode, rnd)] = (int(ms), int(cpu), float(first))
line_re = re.compile(r'^\[(\d+\.\d+)s\]\[(\d+)\]\S*\s+(\S+) source: (.*)$')
def ours(name):
    # the agent's, not the test apps' (io.tollgate.testapps)
    return name.startswith('io.tollgate.') and not name.startswith('io.tollgate.testapps')
def kind(name, source):
    if ours(name): return 'agent'
    if source.startswith('shared objects file'): return 'jdk, archived'
    if source.startswith('jrt:'): return 'jdk, read'
    if '__' in source or 'Lambda' in name or '/0x' in name: return 'spun'
    return 'application'
def thread_names(path):
    names = {}
    if os.path.exists(path):
        for l in open(path):
            m = re.match(r'^"([^"]+)".*nid=(0x[0-9a-f]+)', l)
            if m: names[int(m.group(2), 16)] = m.group(1)
    return names
def role(name):
    if name is None: return 'ended (tollgate-start, ...)'
    if name in ('main', 'DestroyJavaVM'): return 'main'  # Spring Boot's main thread ends: renamed
    if 'exec' in name: return 'request threads'
    if name.startswith('tollgate'): return name
    return 'other'
for (mode, rnd), (ms, cpu, first) in sorted(runs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
    base = f"{res}/anatomy-{app}-{mode}-{rnd}"
    names = thread_names(base + '.threads.txt')
    limit = ms / 1000.0
    kinds = collections.Counter(); by_thread = collections.Counter(); agent_by_thread = collections.Counter()
    log = base + '.classes.log'
    for l in (open(log) if os.path.exists(log) else gzip.open(log + '.gz', 'rt')):
        m = line_re.match(l)
        if not m or float(m.group(1)) > limit: continue
        k = kind(m.group(3), m.group(4)); r = role(names.get(int(m.group(2))))
        kinds[k] += 1; by_thread[r] += 1
        if k == 'agent': agent_by_thread[r] += 1
    print(f"\n## {app} {mode} round {rnd}: first 200 after {ms} ms, JVM CPU {cpu} ms, the first 200 itself {first*1000:.0f} ms")
    print(f"classes loaded by then: {sum(kinds.values())}: " + ', '.join(f"{k} {v}" for k, v in kinds.most_common()))
    print("  by thread: " + ', '.join(f"{k} {v}" for k, v in by_thread.most_common()))
    if agent_by_thread: print("  the agent's, by thread: " + ', '.join(f"{k} {v}" for k, v in agent_by_thread.most_common()))
    if not os.path.exists(base + '.collapsed'): continue
    samples = collections.Counter(); agent = collections.Counter(); total = 0
    frames = collections.Counter()
    for l in open(base + '.collapsed'):
        s, _, n = l.rstrip().rpartition(' '); n = int(n); f = s.split(';')
        t = f[0]
        m = re.match(r'^\[(.*?) tid=(\d+)\]$', t)
        tname = m.group(1) if m else t
        r = 'compiler' if 'CompilerThre' in tname else role(tname) if m else 'other'
        if tname.startswith('GC') or tname.startswith('G1'): r = 'GC'
        samples[r] += n; total += n
        ours_ = [x for x in f if ours(x.replace('/', '.'))]
        if ours_:
            agent[r] += n
            if r == 'main':
                top = next((x for x in f if 'WeavingTransformer.transform' in x or 'TollgateAgent.premain' in x), ours_[0])
                frames[top.split('/')[-1]] += n
    print(f"profile: {total} samples: " + ', '.join(f"{k} {v}" for k, v in samples.most_common()))
    print("  in the agent's frames: " + ', '.join(f"{k} {v}" for k, v in agent.most_common()))
    if frames: print("  on main, under: " + ', '.join(f"{k} {v}" for k, v in frames.most_common(6)))
PY
