#!/usr/bin/env python3
# premain's span on the application's main thread and the first weave, per class-load log written with
# -Xlog:class+load:file=...:uptime,tid (startup-counts.sh's *.classes.log, MODES="agent before"):
# premain->app = from the agent's first class to the main thread's first class of the application
# (io.tollgate.testapps.* or org.apache.*: servlet-jakarta); the thread-start gap = the main thread's
# pause after it loads the start-up thread's Runnable (Thread.start waits for the new thread to run);
# the first weaver's uptime = when RequestEntryWeaver is loaded (the first entry point woven). Then the
# differences agent - before paired by round.
# Usage: benchmarks/premain-span.py LOG...
import re,sys,statistics,collections
res=collections.defaultdict(dict)
for f in sys.argv[1:]:
    rows=[]
    for l in open(f,errors='replace'):
        m=re.match(r'\[([\d.]+)s\]\[(\d+)\] (\S+) source',l)
        if m: rows.append((float(m.group(1)),m.group(2),m.group(3)))
    main=next(t for _,t,c in rows if c.startswith('io.tollgate.bootstrap'))
    i0=next(i for i,(u,t,c) in enumerate(rows) if c.startswith('io.tollgate.bootstrap'))
    t0=rows[i0][0]
    mains=[(u,c) for i,(u,t,c) in enumerate(rows) if t==main and i>=i0]
    end=next(k for k,(u,c) in enumerate(mains) if c.startswith(('io.tollgate.testapps','org.apache')))
    k1=next(k for k,(u,c) in enumerate(mains) if c in ('io.tollgate.agent.AgentMain$1','io.tollgate.agent.StartupThread$1'))
    start_gap=mains[k1+1][0]-mains[k1][0]
    fw=next((u for u,t,c in rows if c=='io.tollgate.instrumentation.RequestEntryWeaver'),None)
    mode=re.search(r'-(agent|before)-(\d+)\.',f)
    res[mode.group(2)][mode.group(1)]=((mains[end][0]-t0)*1000, start_gap*1000, fw*1000)
    print(f.split('/')[-1], f"premain->app {((mains[end][0]-t0)*1000):.0f} ms, thread start gap {start_gap*1000:.0f} ms, first weaver at uptime {fw*1000:.0f} ms")
for j,name in enumerate(['premain->app','thread-start gap','first weaver uptime']):
    d=[v['agent'][j]-v['before'][j] for v in res.values() if 'agent' in v and 'before' in v]
    print(name, 'agent-before per round: median %+.0f' % statistics.median(d), sorted(round(x) for x in d), 'lower in %d of %d' % (sum(x<0 for x in d), len(d)))
