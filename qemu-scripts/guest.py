#!/usr/bin/env python3
"""The one boot path: `make run`, `make test` and `make bench` boot here.

The guest gets three lines to the host, all sockets this script reads:
  ttyS0   the kernel console, saved to console.log and checked for splats
  ttyS1   the guest channel: the guest programs' output, and their
          "@@ <request>" lines, which this script answers ("@@ ok") after
          driving QEMU's mice over QMP
  QMP     QEMU's monitor, for the mice and hot-unplug

QEMU starts paused (-S) so that no byte of either line is lost before
this script is connected. Every boot has a timeout: QEMU is killed when
it passes.

TCG is the default. KVM is used only when a probe boot under KVM reached
/init in time; the verdict is kept in build/accel. (On the machines this
was written on /dev/kvm exists but a KVM guest hangs, and -cpu host
aborts, so /dev/kvm alone proves nothing.)
"""

import os
import re
import select
import subprocess
import sys
import time

from qmp import QMP, QMPError, connect_unix
from qmp_mouse import Mice

# what syzbot would call a crash, as the kernel prints it
SPLAT = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|general protection fault|"
    r"suspicious RCU usage|possible recursive locking|possible circular locking|"
    r"inconsistent lock state|UBSAN:|kmemleak: \d+ new suspected memory leaks|"
    r"INFO: task .* blocked|rcu: .*detected stall|Call Trace:")

PROBE_TIMEOUT = 20

# name -> kernel command line: one image, four ways to deliver SIGIO
DESIGNS = {
    "rcu": "",
    "rwlock": "fasync_lock=rwlock",
    "rcu-global": "fasync_lock=rcu-global",
    "waitqueue": "sigmouse.notify=waitqueue",
}


class Boot:
    """One QEMU run of the sigmouse kernel and initramfs."""

    def __init__(self, workdir, kernel, initrd, run, append="", smp=2, mem=512,
                 accel="tcg", timeout=900, echo_console=False, echo_channel=True):
        self.workdir = workdir
        self.run = run
        self.timeout = timeout
        self.echo_console = echo_console
        self.echo_channel = echo_channel
        os.makedirs(workdir, exist_ok=True)
        self.sockets = {name: os.path.join(workdir, f"{name}.sock")
                        for name in ("qmp", "console", "channel")}
        for path in self.sockets.values():
            if os.path.exists(path):
                os.unlink(path)
        # acpi=noirq: PCI interrupts from the BIOS table. Routing them through
        # ACPI's interpreter took 30 s a device on the KASAN kernel under TCG
        # (an RCU stall), and PCI hot-unplug still works without it.
        cmdline = (f"console=ttyS0 loglevel=7 panic=-1 acpi=noirq "
                   f"sigmouse_run={run} {append}").strip()
        self.command = [
            "qemu-system-x86_64", "-machine", f"pc,accel={accel}",
            "-smp", str(smp), "-m", str(mem),
            "-display", "none", "-vga", "none", "-nic", "none", "-no-reboot", "-S",
            "-kernel", kernel, "-initrd", initrd, "-append", cmdline,
            "-chardev", f"socket,id=console,path={self.sockets['console']},server=on,wait=off",
            "-serial", "chardev:console",
            "-chardev", f"socket,id=channel,path={self.sockets['channel']},server=on,wait=off",
            "-serial", "chardev:channel",
            "-qmp", f"unix:{self.sockets['qmp']},server=on,wait=off",
            "-device", "virtio-mouse-pci,id=vmouse",
            "-device", "virtio-tablet-pci,id=vtablet",
        ]
        self.console_lines = []
        self.channel_lines = []
        self.exit_status = None  # what the guest's init said
        self.timed_out = False

    def start(self):
        self.log = open(os.path.join(self.workdir, "console.log"), "w")
        self.channel_log = open(os.path.join(self.workdir, "channel.log"), "w")
        # QEMU's own messages apart: console.log is written here, line by line
        with open(os.path.join(self.workdir, "qemu.log"), "w") as qemu_log:
            self.qemu = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                         stdout=qemu_log, stderr=subprocess.STDOUT)
        self.qmp = QMP(self.sockets["qmp"])
        self.mice = Mice(self.qmp)

        def alive():
            return self.qemu.poll() is None

        self.console = connect_unix(self.sockets["console"], alive=alive)
        self.channel = connect_unix(self.sockets["channel"], alive=alive)
        self.qmp.execute("cont")
        self.started = time.monotonic()

    def reply(self, text):
        self.channel.sendall(f"@@ {text}\n".encode())

    def serve(self, on_line=None, on_request=None):
        """Read both lines until QEMU exits or the timeout passes.

        on_line(line) sees every channel line that is not a request;
        on_request(words) answers requests this class does not know.
        """
        buffers = {self.console: b"", self.channel: b""}
        open_socks = [self.console, self.channel]
        deadline = self.started + self.timeout
        while open_socks:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.timed_out = True
                break
            ready, _, _ = select.select(open_socks, [], [], min(remaining, 1.0))
            for sock in ready:
                data = sock.recv(65536)
                if not data:
                    open_socks.remove(sock)
                    continue
                buffers[sock] += data
                *lines, buffers[sock] = buffers[sock].split(b"\n")
                for raw in lines:
                    line = raw.decode(errors="replace").rstrip("\r")
                    if sock is self.console:
                        self._console_line(line)
                    else:
                        self._channel_line(line, on_line, on_request)
        self.stop()

    def _console_line(self, line):
        self.console_lines.append(line)
        self.log.write(line + "\n")
        if self.echo_console:
            print(f"console: {line}", flush=True)

    def _channel_line(self, line, on_line, on_request):
        self.channel_log.write(line + "\n")
        if not line.startswith("@@ "):
            self.channel_lines.append(line)
            if self.echo_channel:
                print(line, flush=True)
            if on_line:
                on_line(line)
            return
        words = line[3:].split()
        try:
            if words[:1] == ["exit"]:
                self.exit_status = int(words[1])
            elif words[:1] == ["mouse"] and words[2:3] == ["move"]:
                self.mice.move(words[1], int(words[3]), int(words[4]), int(words[5]))
                self.reply("ok")
            elif words[:1] == ["mouse"] and words[2:3] == ["button"]:
                self.mice.button(words[1], words[3], int(words[4]))
                self.reply("ok")
            elif words[:1] == ["unplug"]:
                self.mice.unplug(words[1])
                self.reply("ok")
            elif on_request:
                self.reply(on_request(words))
            else:
                self.reply(f"error unknown request {' '.join(words)}")
        except (QMPError, ValueError, IndexError) as e:
            self.reply(f"error {e}")

    def stop(self):
        if self.qemu.poll() is None:
            self.qemu.kill()
        self.qemu.wait()
        for f in (self.log, self.channel_log):
            f.close()
        self.qmp.close()

    def splats(self):
        return [line for line in self.console_lines if SPLAT.search(line)]


def choose_accel(build, kernel, initrd):
    """TCG, unless a probe boot under KVM reached /init; the verdict is kept."""
    verdict_file = os.path.join(build, "accel")
    forced = os.environ.get("SIGMOUSE_ACCEL")
    if forced:
        return forced
    if os.path.exists(verdict_file):
        return open(verdict_file).read().strip()
    verdict = "tcg"
    if os.access("/dev/kvm", os.R_OK | os.W_OK):
        probe = Boot(os.path.join(build, "probe"), kernel, initrd, "probe",
                     accel="kvm", timeout=PROBE_TIMEOUT, echo_channel=False)
        try:
            probe.start()
            probe.serve()
            if probe.exit_status == 0:
                verdict = "kvm"
        except (QMPError, OSError):
            pass
        print(f"guest.py: KVM probe boot {'reached' if verdict == 'kvm' else 'did not reach'}"
              f" /init in {PROBE_TIMEOUT} s: using {verdict}", file=sys.stderr)
    with open(verdict_file, "w") as f:
        f.write(verdict + "\n")
    return verdict


if __name__ == "__main__":
    sys.exit("guest.py is the boot path; run run.py, run-tests.py or run-bench.py")
