#!/usr/bin/env bash
# Interleaved before/after rounds of RequestPathBenchmark (run from the repository root): the
# hand-written filter, then the engine, on the benchmark jar built at main (before) and on
# h-engine's (after), each round before then after, with the same fork settings.
# usage: rounds.sh OUTDIR ROUNDS BEFORE_JAR AFTER_JAR [PARAMS] [BENCH]  (CPU=1 pins to that CPU)
set -u
OUT=$1; ROUNDS=$2; BEFORE=$3; AFTER=$4; PARAMS=${5:-rule,refused}; BENCH=${6:-'RequestPathBenchmark.tollgate$'}
WI=${WI:-15}; I=${I:-8}
PIN=(); [ -n "${CPU:-}" ] && PIN=(taskset -c "$CPU")
mkdir -p "$OUT"
log() { echo "$(date -u +%H:%M:%S) $* (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/rounds.txt"; }
run() { # jar name regex params
  "${PIN[@]}" java -jar "$1" "$3" -p rules="$4" -f 1 -wi $WI -w 1s -i $I -r 1s -prof gc \
    -prof io.tollgate.benchmarks.CpuTimeProfiler -rf json -rff "$OUT/$2.json" > "$OUT/$2.txt" 2>&1
}
for r in $(seq 1 "$ROUNDS"); do
  for which in before after; do
    jar=$BEFORE; [ $which = after ] && jar=$AFTER
    log "round $r $which"
    [ -n "${NOFILTER:-}" ] || run "$jar" "$which-r$r-filter" 'RequestPathBenchmark.bucket4jFilter$' rule
    run "$jar" "$which-r$r" "$BENCH" "$PARAMS"
  done
done
log done
