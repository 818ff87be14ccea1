#!/usr/bin/env python3
"""make run: boot the guest with sigio-watch; every mouse movement is a line.

Who runs it decides how:
  at a terminal     the guest runs until you stop it: the terminal shows the
                    signal lines and gives a shell in the guest (the kernel's
                    boot log goes to build/<version>/run/console.log); poweroff or
                    Ctrl-D there, closing QEMU's window, or Ctrl-C here ends
                    the run. Without DISPLAY, VNC on 127.0.0.1 shows the
                    guest's screen.
  not a terminal    (CI, scripts) the host moves every mouse along a scripted
                    path, sigio-watch prints a summary per node and the guest
                    powers off after RUN_SECONDS; RUN_HOST_MOVES=0 leaves the
                    moving to the caller (a test driving the window).
  DISPLAY set       either way QEMU's window opens, showing the guest's
                    screen, where sigio-watch's lines appear too; the virtio
                    tablet follows the pointer over it.

--bzimage (make run BZIMAGE=, or LINUX_TREE= built first) boots a kernel
of yours with the kit's initramfs, as vng -r does: the shell and the QEMU
mice are there on any kernel with guest-apps/guest.config's options, the
signal lines only on one with sigmouse.

From another terminal while it runs:
  python3 qemu-scripts/qmp_mouse.py move ps2 20 0
"""

import argparse
import os
import re
import signal
import sys
import threading

from guest import (BZIMAGE, FLAVOURS, Boot, add_version_argument, build_folder, choose_accel,
                   run_folder)
from qmp import QMPError

MICE = ("ps2", "virtio-mouse", "virtio-tablet")
SUMMARY = re.compile(r"^summary (\S+): signals (\d+) packets (\d+) lost (\d+)")
# init's first line to a person at the guest's console (guest-apps/init.sh):
# the terminal shows the console from there on, the boot before it only in
# console.log
SHELL_BANNER = r"^sigmouse guest shell: "


def drive(boot, watching, seconds_each, host_moves, window):
    """Once sigio-watch watches all three nodes, move each mouse in turn;
    then hand the window's pointer to the tablet."""
    if not watching.wait(timeout=120):
        return
    try:
        for mouse in MICE if host_moves else ():
            boot.say(f"run: host moves {mouse}")
            boot.mice.wiggle(mouse, seconds_each)
            boot.mice.click(mouse)
        if window:
            boot.mice.select("virtio-tablet")
            boot.say("run: the virtio tablet follows the pointer over the window")
    except (QMPError, OSError) as e:
        print(f"run: moving the mice stopped: {e}", file=sys.stderr)


def verdict(boot, summaries, person):
    """The exit status, with the reason for anything but 0."""
    problems = [f"the kernel reported: {report[0]}" for report in boot.reports()]
    problems += [f"{node} lost {lost} packets" for node, lost in summaries if lost]
    ended_by_person = boot.interrupted or boot.qemu_status == 0
    if boot.timed_out:
        problems.append("the guest ran past its timeout")
    elif boot.exit_status is None and not ended_by_person:
        problems.append("the guest stopped before its init finished")
    elif boot.exit_status not in (None, 0):
        problems.append(f"the guest's init said exit {boot.exit_status}")
    elif not person and boot.exit_status == 0 and not summaries:
        problems.append("sigio-watch printed no summary")
    for problem in problems:
        print(f"run: {problem} (see {boot.workdir}/console.log)", file=sys.stderr)
    return 1 if problems else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version_argument(parser)
    parser.add_argument("--run-seconds", type=int, default=int(os.environ.get("RUN_SECONDS", 20)),
                        help="how long sigio-watch runs when no person is at a terminal "
                        "(default $RUN_SECONDS, make run's, else 20)")
    parser.add_argument("--smp", type=int, default=2)
    parser.add_argument("--bzimage", help="the kernel to boot (default: the kit's debug kernel)")
    args = parser.parse_args()

    person = sys.stdin.isatty()
    window = bool(os.environ.get("DISPLAY"))
    host_moves = not person and os.environ.get("RUN_HOST_MOVES", "1") != "0"
    display = "gtk" if window else "vnc" if person else "none"
    append = f"sigmouse_nodes={len(MICE)}"
    if not person:
        append += f" sigmouse_watch_seconds={args.run_seconds}"

    build = build_folder(args.version)
    kernel = os.path.abspath(args.bzimage) if args.bzimage else os.path.join(
        build, FLAVOURS["debug"][0], BZIMAGE)
    if not os.path.isfile(kernel):
        sys.exit(f"run: no kernel at {kernel}")
    initrd = os.path.join(build, "initramfs.cpio.gz")
    accel = choose_accel(build, kernel, initrd)
    boot = Boot(run_folder(build), kernel, initrd,
                "person" if person else "watch", append=append, smp=args.smp, accel=accel,
                timeout=None if person else args.run_seconds + 300, display=display,
                terminal=person, quiet_until=SHELL_BANNER)
    # a closed terminal or a kill: through serve()'s cleanup, no QEMU left
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, lambda signum, frame: sys.exit(128 + signum))

    print(f"run: booting ({accel}, {display} display); QMP for qmp_mouse.py at "
          f"{boot.sockets['mice']}", flush=True)
    if person:
        print(f"run: the kernel's log goes to {boot.workdir}/console.log; its reports "
              "show here too", flush=True)
        print("run: Ctrl-C here, Ctrl-D or poweroff in the guest, or closing the window "
              "ends the run", flush=True)

    watching = threading.Event()
    seen = set()
    summaries = []

    def on_line(line):
        if line.startswith("watching "):
            seen.add(line)
            if len(seen) == len(MICE):
                watching.set()
        elif m := SUMMARY.match(line):
            summaries.append((m.group(1), int(m.group(4))))

    boot.start()
    if display == "vnc":
        vnc = boot.qmp.execute("query-vnc")
        print(f"run: the guest's screen on VNC at {vnc['host']}:{vnc['service']}", flush=True)
    mover = threading.Thread(target=drive, daemon=True,
                             args=(boot, watching, (args.run_seconds - 4) / len(MICE),
                                   host_moves, window or person))
    mover.start()
    boot.serve(on_line=on_line)
    return verdict(boot, summaries, person)


if __name__ == "__main__":
    sys.exit(main())
