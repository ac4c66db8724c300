#!/usr/bin/env python3
"""families.py's frame families as shares of each mode's samples (its runs pooled), and the shares
applied to a CPU per request given for the mode (e.g. the quiet paired run's median): busy runs'
totals move with the neighbours' load, their shares much less.
usage: shares.py MODE=RUN[,RUN...]@US ...   (US: the µs per request to split)"""

import gzip, os, sys
ARGS = sys.argv[1:]
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
for arg in ARGS:
    mode, rest = arg.split('=')
    runs, us = rest.split('@'); us = float(us)
    counts = [0] * len(fams); total = 0
    for run in runs.split(','):
        stacks = []
        for line in (open(run + '.collapsed') if os.path.exists(run + '.collapsed') else gzip.open(run + '.collapsed.gz', 'rt')):
            s, _, n = line.rstrip().rpartition(' '); n = int(n); total += n; stacks.append((s.split(';'), n))
        for k, (_, fn) in enumerate(fams):
            if fn is None:
                fn = lambda f: not any(g(f) for _, g in fams[1:k] if g is not None and not _.startswith('  '))
            counts[k] += sum(n for f, n in stacks if fn(f))
    cols.append((mode, counts, total, us))
print('| share of samples → µs of the given CPU per request | ' + ' | '.join(c[0] for c in cols) + ' |')
print('|---|' + '---|' * len(cols))
print('| samples | ' + ' | '.join(f'{c[2]:,}' for c in cols) + ' |')
for k, (name, _) in enumerate(fams):
    print(f'| {name} | ' + ' | '.join(f'{100 * c[1][k] / c[2]:.1f}% → {c[3] * c[1][k] / c[2]:.2f}' for c in cols) + ' |')
