#!/usr/bin/env python3
"""Turn scsi_numa_inspect records into a placement verdict.

placement.py RECORDS (--hosts NAME[,NAME..] | --hostno H[,H..]) --node N --context LABEL
             [--judge numa|vanilla] [--vanilla-node KIND=N[,KIND=N..]]
             [--require KIND[,KIND..]] [--tsv FILE] [--kernel NAME] [--topo NAME]
             [--hctx-nodes I=N[,I=N..]] [--no-dev-node-check] [--dev-node N]
             [--judge-queues] [--accept-nodes N[,N..]]

For each named host (by proc_name, or by host number) every object record
is compared with the expected node N, which the caller takes from the
topology definition, not from the records.  --hctx-nodes I=N,.. overrides N
for the objects of hardware queue I (its tags, request pages, sense buffers
and hctx): a queue whose CPUs all sit on one node belongs on that node.
--dev-node is the node the host's device must report (default: --node; they
differ when the device's node has no CPUs and the host's objects belong on
the nearest node that has).  --accept-nodes: nodes an object expected on
--node may also be on (the allocator's fallback for a node without memory).
--judge-queues: the per-queue objects (tags, rq_page, sense, hctx) of the
queues named by --hctx-nodes whose CPUs sit on one node must be on that
node, on any kernel (I=Ns marks a queue whose CPUs span nodes).
Prints a per-host, per-kind table and the aggregate
"objects on the device's node: N of M (P%)" per kind.  Exit 1 with the
offending objects when:
  - a named host is missing, or reports its device on another node than N
    (unless --no-dev-node-check: a vanilla scsi_debug host has no node);
  - a required kind has no record for a host (the measurement is incomplete);
  - --judge numa: any object is off node N;
  - --judge vanilla: an object of a kind named by --vanilla-node is not on
    the node given there, or there is none: what vanilla code places
    deterministically (explicit node) must be where its code puts it, else
    the test did not create the case it claims.  Allocations without a node
    (kzalloc) are not asserted on vanilla: SLUB serves them from whatever
    slab the CPU holds, which may be another node's.
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
    ap.add_argument('--hosts', default='')
    ap.add_argument('--hostno', default='')
    ap.add_argument('--no-dev-node-check', action='store_true')
    ap.add_argument('--hctx-nodes', default='')
    ap.add_argument('--dev-node', type=int)
    ap.add_argument('--judge-queues', action='store_true')
    ap.add_argument('--accept-nodes', default='')
    ap.add_argument('--node', type=int, required=True)
    ap.add_argument('--context', required=True)
    ap.add_argument('--judge', choices=['numa', 'vanilla'], required=True)
    ap.add_argument('--vanilla-node', default='')
    ap.add_argument('--require', default='')
    ap.add_argument('--tsv')
    ap.add_argument('--kernel', default='?')
    ap.add_argument('--topo', default='?')
    a = ap.parse_args()
    kinds = known_kinds()
    vanilla_node = {k: int(v) for k, v in (x.split('=') for x in csv(a.vanilla_node))}
    for k in csv(a.require) + list(vanilla_node):
        if k not in kinds:
            sys.exit(f'unknown kind {k!r}; known: {" ".join(kinds)}')
    hosts, objs = parse(a.records, kinds)
    # I=N: queue I's present CPUs sit on node N; I=Ns: they span nodes and N
    # is the host's node (not judged by --judge-queues: vanilla differs).
    hctx_node = {int(k): int(v.rstrip('s')) for k, v in (x.split('=') for x in csv(a.hctx_nodes))}
    spanning = {int(k) for k, v in (x.split('=') for x in csv(a.hctx_nodes)) if v.endswith('s')}

    dev_node = a.node if a.dev_node is None else a.dev_node
    accept = {int(x) for x in csv(a.accept_nodes)}

    def queue_of(o):
        m = re.search(r'/(?:tags|hctx)(\d+)(?:/|$)', o['id'])
        return int(m.group(1)) if m else None

    def expected(o):
        q = queue_of(o)
        return hctx_node.get(q, a.node) if q is not None else a.node

    def is_on(o):
        want = expected(o)
        return o['node'] == want or (want == a.node and o['node'] in accept)
    queue_bad = []
    errors = []
    total = collections.OrderedDict((k, [0, 0]) for k in kinds)   # kind -> [on, all]
    per_driver = collections.defaultdict(lambda: [0, 0])   # (proc_name, kind) -> [on, all]
    off_by_kind = collections.defaultdict(list)
    vanilla_bad = collections.defaultdict(list)
    groups = [(name, [h for h, v in hosts.items() if v['name'] == name]) for name in csv(a.hosts)]
    groups += [(f'host{h}', [int(h)] if int(h) in hosts else []) for h in csv(a.hostno)]
    if not groups:
        sys.exit('name hosts with --hosts or --hostno')
    for name, nos in groups:
        if not nos:
            errors.append(f'host {name}: not in the report (hosts seen: '
                          f'{sorted((h, v["name"]) for h, v in hosts.items())})')
            continue
        for h in nos:
            hi = hosts[h]
            name = hi['name']
            if hi['dev_node'] != dev_node and not a.no_dev_node_check:
                errors.append(f'host{h} {name}: device {hi["dev"]} is on node {hi["dev_node"]}, '
                              f'the topology puts it on node {dev_node}')
            per = collections.OrderedDict()
            for o in objs[h]:
                per.setdefault(o['kind'], []).append(o)
            for k in csv(a.require):
                if k not in per:
                    errors.append(f'host{h} {name}: no {k} object measured')
            cells = []
            for k, lst in per.items():
                on = sum(1 for o in lst if is_on(o))
                total[k][0] += on
                total[k][1] += len(lst)
                per_driver[(name, k)][0] += on
                per_driver[(name, k)][1] += len(lst)
                cells.append(f'{k}={on}/{len(lst)}')
                for o in lst:
                    if k in vanilla_node and o['node'] != vanilla_node[k]:
                        vanilla_bad[k].append(f'host{h} {name} {k} {o["id"]} on node {o["node"]}')
                    if not is_on(o):
                        off_by_kind[k].append(f'host{h} {name} {k} {o["id"]} on node {o["node"]}, '
                                              f'expected {expected(o)}')
                        if a.judge_queues and queue_of(o) in hctx_node and queue_of(o) not in spanning:
                            queue_bad.append(off_by_kind[k][-1])
            print(f'host{h} {name} dev={hi["dev"]} dev_node={hi["dev_node"]} '
                  f'set_node={hi["set_node"]}: ' + ' '.join(cells))
    print(f'objects on their expected node (node {a.node}, device node {dev_node}'
          f'{", per-queue " + a.hctx_nodes if a.hctx_nodes else ""}; {a.kernel}, {a.topo}, {a.context}):')
    on_all = sum(v[0] for v in total.values())
    n_all = sum(v[1] for v in total.values())
    for k, (on, n) in total.items():
        if n:
            print(f'  {k:14} {on:5} of {n:5} ({100.0 * on / n:5.1f}%)')
    if n_all:
        print(f'  {"all":14} {on_all:5} of {n_all:5} ({100.0 * on_all / n_all:5.1f}%)')
    if a.tsv:   # kernel topo context driver kind on all
        with open(a.tsv, 'a') as f:
            for (drv, k), (on, n) in per_driver.items():
                f.write(f'{a.kernel}\t{a.topo}\t{a.context}\t{drv}\t{k}\t{on}\t{n}\n')
    if a.judge == 'numa':
        print('judged as: NUMA-aware kernel, every object must be on the device\'s node')
        for k, lst in off_by_kind.items():
            errors += [f'off node: {x}' for x in lst]
    else:
        print('judged as: vanilla kernel, placement reported, not required')
        for k, n in vanilla_node.items():
            if not total[k][1]:
                errors.append(f'vanilla: no {k} object to check against node {n}')
            for x in vanilla_bad.get(k, []):
                errors.append(f'vanilla places {k} on node {n} here, found {x}')
        if vanilla_node:
            print('vanilla placement checked: ' + ', '.join(f'{k} on node {n}' for k, n in vanilla_node.items()))
    if a.judge_queues:
        print('queues judged on every kernel: ' + a.hctx_nodes)
        if a.judge != 'numa':
            errors += [f'queue off its CPUs\' node: {x}' for x in queue_bad]
    if n_all == 0:
        errors.append('no object measured at all')
    for e in errors:
        print('FAIL: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
