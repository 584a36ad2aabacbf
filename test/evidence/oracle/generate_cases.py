# Random documents (unicode headings, emoji, CRLF, code-fence-free corners) and model outputs
# (quotes cut from bodies, bare strings, wrong ids, section ids) for the differential test.
# Usage: generate_cases.py SEED [MAX_ITEMS]
import random, json, sys
random.seed(int(sys.argv[1]))
W=["refund","Straße","İstanbul","😀","close","after","30","days.","𝒳","ǰ","ﬁle","Σίσυφος","naïve","FAQ:","What's","new?","_x_","٣","e\u0301"]
H=["#","##","###","#######","#"," #"]
def line():
    r=random.random()
    if r<0.3: return random.choice(H)+random.choice([" ","\t","","  "])+" ".join(random.choice(W) for _ in range(random.randint(0,3)))+random.choice(["",""," ##","\r"])
    return " ".join(random.choice(W) for _ in range(random.randint(0,8)))
docs=[]
for i in range(4):
    body="\n".join(line() for _ in range(random.randint(0,10)))+random.choice(["","\n"])
    docs.append({"id":f"kb/d{i}","revision":f"v{i}","body":body})
cases=[]
for c in range(300):
    seen=random.sample([d["id"] for d in docs], random.randint(1,4))
    facts=[]
    for f in range(random.randint(1,int(sys.argv[2]) if len(sys.argv)>2 else 3)):
        ev=[]
        for e in range(random.randint(1,int(sys.argv[2]) if len(sys.argv)>2 else 2)):
            d=random.choice(docs); b=d["body"]
            if b and random.random()<0.85:
                a=random.randrange(len(b)); z=min(len(b),a+random.randint(1,25)); q=b[a:z]
            else: q=random.choice(W)
            r=random.random()
            if r<0.15: ev.append(q)
            else:
                item={"document_id": d["id"] if random.random()<0.9 else "kb/zz","quote":q}
                if random.random()<0.3:
                    item["section_id"]=random.choice(["root","preamble","refund","section","straße","strasse","i-stanbul","file","faq-what-s-new","refund-2"])
                ev.append(item)
        facts.append({"claim":" ".join(random.choice(W) for _ in range(random.randint(0,5))),"evidence":ev})
    cases.append({"docs":seen,"output":{"facts":facts}})
json.dump({"docs":docs,"cases":cases},sys.stdout,ensure_ascii=False)
