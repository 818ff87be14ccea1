#!/usr/bin/env python3
"""make run: boot the guest with sigio-watch and move QEMU's mice.

The host moves each of QEMU's mice along a scripted path (circles, a
click, a straight line on the tablet) while sigio-watch prints one line
per signal. Nothing here needs a display; while the guest runs, a person
can also move a mouse by hand from another terminal:

  python3 qemu-scripts/qmp_mouse.py --qmp build/run/qmp.sock move ps2 20 0
"""

import argparse
import os
import sys
import threading

from guest import Boot, choose_accel
from qmp import QMPError

MICE = ("ps2", "virtio-mouse", "virtio-tablet")


def drive(boot, watching, seconds_each):
    """Once sigio-watch watches all three nodes, move each mouse in turn."""
    if not watching.wait(timeout=120):
        return
    try:
        for mouse in MICE:
            print(f"run: host moves {mouse}", flush=True)
            boot.mice.wiggle(mouse, seconds_each)
            boot.mice.click(mouse)
    except (QMPError, OSError) as e:
        print(f"run: moving the mice stopped: {e}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--seconds", type=int, default=int(os.environ.get("RUN_SECONDS", 20)),
                        help="how long sigio-watch runs")
    parser.add_argument("--smp", type=int, default=2)
    args = parser.parse_args()

    kernel = os.path.join(args.build, "linux/arch/x86/boot/bzImage")
    initrd = os.path.join(args.build, "initramfs.cpio.gz")
    accel = choose_accel(args.build, kernel, initrd)
    boot = Boot(os.path.join(args.build, "run"), kernel, initrd, "watch",
                append=f"sigmouse_watch_seconds={args.seconds} sigmouse_nodes={len(MICE)}",
                smp=args.smp, accel=accel, timeout=args.seconds + 300)
    print(f"run: booting ({accel}); QMP at {boot.sockets['qmp']}", flush=True)

    watching = threading.Event()
    seen = set()

    def on_line(line):
        if line.startswith("watching "):
            seen.add(line)
            if len(seen) == len(MICE):
                watching.set()

    boot.start()
    mover = threading.Thread(target=drive, args=(boot, watching, (args.seconds - 4) / len(MICE)),
                             daemon=True)
    mover.start()
    boot.serve(on_line=on_line)
    if boot.timed_out or boot.exit_status != 0:
        print(f"run: the guest did not finish cleanly (see {boot.workdir}/console.log)",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
