#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of placement.py on recorded reports (test_data/), run by make
lint.  The reports are small hand-written inputs whose right verdict is
known: a patched-like report (every object on its expected node), the same
with host 2's objects on node 0 (vanilla-like), one without sdev, and
four-node.txt: hosts of the four-node topology, each with a placement that
a correct queue rule, vanilla or v2's rule makes (see its comments)."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
sys.path.insert(0, os.path.join(TOP, 'harness', 'lib'))
import inproc  # noqa: E402
TOOL = os.path.join(TOP, 'lib', 'placement.py')
DATA = os.path.join(HERE, 'test_data')
TOPO = os.path.join(TOP, 'harness', 'topo') + os.sep


def run(report, *args):
    p = inproc.run_main(TOOL, [os.path.join(DATA, report)] + list(args))
    return p.returncode, p.stdout + p.stderr


class Placement(unittest.TestCase):
    def test_patched_passes_patched_judge(self):
        rc, out = run('patched.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'patched')
        self.assertEqual(rc, 0, out)
        self.assertIn('shost=1/1', out)

    def test_device_node_is_checked(self):
        rc, out = run('patched.txt', '--hostno', '2', '--node', '1',
                      '--context', 't', '--judge', 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('is on node 2, the topology puts it on node 1', out)

    def test_vanilla_fails_patched_judge(self):
        rc, out = run('vanilla.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('off node: host2 megaraid_sas shost host on node 0, expected 1', out)

    def test_vanilla_kinds_checked(self):
        rc, out = run('vanilla.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'vanilla', '--vanilla-node', 'tags=0,hctx=0')
        self.assertEqual(rc, 0, out)
        rc, out = run('patched.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'vanilla', '--vanilla-node', 'tags=0')
        self.assertEqual(rc, 1, out)

    def test_missing_kind_fails(self):
        rc, out = run('incomplete.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'patched', '--require', 'shost,sdev')
        self.assertEqual(rc, 1, out)
        self.assertIn('no sdev object measured', out)

    def test_per_queue_nodes(self):
        # two-node: queue 0 serves node 0's CPUs, queue 1 node 1's.
        args = ['--hostno', '3', '--node', '1', '--context', 't', '--topology', TOPO + 'two-node']
        rc, out = run('patched.txt', *args, '--queue-map', '0=0-1;1=2,3', '--judge', 'patched')
        self.assertEqual(rc, 0, out)
        self.assertIn('queue 0: CPUs 0,1 on nodes 0; objects on node 0 (2); (a) yes, (b) yes', out)
        # The same objects with the queues' CPUs swapped: each off its CPUs'
        # node, on any kernel with --judge-queues.
        rc, out = run('patched.txt', *args, '--queue-map', '0=2,3;1=0,1',
                      '--judge', 'vanilla', '--judge-queues')
        self.assertEqual(rc, 1, out)
        self.assertIn('FAIL: (b) host3 virtio_scsi queue 0 (CPUs 2,3, nodes 1) is on node 0', out)
        # A queue of the map without any object: the measurement is incomplete.
        rc, out = run('patched.txt', *args, '--queue-map', '0=0;1=1;2=2,3', '--judge', 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('queue 2 (CPUs 2,3, nodes 1): no object of this queue measured', out)

    def test_bad_queue_map(self):
        rc, out = run('patched.txt', '--hostno', '3', '--node', '1', '--context', 't',
                      '--judge', 'patched', '--topology', TOPO + 'two-node',
                      '--queue-map', 'FAIL: host3: no disk')
        self.assertNotEqual(rc, 0, out)
        self.assertIn('not Q=CPUS', out)


class FourNode(unittest.TestCase):
    """Fewer queues than nodes (four-node, test_data/four-node.txt): q0 serves
    CPUs 0 and 2 (nodes 0, 2), q1 CPUs 1 and 3 (nodes 1, 3), the device and
    the host on node 1."""
    MAP = '0=0,2;1=1,3'

    def judge(self, host, judge, qmap=MAP, topo='four-node', *extra):
        return run('four-node.txt', '--hostno', str(host), '--node', '1', '--context', 't',
                   '--topology', TOPO + topo, '--queue-map', qmap, '--judge', judge, *extra)

    def test_v2_rule_fails(self):
        # v2 puts q0 on the device's node 1, local to none of q0's CPUs.
        rc, out = self.judge(4, 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('FAIL: (b) host4 virtio_scsi queue 0 (CPUs 0,2, nodes 0,2) is on node 1, '
                      'where none of its present CPUs is', out)
        self.assertNotIn('queue 1 (', out)
        # Judged as on a vanilla kernel it fails too: vanilla keeps q0 on CPU 0's node.
        rc, out = self.judge(4, 'vanilla')
        self.assertEqual(rc, 1, out)
        self.assertIn("vanilla puts host4 virtio_scsi queue 0 (CPUs 0,2, nodes 0,2) on node 0", out)

    def test_correct_placements_pass(self):
        for host in (5, 6):     # q0 on node 0 or 2, q1 on node 1 or 3
            rc, out = self.judge(host, 'patched')
            self.assertEqual(rc, 0, out)
        self.assertIn('queue 0: CPUs 0,2 on nodes 0,2; objects on node 2 (5); (a) yes, (b) yes', out)

    def test_vanilla_first_cpu(self):
        # Vanilla: each queue on its lowest CPU's node, q0 on 0 and q1 on 1.
        rc, out = self.judge(5, 'vanilla')
        self.assertEqual(rc, 0, out)
        rc, out = self.judge(6, 'vanilla')
        self.assertEqual(rc, 1, out)
        self.assertIn("on node 0 (its first CPU's, 0), found: hctx 0:0:0/hctx0 on 2", out)

    def test_one_node_per_queue(self):
        # Scheduler tags apart from the hctx and tags: each node is one of
        # the queue's, the queue is not on one node.
        rc, out = self.judge(7, 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('FAIL: (a) host7 virtio_scsi queue 0 (CPUs 0,2, nodes 0,2): its objects '
                      'are on several nodes: ', out)
        self.assertIn('tags 0:0:0/hctx0/sched on 2', out)
        rc, out = self.judge(8, 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('(a) host8 virtio_scsi queue 0', out)
        self.assertNotIn('(b) host8', out)

    def test_single_queue_on_host_node(self):
        rc, out = self.judge(2, 'patched', '0=0-3')
        self.assertEqual(rc, 0, out)
        self.assertIn('(c) yes (host node 1)', out)
        rc, out = self.judge(3, 'patched', '0=0-3')
        self.assertEqual(rc, 1, out)
        self.assertIn("FAIL: (c) host3 ahci queue 0 (CPUs 0,1,2,3, nodes 0,1,2,3): a single queue, "
                      "on node 0, not on the host's node 1", out)
        # Vanilla: CPU 0's node, scheduler tags included.
        self.assertEqual(self.judge(3, 'vanilla', '0=0-3')[0], 0)
        rc, out = self.judge(2, 'vanilla', '0=0-3')
        self.assertEqual(rc, 1, out)
        self.assertIn('found: hctx 0:0:0/hctx0 on 1', out)

    def test_queue_on_node_without_memory(self):
        # memless: q1 serves node 2's CPUs, which has no memory; its objects
        # may be on any node with memory, even on two.
        rc, out = self.judge(9, 'patched', '0=0,1;1=4,5', 'memless', '--dev-node', '2',
                             '--accept-nodes', '0,1')
        self.assertEqual(rc, 0, out)
        rc, out = self.judge(9, 'patched', '0=4,5;1=0,1', 'memless', '--dev-node', '2',
                             '--accept-nodes', '0,1')
        self.assertEqual(rc, 1, out)
        self.assertIn('(a) host9 virtio_scsi queue 1 (CPUs 0,1, nodes 0)', out)

    def test_queue_tsv(self):
        with tempfile.TemporaryDirectory() as d:
            tsv = os.path.join(d, 'q.tsv')
            self.judge(4, 'patched', self.MAP, 'four-node', '--queue-tsv', tsv, '--kernel', 'k',
                       '--topo', 'four-node')
            with open(tsv) as f:
                rows = [r.split('\t') for r in f.read().splitlines()]
        self.assertEqual(rows, [
            ['k', 'four-node', 't', 'virtio_scsi', '4', '0', '0,2', '0,2', '1', '1', '0', '-'],
            ['k', 'four-node', 't', 'virtio_scsi', '4', '1', '1,3', '1,3', '1', '1', '1', '-']])

    def test_accept_nodes(self):
        rc, out = run('vanilla.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'patched', '--accept-nodes', '0')
        self.assertEqual(rc, 0, out)

    def test_missing_host(self):
        rc, out = run('patched.txt', '--hostno', '9', '--node', '1', '--context', 't',
                      '--judge', 'patched')
        self.assertEqual(rc, 1, out)
        self.assertIn('host host9: not in the report', out)


if __name__ == '__main__':
    unittest.main(verbosity=1)
