#!/usr/bin/env bash
# Slow senders against a shared concurrency limit (issue 28 row 3; BENCHMARKS.md section 7): the
# attack of SlowSendersIT as figures. servlet-jakarta (its POST /login reads the form, so a slow
# body holds its request, and its permit, for as long as it keeps coming) with, by mode:
#   none             no agent
#   concurrency      a `concurrency` rule on POST /login, key: global, limit 10 (per-client: 50%,
#                    the default on key: global)
#   concurrency-off  the same with `per-client: off`
#   adaptive         an `adaptive-concurrency` rule, key: global, min 8, initial 10, max 10
#   adaptive-off     the same with `per-client: off`
# For each, io.tollgate.testing.attack.SlowSendersLoad (agent/target/test-classes, beside the
# attack it shares with SlowSendersIT) warms the app up for WARM seconds (not counted: the JIT),
# then runs CLIENTS legitimate clients (each its own address, one login after the other) for
# SECONDS_EACH seconds without the attack, then with it (ATTACK connections from one address
# announcing Content-Length: 100000 and sending one byte a second, reopened when answered), then
# after it. The attack phase starts once the attacker's own quick login is refused (the agent's
# modes) or every attack connection is open (none).
# Output: one RESULT line per phase and a table (benchmarks/slow-senders-table.py) of the
# legitimate clients' 2xx, 429 and 503 with, per mode, the share of their requests answered 2xx
# during the attack, and the attack phase's 2xx against its own quiet phase and against the
# no-agent run under the same attack in the same round (goal: at least 80%). Figures, not
# assertions.
#
#   mvn -B -q install -DskipTests && benchmarks/run-slow-senders.sh
#   ROUNDS=2 WARM=10 SECONDS_EACH=10 CLIENTS=4 ATTACK=15 MODES="none concurrency ..." NAME=slow-senders
# Rounds run the modes one after the other, ROUNDS times (interleaved: a busy machine moves every
# mode alike). Files: benchmarks/results/NAME.txt and NAME-logs/ (the apps' logs).
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-2}
WARM=${WARM:-10}
SECONDS_EACH=${SECONDS_EACH:-10}
CLIENTS=${CLIENTS:-4}
ATTACK=${ATTACK:-15}
MODES=${MODES:-"none concurrency concurrency-off adaptive adaptive-off"}
NAME=${NAME:-slow-senders}

agent=agent/target/tollgate-agent.jar
app=test-apps/servlet-jakarta/target/servlet-jakarta.jar
load=agent/target/test-classes
out=benchmarks/results
result=$out/$NAME.txt
logs=$out/$NAME-logs
for tool in curl python3 java; do
  command -v "$tool" >/dev/null || { echo "run-slow-senders.sh: $tool is not on the PATH" >&2; exit 1; }
done
[ -f "$agent" ] && [ -f "$app" ] && [ -f "$load/io/tollgate/testing/attack/SlowSendersLoad.class" ] || {
  echo "run-slow-senders.sh: build first: mvn -B -q install -DskipTests" >&2; exit 1; }
mkdir -p "$out" "$logs"
work=$(mktemp -d)
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

app_pid=
cleanup() {
  [ -z "$app_pid" ] || { kill "$app_pid" 2>/dev/null || true; wait "$app_pid" 2>/dev/null || true; }
  rm -rf "$work"
}
trap cleanup EXIT

# rules MODE: the rules file of an agent mode, as SlowSendersIT writes it
rules() {
  local mode=$1 file=$work/rules-$1.yaml
  {
    echo "client-ip:"
    echo "  trusted-proxies: 1"
    echo "rules:"
    echo "  - name: login-guard"
    echo "    algorithm: ${mode%-off}" | sed 's/: adaptive$/: adaptive-concurrency/'
    echo "    match:"
    echo "      path: /login"
    echo "      methods: [POST]"
    echo "    key: global"
    case $mode in
      concurrency*) echo "    limit: 10"; echo "    period: 1s" ;;
      adaptive*) echo "    min: 8"; echo "    initial: 10"; echo "    max: 10" ;;
    esac
    [[ $mode == *-off ]] && echo "    per-client: off"
  } > "$file"
  echo "$file"
}

{
  echo "# run-slow-senders.sh, $(date -u +%FT%TZ), commit $(git rev-parse --short HEAD)$(git diff --quiet -- agent || echo ' (agent changed)')"
  echo "# rounds=$ROUNDS seconds=$SECONDS_EACH clients=$CLIENTS attack=$ATTACK modes=$MODES"
  echo "# load before: $(cut -d' ' -f1-3 /proc/loadavg); cpus: $(nproc)"
} | tee "$result"

for round in $(seq 1 "$ROUNDS"); do
  for mode in $MODES; do
    port=$(free_port)
    log=$logs/$mode-r$round.log
    agent_opts=(); held=()
    if [ "$mode" != none ]; then
      agent_opts=("-javaagent:$agent=config=$(rules "$mode")"); held=(--held-off)
    fi
    PORT=$port java -Xmx256m "${agent_opts[@]}" -jar "$app" > "$log" 2>&1 &
    app_pid=$!
    until curl -fs "http://127.0.0.1:$port/health" >/dev/null 2>&1; do
      kill -0 "$app_pid" 2>/dev/null || { echo "the app of $mode did not start: $log" >&2; exit 1; }
      sleep 0.1
    done
    echo "# round $round, $mode: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$result"
    java -Xmx256m -cp "$load" io.tollgate.testing.attack.SlowSendersLoad --port "$port" \
      --label "$mode/r$round" --warm "$WARM" --seconds "$SECONDS_EACH" --clients "$CLIENTS" --attack "$ATTACK" \
      "${held[@]}" | tee -a "$result"
    kill "$app_pid"; wait "$app_pid" 2>/dev/null || true; app_pid=
    if [ "$mode" != none ] && grep -n 'ERROR\|Exception' "$log" >/dev/null; then
      echo "# $mode round $round: the agent's log has errors: $log" | tee -a "$result"
    fi
  done
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$result"

python3 benchmarks/slow-senders-table.py "$result" | tee -a "$result"
