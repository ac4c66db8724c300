#!/usr/bin/env bash
# Makes the cut-short variants of script.lua that HOW.txt measured (run in this folder).
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
