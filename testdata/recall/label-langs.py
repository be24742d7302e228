# Writes needs-lang.json: heuristic language labels (README, "The second needs file"). Run from testdata/recall.
import json,re,unicodedata
FR=set("le la les des du de un une est pas après pour avec dans sur qui ne en et au aux ou mais plus sont été par ce cette ces son sa ses quand comment pourquoi où faut il elle on nous".split())
EN=set("the a an is are was of to for with in on at by and or but not after when how why where what which from it this that does do".split())
def lang(t):
    w=re.findall(r"[a-zàâçéèêëîïôûùüÿœ']+",t.lower())
    w=[x.split("'")[-1] if "'" in x else x for x in w]
    f=sum(x in FR for x in w)+2*len(re.findall(r"[àâçéèêëîïôûùüœ]",t.lower()))
    e=sum(x in EN for x in w)
    if f>e: return "fr"
    if e>f: return "en"
    return "mixed"
out={}
for fn in ["needs.json","needs-2.json"]:
    for n in json.load(open(fn))["needs"]:
        note="-"
        if n["gold"]:
            body=open("vault/"+n["gold"][0]).read().split("\n---",1)[-1]
            note=lang(body)
        out[n["id"]]={"note":note,"queries":[lang(q) for q in n["queries"]]}
json.dump({"version":1,"written":"2026-12-02","method":"heuristic labels (see README): French vs English function words, accented letters count for French; mixed = neither","labels":out},open("needs-lang.json","w"),ensure_ascii=False,indent=0)
from collections import Counter
print(Counter(v["note"] for v in out.values()))
print(sorted(Counter((i,q) for v in out.values() for i,q in enumerate(v["queries"])).items()))
print(Counter((v["note"],v["queries"][2]) for v in out.values() if len(v["queries"])>2 and v["note"]!="-"))
