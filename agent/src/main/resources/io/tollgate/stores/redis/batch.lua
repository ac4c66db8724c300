-- Tollgate: several token-bucket / gcra decisions in one call (RedisBatcher sends the decisions
-- that came while its window of calls was in flight). Put after the agent's script of one call
-- (common.lua, gcra.lua as decide_budget, budgets.lua made the function decide_rule(KEYS, ARGV) of
-- one decision: RedisScript.batchOverBudgets): each decision reads its KEYS[1] and ARGV exactly as
-- when it is sent alone, and is decided as it would have been alone (a rule's budgets all or none,
-- atomically), one after the other, at the one Redis TIME read for the call.
-- (benchmarks' RedisBatchPotential and results/redis-batch-cost/batch-cost.sh measure this file.)
--
-- KEYS[i]   decision i's key (its KEYS[1] alone; a batch is never sent with a partner-hold key)
-- ARGV      for each decision in turn: the number L of its arguments, then those L arguments
--
-- Returns, for each decision, the length of its reply and then the reply (budgets.lua's, itself
-- a flat list); a decision whose part raised an error has length -1 and then the error's text, so
-- that one decision's error is that decision's alone (what the others wrote stays written, as it
-- would have after separate calls).

local out = {}
local at = 1
for i = 1, #KEYS do
  local len = ARGV[at] + 0
  local ok, reply = pcall(decide_rule, {KEYS[i]}, {unpack(ARGV, at + 1, at + len)})
  at = at + 1 + len
  if ok then
    out[#out + 1] = #reply
    for j = 1, #reply do out[#out + 1] = reply[j] end
  else
    out[#out + 1] = -1
    out[#out + 1] = type(reply) == 'table' and tostring(reply.err) or tostring(reply)
  end
end
return out
