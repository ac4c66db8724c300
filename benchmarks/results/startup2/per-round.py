import sys,collections,statistics
d=collections.defaultdict(dict); th=collections.defaultdict(dict)
for l in open(sys.argv[1]+'/startup.txt'):
    if l.startswith('#') or not l.strip(): continue
    f=l.split(); d[(f[0],int(f[2]))][f[1]]=(int(f[3]),int(f[4]))
for l in open(sys.argv[1]+'/startup-threads.txt'):
    f=l.split()
    if f[2]=='0': continue
    th[(f[0],int(f[2]))][f[1]]=dict((kv.split('=')[0],int(kv.split('=')[1])) for kv in f[3:])
def med(x): return statistics.median(x)
for app in sorted({a for a,_ in d}):
    rounds=[r for (a,r) in d if a==app]
    print('==',app,len(rounds),'rounds')
    for what,idx in (('wall',0),('JVM CPU',1)):
        for a,b in (('agent','before'),('agent','none'),('before','none')):
            diff=[d[(app,r)][a][idx]-d[(app,r)][b][idx] for r in rounds if a in d[(app,r)] and b in d[(app,r)]]
            print('  %-8s %s - %s per round: median %+d (%+d to %+d), lower in %d of %d: %s'%(what,a,b,med(diff),min(diff),max(diff),sum(x<0 for x in diff),len(diff),' '.join('%+d'%x for x in diff)))
    for g in ('main','compiler'):
        diff=[th[(app,r)]['agent'][g]-th[(app,r)]['before'][g] for r in rounds if (app,r) in th]
        print('  %-8s agent - before per round: median %+d (%+d to %+d)'%(g,med(diff),min(diff),max(diff)))
