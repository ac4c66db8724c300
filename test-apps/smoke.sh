#!/usr/bin/env bash
# Starts one test app's jar, checks every endpoint (status and body), stops it.
#   test-apps/smoke.sh NAME [JAVA]
# PORT defaults to 18080. Exits non-zero on any failure.
# The extra endpoints (async, forward, include, error) are checked where the app has them.
set -u
name=${1:?usage: smoke.sh NAME [JAVA]}
java=${2:-java}
case $name in
  jaxrs-jakarta) extras="async boom" ;;   # no servlet API, so no forward or include
  jaxrs-javax) extras="async forward boom" ;;   # Jersey's ServletContainer does not serve includes
  *) extras="async forward include boom" ;;
esac
port=${PORT:-18080}
here=$(cd "$(dirname "$0")" && pwd)
jar="$here/$name/target/$name.jar"
out=$(mktemp) err=$(mktemp)
fail=0 pass=0

PORT=$port "$java" -jar "$jar" >"$out" 2>"$err" &
pid=$!
trap 'kill $pid 2>/dev/null; wait $pid 2>/dev/null; rm -f "$out" "$err"' EXIT
start=$(date +%s%N)
for _ in $(seq 1 600); do
  grep -q "listening on port" "$out" && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.1
done
ms=$(( ($(date +%s%N) - start) / 1000000 ))
line=$(head -1 "$out")
if [ "$line" != "$name listening on port $port" ]; then
  echo "FAIL start: first stdout line was '$line'"; cat "$err"; exit 1
fi
echo "started in ${ms}ms: $line"

check() { # METHOD PATH STATUS BODY [extra curl args...]
  local method=$1 path=$2 want_status=$3 want_body=$4; shift 4
  local body status
  body=$(curl -s -o - -w '\n%{http_code}' -X "$method" "$@" "http://127.0.0.1:$port$path")
  status=${body##*$'\n'}; body=${body%$'\n'*}
  if [ "$status" = "$want_status" ] && { [ "$want_body" = "*" ] || [ "$body" = "$want_body" ]; }; then
    pass=$((pass + 1)); echo "ok   $method $path -> $status $(printf %q "${body:0:80}")"
  else
    fail=$((fail + 1)); echo "FAIL $method $path -> $status $(printf %q "$body") (wanted $want_status $want_body)"
  fi
}
nl=$'\n'
check GET  /hello 200 "hello$nl"
check POST /hello 200 "hello posted$nl"
check POST /login 200 "logged in$nl" -d 'user=a&password=b'
check POST '/login?user=a&password=wrong' 401 "wrong password$nl"
check GET  /api/orders/42 200 "order 42$nl"
check GET  /api/search 200 "search results$nl"
check GET  /api/export 200 "export$nl"
check GET  /health 200 "ok$nl"
check GET  /login 405 "*"
check DELETE /hello 405 "*"
check GET  /no/such/path 404 "*"
check GET  /whoami 200 "anonymous$nl"
check GET  /whoami 200 "user alice$nl" -H 'X-Test-User: alice'
h=$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/api/export?cost=7" | tr -d '\r' | grep -i '^X-Tollgate-Cost:')
if [ "$h" = "X-Tollgate-Cost: 7" ] || [ "$h" = "x-tollgate-cost: 7" ]; then pass=$((pass + 1)); echo "ok   GET /api/export?cost=7 -> $h"
else fail=$((fail + 1)); echo "FAIL GET /api/export?cost=7 -> header '$h'"; fi
h=$(curl -s -D - -o /dev/null "http://127.0.0.1:$port/api/export" | tr -d '\r' | grep -ic '^X-Tollgate-Cost:')
if [ "$h" = "0" ]; then pass=$((pass + 1)); echo "ok   GET /api/export -> no X-Tollgate-Cost"
else fail=$((fail + 1)); echo "FAIL GET /api/export -> has X-Tollgate-Cost"; fi
for e in $extras; do
  case $e in
    async) check GET /async/hello 200 "hello async$nl" ;;
    forward) check GET /forward/hello 200 "hello$nl" ;;
    include) check GET /include/hello 200 "hello$nl" ;;
    boom) check GET /error/boom 500 "*" ;;
  esac
done
echo "stderr of the app: $(wc -l <"$err") lines"; sed 's/^/  | /' "$err" | head -20
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
