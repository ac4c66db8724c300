#!/usr/bin/env bash
# Replay throughput: `tollgate-agent.jar replay` on a generated 1,000,000-line log (LINES=...),
# with config-examples/quickstart.yaml on an NCSA combined log and config-examples/api-tiers.yaml
# on a JSON-lines log (which carries the API keys and plans that rules file keys by). Prints
# lines per second and the peak RSS (from /usr/bin/time -v), with the JVM's default heap and
# with -Xmx128m. Output goes to benchmarks/results/current/replay-*.txt (RES=... for another
# directory).
#
# ROWS="throughput burst" picks the rows (both by default). The burst row (issue 28 row 6) is
# replay's memory and SIGTERM on the logs that once took it past both, as ReplayLimitsIT writes
# them (benchmarks/replay/GenerateBurstLogs.java), each replay with -Xmx256m (BURST_HEAP=128m for
# another) -XX:+ExitOnOutOfMemoryError and ReplayLimitsIT's two rules:
#   - BURST_LINES (default "1000000 4000000") lines stamped with one second, gzip, to the end:
#     wall, CPU, peak RSS, requests replayed and taken out of the reorder window early;
#   - one line of LONG_MB MiB (default 3072: 3 GB of one line, ~3 MB of gzip), to the end;
#   - SIGTERM half way through each of those (half the wall time the full run took), and in the
#     middle of two endless logs on standard input (lines of one second, and one endless line,
#     as ReplayLimitsIT feeds them) once ENDLESS_MB (default 1024) have been read: peak RSS
#     (VmHWM) at the signal, the time from the signal to the exit, the exit code (143: ended by
#     SIGTERM; 3: out of heap).
# The burst table goes to replay-burst.txt. BURST_JAR=... replays with another agent jar (an older
# build, for a before/after).
set -euo pipefail
cd "$(dirname "$0")/.."
LINES=${LINES:-1000000}
JAR=agent/target/tollgate-agent.jar
OUT=${RES:-benchmarks/results/current}
ROWS=${ROWS:-"throughput burst"}
[ -f "$JAR" ] || { echo "build the agent first: mvn -B -q package -DskipTests" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (apt-get install time)" >&2; exit 2; }
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
wants() { [[ " $ROWS " == *" $1 "* ]]; }

if wants throughput; then
  java benchmarks/replay/GenerateAccessLog.java combined "$LINES" "$tmp/access.log"
  java benchmarks/replay/GenerateAccessLog.java json "$LINES" "$tmp/access.json"
  summary="$OUT/replay-summary.txt"
  : > "$summary"
  for run in "quickstart access.log" "api-tiers access.json"; do
    set -- $run
    rules=$1 log=$2
    for heap in default 128m; do
      opts=()
      [ "$heap" = default ] || opts=("-Xmx$heap")
      name="replay-$rules-$heap"
      /usr/bin/time -v java "${opts[@]}" -jar "$JAR" replay "config-examples/$rules.yaml" \
        "$tmp/$log" --no-progress > "$OUT/$name.txt" 2> "$OUT/$name.time"
      seconds=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
        for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$OUT/$name.time")
      cpu=$(awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$OUT/$name.time")
      rss=$(awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$OUT/$name.time")
      size=$(du -m "$tmp/$log" | cut -f1)
      printf '%-11s %-12s heap %-8s %9d lines %5d MB  %6.2f s wall  %6.2f s CPU  %9.0f lines/s  peak RSS %5d MiB\n' \
        "$rules" "$log" "$heap" "$LINES" "$size" "$seconds" "$cpu" "$(echo "$LINES / $seconds" | bc -l)" \
        "$rss" | tee -a "$summary"
    done
  done
fi

# time_field NAME FILE: a field of /usr/bin/time -v's output (wall in seconds, cpu, rss in MiB)
time_field() {
  case $1 in
    wall) awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0;
            for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$2" ;;
    cpu) awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} END {print u + s}' "$2" ;;
    rss) awk -F': ' '/Maximum resident set size/ {printf "%.0f", $2 / 1024}' "$2" ;;
    exit) awk -F': ' '/Exit status/ {print $2}' "$2" ;;
  esac
}
# replay_count PATTERN FILE: the figure in the first match of PATTERN (a regular expression with
# one [0-9,]*) in a replay's output, or 0
replay_count() { { grep -o "$1" "$2" || true; } | head -1 | grep -o '[0-9][0-9,]*' | tr -d , | grep . || echo 0; }
ms_now() { date +%s%3N; }

if wants burst; then
  BURST_LINES=${BURST_LINES:-"1000000 4000000"}
  LONG_MB=${LONG_MB:-3072}
  ENDLESS_MB=${ENDLESS_MB:-1024}
  heap=-Xmx${BURST_HEAP:-256m}
  replay=(java "$heap" -XX:+ExitOnOutOfMemoryError -jar "${BURST_JAR:-$JAR}" replay)
  rules="$tmp/burst-rules.yaml"
  cat > "$rules" <<'YAML'
rules:
  - {name: api-per-ip, match: {path: /api/**}, key: ip, limit: 100, period: 1m}
  - {name: api-global, match: {path: /api/**}, key: global, limit: 5000, period: 1s}
YAML
  burst="$OUT/replay-burst.txt"
  {
    echo "# run-replay.sh burst, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD), $heap"
    echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg); cpus: $(nproc)"
    echo "| log | gzip MB | ended by | wall s | CPU s | peak RSS MiB | replayed | taken out of the window early | not read | SIGTERM to exit ms | exit |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
  } | tee "$burst"

  # to_the_end NAME LOG LABEL: a replay of LOG run to its end; sets $wall
  to_the_end() {
    local name=$1 log=$2 label=$3
    /usr/bin/time -v "${replay[@]}" "$rules" "$log" --no-progress > "$OUT/$name.txt" \
      2> "$OUT/$name.time" || true
    wall=$(time_field wall "$OUT/$name.time")
    printf '| %s | %s | its end | %.1f | %.1f | **%s** | %s | %s | %s | - | %s |\n' "$label" \
      "$(du -m "$log" | cut -f1)" "$wall" "$(time_field cpu "$OUT/$name.time")" \
      "$(time_field rss "$OUT/$name.time")" "$(replay_count 'Replayed [0-9,]* request' "$OUT/$name.txt")" \
      "$(replay_count '[0-9,]* requests\? w[a-z]* taken out of the reorder window' "$OUT/$name.txt")" \
      "$(replay_count 'Could not read [0-9,]* line' "$OUT/$name.txt")" \
      "$(time_field exit "$OUT/$name.time")" | tee -a "$burst"
  }
  # sigterm PID LABEL GZMB: SIGTERM to PID (a replay under way), then how long it took to exit
  sigterm() {
    local pid=$1 label=$2 gz=$3 hwm t0 t1 rc=0
    hwm=$(awk '/VmHWM/ {printf "%.0f", $2 / 1024}' "/proc/$pid/status")
    t0=$(ms_now)
    kill -TERM "$pid"
    wait "$pid" || rc=$?
    t1=$(ms_now)
    printf '| %s | %s | SIGTERM | - | - | **%s** (at the signal) | - | - | - | **%d** | %s |\n' \
      "$label" "$gz" "$hwm" $((t1 - t0)) "$rc" | tee -a "$burst"
  }
  # half_way LOG SECONDS LABEL: a replay of LOG, sent SIGTERM SECONDS after it started
  half_way() {
    local log=$1 after=$2 label=$3 start pid
    start=$(ms_now)
    "${replay[@]}" "$rules" "$log" --no-progress > /dev/null 2>&1 &
    pid=$!
    while [ $(( $(ms_now) - start )) -lt "$after" ]; do sleep 0.05; done
    if kill -0 "$pid" 2>/dev/null; then
      sigterm "$pid" "$label, SIGTERM at $((after / 1000)).$((after % 1000 / 100)) s" \
        "$(du -m "$log" | cut -f1)"
    else
      wait "$pid" || true
      echo "| $label | ended before the signal | | | | | | | | | |" | tee -a "$burst"
    fi
  }
  # endless LABEL COMMAND...: COMMAND's output as the replay's standard input, without end;
  # SIGTERM once the replay has read ENDLESS_MB
  endless() {
    local label=$1 pid; shift
    "$@" | "${replay[@]}" "$rules" - --no-progress > /dev/null 2>&1 &
    pid=$!
    until [ "$(awk '/^rchar/ {print $2}' "/proc/$pid/io" 2>/dev/null || echo 0)" -ge $((ENDLESS_MB << 20)) ]; do
      if ! kill -0 "$pid" 2>/dev/null; then
        local rc=0; wait "$pid" || rc=$?
        echo "| $label | - | ended by itself | - | - | - | - | - | - | - | $rc |" | tee -a "$burst"
        return
      fi
      sleep 0.05
    done
    sigterm "$pid" "$label, $ENDLESS_MB MB read" "-"
  }

  line='192.0.2.7 - - [30/Nov/2026:10:00:03 +0000] "GET /api/feed HTTP/1.1" 200 512 "-" "curl/8.5"'
  for lines in $BURST_LINES; do
    java benchmarks/replay/GenerateBurstLogs.java burst "$lines" "$tmp/burst-$lines.log.gz"
    label="$lines lines in one second"
    to_the_end "replay-burst-$lines" "$tmp/burst-$lines.log.gz" "$label"
    half_way "$tmp/burst-$lines.log.gz" "$(echo "$wall * 500 / 1" | bc)" "$label"
    rm -f "$tmp/burst-$lines.log.gz"
  done
  java benchmarks/replay/GenerateBurstLogs.java long-line "$LONG_MB" "$tmp/long-line.log.gz"
  label="one line of $LONG_MB MiB"
  to_the_end replay-burst-long-line "$tmp/long-line.log.gz" "$label"
  half_way "$tmp/long-line.log.gz" "$(echo "$wall * 500 / 1" | bc)" "$label"
  rm -f "$tmp/long-line.log.gz"
  endless "endless lines on stdin" yes "$line"
  endless "one endless line on stdin" tr '\0' x < /dev/zero
  echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$burst"
fi
