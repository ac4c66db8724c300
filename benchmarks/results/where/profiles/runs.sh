#!/usr/bin/env bash
# h-where, 2026-12-07 (eighth session): profile-async.sh runs (PIN=1: the server alone on CPU 0, wrk on CPU 1),
# ROUNDS rounds of MODES interleaved, DebugNonSafepoints. usage: runs.sh TAG ROUNDS MODE...
# env: AGENT (the jar; default agent/target/tollgate-agent.jar), FIRST_ROUND (the first round's number, 1)
set -euo pipefail
cd "$(dirname "$0")/../../../.."
tag=$1; rounds=$2; shift 2
for r in $(seq ${FIRST_ROUND:-1} $(( ${FIRST_ROUND:-1} + rounds - 1 ))); do
  for m in "$@"; do
    WARMUP=${WARMUP:-30} DURATION=${DURATION:-20} PIN=1 PORT=${PORT:-18471} \
      JAVA_OPTS="-XX:+UnlockDiagnosticVMOptions -XX:+DebugNonSafepoints" \
      OUT=benchmarks/results/where/profiles/$tag-$m-r$r benchmarks/profile-async.sh "$m" >/dev/null
    head -1 benchmarks/results/where/profiles/$tag-$m-r$r.txt
  done
done
