#!/usr/bin/env python3
"""The agent's share of profile-async.sh runs split by part, in µs of server CPU per request.
usage: enter-parts.py RUN... (RUN = path without .collapsed/.txt; several runs of one mode are pooled:
each run's samples weighted by its CPU per request over its samples)."""
import collections, gzip, os, sys
parts = [  # (part, substrings of any frame under TollgateBridge.enter/exit), first match wins
  ('the thread\'s context (ThreadLocal)', ['ThreadLocal']),
  ('the decided mark (Tomcat note / attribute)', ['TomcatRequestNotes', 'TomcatNoteCalls', 'firstTimeDecided', 'firstTimeMarked']),
  ('the quota headers (QuotaHeaders, TomcatResponseHeaders)', ['QuotaHeaders', 'TomcatResponseHeaders', 'TomcatResponseCalls', 'setResponseHeader']),
  ('the store: the clock', ['javaTimeNanos', 'vdso', 'clock_gettime', 'System.nanoTime']),
  ('the store: key state lookup (Caffeine / map)', ['caffeine/', 'ConcurrentHashMap']),
  ('the store: the algorithm (Gcra / TokenBucket)', ['limiters/']),
  ('the store: the rest (LocalLimiterStore)', ['stores/']),
  ('the key (client address: read, checked)', ['keyFor', 'IpAddress', 'ClientAddress', 'remoteAddress', 'getRemoteAddr', 'KeyPart', 'RequestKeyResolver', 'MissingKeyAdvisor']),
  ('matching (path normal form, rule match)', ['PathNormalizer', 'rawPath', 'TomcatRequestUri', 'RecentUris', 'Rule.matches', 'RuleSet', 'getMethod', 'method']),
  ('metrics (DecisionMetrics, RuleMetrics)', ['DecisionMetrics', 'RuleMetrics']),
  ('RequestDecider / TollgateGate own', ['RequestDecider', 'TollgateGate', 'RuleVerdicts', 'RequestScope']),
  ('the request\'s end (TollgateBridge.exit)', ['TollgateBridge.exit']),
  ('other', ['']),
]
acc = collections.Counter(); tot_us = 0.0; n_runs = 0; samples = 0
for run in sys.argv[1:]:
    cpu = float(open(run + '.txt').readline().split('server CPU ')[1].split()[0])
    stacks = []; total = 0
    for line in (open(run + '.collapsed') if os.path.exists(run + '.collapsed') else gzip.open(run + '.collapsed.gz', 'rt')):
        s, _, n = line.rstrip().rpartition(' '); n = int(n); total += n; stacks.append((s.split(';'), n))
    w = cpu / total / len(sys.argv[1:]); n_runs += 1
    for f, n in stacks:
        idx = [i for i, x in enumerate(f) if 'TollgateBridge.enter' in x or 'TollgateBridge.exit' in x]
        if not idx: continue
        sub = f[idx[0]:]; samples += n
        if 'TollgateBridge.exit' in sub[0]:
            acc['the request\'s end (TollgateBridge.exit)'] += n * w; continue
        for name, keys in parts:
            if any(k in x for x in sub[1:] for k in keys):
                acc[name] += n * w; break
print(f'{n_runs} runs, {samples} samples under the agent; µs per request (mean of the runs)')
for name, _ in parts:
    print(f'| {name} | {acc[name]:.3f} |')
print(f'| all | {sum(acc.values()):.3f} |')
