#!/usr/bin/env bash
# A long rules file (issue 29 item 4): for 1, 100 and 10,000 rules (benchmarks/rules-file.sh: one
# per tenant path, the GET /hello rule last), RUNS rounds of
#   validate: `java -jar agent/target/tollgate-agent.jar validate FILE`, wall and CPU (user + sys)
#             of the whole JVM, as a user runs it;
#   load:     RulesLoadTime in a fresh JVM: the agent's first read and build of FILE, then reloads
#             of FILE with every other limit changed (the wall and CPU of the loading thread).
# Prints the raw lines and, per build and count, the lowest and the median of each figure (the
# lowest is the least disturbed run: on a busy machine the others mostly measure the neighbours).
# The request cost per count is RequestPathBenchmark's (BENCHMARKS.md, "A long rules file").
# Output: $RES/rule-count-load.txt. Needs: mvn -B -q -o install -DskipTests first.
# Usage: benchmarks/run-rule-count.sh [RUNS] [COUNTS...]
#   AGENT=path/to/tollgate-agent.jar BENCHMARKS_JAR=path/to/benchmarks.jar: the build measured
#   ("now"); BEFORE_AGENT= and BEFORE_BENCHMARKS_JAR=: another build's (e.g. the main branch's,
#   copied aside), measured in the same rounds, interleaved with "now" (before then now in odd
#   rounds, now then before in even ones), so that both see the same machine; RES for the output.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}; shift || true
COUNTS=("$@"); [ ${#COUNTS[@]} -gt 0 ] || COUNTS=(1 100 10000)
RES=${RES:-benchmarks/results/rule-count}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
BENCHMARKS_JAR=${BENCHMARKS_JAR:-benchmarks/target/benchmarks.jar}
BEFORE_AGENT=${BEFORE_AGENT:-}
BEFORE_BENCHMARKS_JAR=${BEFORE_BENCHMARKS_JAR:-}
if [ -n "$BEFORE_AGENT" ] && [ -z "$BEFORE_BENCHMARKS_JAR" ]; then
  echo "BEFORE_AGENT needs BEFORE_BENCHMARKS_JAR too (the load is timed from the same build)" >&2
  exit 2
fi
mkdir -p "$RES"
OUT=$RES/rule-count-load.txt
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for n in "${COUNTS[@]}"; do
  benchmarks/rules-file.sh "$n" >"$work/rules-$n.yaml"
  # every other rule's limit changed: a reload that keeps half the rules' counts
  awk '/limit: 100$/ { if (++k % 2 == 0) sub(/100$/, "200") } { print }' \
    "$work/rules-$n.yaml" >"$work/changed-$n.yaml"
done
builds=(now); [ -z "$BEFORE_AGENT" ] || builds=(before now)
{
  echo "# $(date -u +%FT%TZ) $(java -version 2>&1 | head -1) nproc=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg)"
  echo "# now: agent=$AGENT benchmarks=$BENCHMARKS_JAR"
  [ -z "$BEFORE_AGENT" ] || echo "# before: agent=$BEFORE_AGENT benchmarks=$BEFORE_BENCHMARKS_JAR"
  echo "# rules run build validate_wall_ms validate_cpu_ms | RulesLoadTime line"
} | tee "$OUT"

# one validate and one load of the file of $2 rules by build $1, in round $3
measure() {
  local build=$1 n=$2 i=$3 agent=$AGENT bench=$BENCHMARKS_JAR
  if [ "$build" = before ]; then agent=$BEFORE_AGENT; bench=$BEFORE_BENCHMARKS_JAR; fi
  /usr/bin/time -o "$work/time" -f '%e %U %S' java -jar "$agent" \
    validate "$work/rules-$n.yaml" >/dev/null 2>&1
  read -r wall user sys <"$work/time"
  v=$(awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "%d %d", w * 1000, (u + s) * 1000 }')
  l=$(java -cp "$bench" io.tollgate.benchmarks.RulesLoadTime \
    "$work/rules-$n.yaml" "$work/changed-$n.yaml" 2>/dev/null | tail -1)
  echo "$n $i $build $v | $l" | tee -a "$OUT"
}

for i in $(seq 1 "$RUNS"); do
  order=("${builds[@]}")
  if [ $((i % 2)) -eq 0 ] && [ ${#builds[@]} -eq 2 ]; then order=(now before); fi
  for n in "${COUNTS[@]}"; do
    for build in "${order[@]}"; do
      measure "$build" "$n" "$i"
    done
  done
done
echo "# load at the end: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT"
echo "# per build and count, lowest (median): validate wall, validate cpu, load wall, load cpu," \
  "first reload wall/cpu, last reload wall/cpu" | tee -a "$OUT"
for n in "${COUNTS[@]}"; do
  for build in "${builds[@]}"; do
    awk -v n="$n" -v b="$build" '
      function lowest(a, k,   i, m) { m = a[1]; for (i = 2; i <= k; i++) if (a[i] < m) m = a[i]; return m }
      function median(a, k,   i, j, t, s) {
        for (i = 1; i <= k; i++) s[i] = a[i]
        for (i = 2; i <= k; i++) for (j = i; j > 1 && s[j-1] > s[j]; j--) { t = s[j]; s[j] = s[j-1]; s[j-1] = t }
        return k % 2 ? s[(k + 1) / 2] : int((s[k / 2] + s[k / 2 + 1]) / 2)
      }
      function both(a) { return lowest(a, k) " (" median(a, k) ")" }
      $1 == n && $3 == b && $0 !~ /^#/ {
        k++; vw[k] = $4; vc[k] = $5
        for (i = 1; i <= NF; i++) {
          if ($i == "load") { lw[k] = $(i+1); lc[k] = $(i+4) + 0 }
          if ($i == "reload-first") { fw[k] = $(i+1); fc[k] = $(i+4) + 0 }
          if ($i == "reload-last") { rw[k] = $(i+1); rc[k] = $(i+4) + 0 }
        }
      }
      END {
        if (k == 0) exit
        printf "%s rules, %s: validate %s ms (cpu %s), load %s ms (cpu %s), first reload %s ms (cpu %s), later reload %s ms (cpu %s)\n",
          n, b, both(vw), both(vc), both(lw), both(lc), both(fw), both(fc), both(rw), both(rc)
      }' "$OUT" | tee -a "$OUT"
  done
done
