#!/usr/bin/env bash
# h-refusal5: interleaved rounds of RequestPathBenchmark from one jar, pinned to CPU 1 (beside the
# end-to-end runs on CPU 0): the even comparison (tollgateAnswered: every request answered, an
# allowed one by the hello servlet's answer) beside tollgateRecycled, their floors and the 429 by hand.
# usage: answered-rounds.sh OUTDIR ROUNDS JAR   (WI=10 I=6; run from the repository root)
set -u
OUT=$1; ROUNDS=$2; JAR=$3; WI=${WI:-10}; I=${I:-6}
mkdir -p "$OUT"
log() { echo "$(date -u +%H:%M:%S) $* (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/rounds.txt"; }
for r in $(seq 1 "$ROUNDS"); do
  for case in tollgateAnswered:rule,refused noneAnswered:rule tollgateRecycled:rule,refused \
      noneRecycled:rule refusalWrittenByHand:refused; do
    m=${case%%:*}; p=${case#*:}
    log "round $r $m $p"
    taskset -c 1 java -Djmh.ignoreLock=true -jar "$JAR" "RequestPathBenchmark.$m\$" -p rules="$p" -f 1 \
      -wi "$WI" -w 1s -i "$I" -r 1s -prof gc -prof io.tollgate.benchmarks.CpuTimeProfiler -rf json \
      -rff "$OUT/r$r-$m.json" > "$OUT/r$r-$m.txt" 2>&1
  done
done
log done
