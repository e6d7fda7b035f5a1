#!/usr/bin/env python3
"""Turn scsi_numa_inspect records into a placement verdict.

placement.py RECORDS --hosts NAME[,NAME..] --node N --context LABEL
             [--judge numa|vanilla] [--off-node-on-vanilla KIND[,KIND..]]
             [--require KIND[,KIND..]] [--tsv FILE] [--kernel NAME] [--topo NAME]

For each named host (by proc_name) every object record is compared with the
expected node N, which the caller takes from the topology definition, not
from the records.  Prints a per-host, per-kind table and the aggregate
"objects on the device's node: N of M (P%)" per kind.  Exit 1 with the
offending objects when:
  - a named host is missing, or reports its device on another node than N;
  - a required kind has no record for a host (the measurement is incomplete);
  - --judge numa: any object is off node N;
  - --judge vanilla: a kind named by --off-node-on-vanilla has no off-node
    object (vanilla code places it by the allocating CPU: if the test did
    not catch that, the test did not create the worst case it claims).
"""
import argparse
import collections
import os
import re
import sys

HEADER = os.path.join(os.path.dirname(__file__), '..', '..', 'include', 'scsi_numa_inspect.h')


def known_kinds():
    text = open(HEADER).read()
    block = text[text.index('#define SNI_KINDS(X)'):]
    block = block[:block.index('\n\n')]
    return re.findall(r'X\((\w+),', block)


def parse(path, kinds):
    hosts, objs = {}, collections.defaultdict(list)
    with open(path) as f:
        first = f.readline().split()
        if first[:2] != ['#', 'scsi-numa-inspect'] or first[2] != '1':
            sys.exit(f'{path}: not a version 1 scsi-numa-inspect report: {first}')
        for line in f:
            w = line.split()
            if not w:
                continue
            if w[0] == 'host':
                hosts[int(w[1])] = dict(name=w[2], dev=w[3], dev_node=int(w[4]),
                                        shost_node=int(w[5]), set_node=int(w[6]))
            elif w[0] == 'obj':
                if w[2] not in kinds:
                    sys.exit(f'{path}: unknown object kind {w[2]!r} in: {line.strip()}')
                objs[int(w[1])].append(dict(kind=w[2], id=w[3], node=int(w[4]), mem=w[5]))
    return hosts, objs


def csv(s):
    return [x for x in (s or '').split(',') if x]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records')
    ap.add_argument('--hosts', required=True)
    ap.add_argument('--node', type=int, required=True)
    ap.add_argument('--context', required=True)
    ap.add_argument('--judge', choices=['numa', 'vanilla'], required=True)
    ap.add_argument('--off-node-on-vanilla', default='')
    ap.add_argument('--require', default='')
    ap.add_argument('--tsv')
    ap.add_argument('--kernel', default='?')
    ap.add_argument('--topo', default='?')
    a = ap.parse_args()
    kinds = known_kinds()
    for k in csv(a.require) + csv(a.off_node_on_vanilla):
        if k not in kinds:
            sys.exit(f'unknown kind {k!r}; known: {" ".join(kinds)}')
    hosts, objs = parse(a.records, kinds)
    errors = []
    total = collections.OrderedDict((k, [0, 0]) for k in kinds)   # kind -> [on, all]
    off_by_kind = collections.defaultdict(list)
    for name in csv(a.hosts):
        nos = [h for h, v in hosts.items() if v['name'] == name]
        if not nos:
            errors.append(f'host {name}: not in the report (hosts seen: '
                          f'{sorted(v["name"] for v in hosts.values())})')
            continue
        for h in nos:
            hi = hosts[h]
            if hi['dev_node'] != a.node:
                errors.append(f'host{h} {name}: device {hi["dev"]} is on node {hi["dev_node"]}, '
                              f'the topology puts it on node {a.node}')
            per = collections.OrderedDict()
            for o in objs[h]:
                per.setdefault(o['kind'], []).append(o)
            for k in csv(a.require):
                if k not in per:
                    errors.append(f'host{h} {name}: no {k} object measured')
            cells = []
            for k, lst in per.items():
                on = sum(1 for o in lst if o['node'] == a.node)
                total[k][0] += on
                total[k][1] += len(lst)
                cells.append(f'{k}={on}/{len(lst)}')
                for o in lst:
                    if o['node'] != a.node:
                        off_by_kind[k].append(f'host{h} {name} {k} {o["id"]} on node {o["node"]}')
            print(f'host{h} {name} dev={hi["dev"]} dev_node={hi["dev_node"]} '
                  f'set_node={hi["set_node"]}: ' + ' '.join(cells))
    print(f'objects on the device\'s node {a.node} ({a.kernel}, {a.topo}, {a.context}):')
    on_all = sum(v[0] for v in total.values())
    n_all = sum(v[1] for v in total.values())
    for k, (on, n) in total.items():
        if n:
            print(f'  {k:14} {on:5} of {n:5} ({100.0 * on / n:5.1f}%)')
    if n_all:
        print(f'  {"all":14} {on_all:5} of {n_all:5} ({100.0 * on_all / n_all:5.1f}%)')
    if a.tsv:
        with open(a.tsv, 'a') as f:
            for k, (on, n) in total.items():
                if n:
                    f.write(f'{a.kernel}\t{a.topo}\t{a.context}\t{k}\t{on}\t{n}\n')
    if a.judge == 'numa':
        print('judged as: NUMA-aware kernel, every object must be on the device\'s node')
        for k, lst in off_by_kind.items():
            errors += [f'off node (expected {a.node}): {x}' for x in lst]
    else:
        print('judged as: vanilla kernel, placement reported, not required')
        for k in csv(a.off_node_on_vanilla):
            if total[k][1] and not off_by_kind.get(k):
                errors.append(f'vanilla: every {k} object is on node {a.node}, but this context '
                              f'allocates {k} on the allocating CPU\'s node: the worst case was not created')
    if n_all == 0:
        errors.append('no object measured at all')
    for e in errors:
        print('FAIL: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
