#!/usr/bin/env python3
"""(h-where: engine5's, with the write system call, the poller's kernel calls, hand-offs, connections,
GC and the rest added.) Frame families of profile-async.sh runs, µs of server CPU per request, one column per mode
(the runs of a mode pooled: each run's share of samples times its CPU per request, averaged).
usage: families.py MODE=RUN[,RUN...] ...   (RUN = path without .collapsed/.txt)"""
import gzip, os, sys
def under(word): return lambda f: any(word in x for x in f)
def own_filter(f):
    i = [j for j, x in enumerate(f) if 'Bucket4jRateLimitFilter.doFilter' in x]
    return bool(i) and not any('ApplicationFilterChain' in x for x in f[i[0] + 1:])
fams = [
  ('the server\'s CPU per request (all)', lambda f: True),
  ('of which the JIT compiler', under('CompileBroker::')),
  ('Tollgate at the request\'s start (TollgateBridge.enter)', under('TollgateBridge.enter')),
  ('Tollgate at the request\'s end (TollgateBridge.exit)', under('TollgateBridge.exit')),
  ('the hand-written filter, its own work (not the chain under it)', own_filter),
  ('Tomcat preparing the response (prepareResponse)', under('Http11Processor.prepareResponse')),
  ('of which writing the header lines (sendHeader)', under('Http11OutputBuffer.sendHeader')),
  ('the socket write (kernel included)', lambda f: any('SocketChannelImpl.write' in x or 'IOUtil.write' in x for x in f)),
  ('  of which the write system call itself (__GI_write, the kernel under it)', lambda f: any('SocketChannelImpl.write' in x or 'IOUtil.write' in x for x in f) and f[-1] == '__GI_write'),
  ('the socket read', lambda f: any('SocketChannelImpl.read' in x or 'IOUtil.read' in x for x in f)),
  ('Tomcat parsing the request (Http11InputBuffer)', under('Http11InputBuffer.')),
  ('Tomcat\'s poller', under('Poller.run')),
  ('  of which epoll_wait / epoll_ctl (kernel)', lambda f: any('Poller.run' in x for x in f) and f[-1] in ('epoll_wait', '__GI_epoll_ctl')),
  ('the worker handing off / waiting (futex, cond_signal)', lambda f: f[-1] in ('__futex_abstimed_wait_common', '___pthread_cond_signal')),
  ('connections opened and closed (accept, close, shutdown)', lambda f: f[-1] in ('__GI_accept', '__close', '__GI_shutdown')),
  ('GC', lambda f: any(x.startswith('G1') or 'GCTask' in x or x.startswith('gc/') for x in f)),
  ('not any of the above', None),
  ('the servlet (HttpServlet.service)', under('HttpServlet.service')),
  ('Tomcat recycling the request (Request/Response.recycle)', lambda f: any('Request.recycle' in x or 'Response.recycle' in x for x in f)),
]
cols = []
for arg in sys.argv[1:]:
    mode, runs = arg.split('=')
    acc = [0.0] * len(fams); nsamp = 0; runs = runs.split(',')
    for run in runs:
        cpu = float(open(run + '.txt').readline().split('server CPU ')[1].split()[0])
        stacks = []; total = 0
        for line in (open(run + '.collapsed') if os.path.exists(run + '.collapsed') else gzip.open(run + '.collapsed.gz', 'rt')):
            s, _, n = line.rstrip().rpartition(' '); n = int(n); total += n; stacks.append((s.split(';'), n))
        nsamp += total
        for k, (_, fn) in enumerate(fams):
            if fn is None:  # the samples in no family above but the first
                fn = lambda f: not any(g(f) for _, g in fams[1:k] if g is not None and not _.startswith('  '))
            acc[k] += cpu * sum(n for f, n in stacks if fn(f)) / total / len(runs)
    cols.append((mode, acc, nsamp))
print('| µs of server CPU per request | ' + ' | '.join(c[0] for c in cols) + ' |')
print('|---|' + '---|' * len(cols))
print('| samples | ' + ' | '.join(f'{c[2]:,}' for c in cols) + ' |')
for k, (name, _) in enumerate(fams):
    print(f'| {name} | ' + ' | '.join(f'{c[1][k]:.2f}' if k in (0, 1) else f'{c[1][k]:.3f}' for c in cols) + ' |')
