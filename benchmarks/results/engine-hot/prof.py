import sys, collections
f = sys.argv[1]; root = sys.argv[2] if len(sys.argv) > 2 else 'RequestPathBenchmark.tollgate'
tot = 0; selfc = collections.Counter(); incl = collections.Counter()
for line in open(f):
    stack, n = line.rstrip().rsplit(' ', 1); n = int(n)
    frames = stack.split(';')
    idx = [i for i, fr in enumerate(frames) if root in fr]
    if not idx: continue
    frames = frames[idx[-1]:]
    tot += n
    selfc[frames[-1]] += n
    for fr in set(frames): incl[fr] += n
print('total', tot)
print('--- inclusive')
for fr, n in incl.most_common(int(sys.argv[3]) if len(sys.argv) > 3 else 70): print('%5.1f%% %s' % (100.0*n/tot, fr))
print('--- self')
for fr, n in selfc.most_common(40): print('%5.1f%% %s' % (100.0*n/tot, fr))
