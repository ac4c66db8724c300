import sys, re, collections
def load(f):
    c = collections.Counter(); meths=collections.Counter(); lvl=collections.Counter()
    for line in open(f, errors='replace'):
        m = re.search(r'\s(\S+::\S+)', line)
        if not m or 'made not entrant' in line: continue
        name = m.group(1)
        cls = name.split('::')[0]
        parts = cls.split('.')
        if cls.startswith('io.tollgate.shaded') or cls.startswith('io.tollgate.'):
            key = '.'.join(parts[:4]) if 'shaded' in cls else '.'.join(parts[:3])
        else:
            key = '.'.join(parts[:2])
        c[key]+=1; meths[name]+=1
    return c, meths
modes = collections.defaultdict(list)
for f in sys.argv[1:]:
    mode = f.split('-')[1]
    modes[mode].append(load(f))
import statistics
keys=set()
for m in modes.values():
    for c,_ in m: keys|=set(c)
rows=[]
for k in keys:
    a=statistics.mean(c[k] for c,_ in modes['agent']); n=statistics.mean(c[k] for c,_ in modes['none'])
    rows.append((a-n,k,a,n))
rows.sort(reverse=True)
print("total agent", statistics.mean(sum(c.values()) for c,_ in modes['agent']), "none", statistics.mean(sum(c.values()) for c,_ in modes['none']))
for r in rows[:30]: print("%+7.1f %-45s agent %.1f none %.1f"%r)
print('...'); 
for r in rows[-8:]: print("%+7.1f %-45s agent %.1f none %.1f"%r)
