import sys, collections
def load(path, reqs):
    inc=collections.Counter(); own=collections.Counter()
    for line in open(path):
        st, n = line.rsplit(' ',1); n=int(n); fr=[f.split('/')[-1] for f in st.split(';')]
        for f in set(fr): inc[f]+=n
        own[fr[-1]]+=n
    return {k:1000*v/reqs for k,v in inc.items()}, {k:1000*v/reqs for k,v in own.items()}
a_inc,a_own=load(sys.argv[1], float(sys.argv[2])); b_inc,b_own=load(sys.argv[3], float(sys.argv[4]))
print("inclusive per 1000 req: A(refused)  B(rule)  A-B")
keys=set(a_inc)|set(b_inc)
for k in sorted(keys, key=lambda k: -abs(a_inc.get(k,0)-b_inc.get(k,0)))[:45]:
    print(f"{a_inc.get(k,0):7.3f} {b_inc.get(k,0):7.3f} {a_inc.get(k,0)-b_inc.get(k,0):+7.3f}  {k}")
