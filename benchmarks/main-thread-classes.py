#!/usr/bin/env python3
# The agent's classes loaded by the main thread (the thread that loads the agent's first class: premain
# runs on it), and of them ASM's and the weaving's, per class-load log written with
# -Xlog:class+load:file=...:uptime,tid (startup-counts.sh's *.classes.log); the test apps' own io.tollgate.testapps classes are not the agent's.
# Usage: benchmarks/main-thread-classes.py LOG...
import re,collections,sys

weaving = ('MethodWeaver','EntryPointWeaver','WovenMethod','EntryPointWeaving$Found','EntryPointWeaving$Scan$1','EntryPointWeaving$WovenClass','BridgeVisibility','DeclaredMethods','ClassFileBytes','diagnostics.EntryPoints')
for f in sys.argv[1:]:
    main=None; rows=[]
    for l in open(f):
        m=re.match(r'\[([\d.]+)s\]\[(\d+)\] (\S+) source',l)
        if not m: continue
        t,tid,c=m.groups()
        if main is None and c.startswith('io.tollgate.bootstrap'): main=tid
        if tid==main and c.startswith('io.tollgate') and not c.startswith('io.tollgate.testapps'): rows.append(c)
    asm=[c for c in rows if '.asm.' in c]
    wv=[c for c in rows if c.endswith(weaving) and '.asm.' not in c]
    print(f"{f.split('/')[-1]}: main thread, the agent's {len(rows)}, ASM's {len(asm)}, the weaving's {len(wv)} [{' '.join(c.rsplit('.',1)[-1] for c in asm+wv)}]")
