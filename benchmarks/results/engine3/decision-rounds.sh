#!/usr/bin/env bash
# DecisionBenchmark.tollgate (the local store's decision alone, one key) interleaved over jars:
# usage: decision-rounds.sh OUTDIR ROUNDS NAME=JAR...
set -u
OUT=$1; ROUNDS=$2; shift 2
mkdir -p "$OUT"
log() { echo "$(date -u +%H:%M:%S) $* (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/rounds.txt"; }
for r in $(seq 1 "$ROUNDS"); do
  for pair in "$@"; do
    name=${pair%%=*}; jar=${pair#*=}
    log "round $r $name"
    java -jar "$jar" 'DecisionBenchmark.tollgate$' -p keys=1 -p load=allowed,refused -f 1 -wi 10 -w 1s -i 6 -r 1s \
      -prof gc -prof io.tollgate.benchmarks.CpuTimeProfiler -rf json -rff "$OUT/$name-r$r.json" > "$OUT/$name-r$r.txt" 2>&1
  done
done
log done
