ARGS=$(grep -i evalsha /tmp/lua/monitor.txt | grep -v "lua\]" | head -1 | python3 -c '
import re,sys
l=sys.stdin.read(); a=re.findall(r"\"((?:[^\"\\\\]|\\\\.)*)\"",l); print("\n".join(a[4:]))')
mapfile -t argv <<< "$ARGS"
run() { local f=$1; local s=$(redis-cli -p 16901 -x script load < $f); redis-cli -p 16901 config resetstat >/dev/null; redis-benchmark -p 16901 -c 4 -n 30000 -r 10000 -q EVALSHA $s 1 'tollgate:v2:{bench:__rand_int__}:token-bucket' "${argv[@]}" >/dev/null 2>&1; echo "$f $(redis-cli -p 16901 info commandstats | grep evalsha | grep -o 'usec_per_call=[0-9.]*,rejected_calls=0,failed_calls=[0-9]*')"; }
