# USA-road-d.NY's shortest-path-tree depth (hops) and BFS depth from the bench's four sources
# (run 58's NOTES.md): scipy's Dijkstra with predecessors, run here from this folder.
import gzip, numpy as np, scipy.sparse as sp
from scipy.sparse.csgraph import dijkstra
src=[];dst=[];w=[]
with gzip.open('../../../../shared/data/USA-road-d.NY.gr.gz','rt') as f:
    for line in f:
        if line[0]=='a':
            _,a,b,c=line.split(); src.append(int(a)-1); dst.append(int(b)-1); w.append(int(c))
        elif line[0]=='p': n=int(line.split()[2])
A=sp.csr_matrix((np.array(w,float),(np.array(src),np.array(dst))),shape=(n,n))
for s in [162769,221899,232543,6919]:
    d,p=dijkstra(A,indices=s,return_predecessors=True)
    order=np.argsort(d)
    depth=np.zeros(n,int)
    for v in order[1:]:
        if p[v]>=0: depth[v]=depth[p[v]]+1
    # BFS depth
    from scipy.sparse.csgraph import breadth_first_order
    A1=A.copy(); A1.data[:]=1
    db=dijkstra(A1,indices=s,unweighted=True)
    print(s, 'SP-tree depth max', depth.max(), 'mean', depth.mean().round(1), 'BFS depth', int(db[np.isfinite(db)].max()), 'maxdist', d[np.isfinite(d)].max())
