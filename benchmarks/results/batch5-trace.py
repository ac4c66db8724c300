import re,sys,glob,os
# per result: per jvm, the last late-trace line of each key; print covered bets and bets Redis refused
for res in sys.argv[1:]:
    txt=open(res+'.txt').read()
    m=re.search(r'RESULT.*? admitted=(\d+)',txt); adm=m.group(1) if m else '?'
    parts=[]
    for log in sorted(glob.glob(res+'-logs/*.log')):
        last={}
        for line in open(log,errors='replace'):
            if 'late-trace' in line:
                k=re.search(r'key=(\S+)',line).group(1)
                last[k]=dict(re.findall(r'(\w+)=(-?\d+)',line))
        if not last: parts.append('-'); continue
        # the key with most in-time refusals: the round's flood key
        k=max(last,key=lambda k:int(last[k].get('in_time_refused',0))+int(last[k].get('in_time_granted',0)))
        d=last[k]
        parts.append('it_granted=%s covered=%s share_bet=%s refused_after_admit=%s late=%s'%(d['in_time_granted'],d['covered_bet'],d['share_bet'],d['late_refusal_admitted_here'],sum(int(d[x]) for x in ('late_grant_refused_here','late_grant_admitted_here','late_refusal_admitted_here','late_refusal_refused_here'))))
    print(os.path.basename(res),'admitted='+adm,' | '.join(parts))
