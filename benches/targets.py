#!/usr/bin/env python3
"""Issue 21's target tables from runs of `msgpack-bench --json`.

    for i in 1 2 3; do target/release/msgpack-bench --iterations 1000 --json > run$i.json; done
    python3 benches/targets.py run1.json run2.json run3.json

Each cell is the median of the runs' ratios, with their range: ours
against the faster of zerompk and msgpacker in the same run, against
the floor (memcpy of the bytes, clone of the value), derived map round
trips against prost's, named against compact, and beside it zerompk's
map form against its array form (the same choice in a crate without
serde) and our named mode against it.
"""
import json,sys,statistics as st
runs=[json.load(open(f)) for f in sys.argv[1:]]
def get(run,fx,codec):
    for f in run:
        if f['fixture']==fx:
            for c in f['codecs']:
                if c['codec']==codec: return c
def cell(vals):
    vals=sorted(vals); m=st.median(vals)
    return f"{m:.2f}x ({vals[0]:.2f}-{vals[-1]:.2f})"
fxs=[f['fixture'] for f in runs[0]]
ours=['msgpack-serde compact','msgpack-serde derive map','msgpack-serde derive array']
print("| fixture | mode | encode / fastest peer | decode / fastest peer | fastest peer enc, dec |")
print("|---|---|--:|--:|---|")
for fx in fxs:
    for o in ours:
        e=[];d=[];pe=[];pd=[]
        for r in runs:
            z=get(r,fx,'zerompk'); m=get(r,fx,'msgpacker'); c=get(r,fx,o)
            be=min(z['encode_ns'],m['encode_ns']); bd=min(z['decode_ns'],m['decode_ns'])
            e.append(c['encode_ns']/be); d.append(c['decode_ns']/bd)
            pe.append('zerompk' if z['encode_ns']<m['encode_ns'] else 'msgpacker')
            pd.append('zerompk' if z['decode_ns']<m['decode_ns'] else 'msgpacker')
        print(f"| {fx} | {o.replace('msgpack-serde ','')} | {cell(e)} | {cell(d)} | {st.mode(pe)}, {st.mode(pd)} |")
print()
print("| fixture | compact encode / floor | compact decode / floor | zerompk enc / floor, dec / floor | derive map round trips / prost | named / compact enc | dec | zerompk map / zerompk enc, dec | named / zerompk map enc, dec |")
print("|---|--:|--:|---|--:|--:|--:|---|---|")
for fx in fxs:
    ce=[];cd=[];ze=[];zd=[];rt=[];ne=[];nd=[];me=[];md=[];oe=[];od=[]
    for r in runs:
        fl=get(r,fx,'floor (memcpy / clone)'); c=get(r,fx,'msgpack-serde compact'); z=get(r,fx,'zerompk')
        p=get(r,fx,'prost'); dm=get(r,fx,'msgpack-serde derive map'); n=get(r,fx,'msgpack-serde named')
        ce.append(c['encode_ns']/fl['encode_ns']); cd.append(c['decode_ns']/fl['decode_ns'])
        ze.append(z['encode_ns']/fl['encode_ns']); zd.append(z['decode_ns']/fl['decode_ns'])
        rt.append(dm['round_trips_per_sec']/p['round_trips_per_sec'])
        ne.append(n['encode_ns']/c['encode_ns']); nd.append(n['decode_ns']/c['decode_ns'])
        zm=get(r,fx,'zerompk map')
        if zm:
            me.append(zm['encode_ns']/z['encode_ns']); md.append(zm['decode_ns']/z['decode_ns'])
            oe.append(n['encode_ns']/zm['encode_ns']); od.append(n['decode_ns']/zm['decode_ns'])
    zm_cell=f"{cell(me)}, {cell(md)}" if me else "-"
    on_cell=f"{cell(oe)}, {cell(od)}" if oe else "-"
    print(f"| {fx} | {cell(ce)} | {cell(cd)} | {st.median(ze):.1f}x, {st.median(zd):.2f}x | {cell(rt)} | {cell(ne)} | {cell(nd)} | {zm_cell} | {on_cell} |")
