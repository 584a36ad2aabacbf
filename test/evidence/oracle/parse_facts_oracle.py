# A straight Python transcription of the section and facts rules of docs/evidence.md (sections, parse_facts, grounding),
# used as a differential oracle: Python itself supplies casefold, \w, str indices, sha256 and round.
# Reads {"docs": [...], "cases": [...]} on stdin; writes one {"ok": facts} or {"error": msg} per case.
import re, hashlib, sys, json, unicodedata
H = re.compile(r"^(#{1,6})[ \t]+(.+?)[ \t]*$", re.M)
R = "facts-extract-v3"
def slug(t):
    s = re.sub(r"[^a-z0-9]+", "-", t.casefold()).strip("-")
    return s or "section"
def sections(body):
    ms = list(H.finditer(body))
    if not ms: return [("root",0,len(body))]
    out=[]
    if ms[0].start()>0: out.append(("preamble",0,ms[0].start()))
    path=[]; seen={}
    for i,m in enumerate(ms):
        lvl=len(m.group(1)); path=path[:lvl-1]+[slug(m.group(2).strip())]
        raw="/".join(path); seen[raw]=seen.get(raw,0)+1
        sid=raw if seen[raw]==1 else f"{raw}-{seen[raw]}"
        end=ms[i+1].start() if i+1<len(ms) else len(body)
        out.append((sid,m.start(),end))
    return out
def norm(c):
    c=unicodedata.normalize("NFKC",c).casefold()
    return " ".join(re.sub(r"[\W_]+"," ",c).split())
def tokens(t): return set(re.findall(r"\w+", t.casefold()))
def grounding(text, ev):
    ct=tokens(text)
    if not ct or not ev: return 0.0
    qt=tokens(" ".join(e["quote"] for e in ev))
    cov=len(ct&qt)/len(ct)
    sc=min(len({e["document_id"] for e in ev}),2)/2; cc=min(len(ev),2)/2
    return round(0.8*cov+0.1*sc+0.1*cc,4)
class Bad(Exception): pass
def parse(docs, out):
    if not isinstance(out, dict): raise Bad(f"{R} must return a JSON object")
    rows=out.get("facts")
    if not isinstance(rows,list) or not all(isinstance(r,dict) for r in rows): raise Bad(f"{R}.facts must be a JSON array of objects")
    seen=set(); res=[]
    for row in rows:
        claim=str(row.get("claim") or "").strip()
        if not claim: raise Bad("fact claim is required")
        k=norm(claim)
        if not k or k in seen: continue
        seen.add(k)
        evs=row.get("evidence")
        if not isinstance(evs,list) or not evs: raise Bad(f"{R} evidence must be a non-empty array")
        outev=[]
        for item in evs:
            if isinstance(item,str):
                # Only a non-empty quote recovers a document: the reference code does so (found
                # by running it), though spec section 7 elides it ("" is in every body).
                q=item.strip(); m=[d for d in docs.values() if q and q in d["body"]]
                item={"document_id": m[0]["id"] if len(m)==1 else "", "quote": q}
            if not isinstance(item,dict): raise Bad(f"{R} evidence entries must be objects")
            did=str(item.get("document_id") or ""); q=str(item.get("quote") or "").strip()
            if did not in docs and q and len(docs)==1:
                only=next(iter(docs.values()))
                if q in only["body"]: did=only["id"]
            if did not in docs: raise Bad(f"{R} references an unknown document")
            if not q: raise Bad(f"{R} evidence quote is required")
            d=docs[did]; body=d["body"]
            if q not in body: raise Bad(f"{R} evidence quote is not present in the document")
            req=str(item.get("section_id") or "").strip()
            c=[s for s in sections(body) if q in body[s[1]:s[2]] and (not req or s[0]==req)]
            if not c: raise Bad(f"{R} evidence quote is not present in the requested section")
            if len(c)>1: raise Bad(f"{R} repeated evidence quote requires section_id")
            sid,a,b=c[0]; st=a+body[a:b].index(q)
            outev.append({"document_id":did,"revision":d["revision"],"quote":q,"start":st,"end":st+len(q),"section_id":sid,"section_revision":hashlib.sha256(body[a:b].encode()).hexdigest()})
        res.append({"claim":claim,"grounding":grounding(claim,outev),"evidence":outev})
    return res
data=json.load(sys.stdin)
results=[]
for case in data["cases"]:
    docs={d["id"]:d for d in data["docs"] if d["id"] in case["docs"]}
    try: results.append({"ok":parse(docs, case["output"])})
    except Bad as e: results.append({"error":str(e)})
json.dump(results, sys.stdout, ensure_ascii=False)
