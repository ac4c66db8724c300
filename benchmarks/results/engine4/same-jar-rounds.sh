#!/usr/bin/env bash
# Interleaved rounds of several RequestPathBenchmark methods from ONE jar (run from the repository
# root): each round runs every METHOD once, in the order given, so their ratios are taken in the
# same minutes on a shared machine. The engine's methods run with rules=RULES, the filter's with
# rules=rule (its only case).
# usage: same-jar-rounds.sh OUTDIR ROUNDS JAR RULES METHOD...   (WI=15 I=8)
# Writes OUTDIR/rN-METHOD.{json,txt} and OUTDIR/rounds.txt; same-jar-table.py tables it.
set -u
OUT=$1; ROUNDS=$2; JAR=$3; RULES=$4; shift 4
WI=${WI:-15}; I=${I:-8}
mkdir -p "$OUT"
log() { echo "$(date -u +%H:%M:%S) $* (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/rounds.txt"; }
for r in $(seq 1 "$ROUNDS"); do
  for m in "$@"; do
    p=$RULES; case $m in bucket4j*) p=rule ;; esac
    log "round $r $m"
    java -Djmh.ignoreLock=true -jar "$JAR" "RequestPathBenchmark.$m\$" -p rules="$p" -f 1 -wi "$WI" -w 1s \
      -i "$I" -r 1s -prof gc -prof io.tollgate.benchmarks.CpuTimeProfiler -rf json \
      -rff "$OUT/r$r-$m.json" > "$OUT/r$r-$m.txt" 2>&1
  done
done
log done
