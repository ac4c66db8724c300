#!/usr/bin/env bash
# Bytes per key at 1,000,000 keys, and a 10,000,000-key flood through max-keys 100,000, with a
# fixed 2 GiB heap. Output goes to benchmarks/results/memory.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p benchmarks/results
java -Xms2g -Xmx2g -XX:+UseG1GC -cp benchmarks/target/benchmarks.jar \
  io.tollgate.benchmarks.MemoryPerKey "$@" | tee benchmarks/results/memory.txt
