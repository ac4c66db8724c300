cd /work/wt-engine5
for r in 1 2; do for m in rule bucket4j rule-noheaders none; do
  echo "$(date -u +%T) $r $m load $(cut -d' ' -f1-3 /proc/loadavg)" >> benchmarks/results/engine5/profiles/runs.txt
  PORT=18517 SERVER_CPU=0 PIN=same WARMUP=30 DURATION=15 OUT=benchmarks/results/engine5/profiles/before-$m-r$r benchmarks/profile-async.sh $m > /dev/null 2>&1
done; done
echo done >> benchmarks/results/engine5/profiles/runs.txt
