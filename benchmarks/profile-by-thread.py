#!/usr/bin/env python3
# The server's CPU per request by where it goes, thread by thread, from profile-async.sh's collapsed
# stacks: the Redis client's I/O thread (Lettuce's event loop: write, epoll, read, decode, encode,
# completing the future and waking the request thread), the request thread's decision (its wait for
# the reply, Lettuce's dispatch, Caffeine, Tollgate's stores, the engine), and Tomcat's own threads
# (the poller, the hand-offs to a worker, the response's write). Each category's share of the
# samples times the server's CPU per request over the sampled run, side by side for several runs:
#   benchmarks/profile-by-thread.py NAME=FILE.collapsed=CPU_US_PER_REQUEST ...
# (CPU_US_PER_REQUEST: the "server CPU ... us per request" of profile-async.sh's .txt)
import sys, collections
def load(p):
    st=[]
    for line in open(p):
        s,_,n=line.rstrip().rpartition(' ')
        st.append((s.split(';'),int(n)))
    return st
def has(f,*keys): return any(k in x for x in f for k in keys)
def cat(f):
    if has(f,'CompileBroker::'): return 'JIT compiler'
    if has(f,'G1','GCTask','gc/','VMThread'): return 'GC, VM'
    if has(f,'NioEventLoop.run'):
        if has(f,'IOUtil.write','__GI_write','writev','doWrite'): return 'Redis I/O thread: write (the command)'
        if has(f,'epoll_wait','epoll_ctl','select','EPoll'): return 'Redis I/O thread: epoll (wait, wake-ups)'
        if has(f,'unpark','pthread_cond_signal','futex','__lll_lock_wake','complete'): return 'Redis I/O thread: completing, waking the request thread'
        if has(f,'IOUtil.read','__GI_read','doReadBytes'): return 'Redis I/O thread: read'
        if has(f,'decode','Decode','RedisStateMachine'): return 'Redis I/O thread: decode'
        if has(f,'encode','Encode'): return 'Redis I/O thread: encode'
        return 'Redis I/O thread: other (task queue, Netty)'
    if has(f,'TollgateBridge.enter'):
        if has(f,'LockSupport.park','Unsafe.park','futex_abstimed','pthread_cond_wait','pthread_cond_timedwait'): return 'request thread: waiting for the reply (park, switch)'
        if has(f,'lettuce/'): return 'request thread: Lettuce dispatch (queue the command, wake the I/O thread)'
        if has(f,'caffeine/'): return 'request thread: Caffeine (the share, the ledger, the leases)'
        if has(f,'io/tollgate/stores/'): return 'request thread: Tollgate stores, other (key, ARGV, ledger, share)'
        return 'request thread: the engine, headers (as the local rule)'
    if has(f,'IOUtil.write','SocketChannelImpl.write','__GI_write','writev'): return 'Tomcat: response write'
    if has(f,'IOUtil.read','SocketChannelImpl.read','__GI_read'): return 'Tomcat: request read'
    if has(f,'Poller','epoll'): return 'Tomcat: poller, epoll'
    if has(f,'park','futex','pthread_cond'): return 'Tomcat: thread hand-offs (park, unpark)'
    return 'Tomcat, servlet, other'
res={}
for name,p,cpu in [(a.split('=')[0],a.split('=')[1],float(a.split('=')[2])) for a in sys.argv[1:]]:
    st=load(p); tot=sum(n for _,n in st); c=collections.Counter()
    for f,n in st: c[cat(f)]+=n
    res[name]=(c,tot,cpu)
cats=sorted(set(k for v in res.values() for k in v[0]), key=lambda k:(k.split(':')[0],k))
print('| where | '+' | '.join(f'{n} µs/req (share)' for n in res)+' |')
print('|---|'+'---|'*len(res))
for k in cats:
    print(f'| {k} | '+' | '.join(f'{v[2]*v[0][k]/v[1]:.1f} ({100*v[0][k]/v[1]:.0f}%)' for v in res.values())+' |')
print('| all | '+' | '.join(f'{v[2]:.1f}' for v in res.values())+' |')
