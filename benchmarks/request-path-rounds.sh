#!/usr/bin/env bash
# Interleaved before/after rounds of RequestPathBenchmark (run from the repository root): each
# round runs the hand-written filter, then the engine, on BEFORE_JAR (a benchmarks.jar built at
# the base, e.g. main) and then the same on AFTER_JAR (the branch's), with the same fork
# settings, so that two builds are compared on a shared machine at the same load.
# usage: request-path-rounds.sh OUTDIR ROUNDS BEFORE_JAR AFTER_JAR [PARAMS] [BENCH]
#   PARAMS   the benchmark's rules cases (default rule), e.g. rule,refused or rule,nomatch
#   BENCH    the engine's benchmark (default 'RequestPathBenchmark.tollgate$')
#   WI=15 I=8  warm-up and measured iterations of 1 s;  CPU=1  pins the JVMs to that CPU
#   NOFILTER=1 leaves out the filter runs;  FLOOR=1 adds, on each "after", the 429 written by hand
#   DRAFT=1 adds, after each filter run, the filter sending the engine's two quota headers
#     (bucket4jFilterDraftHeaders, always from AFTER_JAR: older jars lack it), as -draft
# Writes OUTDIR/{before,after}-rN[-filter].{json,txt} (and floor-rN), and OUTDIR/rounds.txt with
# the time and the load at each step; benchmarks/request-path-table.py tables the directory.
set -u
OUT=$1; ROUNDS=$2; BEFORE=$3; AFTER=$4; PARAMS=${5:-rule}; BENCH=${6:-'RequestPathBenchmark.tollgate$'}
WI=${WI:-15}; I=${I:-8}
PIN=(); [ -n "${CPU:-}" ] && PIN=(taskset -c "$CPU")
mkdir -p "$OUT"
log() { echo "$(date -u +%H:%M:%S) $* (load $(cut -d' ' -f1-3 /proc/loadavg))" | tee -a "$OUT/rounds.txt"; }
run() { # jar name regex params
  "${PIN[@]}" java -jar "$1" "$3" -p rules="$4" -f 1 -wi "$WI" -w 1s -i "$I" -r 1s -prof gc \
    -prof io.tollgate.benchmarks.CpuTimeProfiler -rf json -rff "$OUT/$2.json" > "$OUT/$2.txt" 2>&1
}
for r in $(seq 1 "$ROUNDS"); do
  for which in before after; do
    jar=$BEFORE; [ $which = after ] && jar=$AFTER
    log "round $r $which"
    [ -n "${NOFILTER:-}" ] || run "$jar" "$which-r$r-filter" 'RequestPathBenchmark.bucket4jFilter$' rule
    [ -z "${DRAFT:-}" ] || run "$AFTER" "$which-r$r-draft" 'RequestPathBenchmark.bucket4jFilterDraftHeaders$' rule
    run "$jar" "$which-r$r" "$BENCH" "$PARAMS"
    if [ $which = after ] && [ -n "${FLOOR:-}" ]; then
      run "$jar" "floor-r$r" 'RequestPathBenchmark.refusalWrittenByHand$' refused
    fi
  done
done
log done
