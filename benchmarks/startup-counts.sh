#!/usr/bin/env bash
# What the agent makes the JVM do before an application's first 200, counted (not timed: a busy
# machine stretches wall and CPU times, far less what is loaded and compiled). Launches APP once per
# mode (none, agent, and before with BEFORE_AGENT=<an older jar>), the modes alternating ROUNDS
# times, each with -Xlog:class+load (uptime, thread id) and -XX:+PrintCompilation, polls GET /hello
# every 10 ms and, at the first 200, keeps both logs as they are then (so both end at that moment),
# the CPU of the live threads by group, and the agent's "ready" line. Then counts per mode (mean of
# the starts): classes loaded by kind, the classes loaded in every start of a mode and in no start
# without the agent (by package), and compilations by package (methods compiled, tiers together).
# Output: $RES/counts-APP-MODE-ROUND.{classes.log,compilations.txt,out} (raw, tens of MB: not for
# the repository), $RES/counts-APP-runs.txt and $RES/counts-APP.txt (the summary).
# Usage: benchmarks/startup-counts.sh [APP] [ROUNDS]
#   env: PORT=18395 AGENT= BEFORE_AGENT= MODES="none agent before" RES= JAVA_OPTS= ANALYZE_ONLY=1
# Needs: mvn -B -q -o install -DskipTests (the agent and the test apps).
set -euo pipefail
cd "$(dirname "$0")/.."
APP=${1:-spring-boot3}; ROUNDS=${2:-3}
PORT=${PORT:-18395}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
BEFORE_AGENT=${BEFORE_AGENT:-}
CONFIG=config-examples/quickstart.yaml
RES=${RES:-benchmarks/results/startup-counts}
if [ -n "${MODES:-}" ]; then read -r -a MODES <<<"$MODES"; else MODES=(none agent); [ -n "$BEFORE_AGENT" ] && MODES+=(before); fi
mkdir -p "$RES"
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

# shellcheck source=threads-cpu.sh
. benchmarks/threads-cpu.sh

one_run() { # mode round
  local mode=$1 round=$2 base pid t0 t1 code cpu
  base=$RES/counts-$APP-$mode-$round
  local args=(-Xlog:class+load:file=$base.classes.live:uptime,tid -XX:+PrintCompilation ${JAVA_OPTS:-})
  [ "$mode" = agent ] && args+=(-javaagent:$AGENT=config=$CONFIG)
  [ "$mode" = before ] && args+=(-javaagent:$BEFORE_AGENT=config=$CONFIG)
  t0=$(now_ms)
  PORT=$PORT java "${args[@]}" -jar test-apps/$APP/target/$APP.jar >"$base.out" 2>&1 &
  pid=$!
  while :; do
    code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 5 "http://127.0.0.1:$PORT/hello" || true)
    [ "$code" = 200 ] && break
    kill -0 $pid 2>/dev/null || { echo "FAILED $APP $mode" >&2; cat "$base.out" >&2; exit 1; }
    sleep 0.01
  done
  t1=$(now_ms)
  cp "$base.classes.live" "$base.classes.log"; cp "$base.out" "$base.compilations.txt"
  cpu=$(jvm_cpu_ms $pid)
  local threads; threads=$(threads_cpu $pid)
  sleep 0.2
  local ready; ready=$(grep -m1 -o 'premain [0-9]* ms, then [0-9]* ms CPU' "$base.out" | tr ' ' '_' || true)
  kill $pid; wait $pid 2>/dev/null || true
  rm -f "$base.classes.live"
  while curl -s -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/hello"; do sleep 0.1; done
  echo "$mode $round $(( t1 - t0 )) $cpu $threads ${ready:-no_ready_line}" | tee -a "$RES/counts-$APP-runs.txt"
  sleep 1
}

if [ -z "${ANALYZE_ONLY:-}" ]; then
  : >"$RES/counts-$APP-runs.txt"
  echo "# $(date -u +%FT%TZ) load=$(cut -d' ' -f1-3 /proc/loadavg) mode round ms_to_first_200 jvm_cpu_ms threads ready" \
    >>"$RES/counts-$APP-runs.txt"
  for i in $(seq 1 "$ROUNDS"); do
    for k in "${!MODES[@]}"; do one_run "${MODES[$(( (k + i - 1) % ${#MODES[@]} ))]}" "$i"; done
  done
fi

python3 - "$RES" "$APP" <<'PY' | tee "$RES/counts-$APP.txt"
import collections, glob, re, statistics, sys
res, app = sys.argv[1], sys.argv[2]
runs = collections.defaultdict(list)
for line in open(f"{res}/counts-{app}-runs.txt"):
    if line.startswith('#'): print(line.strip()); continue
    f = line.split(); runs[f[0]].append(f)
line_re = re.compile(r'^\[(\d+\.\d+)s\]\[(\d+)\]\S*\s+(\S+) source: (.*)$')
comp_re = re.compile(r'^\s*\d+\s+\d+\s+[%sbn! ]*\s(\d)\s+(\S+::\S+)')
def ours(name): return name.startswith('io.tollgate.') and not name.startswith('io.tollgate.testapps')
def kind(name, source):
    if ours(name): return 'agent'
    if source.startswith('shared objects file'): return 'jdk, archived'
    if source.startswith('jrt:'): return 'jdk, read'
    if '__' in source or 'Lambda' in name or '/0x' in name: return 'spun'
    return 'application'
def group(name, depth=3):
    name = re.sub(r'[$/].*', '', name) if '/0x' in name else name
    p = name.split('.')[:-1]
    if ours(name) and 'shaded' in p: depth = 5
    return '.'.join(p[:depth]) or '(default)'
classes, comps, kinds = {}, {}, {}
for mode, rs in runs.items():
    classes[mode], comps[mode], kinds[mode] = [], [], []
    for f in rs:
        base = f"{res}/counts-{app}-{mode}-{f[1]}"
        names = set(); k = collections.Counter()
        for l in open(base + '.classes.log', errors='replace'):
            m = line_re.match(l)
            if not m: continue
            n = re.sub(r'0x[0-9a-f]+', '0x', m.group(3)); n = re.sub(r'\$\$Lambda\$?\d*', '$$Lambda', n)
            names.add(n); k[kind(m.group(3), m.group(4))] += 1
        classes[mode].append(names); kinds[mode].append(k)
        c = collections.Counter()
        for l in open(base + '.compilations.txt', errors='replace'):
            m = comp_re.match(l)
            if m and 'made not entrant' not in l: c[m.group(2)] += 1
        comps[mode].append(c)
def mean(xs): return statistics.mean(xs) if xs else 0
print(f"\n## {app}: per mode, mean of the starts")
print("| mode | starts | wall ms to the first 200 | JVM CPU ms | main / compilers ms | classes loaded | of which the agent's | JDK read from jrt: | spun | compilations (methods x tiers) |")
print("|---|---|---|---|---|---|---|---|---|---|")
for mode in runs:
    rs = runs[mode]
    th = [dict(kv.split('=') for kv in f[4:10]) for f in rs]
    print(f"| {mode} | {len(rs)} | {mean([int(f[2]) for f in rs]):.0f} | {mean([int(f[3]) for f in rs]):.0f} | "
          f"{mean([int(t['main']) for t in th]):.0f} / {mean([int(t['compiler']) for t in th]):.0f} | "
          f"{mean([len(s) for s in classes[mode]]):.0f} | {mean([k['agent'] for k in kinds[mode]]):.0f} | "
          f"{mean([k['jdk, read'] for k in kinds[mode]]):.0f} | {mean([k['spun'] for k in kinds[mode]]):.0f} | "
          f"{mean([sum(c.values()) for c in comps[mode]]):.0f} |")
    if any('premain' in f[-1] for f in rs): print("|  | ready lines: " + ', '.join(f[-1].replace('_', ' ') for f in rs) + " |")
for mode in [m for m in runs if m != 'none']:
    if 'none' not in runs: break
    only = set.intersection(*classes[mode]) - set.union(*classes['none'])
    by = collections.Counter(group(n) for n in only)
    print(f"\n### {mode}: {len(only)} classes loaded in every {mode} start and in no start without an agent, by package")
    for g, n in by.most_common(40): print(f"  {n:5d}  {g}")
    print(f"\n### {mode}: compilations by package, mean per start, {mode} minus none (first 40 by difference)")
    keys = set().union(*[set(group(m.split('::')[0], 2 if not m.startswith('io.tollgate') else 3) for m in c) for c in comps[mode] + comps['none']])
    def per(c, g, d): return sum(v for m, v in c.items() if group(m.split('::')[0], d) == g)
    rows = []
    for g in keys:
        d = 2 if not g.startswith('io.tollgate') else 3
        a = mean([per(c, g, d) for c in comps[mode]]); n = mean([per(c, g, d) for c in comps['none']])
        rows.append((a - n, g, a, n))
    rows.sort(reverse=True)
    for r in rows[:40]:
        if abs(r[0]) >= 1: print("  %+7.1f  %-50s %s %.1f, none %.1f" % (r[0], r[1], mode, r[2], r[3]))
    meths = set.intersection(*[set(c) for c in comps[mode]]) - set.union(*[set(c) for c in comps['none']])
    by = collections.Counter(group(m.split('::')[0]) for m in meths)
    print(f"\n### {mode}: {len(meths)} methods compiled in every {mode} start and in no start without an agent, by package")
    for g, n in by.most_common(30): print(f"  {n:5d}  {g}")
PY
