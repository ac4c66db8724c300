#!/usr/bin/env bash
# A long rules file (issue 29 item 4): for 1, 100 and 10,000 rules (benchmarks/rules-file.sh: one
# per tenant path, the GET /hello rule last), RUNS rounds of
#   validate: `java -jar agent/target/tollgate-agent.jar validate FILE`, wall and CPU (user + sys)
#             of the whole JVM, as a user runs it;
#   load:     RulesLoadTime in a fresh JVM: the agent's first read and build of FILE, then reloads
#             of FILE with every other limit changed (the wall and CPU of the loading thread).
# Prints the raw lines and, per count, the lowest of each figure (the least disturbed run: on a
# busy machine the others mostly measure the neighbours). The request cost per count is
# RequestPathBenchmark's (BENCHMARKS.md, "A long rules file").
# Output: $RES/rule-count-load.txt. Needs: mvn -B -q -o install -DskipTests first.
# Usage: benchmarks/run-rule-count.sh [RUNS] [COUNTS...]
#   AGENT=path/to/tollgate-agent.jar BENCHMARKS_JAR=path/to/benchmarks.jar: another build's (e.g. the
#   previous commit's, copied aside) for a before/after on the same machine; RES for the output.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}; shift || true
COUNTS=("$@"); [ ${#COUNTS[@]} -gt 0 ] || COUNTS=(1 100 10000)
RES=${RES:-benchmarks/results/rule-count}
AGENT=${AGENT:-agent/target/tollgate-agent.jar}
BENCHMARKS_JAR=${BENCHMARKS_JAR:-benchmarks/target/benchmarks.jar}
mkdir -p "$RES"
OUT=$RES/rule-count-load.txt
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
for n in "${COUNTS[@]}"; do
  benchmarks/rules-file.sh "$n" >"$work/rules-$n.yaml"
  # every other rule's limit changed: a reload that keeps half the rules' counts
  awk '/limit: 100$/ { if (++k % 2 == 0) sub(/100$/, "200") } { print }' \
    "$work/rules-$n.yaml" >"$work/changed-$n.yaml"
done
{
  echo "# $(date -u +%FT%TZ) $(java -version 2>&1 | head -1) nproc=$(nproc) load=$(cut -d' ' -f1-3 /proc/loadavg) agent=$AGENT"
  echo "# rules run validate_wall_ms validate_cpu_ms | RulesLoadTime line"
} | tee "$OUT"
for i in $(seq 1 "$RUNS"); do
  for n in "${COUNTS[@]}"; do
    /usr/bin/time -o "$work/time" -f '%e %U %S' java -jar "$AGENT" \
      validate "$work/rules-$n.yaml" >/dev/null 2>&1
    read -r wall user sys <"$work/time"
    v=$(awk -v w="$wall" -v u="$user" -v s="$sys" 'BEGIN { printf "%d %d", w * 1000, (u + s) * 1000 }')
    l=$(java -cp "$BENCHMARKS_JAR" io.tollgate.benchmarks.RulesLoadTime \
      "$work/rules-$n.yaml" "$work/changed-$n.yaml" 2>/dev/null | tail -1)
    echo "$n $i $v | $l" | tee -a "$OUT"
  done
done
echo "# lowest per count: validate wall, validate cpu, load wall, load cpu, first reload wall/cpu, last reload wall/cpu" | tee -a "$OUT"
for n in "${COUNTS[@]}"; do
  awk -v n="$n" '$1 == n && $0 !~ /^#/ {
      for (i = 1; i <= NF; i++) {
        if ($i == "load") { lw = $(i+1); lc = $(i+4) + 0 }
        if ($i == "reload-first") { fw = $(i+1); fc = $(i+4) + 0 }
        if ($i == "reload-last") { rw = $(i+1); rc = $(i+4) + 0 }
      }
      if (!seen++ || $3 < vw) vw = $3; if (seen == 1 || $4 < vc) vc = $4
      if (seen == 1 || lw < blw) blw = lw; if (seen == 1 || lc < blc) blc = lc
      if (seen == 1 || fw < bfw) bfw = fw; if (seen == 1 || fc < bfc) bfc = fc
      if (seen == 1 || rw < brw) brw = rw; if (seen == 1 || rc < brc) brc = rc
    }
    END { printf "%s rules: validate %d ms (cpu %d), load %d ms (cpu %d), first reload %d ms (cpu %d), later reload %d ms (cpu %d)\n", n, vw, vc, blw, blc, bfw, bfc, brw, brc }' "$OUT" | tee -a "$OUT"
done
