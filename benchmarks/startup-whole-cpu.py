#!/usr/bin/env python3
"""benchmarks/startup-whole-cpu.sh's summary: the agent's whole CPU to the first 200, by thread and
by kind, per start and as medians (min-max) over the starts of each mode, and with-minus-without
by round. Usage: startup-whole-cpu.py RES APP"""
import collections, os, re, statistics, sys

res, app = sys.argv[1], sys.argv[2]

def agents(frame):
    f = frame.replace('.', '/')
    return f.startswith('io/tollgate/') and not f.startswith('io/tollgate/testapps')

def group(name, first_java):
    if name == 'java': return 'other' if first_java else 'main'  # the launcher's thread, then Java's main
    if name.startswith('C1 Compiler'): return 'C1'
    if name.startswith('C2 Compiler'): return 'C2'
    if name.startswith('GC ') or name.startswith('G1 '): return 'GC'
    if name.startswith('tollgate'): return 'agent threads'
    if 'exec' in name or name.startswith('http-nio'): return 'request'
    if name.startswith('JFR ') or name.startswith('Async-profiler') or name == 'Attach Listener': return 'measurement'
    return 'other'

def tasks(path):
    cpu = collections.Counter(); first = True
    for line in open(path):
        tid, ms, name = line.rstrip('\n').split(' ', 2)
        cpu[group(name, first and name == 'java')] += int(ms)
        if name == 'java': first = False
    return cpu

def profile(path):
    """samples (itimer, 1 ms: CPU ms) by thread group, and those with an agent frame, by where"""
    samples = collections.Counter(); ours = collections.Counter(); where = collections.Counter()
    if not os.path.exists(path): return samples, ours, where  # profiles are not kept in results/
    for l in open(path):
        s, _, n = l.rstrip().rpartition(' '); n = int(n); f = s.split(';')
        m = re.match(r'^\[(.*?) tid=(\d+)\]$', f[0])
        name = m.group(1) if m else '?'
        g = 'main' if name in ('main', 'DestroyJavaVM') else group(name[:15], False)
        if name == 'tollgate-start': g = 'start-up thread'
        samples[g] += n
        frames = [x for x in f[1:] if agents(x)]
        if frames or g == 'start-up thread':
            ours[g] += n
            if g in ('main', 'request', 'other'):
                top = next((x for x in frames if 'WeavingTransformer.transform' in x), None) \
                    or next((x for x in frames if 'premain' in x or 'AgentStarter' in x), None) or frames[0]
                where[g + ': ' + top.split('/')[-1]] += n
    return samples, ours, where

KINDS = (  # what a sample of the agent's is doing, by the first of these its stack holds (root first)
    ('indy/lambda linkage', ('LambdaMetafactory', 'MethodHandleNatives.link', 'StringConcatFactory', 'InvokerBytecodeGenerator')),
    ('class verification', ('Verifier::', 'ClassVerifier::', 'VerificationType')),
    ('class parsing', ('ClassFileParser::',)),
    ('jar/zip reading', ('java/util/zip/', 'java/util/jar/', 'ZipFile')),
    ('class loading, other', ('ClassLoader.defineClass', 'SystemDictionary::', 'ClassLoader.loadClass', 'BuiltinClassLoader')),
    ('class initialization/linking', ('InstanceKlass::link', 'InstanceKlass::initialize', 'Rewriter::', 'LinkResolver::')),
)
def kind_of(frames):
    for name, keys in KINDS:
        if any(k in f for f in frames for k in keys): return name
    return 'running code'

def kinds(path):
    """the agent's samples on each thread group, by kind (the start-up thread: all its samples)"""
    c = collections.Counter()
    if not os.path.exists(path): return c
    for l in open(path):
        s, _, n = l.rstrip().rpartition(' '); n = int(n); f = s.split(';')
        m = re.match(r'^\[(.*?) tid=(\d+)\]$', f[0])
        name = m.group(1) if m else '?'
        at = next((i for i, x in enumerate(f) if i > 0 and agents(x)), None)
        if name == 'tollgate-start': c['start-up thread: ' + kind_of(f[1:])] += n
        elif at is not None:
            g = 'main' if name in ('main', 'DestroyJavaVM') else 'other threads'
            c[g + ': ' + kind_of(f[at:])] += n
    return c

def jfr(path):
    d = {}; tops = []
    for l in open(path):
        k, v, *rest = l.split()
        if k.startswith('top.'): tops.append((k[4:], float(v), rest[0].replace('|', ' ')))
        else: d[k] = float(v)
    return d, tops

def ready(path):
    for l in open(path, errors='replace'):
        m = re.search(r'premain (\d+) ms, then (\d+) ms CPU on the start-up thread', l)
        if m: return int(m.group(1)), int(m.group(2))
    return None, None

runs = {}
for line in open(f"{res}/whole-{app}-runs.txt"):
    if line.startswith('#'): print(line.strip()); continue
    mode, rnd, ms, cpu = line.split()
    runs[(mode, int(rnd))] = (int(ms), int(cpu))

rows = collections.defaultdict(dict)  # (mode, round) -> measure -> value
tops_all = collections.defaultdict(collections.Counter)
for (mode, rnd), (ms, cpu) in sorted(runs.items()):
    base = f"{res}/whole-{app}-{mode}-{rnd}"
    r = rows[(mode, rnd)]
    r['wall to the first 200'] = ms; r['JVM CPU'] = cpu
    t = tasks(base + '.tasks')
    for g in ('main', 'request', 'other', 'agent threads', 'C1', 'C2', 'GC', 'measurement'):
        r['CPU: ' + g] = t[g]
    samples, ours, where = profile(base + '.collapsed')
    d, tops = jfr(base + '.jfr-summary.txt')
    r['profile samples'] = sum(samples.values())
    r['ended: the start-up thread (samples)'] = samples['start-up thread']
    r['ended: the start-up thread, ms (samples x JVM CPU per sample)'] = samples['start-up thread'] * cpu / max(1, sum(samples.values()))
    for g in ('main', 'request', 'other'):
        share = ours[g] / samples[g] if samples[g] else 0
        r[f'agent share of {g} samples %'] = 100 * share
        r[f'agent on {g}: ms (share x CPU)'] = share * t[g]
    for k, v in where.items(): tops_all[mode]['samples ' + k] += v
    for k, v in kinds(base + '.collapsed').items(): tops_all[mode]['kind ' + k] += v
    for c in ('c1', 'c2'):
        a, o = d.get(f'compile.{c}.agent.ms', 0), d.get(f'compile.{c}.others.ms', 0)
        share = a / (a + o) if a + o else 0
        r[f'{c.upper()}: agent methods compiled'] = d.get(f'compile.{c}.agent.count', 0)
        r[f'{c.upper()}: all methods compiled'] = d.get(f'compile.{c}.agent.count', 0) + d.get(f'compile.{c}.others.count', 0)
        r[f'{c.upper()}: agent share of compile time %'] = 100 * share
        r[f'{c.upper()}: agent ms (share x CPU)'] = share * t[c.upper()]
    alloc = d.get('alloc.all.bytes', 0); ag = d.get('alloc.agent.bytes', 0)
    r['allocated MB (sampled)'] = alloc / 1e6
    r['agent share of allocation %'] = 100 * ag / alloc if alloc else 0
    r['GC: agent ms (allocation share x CPU)'] = (ag / alloc if alloc else 0) * t['GC']
    r['GC collections'] = d.get('gc.count', 0)
    for what, v, name in tops: tops_all[mode][what + ' ' + name] += v
    p, s = ready(base + '.out')
    if s is not None: r['ready line: premain ms'] = p; r['ready line: start-up thread CPU ms'] = s
    if mode not in ('none', 'empty', 'empty-plain', 'empty-jar'):
        r['AGENT TOTAL (start-up + main + request + other + C1 + C2 + GC), ms'] = (
            r.get('ready line: start-up thread CPU ms', r['ended: the start-up thread, ms (samples x JVM CPU per sample)'])
            + sum(r[f'agent on {g}: ms (share x CPU)'] for g in ('main', 'request', 'other'))
            + r['C1: agent ms (share x CPU)'] + r['C2: agent ms (share x CPU)']
            + r['GC: agent ms (allocation share x CPU)'])

modes = [m for m in ('none', 'empty', 'empty-plain', 'empty-jar', 'agent', 'before')
         if any(k[0] == m for k in rows)]
measures = list(dict.fromkeys(k for r in rows.values() for k in r))
def fmt(v): return f"{v:,.1f}" if abs(v) < 100 else f"{v:,.0f}"
def cell(vs):
    return '' if not vs else f"{fmt(statistics.median(vs))} ({fmt(min(vs))} to {fmt(max(vs))})"
print(f"\n## {app}: medians (min to max) over the starts of each mode; differences by round")
head = '| measure | ' + ' | '.join(f"{m} ({sum(1 for k in rows if k[0] == m)})" for m in modes)
# same-round differences: each mode against none (when run), the agent against before and the
# empty agents, the empty agent in Tollgate's jar against the empty one, and the empty agent able
# to retransform against the one unable to
pairs = [('none', m) for m in modes if m != 'none' and 'none' in modes]
pairs += [(a, 'agent') for a in ('before', 'empty', 'empty-jar') if a in modes and 'agent' in modes]
pairs += [(a, b) for a, b in (('empty', 'empty-jar'), ('empty-plain', 'empty'))
          if a in modes and b in modes]
print(head + ' | ' + ''.join(f"{b} - {a}, by round | " for a, b in pairs))
print('|---' * (1 + len(modes) + len(pairs)) + '|')
rounds = sorted({k[1] for k in rows})
for meas in measures:
    cells = [cell([rows[(m, i)][meas] for i in rounds if meas in rows.get((m, i), {})]) for m in modes]
    for a, b in pairs:
        cells.append(cell([rows[(b, i)][meas] - rows[(a, i)][meas] for i in rounds
                           if meas in rows.get((a, i), {}) and meas in rows.get((b, i), {})]))
    print(f"| {meas} | " + ' | '.join(cells) + ' |')
for m in modes:
    if m in ('none', 'empty', 'empty-plain', 'empty-jar'): continue
    n = sum(1 for k in rows if k[0] == m)
    print(f"\n{app} {m}: the agent's biggest, summed over {n} starts (kind, samples: profile samples; compiled: compile ms, wall; allocator: bytes sampled)")
    for kind in ('kind', 'samples', 'compiled', 'allocator'):
        for k, v in [kv for kv in tops_all[m].most_common() if kv[0].startswith(kind)][:12]:
            print(f"  {v:14,.0f}  {k}")
