#!/usr/bin/env bash
# Makes the cut-short variants of the token bucket's script that HOW.txt measured (run in this
# folder, after mvn package): script.lua is the exact text the agent loads (SCRIPT LOAD gave
# 50d141c5adad5df7e97e8df6ac99c5085bd79c35 at main 58e42f2; the line numbers below are that text's).
# The script before h-lua (the line numbers are its own): from a benchmarks jar of 58e42f2-4d18742
# (BEFORE_JAR), not this build's, whose script h-lua changed (compare-h-lua.sh measures both).
[ -f script.lua ] || java -cp "${BEFORE_JAR:?a benchmarks jar of 58e42f2..4d18742}" io.tollgate.benchmarks.RedisThroughputDriver side=script > script.lua
printf 'return 1' > empty.lua
at_before() { awk -v L="$2" -v S="$3" 'NR==L{print S} {print}' script.lua > "$1"; }
at_after() { awk -v L="$2" -v S="$3" '{print} NR==L{print S}' script.lua > "$1"; }
at_before t15.lua 15 'do return 1 end'
at_before t152.lua 152 'do return 1 end'
at_before b1.lua 525 'do return 1 end'
at_after b2.lua 529 'do return 1 end'
at_before d2.lua 544 'do return 1 end'
at_before c1.lua 557 'do return 1 end'
at_before v0.lua 153 'do return {1,0,0,0,0,0} end'
at_after v1.lua 239 'do return {1,0,0,0,0,0} end'
at_after v2.lua 310 'do return {1,0,0,0,0,0} end'
