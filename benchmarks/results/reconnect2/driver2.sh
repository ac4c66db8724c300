#!/usr/bin/env bash
# After the first driver's a-call-per-decision passes: it is stopped (its pid) once after-single-5
# is done; the batched pass it had begun (before-batched-1) runs to its end; then the rest here.
L=/tmp/reconnect2/driver.log
until grep -q "^after-single-5 " $L; do sleep 2; done
kill "$(cat /tmp/reconnect2/driver.pid)"
until grep -q "^before-batched-1 " $L; do sleep 2; done
A=/tmp/reconnect2/jars/after-3991313.jar
S=/tmp/reconnect2/bench.sh
ROUNDS="drop drop" $S after-batched-1 $A -Dtollgate.redis.batch=true >> $L 2>&1
ROUNDS="late1000 reload-deny" $S after-others-1 $A >> $L 2>&1
