import re, sys, glob
def an(f):
    txt=open(f,errors='replace').read()
    ids={}
    for m in re.finditer(r"<task_queued compile_id='(\d+)'( compile_kind='osr')? method='(\S+) (\S+) [^']*'", txt):
        ids[m.group(1)]=(m.group(3)+'.'+m.group(4), bool(m.group(2)))
    c2=0; c2t=0; tg=0; tgt=0; tgc2=0; tgc2t=0
    for m in re.finditer(r"<task compile_id='(\d+)'([^>]*?)stamp='([\d.]+)'>(.*?)<task_done[^>]*?stamp='([\d.]+)'", txt, re.S):
        cid=m.group(1); d=float(m.group(5))-float(m.group(3)); attrs=m.group(2)
        isc2 = "level='4'" not in attrs and ("<phase name='" in m.group(4)[:3000] and "optimizer" in m.group(4)) 
        lvl=re.search(r"level='(\d)'", attrs)
        isc2 = lvl is None or lvl.group(1)=='4'
        name=ids.get(cid,('?',False))[0]
        if isc2: c2+=1; c2t+=d
        if name.startswith('io.tollgate'):
            tg+=1; tgt+=d
            if isc2: tgc2+=1; tgc2t+=d
    traps=[ids.get(m.group(1),('?',0))[0] for m in re.finditer(r"<uncommon_trap thread='\d+' reason='unstable_if' action='reinterpret'[^>]*?compile_id='(\d+)'", txt)]
    tgtraps=[t for t in traps if t.startswith('io.tollgate')]
    return "C2 tasks %d (%.0f ms wall), tollgate tasks %d (%.0f ms), tollgate C2 %d (%.0f ms); unstable_if traps %d, in tollgate %d %s"%(c2,c2t*1000,tg,tgt*1000,tgc2,tgc2t*1000,len(traps),len(tgtraps),sorted(set(tgtraps)))
for f in sys.argv[1:]: print(f, an(f))
