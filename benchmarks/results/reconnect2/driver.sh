#!/usr/bin/env bash
# Alternated passes: before (main c106f3a) and after (h-reconnect2), a call per decision, then batched.
B=/tmp/reconnect2/jars/before-c106f3a.jar; A=/tmp/reconnect2/jars/after-3991313.jar
S=/tmp/reconnect2/bench.sh
export ROUNDS="drop drop"
for i in 1 2 3 4 5; do
  $S before-single-$i $B
  $S after-single-$i $A
done
for i in 1 2; do
  $S before-batched-$i $B -Dtollgate.redis.batch=true
  $S after-batched-$i $A -Dtollgate.redis.batch=true
done
