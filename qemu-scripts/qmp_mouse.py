#!/usr/bin/env python3
"""Move QEMU's mice over QMP: the test runner's and a person's tool.

QEMU hands relative input-send-event events to the *current* mouse
only (query-mice shows which), so every relative move or click first
selects its device with the HMP command mouse_set. Absolute events go
to the tablet whatever is current. QEMU's window (and VNC) send the
pointer to the current mouse, and treat it as absolute, needing no grab,
only while the tablet is current.

While `make run` runs, from another terminal
(build/<version>/run/mice.sock is the monitor kept free for this; the
default is 6.1's, make run's own; --version 6.12 for make run VERSION=6.12):

  qmp_mouse.py list
  qmp_mouse.py move ps2 10 -5 [count]
  qmp_mouse.py click virtio-mouse [left|right|middle]
  qmp_mouse.py circle virtio-tablet [radius]
  qmp_mouse.py wiggle virtio-tablet [seconds]     (circles)
  qmp_mouse.py path ps2 FILE                      (lines of "dx dy")
  qmp_mouse.py use ps2               (the window's pointer goes to ps2)
  qmp_mouse.py unplug virtio-mouse   (then: plug virtio-mouse)
"""

import argparse
import math
import os
import sys
import time

from qmp import QMP, QMPError

# our short names -> the names query-mice reports
MICE = {
    "ps2": "QEMU PS/2 Mouse",
    "virtio-mouse": "QEMU Virtio Mouse",
    "virtio-tablet": "QEMU Virtio Tablet",
}
# the hot-pluggable ones: the qdev ids the boot path gives them, their drivers
DEVICE_IDS = {"virtio-mouse": "vmouse", "virtio-tablet": "vtablet"}
DEVICE_DRIVERS = {"virtio-mouse": "virtio-mouse-pci", "virtio-tablet": "virtio-tablet-pci"}
ABS_MAX = 0x7FFF  # QEMU's INPUT_EVENT_ABS_MAX


class Mice:
    def __init__(self, qmp, gap=0.01):
        self.qmp = qmp
        self.gap = gap  # between events: the guest drains virtio queues in time
        self.tablet_pos = [ABS_MAX // 2, ABS_MAX // 2]

    def list(self):
        return self.qmp.execute("query-mice")

    def select(self, mouse):
        if mouse not in MICE:
            raise QMPError(f"unknown mouse {mouse!r}: one of {', '.join(MICE)}")
        for m in self.list():
            if m["name"] == MICE[mouse]:
                if not m["current"]:
                    self.qmp.hmp(f"mouse_set {m['index']}")
                return
        raise QMPError(f"QEMU has no {MICE[mouse]!r}")

    def _send(self, events):
        self.qmp.execute("input-send-event", events=events)
        time.sleep(self.gap)

    def move(self, mouse, dx, dy, count=1):
        self.select(mouse)
        for _ in range(count):
            if mouse == "virtio-tablet":
                self.tablet_pos[0] += dx
                self.tablet_pos[1] += dy
                if not all(0 <= p <= ABS_MAX for p in self.tablet_pos):
                    raise QMPError(f"tablet position {self.tablet_pos} out of range")
                self._send([{"type": "abs", "data": {"axis": axis, "value": value}}
                            for axis, value in zip("xy", self.tablet_pos)])
            else:
                self._send([{"type": "rel", "data": {"axis": axis, "value": value}}
                            for axis, value in zip("xy", (dx, dy)) if value])

    def check_at(self, mouse, x, y):
        """Whether the guest's view of the tablet is where its path ended."""
        if mouse != "virtio-tablet":
            raise QMPError(f"{mouse} has no absolute position")
        if self.tablet_pos != [x, y]:
            raise QMPError(f"QEMU's tablet was moved to {tuple(self.tablet_pos)}, "
                           f"the guest has it at {(x, y)}")

    def button(self, mouse, button, down):
        self.select(mouse)
        self._send([{"type": "btn", "data": {"button": button, "down": bool(down)}}])

    def click(self, mouse, button="left"):
        self.button(mouse, button, True)
        self.button(mouse, button, False)

    def circle(self, mouse, radius=60, steps=16):
        """One closed circle: it ends where it started."""
        at = (radius, 0)
        for step in range(1, steps + 1):
            angle = 2 * math.pi * step / steps
            to = (round(radius * math.cos(angle)), round(radius * math.sin(angle)))
            self.move(mouse, to[0] - at[0], to[1] - at[1])
            at = to
            time.sleep(0.04)

    def wiggle(self, mouse, seconds=3.0):
        """Circles, for a person watching the signal lines."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.circle(mouse, radius=20)

    def path(self, mouse, lines):
        """A scripted path: one "dx dy" per line; '#' starts a comment."""
        for line in lines:
            fields = line.split("#")[0].split()
            if fields:
                self.move(mouse, int(fields[0]), int(fields[1]))

    def plug(self, mouse):
        if mouse not in DEVICE_IDS:
            raise QMPError(f"{mouse} cannot be plugged")
        self.qmp.execute("device_add", driver=DEVICE_DRIVERS[mouse], id=DEVICE_IDS[mouse])

    def unplug(self, mouse):
        if mouse not in DEVICE_IDS:
            raise QMPError(f"{mouse} cannot be unplugged")
        self.qmp.execute("device_del", id=DEVICE_IDS[mouse])
        self.qmp.wait_event("DEVICE_DELETED", timeout=30,
                            match=lambda data: data.get("device") == DEVICE_IDS[mouse])


def main():
    # here, not at the top: guest imports this module
    from guest import add_version_argument, build_folder, mice_socket
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    # the kernel make run booted: its socket, build/<version>/run/mice.sock
    add_version_argument(parser)
    parser.add_argument("--qmp", help="QMP socket of the guest (default: the --version's)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    p = sub.add_parser("move")
    p.add_argument("mouse", choices=MICE)
    p.add_argument("dx", type=int)
    p.add_argument("dy", type=int)
    p.add_argument("count", type=int, nargs="?", default=1)
    p = sub.add_parser("click")
    p.add_argument("mouse", choices=MICE)
    p.add_argument("button", nargs="?", default="left", choices=["left", "right", "middle"])
    p = sub.add_parser("circle")
    p.add_argument("mouse", choices=MICE)
    p.add_argument("radius", type=int, nargs="?", default=60)
    for command in ("use", "plug", "unplug"):
        sub.add_parser(command).add_argument("mouse", choices=MICE)
    p = sub.add_parser("wiggle")
    p.add_argument("mouse", choices=MICE)
    p.add_argument("seconds", type=float, nargs="?", default=3.0)
    p = sub.add_parser("path")
    p.add_argument("mouse", choices=MICE)
    p.add_argument("file", type=argparse.FileType("r"))
    args = parser.parse_args()
    if args.qmp is None:
        # relative, since a socket's path has at most 107 bytes
        args.qmp = os.path.relpath(mice_socket(build_folder(args.version)))

    try:
        mice = Mice(QMP(args.qmp, timeout=5))
        if args.command == "list":
            for m in mice.list():
                print(f"{m['index']}: {m['name']}{' (current)' if m['current'] else ''}"
                      f"{' absolute' if m['absolute'] else ''}")
        elif args.command == "move":
            mice.move(args.mouse, args.dx, args.dy, args.count)
        elif args.command == "click":
            mice.click(args.mouse, args.button)
        elif args.command == "circle":
            mice.circle(args.mouse, args.radius)
        elif args.command == "wiggle":
            mice.wiggle(args.mouse, args.seconds)
        elif args.command == "use":
            mice.select(args.mouse)
        elif args.command in ("plug", "unplug"):
            getattr(mice, args.command)(args.mouse)
        else:
            mice.path(args.mouse, args.file)
    except (QMPError, OSError) as e:
        sys.exit(f"qmp_mouse: {e}")


if __name__ == "__main__":
    main()
