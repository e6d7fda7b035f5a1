#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The host's hand on a guest's QEMU, for the cases that need one.

vm-agent.py QMP-SOCKET DIR

vm.sh starts it beside QEMU (-qmp unix:QMP-SOCKET) for a topology with
hot-pluggable CPUs.  A case asks through DIR, the guest's result share:
it writes req-N (one line, renamed into place) and waits for resp-N,
"ok ..." or "error: ...".  Requests:
  cpu-add N   plug the CPU slot whose socket-id is N (vm.sh gives every
              CPU a socket of its own, so the slot of possible CPU N),
              device id cpuN; the reply names the slot's node
  cpu-del N   unplug device cpuN (the guest ejects it through ACPI)
Nothing else is accepted.  vm.sh stops it when QEMU exits; it exits by
itself when vm.sh is gone or a request finds the socket closed.
"""
import json
import os
import socket
import sys
import time


class Qmp:
    def __init__(self, path):
        deadline = time.time() + 120
        while True:
            try:
                self.s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                self.s.connect(path)
                break
            except OSError:
                self.s.close()
                if time.time() > deadline:
                    sys.exit(f"vm-agent: no QMP socket at {path}")
                time.sleep(0.2)
        self.f = self.s.makefile("rw")
        self.read()                     # the greeting
        self.cmd("qmp_capabilities")

    def read(self):
        while True:
            line = self.f.readline()
            if not line:
                raise EOFError
            msg = json.loads(line)
            if "event" not in msg:
                return msg

    def cmd(self, name, **args):
        self.f.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.f.flush()
        r = self.read()
        if "error" in r:
            raise RuntimeError(r["error"].get("desc", str(r["error"])))
        return r["return"]


def serve(q, line):
    words = line.split()
    if len(words) != 2 or not words[1].isdigit() or words[0] not in ("cpu-add", "cpu-del"):
        return "error: unknown request: " + line
    n = int(words[1])
    if words[0] == "cpu-del":
        q.cmd("device_del", id=f"cpu{n}")
        return f"ok cpu{n} unplug requested"
    for slot in q.cmd("query-hotpluggable-cpus"):
        props = slot["props"]
        if props.get("socket-id") == n:
            if "qom-path" in slot:
                return f"error: the slot of socket {n} is plugged already ({slot['qom-path']})"
            q.cmd("device_add", driver=slot["type"], id=f"cpu{n}", **props)
            return f"ok cpu{n} plugged, node {props.get('node-id', '?')}"
    return f"error: no CPU slot with socket-id {n}"


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: vm-agent.py QMP-SOCKET DIR")
    parent = os.getppid()
    q = Qmp(argv[1])
    d = argv[2]
    done = set()
    while True:
        for name in sorted(os.listdir(d)):
            if not name.startswith("req-") or name in done:
                continue
            done.add(name)
            with open(os.path.join(d, name)) as f:
                line = f.read().strip()
            try:
                resp = serve(q, line)
            except (EOFError, OSError):     # QEMU gone
                return
            except RuntimeError as e:
                resp = f"error: {e}"
            tmp = os.path.join(d, ".resp.tmp")
            with open(tmp, "w") as f:
                f.write(resp + "\n")
            os.rename(tmp, os.path.join(d, "resp-" + name[4:]))
        if os.getppid() != parent:      # vm.sh gone
            return
        time.sleep(0.2)


if __name__ == "__main__":
    main(sys.argv)
