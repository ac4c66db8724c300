#!/usr/bin/env bash
# Start-up time: from launching `java -jar` to the first 200 on GET /hello, for the test apps
# servlet-jakarta and spring-boot3, without the agent and with it (quickstart.yaml), RUNS runs each,
# alternating (run i of every app/mode before run i+1), the modes' order turned by one place each
# round so that no mode always starts in the same place (an A/A check, the same start-up code as
# "agent" and "before": +171 / +358 ms in fixed places, +169 / +192 ms turned; benchmarks/HISTORY.md
# section 5). Polls the port every 10 ms with curl.
# Also the agent jar's size and what takes the space.
# Output (in $RES, default benchmarks/results): startup.txt (raw ms per run), startup-summary.txt, and
# startup-agent-ready.txt (the agent's "ready" line of each run: premain, start-up thread CPU) and
# startup-threads.txt (the CPU of the live threads at the first 200, by group: main, the JIT's
# compilers, the request threads, GC, the agent's, other).
# Needs: mvn -B -q -o package -DskipTests first. Usage: benchmarks/run-startup.sh [RUNS] [APPS...]
# TIMEOUT_MS (default 60000): how long a start may take before the run stops (a busy machine).
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}; shift || true
APPS=("$@"); [ ${#APPS[@]} -gt 0 ] || APPS=(servlet-jakarta spring-boot3)
PORT=${PORT:-18090}
# AGENT=/path/to/a/copy of the jar: a build running meanwhile may rewrite agent/target/ under the run
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
# BEFORE_AGENT=/path/to/an/older/tollgate-agent.jar adds a third mode, "before", in the same
# alternation: a before/after comparison that shares the machine's noise.
BEFORE_AGENT=${BEFORE_AGENT:-}
# EMPTY=1 adds the mode "empty": a Java agent whose one transformer changes nothing
# (benchmarks/empty-agent), the floor that any instrumenting agent pays. EMPTY_PLAIN=1 adds
# "empty-plain": the same agent unable to retransform (no Can-Retransform-Classes; Tollgate's and
# "empty"'s can), to tell what that costs. EMPTY_JAR=1 adds "empty-jar": the empty agent inside a
# copy of AGENT's jar, which it appends to the bootstrap class path as Tollgate does: the jar's own
# part (opened, read and searched by the JVM), none of Tollgate's code run; agent - empty-jar is
# then what Tollgate's code adds. EMPTY_BOOT=1 adds "empty-boot": the empty agent appending its own
# small jar to the bootstrap class path: what appending any jar costs (the JVM then stops sharing
# archived platform and application classes, "Sharing is only supported for boot loader classes"),
# apart from the jar's size (empty-jar - empty-boot). benchmarks/startup-split.py gives the
# same-round differences.
EMPTY=${EMPTY:-0}; EMPTY_PLAIN=${EMPTY_PLAIN:-0}; EMPTY_JAR=${EMPTY_JAR:-0}; EMPTY_BOOT=${EMPTY_BOOT:-0}
MODES=(none agent); [ -n "$BEFORE_AGENT" ] && MODES+=(before); [ "$EMPTY" = 1 ] && MODES+=(empty)
[ "$EMPTY_PLAIN" = 1 ] && MODES+=(empty-plain); [ "$EMPTY_JAR" = 1 ] && MODES+=(empty-jar)
[ "$EMPTY_BOOT" = 1 ] && MODES+=(empty-boot)
EMPTY_AGENTS=benchmarks/target
[[ " ${MODES[*]} " == *" empty"* ]] && benchmarks/empty-agent/build.sh "$EMPTY_AGENTS" "$AGENT"
CONFIG=config-examples/quickstart.yaml
RES=${RES:-benchmarks/results}
mkdir -p "$RES"
OUT=$RES/startup.txt
SUM=$RES/startup-summary.txt
READY=$RES/startup-agent-ready.txt
# CPU by thread at the first 200 (threads that ended before it, the agent's start-up thread among
# them, are in the JVM's total only)
THREADS=$RES/startup-threads.txt
: >"$OUT"; : >"$READY"; : >"$THREADS"
RUN_NO=0

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# shellcheck source=threads-cpu.sh
. benchmarks/threads-cpu.sh

one_run() { # app mode -> prints "ms cpu_ms": wall ms to the first 200, and the JVM's CPU ms by then
  local app=$1 mode=$2 jar=test-apps/$1/target/$1.jar pid t0 t1 code cpu
  local args=(); [ "$mode" = agent ] && args=(-javaagent:$AGENT=config=$CONFIG)
  [ "$mode" = before ] && args=(-javaagent:$BEFORE_AGENT=config=$CONFIG)
  [ "$mode" = empty ] && args=(-javaagent:$EMPTY_AGENTS/empty-agent.jar)
  [ "$mode" = empty-plain ] && args=(-javaagent:$EMPTY_AGENTS/empty-agent-plain.jar=plain)
  [ "$mode" = empty-jar ] && args=(-javaagent:$EMPTY_AGENTS/empty-agent-in-tollgate-jar.jar=boot)
  [ "$mode" = empty-boot ] && args=(-javaagent:$EMPTY_AGENTS/empty-agent.jar=boot)
  t0=$(now_ms)
  PORT=$PORT java "${args[@]}" -jar "$jar" >/tmp/tollgate-startup.$$.log 2>&1 &
  pid=$!
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 1 "http://127.0.0.1:$PORT/hello" || true)
    [ "$code" = 200 ] && break
    if ! kill -0 $pid 2>/dev/null; then echo "FAILED $app $mode" >&2; cat /tmp/tollgate-startup.$$.log >&2; exit 1; fi
    if [ $(( $(now_ms) - t0 )) -gt "${TIMEOUT_MS:-60000}" ]; then echo "TIMEOUT $app $mode" >&2; kill $pid; exit 1; fi
    sleep 0.01
  done
  t1=$(now_ms)
  # CPU the JVM used until then (user + system, all threads): steadier than wall time on a busy machine
  cpu=$(jvm_cpu_ms $pid)
  # and by thread, from the same moment: a busy machine stretches wall times, far less CPU times
  echo "$app $mode $RUN_NO $(threads_cpu $pid)" >>"$THREADS"
  # the agent's own account: premain, CPU of its start-up thread, whether a request waited for it
  [ "$mode" = agent ] && { sleep 0.2; echo "$app $(grep -m1 -o 'ready; watching.*' /tmp/tollgate-startup.$$.log || echo 'no ready line')" >>"$READY"; }
  kill $pid; wait $pid 2>/dev/null || true
  # let the port close and the machine settle
  while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/hello"; do sleep 0.1; done
  sleep 1
  echo "$(( t1 - t0 )) $cpu"
}

{
  echo "# $(date -u +%FT%TZ) $(java -version 2>&1 | head -1) nproc=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# app mode run ms cpu_ms"
} >>"$OUT"
# one discarded warm-up start per app (page cache for the jars, the JDK's CDS archive)
for app in "${APPS[@]}"; do for mode in "${MODES[@]}"; do one_run "$app" "$mode" >/dev/null; done; done
: >"$READY"
for i in $(seq 1 "$RUNS"); do
  for app in "${APPS[@]}"; do
    for k in "${!MODES[@]}"; do
      mode=${MODES[$(( (k + i - 1) % ${#MODES[@]} ))]}
      RUN_NO=$i; ms=$(one_run "$app" "$mode"); echo "$app $mode $i $ms" | tee -a "$OUT"
    done
  done
done

python3 - "$OUT" >"$SUM" <<'PY'
import sys, statistics, collections
d = collections.defaultdict(list)
cpu = collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line.startswith('#') or not line.strip(): continue
    f = line.split(); app, mode, ms = f[0], f[1], int(f[3])
    d[(app, mode)].append(ms)
    if len(f) > 4: cpu[(app, mode)].append(int(f[4]))
print("| app | mode | median ms | min | max | runs |")
print("|---|---|---|---|---|---|")
med = {}
for (app, mode), v in sorted(d.items()):
    med[(app, mode)] = statistics.median(v)
    print(f"| {app} | {mode} | {statistics.median(v):.0f} | {min(v)} | {max(v)} | {' '.join(map(str, v))} |")
print()
if cpu:
    print("| app | mode | JVM CPU ms to first 200: median | min | max |")
    print("|---|---|---|---|---|")
    for (app, mode), v in sorted(cpu.items()):
        print(f"| {app} | {mode} | {statistics.median(v):.0f} | {min(v)} | {max(v)} |")
    print()
for app in sorted({a for a, _ in d}):
    for mode, what in (('agent', 'the agent'), ('before', 'the agent (before)'), ('empty', 'an empty agent'), ('empty-plain', 'an empty agent unable to retransform'), ('empty-jar', "an empty agent in Tollgate's jar"), ('empty-boot', 'an empty agent appending its small jar to the bootstrap path')):
        if (app, 'none') in med and (app, mode) in med:
            print(f"{app}: added by {what} (median - median) = {med[(app,mode)] - med[(app,'none')]:.0f} ms")
PY
python3 - "$THREADS" >>"$SUM" <<'PY'
import sys, statistics, collections
d = collections.defaultdict(lambda: collections.defaultdict(list))
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) < 4 or f[2] == '0': continue  # the discarded warm-up starts
    for kv in f[3:]:
        k, v = kv.split('='); d[(f[0], f[1])][k].append(int(v))
if d:
    print("| app | mode | CPU ms by thread at the first 200, medians: main | compilers | request threads | GC | agent's | other |")
    print("|---|---|---|---|---|---|---|---|")
    for (app, mode), g in sorted(d.items()):
        print(f"| {app} | {mode} | " + " | ".join(f"{statistics.median(g[k]):.0f}" for k in ('main', 'compiler', 'request', 'gc', 'agent', 'other')) + " |")
PY
cat "$SUM"

# The agent jar: size and what takes the space (uncompressed bytes by package, from unzip -l).
{
  echo; echo "## agent jar"; ls -l "$AGENT"
  unzip -l "$AGENT" | awk 'NR>3 && NF==4 {
      p=$4; g="other";
      if (p ~ /shaded\/io\/netty\//) g="Netty (shaded io.netty)";
      else if (p ~ /shaded\/io\/lettuce\//) g="Lettuce (shaded io.lettuce)";
      else if (p ~ /shaded\/reactor\//) g="Reactor (shaded reactor)";
      else if (p ~ /shaded\/net\/bytebuddy\//) g="Byte Buddy (shaded net.bytebuddy)";
      else if (p ~ /shaded\/com\/github\/benmanes\//) g="Caffeine (shaded)";
      else if (p ~ /shaded\/org\/yaml\//) g="SnakeYAML (shaded)";
      else if (p ~ /shaded\//) { split(p,a,"/"); g="other shaded: " a[5] "/" a[6] }
      else if (p ~ /attach_hotspot_windows/) g="Byte Buddy attach DLLs (win32)";
      else if (p ~ /^inst\/io\/tollgate\// || p ~ /^io\/tollgate\//) g="Tollgate own classes";
      s[g]+=$1; t+=$1 }
    END { for (k in s) printf "%10d  %5.1f%%  %s\n", s[k], 100*s[k]/t, k; printf "%10d  total uncompressed\n", t }' | sort -rn
  echo "compressed size by group (from unzip -v):"
  unzip -v "$AGENT" | awk 'NR>3 && NF==8 {
      p=$8; g="other";
      if (p ~ /shaded\/io\/netty\//) g="Netty"; else if (p ~ /shaded\/io\/lettuce\//) g="Lettuce";
      else if (p ~ /shaded\/reactor\//) g="Reactor"; else if (p ~ /shaded\/net\/bytebuddy\//) g="Byte Buddy";
      else if (p ~ /attach_hotspot_windows/) g="Byte Buddy attach DLLs";
      s[g]+=$3; t+=$3 } END { for (k in s) printf "%10d  %5.1f%%  %s\n", s[k], 100*s[k]/t, k; printf "%10d  total compressed\n", t }' | sort -rn
} | tee -a "$SUM"
