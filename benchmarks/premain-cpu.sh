#!/usr/bin/env bash
# The agent's share of the application's main thread before main(), and of its start-up thread:
# an empty application (benchmarks/premain-cpu/MainEntry) started ROUNDS times per mode, the modes
# alternated, each start printing the main thread's CPU when main began and the agent's "ready" line
# (premain's wall time, the start-up thread's CPU). CPU times, and the same-round differences,
# are what a busy machine leaves readable.
# Modes: none, empty (an agent whose transformer does nothing: the floor of any agent), and each
# JAR given (an agent jar, with config-examples/quickstart.yaml).
# Usage: benchmarks/premain-cpu.sh ROUNDS JAR... ; output: one line per start, then medians and the
# per-round differences of each jar from the first one.
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}; shift
JARS=("$@")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
javac --release 11 -d "$work" benchmarks/premain-cpu/MainEntry.java
mkdir -p "$work/empty"
javac --release 11 -d "$work/empty" benchmarks/empty-agent/EmptyAgent.java
jar cfm "$work/empty-agent.jar" benchmarks/empty-agent/MANIFEST.MF -C "$work/empty" .
MODES=(none empty "${JARS[@]}")
out=$work/starts.txt
for i in $(seq 1 "$ROUNDS"); do
  for k in "${!MODES[@]}"; do
    m=${MODES[$(( (k + i - 1) % ${#MODES[@]} ))]}
    case $m in
      none) args=() ;;
      empty) args=(-javaagent:$work/empty-agent.jar) ;;
      *) args=(-javaagent:$m=config=config-examples/quickstart.yaml) ;;
    esac
    o=$(java "${args[@]}" -cp "$work" MainEntry 2>&1)
    echo "$i $m $(grep -o 'main_cpu_ms=[0-9]*' <<<"$o") $(grep -o 'premain [0-9]* ms, then [0-9]* ms CPU' <<<"$o" | awk '{print "premain_ms=" $2 " startup_cpu_ms=" $5}')" | tee -a "$out"
  done
done
python3 - "$out" "${JARS[0]:-}" <<'PY'
import collections, statistics, sys
rows = collections.defaultdict(dict); by = collections.defaultdict(lambda: collections.defaultdict(list))
for l in open(sys.argv[1]):
    f = l.split(); i, m = f[0], f[1]
    for kv in f[2:]:
        k, v = kv.split('='); by[m][k].append(int(v)); rows[(i, k)][m] = int(v)
print("\n| mode | main thread CPU at main(), ms: median (min-max) | premain wall, ms | start-up thread CPU, ms |")
print("|---|---|---|---|")
for m, d in by.items():
    cell = lambda k: f"{statistics.median(d[k]):.0f} ({min(d[k])}-{max(d[k])})" if d[k] else "-"
    print(f"| {m} | {cell('main_cpu_ms')} | {cell('premain_ms')} | {cell('startup_cpu_ms')} |")
first = sys.argv[2]
for m in by:
    if m in ('none', 'empty', first) or not first: continue
    for k in ('main_cpu_ms', 'startup_cpu_ms'):
        diff = [r[m] - r[first] for (i, kk), r in rows.items() if kk == k and m in r and first in r]
        if diff:
            print(f"{m} - {first}, {k} per round: median {statistics.median(diff):+.0f} (lower in {sum(x < 0 for x in diff)} of {len(diff)})")
PY
