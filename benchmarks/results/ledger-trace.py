import re,sys,glob,os
# Per pass and round: admitted (fell back), and per JVM the round's key (the round's flood key:
# keys with >= 200 decisions, in order of first appearance in the JVMs' log, one per round the
# log holds; the first key of a log is the warm-up's), its last late-trace line: grants in time / covered bets / late refusals of requests
# admitted here (bets Redis refused). Usage: ledger-trace.py "reload-deny=reload-deny drop=drop,late1000" RESULT...
groups=[(g.split('=')[0],g.split('=')[1].split(',')) for g in sys.argv[1].split()]
DEC=('in_time_granted','in_time_refused','credit','share_bet','covered_bet','share_refused','held_share_admits','held_share_refuses')
for res in sys.argv[2:]:
    txt=open(res+'.txt').read()
    for log_round,rounds in groups:
        per={r:[] for r in rounds}
        for log in sorted(glob.glob(res+'-logs/%s-jvm*.log'%log_round)):
            last={}; order=[]
            for line in open(log,errors='replace'):
                if 'late-trace' in line:
                    k=re.search(r'key=(\S+)',line).group(1)
                    if k not in last: order.append(k)
                    last[k]=dict(re.findall(r'(\w+)=(-?\d+)',line))
            big=[k for k in order[1:] if sum(int(last[k][x]) for x in DEC)>=200]
            for r,k in zip(rounds,big): per[r].append(last[k])
        for r in rounds:
            m=re.search(r'RESULT round=%s .*? admitted=(\d+) fellback=(\d+)'%re.escape(r),txt)
            adm='%s(%s)'%(m.group(1),m.group(2)) if m else '?'
            ds=per[r]
            s=lambda x: sum(int(d[x]) for d in ds)
            print('%-16s %-11s %-8s covered=%-3d refused_after_admit=%-3d share_bet=%-3d credit=%-3d held=%-5d | %s'%(os.path.basename(res),r,adm,s('covered_bet'),s('late_refusal_admitted_here'),s('share_bet'),s('credit'),s('held_share_admits')+s('held_share_refuses'),' '.join('%s/%s/%s'%(d['in_time_granted'],d['covered_bet'],d['late_refusal_admitted_here']) for d in ds)))
