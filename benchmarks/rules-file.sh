#!/usr/bin/env bash
# Prints a rules file of N rules (default 10000): N-1 per-tenant limits, one per /tenants/tI/**,
# and last the GET /hello rule that never refuses. The same file as RequestPathBenchmark's and
# EndToEndRules' "rules-N", for the rule-count rows of BENCHMARKS.md ("A long rules file").
# Usage: benchmarks/rules-file.sh [N] > rules.yaml
set -euo pipefail
N=${1:-10000}
echo "rules:"
awk -v n="$N" 'BEGIN {
  for (i = 1; i < n; i++)
    printf "  - name: tenant-%d\n    match:\n      path: /tenants/t%d/**\n    key: ip\n    limit: 100\n    period: 1m\n", i, i
}'
cat <<'YAML'
  - name: hello-never-refuses
    match:
      path: /hello
      methods: [GET]
    key: ip
    limit: 1000000000
    period: 1s
YAML
