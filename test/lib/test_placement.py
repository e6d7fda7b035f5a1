#!/usr/bin/env python3
"""Unit tests of placement.py on recorded reports (test_data/), run by make
lint.  The reports are small hand-written inputs whose right verdict is
known: a patched-like report (every object on its expected node), the same
with host 2's objects on node 0 (vanilla-like), and one without sdev."""
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, 'placement.py')
DATA = os.path.join(HERE, 'test_data')


def run(report, *args):
    p = subprocess.run([sys.executable, TOOL, os.path.join(DATA, report)] + list(args),
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


class Placement(unittest.TestCase):
    def test_patched_passes_numa(self):
        rc, out = run('patched.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'numa')
        self.assertEqual(rc, 0, out)
        self.assertIn('shost=1/1', out)

    def test_device_node_is_checked(self):
        rc, out = run('patched.txt', '--hostno', '2', '--node', '1',
                      '--context', 't', '--judge', 'numa')
        self.assertEqual(rc, 1, out)
        self.assertIn('is on node 2, the topology puts it on node 1', out)

    def test_vanilla_fails_numa(self):
        rc, out = run('vanilla.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'numa')
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
                      '--context', 't', '--judge', 'numa', '--require', 'shost,sdev')
        self.assertEqual(rc, 1, out)
        self.assertIn('no sdev object measured', out)

    def test_per_queue_nodes(self):
        args = ['--hostno', '3', '--node', '1', '--context', 't', '--hctx-nodes', '0=0,1=1']
        self.assertEqual(run('patched.txt', *args, '--judge', 'numa')[0], 0)
        rc, out = run('patched.txt', '--hostno', '3', '--node', '1', '--context', 't',
                      '--hctx-nodes', '0=1,1=1', '--judge', 'vanilla', '--judge-queues')
        self.assertEqual(rc, 1, out)
        self.assertIn("queue off its CPUs' node", out)
        # A queue that spans nodes is not judged on vanilla.
        rc, out = run('patched.txt', '--hostno', '3', '--node', '1', '--context', 't',
                      '--hctx-nodes', '0=1s,1=1', '--judge', 'vanilla', '--judge-queues')
        self.assertEqual(rc, 0, out)

    def test_accept_nodes(self):
        rc, out = run('vanilla.txt', '--hostno', '2', '--node', '1', '--dev-node', '2',
                      '--context', 't', '--judge', 'numa', '--accept-nodes', '0')
        self.assertEqual(rc, 0, out)

    def test_missing_host(self):
        rc, out = run('patched.txt', '--hostno', '9', '--node', '1', '--context', 't',
                      '--judge', 'numa')
        self.assertEqual(rc, 1, out)
        self.assertIn('host host9: not in the report', out)


if __name__ == '__main__':
    unittest.main(verbosity=1)
