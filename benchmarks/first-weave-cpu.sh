#!/usr/bin/env bash
# The main thread's CPU to load servlet-jakarta's first entry-point classes (a servlet, and with it
# jakarta's HttpServlet; Tomcat's host valve), after the agent has settled for 2 s, per agent jar,
# the jars alternated for ROUNDS rounds; medians and per-round differences from the first jar.
# Usage: benchmarks/first-weave-cpu.sh ROUNDS JAR... (a JAR "none": no agent, the classes' own loading) (needs test-apps/servlet-jakarta built)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${1:-15}; shift
JARS=("$@")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
javac --release 11 -d "$work" benchmarks/first-weave-cpu/FirstWeave.java
CP="$work:test-apps/servlet-jakarta/target/servlet-jakarta.jar"
CLASSES=(io.tollgate.testapps.servlet_jakarta.Servlets\$Hello org.apache.catalina.core.StandardHostValve)
out=$work/starts.txt
for i in $(seq 1 "$ROUNDS"); do
  for k in "${!JARS[@]}"; do
    j=${JARS[$(( (k + i - 1) % ${#JARS[@]} ))]}
    if [ "$j" = none ]; then agent=(); else agent=(-javaagent:$j=config=config-examples/quickstart.yaml); fi
    o=$(java "${agent[@]}" -cp "$CP" FirstWeave "${CLASSES[@]}" 2>&1)
    echo "$i $j $(grep -o 'first_weave_cpu_us=[0-9]*' <<<"$o") $(grep -c '^\[tollgate\] instrumented' <<<"$o")_woven load=$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$out"
  done
done
python3 - "$out" "${JARS[0]}" <<'PY'
import collections, statistics, sys
by = collections.defaultdict(list); rows = collections.defaultdict(dict)
for l in open(sys.argv[1]):
    f = l.split()
    if len(f) < 3 or '=' not in f[2]: continue
    v = int(f[2].split('=')[1]); by[f[1]].append(v); rows[f[0]][f[1]] = v
for j, v in by.items():
    print(f"{j}: median {statistics.median(v)/1000:.1f} ms (min {min(v)/1000:.1f}, max {max(v)/1000:.1f}), {len(v)} starts")
first = sys.argv[2]
for j in by:
    if j in (first, 'none'): continue
    d = [r[j] - r[first] for r in rows.values() if j in r and first in r]
    print(f"{j} - {first}, per round: median {statistics.median(d)/1000:+.1f} ms (lower in {sum(x < 0 for x in d)} of {len(d)})")
PY
