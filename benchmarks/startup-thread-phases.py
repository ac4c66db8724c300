#!/usr/bin/env python3
# The classes the agent's start-up thread (tollgate-start: the thread that loads WeavingWarmUp) loads,
# by phase and by whose, per class-load log written with -Xlog:class+load:file=...:uptime,tid
# (startup-counts.sh's *.classes.log; the log ends at the first 200 there). A phase begins at the
# first class whose name begins with one of its markers that this thread loads (see PHASES); the phases are AgentMain's:
# warm-up, the JDK's clients woven, the rules and the engine, the first decision's classes (Caffeine's),
# the background services. Then the medians over the logs given, and, when the agent logged it with
# debug (-Dtollgate.debug=true), the "CPU by phase" line of the matching .out file (same base name).
# Usage: benchmarks/startup-thread-phases.py LOG...
import re, statistics, sys, os

PHASES = [  # (phase, classes any of which begins it, loaded by the start-up thread)
    ('warm-up', None),
    # JdkEntryPoints is premain's; the start-up thread's first classes of that phase are the JDK's
    # own for redefining the modules (or, with StartupPhases, the CPU counter's file read)
    ("JDK's clients", ('sun.instrument.InstrumentationImpl$$Lambda', 'java.nio.channels.FileChannel')),
    ('rules and engine', ('io.tollgate.diagnostics.RefusalLog', 'io.tollgate.engine.RulesHolder')),
    ("first decision's classes", ('io.tollgate.shaded.com.github.benmanes.caffeine.cache.Caffeine',)),
    ('background services', ('io.tollgate.engine.RulesFileWatcher',)),
]
KINDS = ['agent', 'Caffeine', 'YAML', 'ByteBuddy', 'ASM', 'JDK', 'spun', 'other']

def kind(c, source):
    if 'Lambda' in c or '$$' in c or 'LambdaForm' in c or '__JVM' in source: return 'spun'
    if c.startswith('io.tollgate.shaded.com.github.benmanes'): return 'Caffeine'
    if 'snakeyaml' in c or 'yaml' in c.lower(): return 'YAML'
    if '.jar.asm.' in c: return 'ASM'
    if c.startswith('io.tollgate.shaded.net.bytebuddy'): return 'ByteBuddy'
    if c.startswith('io.tollgate'): return 'agent'
    if c.startswith(('java.', 'javax.', 'jdk.', 'sun.', 'com.sun.')): return 'JDK'
    return 'other'

def phases_of(path):
    rows = []
    for l in open(path, errors='replace'):
        m = re.match(r'\[([\d.]+)s\]\[(\d+)\] (\S+) source: ?(.*)', l)
        if m: rows.append(m.groups())
    start = next((tid for _, tid, c, _ in rows if c == 'io.tollgate.instrumentation.WeavingWarmUp'), None)
    counts = {p: dict.fromkeys(KINDS, 0) for p, _ in PHASES}
    phase = 0
    for t, tid, c, src in rows:
        if tid != start: continue
        for i in range(phase + 1, len(PHASES)):
            if PHASES[i][1] and c.startswith(PHASES[i][1]):
                phase = i
        counts[PHASES[phase][0]][kind(c, src)] += 1
    return counts

def cpu_line(path):
    out = re.sub(r'\.classes\.log$', '.out', path)
    if not os.path.exists(out): return None
    for l in open(out, errors='replace'):
        if 'CPU by phase:' in l: return l.split('CPU by phase:')[1].strip()
    return None

# the debug line's phase names, for the phases above in order
CPU_NAMES = ["the weaving's warm-up", "the JDK's clients woven", 'the rules and the engine',
             "the first decision's classes", 'the background services']

def cpu_values(line):
    if not line: return None
    told = dict((name.strip(), int(ms)) for name, ms in re.findall(r"([^,]+?) (\d+) ms", line))
    return [told.get(name) for name in CPU_NAMES]

all_counts, all_cpu = [], []
for f in sys.argv[1:]:
    c = phases_of(f); all_counts.append(c)
    line = cpu_line(f); all_cpu.append(cpu_values(line))
    print(os.path.basename(f) + ': ' + '; '.join(
        f"{p} {sum(c[p].values())}" for p, _ in PHASES) + (f" | CPU: {line}" if line else ''))
print(f"\nmedians over {len(all_counts)} logs: phase | CPU ms (min-max) | classes: " + ' '.join(KINDS) + ' all')
for i, (p, _) in enumerate(PHASES):
    cpus = [v[i] for v in all_cpu if v and v[i] is not None]
    cpu = f"{statistics.median(cpus):g} ({min(cpus)}-{max(cpus)})" if cpus else '-'
    ks = [statistics.median(c[p][k] for c in all_counts) for k in KINDS]
    tot = statistics.median(sum(c[p].values()) for c in all_counts)
    print(f"{p} | {cpu} | " + ' '.join(f"{k:g}" for k in ks) + f" {tot:g}")
