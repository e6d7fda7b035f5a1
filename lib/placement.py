#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn scsi_numa_inspect records into a placement verdict.

placement.py RECORDS (--hosts NAME[,NAME..] | --hostno H[,H..]) --node N --context LABEL
             [--judge patched|vanilla] [--vanilla-node KIND=N[,KIND=N..]]
             [--require KIND[,KIND..]] [--tsv FILE] [--kernel NAME] [--topo NAME]
             [--queue-map Q=CPUS[;Q=CPUS..] --topology FILE] [--queue-tsv FILE]
             [--judge-queues] [--no-dev-node-check] [--dev-node N]
             [--accept-nodes N[,N..]]

For each named host (by proc_name, or by host number) every object record
is compared with the expected node N, which the caller takes from the
topology definition, not from the records.  --dev-node is the node the
host's device must report (default: --node; they differ when the device's
node has no CPUs and the host's objects belong on the nearest node that
has).  --accept-nodes: nodes an object expected on --node may also be on
(the allocator's fallback for a node without memory).

Hardware queues.  --queue-map is the named hosts' queue map as the guest
reports it (queue Q serves CPUS, e.g. "0=0,2;1=1,3", from
/sys/block/sdX/mq/Q/cpu_list), --topology the topology file
(harness/topo/) that says which node each CPU is on, which CPUs are
present and which nodes have memory.  A queue's objects are its hctx (one
per device), its tags with their request pages and sense buffers, and its
I/O scheduler tags (ids .../hctxQ..., .../tagsQ...).  Properties any
correct rule has, none of them a choice among a queue's nodes:
  (a) every object of a queue on one node;
  (b) that node is the node of one of the queue's present CPUs (of one of
      its CPUs when none is present; the host's node N when it has none);
  (c) a single queue (it serves every CPU) on the host's node, N.
A queue whose node has no memory may have its objects on any node with
memory (the allocator's fallback): only then (a) cannot be seen.
--judge patched: (a), (b) and (c).  --judge vanilla: each queue where vanilla
puts it, the node of its first CPU (blk_mq_hw_queue_to_node(): the lowest
possible CPU mapped to the queue), which implies (a); (c) does not hold on
vanilla (CPU 0's node).  --judge-queues: (a) and (b) on any kernel.
Without --queue-map, queue objects are expected on N like the others.

Prints a per-host, per-kind table, one line per queue, and the aggregate
"objects on their expected node: N of M (P%)" per kind (a queue's object
counts as on its expected node when it is on a node (b) and (c) allow).
--tsv appends the per-kind figures, --queue-tsv one line per queue
(kernel topo context driver host queue cpus cpu-nodes object-nodes a b c,
a/b/c 1 held, 0 did not, - does not apply).  Exit 1 with the offending
objects when:
  - a named host is missing, or reports its device on another node than N
    (unless --no-dev-node-check: a vanilla scsi_debug host has no node);
  - a required kind has no record for a host (the measurement is incomplete),
    or a queue of the map that serves CPUs has no object;
  - --judge patched: an object other than a queue's is off node N, or a queue
    breaks (a), (b) or (c);
  - --judge vanilla: an object of a kind named by --vanilla-node is not on
    the node given there, or there is none, or a queue is not on its first
    CPU's node: what vanilla code places deterministically (explicit node)
    must be where its code puts it, else the test did not create the case
    it claims.  Allocations without a node (kzalloc) are not asserted on
    vanilla: SLUB serves them from whatever slab the CPU holds, which may
    be another node's.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

import cpulist

HEADER = os.path.join(os.path.dirname(__file__), '..', 'include', 'scsi_numa_inspect.h')


def known_kinds():
    text = open(HEADER).read()
    block = text[text.index('#define SCSI_NUMA_KINDS(X)'):]
    block = block[:block.index('\n\n')]
    return re.findall(r'X\((\w+),', block)


def parse(path, kinds):
    hosts, objs = {}, collections.defaultdict(list)
    with open(path) as f:
        first = f.readline().split()
        if first[:2] != ['#', 'scsi_numa_inspect'] or first[2] != '1':
            sys.exit(f'{path}: not a version 1 scsi_numa_inspect report: {first}')
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


def read_topology(path):
    """The facts of a topology file (a bash fragment, sourced by bash):
    node of every CPU, present CPUs, nodes with memory."""
    sh = ('. "$1" || exit 1; for ((n = 0; n < TOPO_NODES; n++)); do '
          'echo "${TOPO_NODE_CPUS[n]}|${TOPO_NODE_ABSENT_CPUS[n]:-}|${TOPO_NODE_MEM_MB[n]}"; done')
    p = subprocess.run(['bash', '-c', sh, 'topology', path], capture_output=True, text=True)
    if p.returncode or not p.stdout:
        sys.exit(f'{path}: cannot read the topology: {p.stderr.strip()}')
    cpu_node, present, mem = {}, set(), set()
    for n, line in enumerate(p.stdout.splitlines()):
        cpus, absent, mb = line.split('|')
        try:
            cpus, absent = cpulist.expand(cpus), cpulist.expand(absent)
        except ValueError as e:
            sys.exit(f'{path}: node {n}: {e}')
        for c in cpus:
            cpu_node[c] = n
            present.add(c)
        for c in absent:
            cpu_node[c] = n
        if mb != '0':
            mem.add(n)
    return dict(cpu_node=cpu_node, present=present, mem=mem)


def queue_map(s):
    """"0=0,2;1=1,3" -> {0: [0, 2], 1: [1, 3]}"""
    if not re.fullmatch(r'\d+=[\d,-]*(;\d+=[\d,-]*)*', s):
        sys.exit(f'--queue-map {s!r}: not Q=CPUS[;Q=CPUS..]')
    out = {}
    for x in s.split(';'):
        if x.strip():
            q, _, cpus = x.partition('=')
            try:
                out[int(q)] = cpulist.expand(cpus)
            except ValueError as e:
                sys.exit(f'--queue-map {s!r}: queue {q}: {e}')
    return out


def queue_of(o):
    m = re.search(r'/(?:tags|hctx)(\d+)(?:/|$)', o['id'])
    return int(m.group(1)) if m else None


class Queues:
    """What the topology and the queue map say about each queue."""

    def __init__(self, topo, qmap, host_node):
        self.topo, self.qmap, self.host = topo, qmap, host_node
        self.single = len(qmap) == 1

    def node(self, cpu):
        if cpu not in self.topo['cpu_node']:
            sys.exit(f'CPU {cpu} of the queue map is on no node of the topology')
        return self.topo['cpu_node'][cpu]

    def cpu_nodes(self, q):
        """(b): the nodes of the queue's present CPUs, else of its CPUs,
        else the host's node."""
        cpus = self.qmap[q]
        present = [c for c in cpus if c in self.topo['present']]
        return sorted({self.node(c) for c in (present or cpus)}) or [self.host]

    def first_cpu_node(self, q):
        """Vanilla's node: the node of the lowest possible CPU of the queue."""
        return self.node(min(self.qmap[q])) if self.qmap[q] else None

    def allowed(self, n):
        """Where an object asked for on node n can be: n, or any node with
        memory when n has none."""
        return {n} if n in self.topo['mem'] else set(self.topo['mem']) | {n}

    def fits(self, found, nodes):
        """Is there a node among `nodes` that explains every node found?"""
        return any(found <= self.allowed(n) for n in nodes)

    def expected(self, q):
        """The nodes a correct rule may put queue q on: (b), and (c)."""
        return [self.host] if self.single else self.cpu_nodes(q)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('records')
    ap.add_argument('--hosts', default='')
    ap.add_argument('--hostno', default='')
    ap.add_argument('--no-dev-node-check', action='store_true')
    ap.add_argument('--queue-map', default='')
    ap.add_argument('--topology')
    ap.add_argument('--queue-tsv')
    ap.add_argument('--dev-node', type=int)
    ap.add_argument('--judge-queues', action='store_true')
    ap.add_argument('--accept-nodes', default='')
    ap.add_argument('--node', type=int, required=True)
    ap.add_argument('--context', required=True)
    ap.add_argument('--judge', choices=['patched', 'vanilla'], required=True)
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
    queues = None
    if a.queue_map:
        if not a.topology:
            sys.exit('--queue-map needs --topology')
        queues = Queues(read_topology(a.topology), queue_map(a.queue_map), a.node)

    dev_node = a.node if a.dev_node is None else a.dev_node
    try:
        accept = set(cpulist.expand(a.accept_nodes))
    except ValueError as e:
        sys.exit(f'--accept-nodes: {e}')

    def per_queue(o):
        return queues is not None and queue_of(o) in queues.qmap

    def is_on(o):
        if per_queue(o):
            return o['node'] in set().union(*(queues.allowed(n) for n in queues.expected(queue_of(o))))
        return o['node'] == a.node or o['node'] in accept

    errors = []
    queue_rows = []
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
                    if not per_queue(o) and not is_on(o):
                        off_by_kind[k].append(f'host{h} {name} {k} {o["id"]} on node {o["node"]}, '
                                              f'expected {a.node}')
            print(f'host{h} {name} dev={hi["dev"]} dev_node={hi["dev_node"]} '
                  f'set_node={hi["set_node"]}: ' + ' '.join(cells))
            if queues is not None:
                errors += judge_queues(a, queues, h, name, objs[h], queue_rows)
    print(f'objects on their expected node (node {a.node}, device node {dev_node}'
          f'{", queue map " + a.queue_map if a.queue_map else ""}; {a.kernel}, {a.topo}, {a.context}):')
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
    if a.queue_tsv:
        with open(a.queue_tsv, 'a') as f:
            for r in queue_rows:
                f.write('\t'.join([a.kernel, a.topo, a.context] + [str(x) for x in r]) + '\n')
    if a.judge == 'patched':
        print(f'judged as: patched kernel, every object on node {a.node}'
              + (', but each queue\'s: (a), (b), (c)' if queues is not None else ''))
        for k, lst in off_by_kind.items():
            errors += [f'off node: {x}' for x in lst]
    else:
        print('judged as: vanilla kernel, placement reported, not required'
              + (', every queue on its first CPU\'s node' if queues is not None else ''))
        for k, n in vanilla_node.items():
            if not total[k][1]:
                errors.append(f'vanilla: no {k} object to check against node {n}')
            for x in vanilla_bad.get(k, []):
                errors.append(f'vanilla places {k} on node {n} here, found {x}')
        if vanilla_node:
            print('vanilla placement checked: ' + ', '.join(f'{k} on node {n}' for k, n in vanilla_node.items()))
    if a.judge_queues:
        print('queues judged on every kernel: (a), (b)')
    if n_all == 0:
        errors.append('no object measured at all')
    for e in errors:
        print('FAIL: ' + e)
    return 1 if errors else 0


def evidence_of(lst):
    """One object of each kind on each node, with how many more there are:
    "hctx 0:0:0/hctx0 on 1 (+1 more)"."""
    seen = collections.OrderedDict()
    for o in sorted(lst, key=lambda o: (o['node'], o['kind'])):
        seen.setdefault((o['node'], o['kind']), []).append(o)
    return [f'{k} {g[0]["id"]} on {n}' + (f' (+{len(g) - 1} more)' if len(g) > 1 else '')
            for (n, k), g in seen.items()]


def judge_queues(a, queues, h, name, objs, rows):
    """One line per queue of host h; the failures of (a), (b), (c) or of
    vanilla's rule the judge asks for."""
    errors = []
    by_q = collections.defaultdict(list)
    for o in objs:
        if queue_of(o) in queues.qmap:
            by_q[queue_of(o)].append(o)
    for q in sorted(queues.qmap):
        cpus = queues.qmap[q]
        lst = by_q.get(q, [])
        found = {o['node'] for o in lst}
        cand = queues.cpu_nodes(q)
        what = (f'host{h} {name} queue {q} (CPUs {",".join(map(str, cpus)) or "none"}, '
                f'nodes {",".join(map(str, cand))})')
        evidence = ', '.join(evidence_of(lst))
        if not lst:
            if cpus:
                errors.append(f'{what}: no object of this queue measured')
            continue
        held_a = len(found) == 1 or queues.fits(found, [n for n in cand + [queues.host]
                                                        if n not in queues.topo['mem']])
        held_b = queues.fits(found, cand)
        held_c = queues.fits(found, [queues.host]) if queues.single else None
        rows.append([name, h, q, ','.join(map(str, cpus)) or '-', ','.join(map(str, cand)),
                     ','.join(map(str, sorted(found))), int(held_a), int(held_b),
                     '-' if held_c is None else int(held_c)])
        print(f'  queue {q}: CPUs {",".join(map(str, cpus)) or "none"} on nodes {",".join(map(str, cand))}'
              f'; objects on node {",".join(map(str, sorted(found)))} ({len(lst)})'
              f'; (a) {"yes" if held_a else "NO"}, (b) {"yes" if held_b else "NO"}'
              + (f', (c) {"yes" if held_c else "NO"} (host node {queues.host})' if queues.single else ''))
        strict = a.judge == 'patched' or a.judge_queues
        if strict and not held_a:
            errors.append(f'(a) {what}: its objects are on several nodes: {evidence}')
        if strict and held_a and not held_b:
            errors.append(f'(b) {what} is on node {",".join(map(str, sorted(found)))}, where none '
                          f'of its present CPUs is: {evidence}')
        if a.judge == 'patched' and held_a and held_c is False:
            errors.append(f'(c) {what}: a single queue, on node {",".join(map(str, sorted(found)))}, '
                          f'not on the host\'s node {queues.host}: {evidence}')
        if a.judge == 'vanilla' and cpus:
            v = queues.first_cpu_node(q)
            if not queues.fits(found, [v]):
                errors.append(f'vanilla puts {what} on node {v} (its first CPU\'s, {min(cpus)}), '
                              f'found: {evidence}')
    return errors


if __name__ == '__main__':
    sys.exit(main())
