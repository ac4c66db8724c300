# Variants of batch.lua for batch-cost.sh's VARIANTS (each as batch.lua, one thing changed):
#   nopcall.lua  decide_rule called directly (no pcall: one decision's error would fail the batch)
#   hoist.lua    also gcra.lua's helpers (times_interval ... write_state: they take what they use as
#                arguments) made once per call at the chunk's level, not once per decision
import re
src = open('batch.lua').read()
nopcall = src.replace("local ok, reply = pcall(decide_rule, {KEYS[i]}, {unpack(ARGV, at + 1, at + len)})",
                      "local ok, reply = true, decide_rule({KEYS[i]}, {unpack(ARGV, at + 1, at + len)})")
assert nopcall != src
open('nopcall.lua', 'w').write(nopcall)
start = nopcall.index('local function decide_budget(KEYS, ARGV)\n')
h0 = nopcall.index('-- k * T as a (whole, fraction) pair', start)
h1 = nopcall.index('-- (x + 0 reads a decimal ARGV', start)
helpers = nopcall[h0:h1]
hoist = nopcall[:start] + helpers + nopcall[start:h0] + nopcall[h1:]
open('hoist.lua', 'w').write(hoist)
