#!/usr/bin/env bash
# Replay throughput: `tollgate-agent.jar replay` on a generated 1,000,000-line log (LINES=...),
# with config-examples/quickstart.yaml on an NCSA combined log and config-examples/api-tiers.yaml
# on a JSON-lines log (which carries the API keys and plans that rules file keys by). Prints
# lines per second and the peak RSS (from /usr/bin/time -v), with the JVM's default heap and
# with -Xmx128m. Output goes to benchmarks/results/current/replay-*.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-1000000}
JAR=agent/target/tollgate-agent.jar
OUT=benchmarks/results/current
[ -f "$JAR" ] || { echo "build the agent first: mvn -B -q package -DskipTests" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
java benchmarks/replay/GenerateAccessLog.java combined "$LINES" "$tmp/access.log"
java benchmarks/replay/GenerateAccessLog.java json "$LINES" "$tmp/access.json"
summary="$OUT/replay-summary.txt"
: > "$summary"
for run in "quickstart access.log" "api-tiers access.json"; do
  set -- $run
  rules=$1 log=$2
  for heap in default 128m; do
    opts=()
    [ "$heap" = default ] || opts=("-Xmx$heap")
    name="replay-$rules-$heap"
    /usr/bin/time -v java "${opts[@]}" -jar "$JAR" replay "config-examples/$rules.yaml" \
      "$tmp/$log" --no-progress > "$OUT/$name.txt" 2> "$OUT/$name.time"
    seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
      for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$OUT/$name.time")
    cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$OUT/$name.time")
    rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$OUT/$name.time")
    size=$(du -m "$tmp/$log" | cut -f1)
    printf '%-11s %-12s heap %-8s %9d lines %5d MB  %6.2f s wall  %6.2f s CPU  %9.0f lines/s  peak RSS %5d MiB\n' \
      "$rules" "$log" "$heap" "$LINES" "$size" "$seconds" "$cpu" "$(echo "$LINES / $seconds" | bc -l)" \
      "$rss" | tee -a "$summary"
  done
done
