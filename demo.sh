#!/usr/bin/env bash
# Builds Tollgate and a plain servlet app, starts the app with the agent and
# config-examples/quickstart.yaml, and sends 8 requests to GET /hello: the first 5 pass (200),
# the rest are refused (429) with Retry-After and the RateLimit headers.
set -euo pipefail
cd "$(dirname "$0")"

PORT="${PORT:-18080}"
APP=test-apps/servlet-jakarta/target/servlet-jakarta.jar
AGENT=agent/target/tollgate-agent.jar
RULES=config-examples/quickstart.yaml

echo "== Building the agent and the app (mvn -B package -DskipTests; the first build downloads dependencies)"
# One line per module (and one when downloads begin) rather than Maven's thousands, or the
# silence of -q: on a fresh machine the first build takes minutes. The whole output is kept and
# shown if the build fails.
BUILD_LOG=$(mktemp)
show_progress() {
  local line said_downloading=""
  while IFS= read -r line; do
    case "$line" in
      "[INFO] Building "*"["*"/"*"]")
        set -- $line # "[INFO] Building NAME VERSION [k/n]", its runs of spaces collapsed
        shift 2
        echo "   building $*"
        ;;
      # the agent module's long steps, so that its ~40 s are not silent
      "[INFO] --- maven-compiler-plugin:"*":compile "*) echo "     compiling" ;;
      "[INFO] --- maven-compiler-plugin:"*":testCompile "*) echo "     compiling the tests (not run here)" ;;
      "[INFO] --- maven-shade-plugin:"*"(relocate-dependencies)"*) echo "     relocating the agent's dependencies" ;;
      "[INFO] --- maven-antrun-plugin:"*"(assemble-agent-jar)"*) echo "     assembling agent/target/tollgate-agent.jar" ;;
      *"Downloading from "*)
        if [ -z "$said_downloading" ]; then
          echo "   downloading dependencies (only the first build does)..."
          said_downloading=1
        fi
        ;;
      "[INFO] BUILD SUCCESS") echo "   built" ;;
    esac
  done
}
if ! mvn -B package -DskipTests -pl agent,test-apps/servlet-jakarta -am 2>&1 |
    tee "$BUILD_LOG" | show_progress; then
  grep -E '^\[(ERROR|WARNING)\]' "$BUILD_LOG" | head -40 || tail -40 "$BUILD_LOG"
  echo "the build failed; the whole output is in $BUILD_LOG"
  exit 1
fi
rm -f "$BUILD_LOG"

# The app runs from copies of the two jars: a build (mvn verify) may replace the ones in target/
# while the demo runs, and the demo's app must not read a jar that changes under it.
RUN_DIR=$(mktemp -d "${TMPDIR:-/tmp}/tollgate-demo.XXXXXX")
LOG="$RUN_DIR/app.log"
APP_PID=""
trap 'if [ -n "$APP_PID" ]; then kill $APP_PID 2>/dev/null || true; fi; rm -rf "$RUN_DIR"' EXIT
cp "$AGENT" "$RUN_DIR/tollgate-agent.jar"
cp "$APP" "$RUN_DIR/servlet-jakarta.jar"

echo "== Starting servlet-jakarta on port $PORT with the agent and $RULES"
echo "   from copies of $AGENT and $APP (a build may replace those meanwhile);"
echo "   any app takes the same -javaagent flag, and test-apps/README.md starts the other test apps:"
COMMAND=(java -javaagent:"$RUN_DIR/tollgate-agent.jar"=config="$RULES" -jar "$RUN_DIR/servlet-jakarta.jar")
echo "\$ PORT=$PORT ${COMMAND[*]}"
PORT="$PORT" "${COMMAND[@]}" >"$LOG" 2>&1 &
APP_PID=$!
for _ in $(seq 1 120); do
  grep -q "listening on port $PORT" "$LOG" && break
  kill -0 $APP_PID 2>/dev/null || { cat "$LOG"; echo "the app did not start"; exit 1; }
  sleep 0.25
done
echo "== What the agent logged"
grep '^\[tollgate\]' "$LOG" || true

echo "== 8 requests to GET /hello (limit: 5 a minute per client)"
for i in $(seq 1 8); do
  line=$(curl -s -o /dev/null -D - "http://127.0.0.1:$PORT/hello" | tr -d '\r' |
    awk 'NR==1{status=$2} /^(RateLimit|Retry-After)/{extra=extra"  "$0} END{print status extra}')
  echo "request $i: $line"
done

echo "== A refused request in full"
curl -s -i "http://127.0.0.1:$PORT/hello"
echo

echo "== The agent's refusal log (at most 10 lines per rule per minute; refusal-log=N to change)"
grep '^\[tollgate\] refused' "$LOG" || true
