#!/usr/bin/env python3
"""The one boot path: `make run`, `make test` and `make bench` boot here.

The guest gets three lines to the host, all sockets this script reads:
  ttyS0   the kernel console, saved to console.log and checked for splats;
          for a person at a terminal (terminal=True) also the guest's
          shell, bridged to this process's terminal
  ttyS1   the guest channel: the guest programs' output, and their
          "@@ <seq> <request>" lines, which this script answers
          ("@@ <seq> ok") after driving QEMU's mice over QMP
  QMP     QEMU's monitor, for the mice and hot-unplug; a second one,
          mice.sock, stays free for qmp_mouse.py from another terminal
          (a QMP socket serves one client at a time)

The guest's screen is shown in QEMU's GTK window (display="gtk"), on VNC
at 127.0.0.1 (display="vnc"), or nowhere (the default).

QEMU starts paused (-S) so that no byte of either line is lost before
this script is connected. Every boot has a timeout: QEMU is killed when
it passes.

TCG is the default. KVM is used only when a probe boot under KVM reached
/init in time; the verdict is kept in build/<version>/accel. (Where
/dev/kvm exists but a KVM guest hangs, and -cpu host aborts, /dev/kvm
alone proves nothing.)
"""

import os
import re
import select
import termios
import subprocess
import sys
import time

from qmp import QMP, QMPError, connect_unix
from qmp_mouse import Mice

# the first line of what syzbot would call a crash, as the kernel prints it;
# die()'s "<trap>: <error code> [#<n>]" names any trap ("int3: 0000 [#1]")
REPORT = re.compile(
    r"BUG:|WARNING:|Oops|Kernel panic|general protection fault|kernel BUG at|"
    r"\b[a-z][a-z0-9 ]*: [0-9a-f]{4} \[#\d+\]|"
    r"invalid opcode|suspicious RCU usage|possible recursive locking|"
    r"possible circular locking|inconsistent lock state|UBSAN:|"
    r"kmemleak: \d+ new suspected memory leaks|INFO: task .* blocked|"
    r"rcu: .*detected stall|detected expedited stalls")
# a deliberate fault injection announces the backtrace it prints: no report
INJECTION = re.compile(r"FAULT_INJECTION: forcing a failure")
TRACE = re.compile(r"Call Trace:")
REPORT_END = re.compile(r"---\[ end ")


def kernel_reports(lines):
    """The console's reports, each [header, line, ...].

    A report runs from its header to the next header or its end marker,
    and owns the first call trace in it; a call trace no header owns is
    a report of its own. A fault injection's trace belongs to the
    injection and is no report.
    """
    reports, current, traced = [], None, False
    for line in lines:
        if REPORT.search(line):
            current, traced = [line], False
            reports.append(current)
        elif INJECTION.search(line):
            current, traced = [line], False
        elif TRACE.search(line) and (current is None or traced):
            current, traced = [line], True
            reports.append(current)
        elif current is not None:
            current.append(line)
            traced = traced or bool(TRACE.search(line))
            if REPORT_END.search(line):
                current = None
    return reports

PROBE_TIMEOUT = 20
CTRL_C = b"\x03"

# display -> QEMU's options for the guest's screen
DISPLAYS = {
    "none": ["-display", "none", "-vga", "none"],
    "gtk": ["-display", "gtk", "-vga", "std"],
    # the first free port from 5900; query-vnc says which
    "vnc": ["-display", "none", "-vga", "std", "-vnc", "127.0.0.1:0,to=99"],
}

# name -> kernel command line: one image, four ways to deliver SIGIO
DESIGNS = {
    "rcu": "",
    "rwlock": "fasync_lock=rwlock",
    "rcu-global": "fasync_lock=rcu-global",
    "waitqueue": "sigmouse.notify=waitqueue",
}

# The flavours of kernel the suites boot, each built in its tree by
# build-kernel.sh (SIGMOUSE_FLAVOUR, make's kcsan-kernel for kcsan):
# flavour -> (tree in the build folder, command line). KCSAN watches one
# access in 100 rather than its default 4000: the race in kill_fasync()'s
# empty-list test, a single load, was missed in four boots at the
# default and found at 100
# (docs/findings/kcsan-kill-fasync-quick-test.txt).
FLAVOURS = {
    "debug": ("linux", ""),
    "kcsan": ("linux-kcsan", "kcsan.skip_watch=100"),
}
BZIMAGE = "arch/x86/boot/bzImage"
# the kernels: Debian's linux-source-6.1 and linux-source-6.12
VERSIONS = ("6.1", "6.12")
# the one make's VERSION= names (it exports SIGMOUSE_VERSION), else 6.1
DEFAULT_VERSION = os.environ.get("SIGMOUSE_VERSION") or "6.1"
TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def tree_of(image):
    """The kernel tree that built image (its BZIMAGE): where its .config,
    System.map and vmlinux are."""
    return os.path.join(os.path.dirname(image), "..", "..", "..")


def build_folder(version):
    """A kernel's build folder, build/<version>, in $BUILD_DIR (which
    make exports, as lib.sh reads it) else the project's build/; given
    another name than a version (lava, models), that folder of the kit's."""
    return os.path.join(os.environ.get("BUILD_DIR") or os.path.join(TOP, "build"), version)


def add_version_argument(parser, repeatable=False):
    """--version: the kernel a script is for, as make's VERSION= names it."""
    if repeatable:
        parser.add_argument("--version", action="append", choices=VERSIONS,
                            help=f"a kernel (repeatable; default {DEFAULT_VERSION}, "
                            "make's VERSION=)")
    else:
        parser.add_argument("--version", choices=VERSIONS, default=DEFAULT_VERSION,
                            help=f"the kernel (default {DEFAULT_VERSION}, make's VERSION=)")


def run_folder(build):
    """make run's boot folder (run.py's Boot workdir), build/<version>/run."""
    return os.path.join(build, "run")


def mice_socket(build):
    """The QMP socket make run keeps free for qmp_mouse.py (Boot's "mice")."""
    return os.path.join(run_folder(build), "mice.sock")

# The test programs a test boot runs one after the other
# (sigmouse_suites=a,b on the command line), each with the variable that
# narrows it to some of its tests: the node's suite (test names) and the
# SIGIO atlas of the kernel's other fasync users (variant names: its
# sources and events, BY_VARIANT).
SUITES = {"sigio-test": "SIGIO_TEST_ONLY", "sigio-atlas": "SIGIO_ATLAS_ONLY"}
BY_VARIANT = ("sigio-atlas",)
# The series' selftest (guest-apps/files) through the kselftest runner
# (sigmouse_suites=kselftest): sigio-test as the kernel's selftests
# Makefile builds it, without the host runner, on these of its checks
# (sigmouse_kselftest_only) in one boot of each kernel. The variants that
# move QEMU's mice must skip there, the others pass.
KSELFTEST = "kselftest"
KSELFTEST_CHECKS = ("rt_signal_per_packet", "setown_ex_thread", "subscription_forms",
                    "unprivileged_owner_cannot_signal_others", "hangup_on_uinput_destroy")
QEMU_VARIANTS = ("ps2", "virtio_mouse", "virtio_tablet")
# the KUnit suites every kernel with the series runs at boot, before
# /init, and their sources in the kernel tree (the cases named there), in
# the order the kernel runs them: its link order, fs/ before drivers/
KUNIT_SUITES = {"fasync": "fs/fasync_kunit.c",
                "sigmouse": "drivers/input/sigmouse_kunit.c"}
KUNIT_CASE = re.compile(r"^\s*KUNIT_CASE\w*\((\w+)", re.M)
GUEST_APPS = os.path.join(TOP, "guest-apps")


def suite_source(suite):
    """A suite's source as compiled: its .c with the text of each local
    header it includes (sigio-atlas's tests are sigio-battery.h's)."""
    with open(os.path.join(GUEST_APPS, f"{suite}.c")) as f:
        text = f.read()
    for header in re.findall(r'^#include "([\w.-]+\.h)"', text, re.M):
        # (the kselftest harness is the kernel tree's)
        if os.path.exists(os.path.join(GUEST_APPS, header)):
            with open(os.path.join(GUEST_APPS, header)) as f:
                text += f.read()
    return text


def suite_tests(text):
    """(fixture, name) of each test in a suite's source."""
    return re.findall(r"^TEST_F(?:_TIMEOUT)?\((\w+), (\w+)", text, re.M)


def suite_variants(text):
    """(fixture, name) of each fixture variant in a suite's source."""
    return re.findall(r"^FIXTURE_VARIANT_ADD\((\w+), (\w+)\)", text, re.M)


def kunit_cases(tree, source):
    """The case names of a KUnit suite's source in a kernel tree."""
    with open(os.path.join(tree, source)) as f:
        return KUNIT_CASE.findall(f.read())


def suite_size(suite, only=None):
    """Tests in a suite's source (of the names in only, if given: tests,
    or variants of a suite BY_VARIANT): each fixture's tests times its
    variants."""
    text = suite_source(suite)
    by_variant = suite in BY_VARIANT
    tests, variants = {}, {}
    for fixture, name in suite_tests(text):
        if only is None or by_variant or name in only:
            tests[fixture] = tests.get(fixture, 0) + 1
    for fixture, name in suite_variants(text):
        taken = only is None or not by_variant or name in only
        variants[fixture] = variants.get(fixture, 0) + taken
    return sum(n * variants.get(fixture, 1) for fixture, n in tests.items())


def suite_selectable(suite):
    """The names a suite's SUITES variable selects by: sigio-test's tests,
    the atlas's variants (its sources)."""
    text = suite_source(suite)
    return {name for _, name in (suite_variants if suite in BY_VARIANT else suite_tests)(text)}


# the guest's CPUs and memory, in megabytes, and the devices every boot
# has, wherever it runs: no network, and the host's entropy (without it
# the crng's static key is patched mid-suite: Kconfig.snippet says why)
SMP = 2
MEMORY = 512
GUEST_DEVICES = ("-nic", "none", "-device", "virtio-rng-pci")


# The bench's boots keep the TSC as their clock. Under TCG the guest's
# TSC is the host's, one clock for every vCPU, but the kernel doubts it:
# 6.1 marks it unsynchronized at boot (QEMU's CPU is an AMD one without
# constant_tsc) and runs on the emulated HPET, which the kept 6.1 run did
# in all of its 2-vCPU boots and none of its 1-vCPU ones; 6.12's
# clocksource watchdog marked it unstable mid-run in 11 of its run's 60
# boots (a 0.1 % skew against the HPET under load), switching the clock
# under the measurement. The suites' boots keep the kernel's choice: with
# the TSC trusted, 6.1 also flips sched_clock's static key at boot, and a
# flip under the other vCPU was 1 of the next 60 bench boots' death.
BENCH_CLOCK = "tsc=reliable"


def kernel_command_line(run, append):
    """A boot's command line: init's run mode (sigmouse_run=) and the
    rest. acpi=noirq: PCI interrupts from the BIOS table. Routing them
    through ACPI's interpreter took 30 s a device on the KASAN kernel
    under TCG (an RCU stall), and PCI hot-unplug still works without it."""
    return f"console=ttyS0 loglevel=7 panic=-1 acpi=noirq sigmouse_run={run} {append}".strip()


class Boot:
    """One QEMU run of the sigmouse kernel and initramfs."""

    def __init__(self, workdir, kernel, initrd, run, append="", smp=SMP, mem=MEMORY,
                 accel="tcg", timeout=900, echo_console=False, echo_channel=True,
                 qemu_args=(), display="none", terminal=False, quiet_until=None):
        """timeout=None: no limit, for a person's run only.
        terminal=True: this process's terminal is the guest console's;
        with quiet_until (a pattern), the console shows there only from the
        line it matches on, and before it only the kernel's reports."""
        self.workdir = workdir
        self.run = run
        self.timeout = timeout
        self.echo_console = echo_console
        self.echo_channel = echo_channel
        self.terminal = terminal
        self.quiet_until = re.compile(quiet_until) if quiet_until else None
        self.quiet_lines = b""  # the console's lines held back while quiet
        # the console's last output on the terminal ended mid-line (the
        # shell's prompt, what a person is typing)
        self.console_mid_line = False
        os.makedirs(workdir, exist_ok=True)
        self.sockets = {name: os.path.join(workdir, f"{name}.sock")
                        for name in ("qmp", "mice", "console", "channel")}
        for path in self.sockets.values():
            if os.path.exists(path):
                os.unlink(path)
        self.command = [
            "qemu-system-x86_64", "-name", "sigmouse", "-machine", "pc", "-accel", accel,
            *qemu_args, "-smp", str(smp), "-m", str(mem),
            *DISPLAYS[display], "-no-reboot", "-S",
            "-kernel", kernel, "-initrd", initrd, "-append", kernel_command_line(run, append),
            "-chardev", f"socket,id=console,path={self.sockets['console']},server=on,wait=off",
            "-serial", "chardev:console",
            "-chardev", f"socket,id=channel,path={self.sockets['channel']},server=on,wait=off",
            "-serial", "chardev:channel",
            "-qmp", f"unix:{self.sockets['qmp']},server=on,wait=off",
            "-qmp", f"unix:{self.sockets['mice']},server=on,wait=off",
            "-device", "virtio-mouse-pci,id=vmouse",
            "-device", "virtio-tablet-pci,id=vtablet",
            *GUEST_DEVICES,
        ]
        self.console_lines = []
        self.channel_lines = []
        # per console line, how many channel lines had come before it
        self.channel_at = []
        self.exit_status = None  # what the guest's init said
        self.timed_out = False
        self.interrupted = False  # a person's Ctrl-C
        self.lines_closed = False  # QEMU closed both lines: it is ending
        self.qemu_status = None  # QEMU's exit status when it ended by itself

    def start(self):
        self.log = open(os.path.join(self.workdir, "console.log"), "w")
        self.channel_log = open(os.path.join(self.workdir, "channel.log"), "w")
        # QEMU's own messages apart: console.log is written here, line by line
        with open(os.path.join(self.workdir, "qemu.log"), "w") as qemu_log:
            self.qemu = subprocess.Popen(self.command, stdin=subprocess.DEVNULL,
                                         stdout=qemu_log, stderr=subprocess.STDOUT)
        self.qmp = None
        try:
            self.qmp = QMP(self.sockets["qmp"])
            self.mice = Mice(self.qmp)

            def alive():
                return self.qemu.poll() is None

            self.console = connect_unix(self.sockets["console"], alive=alive)
            self.channel = connect_unix(self.sockets["channel"], alive=alive)
            self.qmp.execute("cont")
        except BaseException:
            self.stop()
            raise
        self.started = time.monotonic()

    def reply(self, seq, text):
        self.channel.sendall(f"@@ {seq} {text}\n".encode())

    def serve(self, on_line=None, on_request=None):
        """Read both lines until QEMU exits or the timeout passes.

        on_line(line) sees every channel line that is not a request;
        on_request(words) answers requests this class does not know.
        """
        saved = None
        try:
            if self.terminal:
                saved = termios.tcgetattr(sys.stdin.fileno())
                keys_to_guest(sys.stdin.fileno())
            self._serve(on_line, on_request)
        finally:
            if saved:
                termios.tcsetattr(sys.stdin.fileno(), termios.TCSAFLUSH, saved)
            # whatever happened, no QEMU is left behind; one that closed
            # its lines is ending by itself and gets a moment to do so
            self.stop(grace=5 if self.lines_closed else 0)

    def _serve(self, on_line, on_request):
        buffers = {self.console: b"", self.channel: b""}
        open_socks = [self.console, self.channel]
        keyboard = [sys.stdin.fileno()] if self.terminal else []
        self.lines_closed = False
        deadline = self.started + self.timeout if self.timeout else None
        while open_socks:
            remaining = deadline - time.monotonic() if deadline else 1.0
            if remaining <= 0:
                self.timed_out = True
                break
            ready, _, _ = select.select(open_socks + keyboard, [], [], min(remaining, 1.0))
            if keyboard and keyboard[0] in ready:
                keys = os.read(keyboard[0], 1024)
                if not keys or CTRL_C in keys:
                    self.interrupted = True
                    break
                self.console.sendall(keys)
            for sock in ready:
                if sock in keyboard:
                    continue
                data = sock.recv(65536)
                if not data:
                    open_socks.remove(sock)
                    self.lines_closed = not open_socks
                    continue
                if self.terminal and sock is self.console:
                    self._show_console(data)
                buffers[sock] += data
                *lines, buffers[sock] = buffers[sock].split(b"\n")
                for raw in lines:
                    line = raw.decode(errors="replace").rstrip("\r")
                    if sock is self.console:
                        self._console_line(line)
                    else:
                        self._channel_line(line, on_line, on_request)

    def _show_console(self, data):
        """The console's bytes on this terminal: while quiet, only the
        first line of each kernel report (the whole log is in console.log),
        then everything from the line quiet_until matches."""
        if self.quiet_until:
            *lines, self.quiet_lines = (self.quiet_lines + data).split(b"\n")
            for n, raw in enumerate(lines):
                line = raw.decode(errors="replace").rstrip("\r")
                if self.quiet_until.search(line):
                    data = b"\n".join(lines[n:] + [self.quiet_lines])
                    self.quiet_until = None
                    break
                if REPORT.search(line):
                    self.say(f"console: {line}")
            else:
                return
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        self.console_mid_line = not data.endswith(b"\n")

    def _console_line(self, line):
        self.console_lines.append(line)
        self.channel_at.append(len(self.channel_lines))
        self.log.write(line + "\n")
        if self.echo_console:
            print(f"console: {line}", flush=True)

    def _channel_line(self, line, on_line, on_request):
        self.channel_log.write(line + "\n")
        if not line.startswith("@@ "):
            self.channel_lines.append(line)
            if self.echo_channel:
                self.say(line)
            if on_line:
                on_line(line)
            return
        words = line[3:].split()
        if words[:1] == ["exit"]:
            self.exit_status = int(words[1]) if words[1:2] and words[1].isdigit() else -1
            return
        if not words or not words[0].isdigit():
            return  # not a request: nothing to answer
        seq, words = words[0], words[1:]
        try:
            if words[:1] == ["mouse"] and words[2:3] == ["move"]:
                self.mice.move(words[1], int(words[3]), int(words[4]), int(words[5]))
                self.reply(seq, "ok")
            elif words[:1] == ["mouse"] and words[2:3] == ["button"]:
                self.mice.button(words[1], words[3], int(words[4]))
                self.reply(seq, "ok")
            elif words[:1] == ["mouse"] and words[2:3] == ["at"]:
                self.mice.check_at(words[1], int(words[3]), int(words[4]))
                self.reply(seq, "ok")
            elif words[:1] == ["unplug"]:
                self.mice.unplug(words[1])
                self.reply(seq, "ok")
            elif words[:1] == ["plug"]:
                self.mice.plug(words[1])
                self.reply(seq, "ok")
            elif on_request:
                self.reply(seq, on_request(words))
            else:
                self.reply(seq, f"error unknown request {' '.join(words)}")
        except (QMPError, ValueError, IndexError, OSError) as e:
            self.reply(seq, f"error {e}")

    def say(self, line):
        """A line on this process's terminal; in raw mode it needs its CR.
        Shared with the guest's console, it starts a line of its own rather
        than run on from the shell's prompt or what a person is typing."""
        if self.terminal and self.console_mid_line:
            print(end="\r\n")
            self.console_mid_line = False
        print(line, end="\r\n" if self.terminal else "\n", flush=True)

    def run_to_end(self, on_line=None):
        """Start, serve the boot to its end (or its timeout), stop."""
        self.start()
        try:
            self.serve(on_line=on_line)
        finally:
            self.stop()

    def stop(self, grace=0):
        """Kill QEMU if it still runs after grace seconds and close
        everything; safe to repeat."""
        try:
            self.qemu.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        if self.qemu.poll() is None:
            self.qemu.kill()
        elif self.qemu_status is None:
            self.qemu_status = self.qemu.returncode
        self.qemu.wait()
        for f in (self.log, self.channel_log):
            f.close()
        if self.qmp:
            self.qmp.close()

    def reports(self):
        return kernel_reports(self.console_lines)

    def death_at_boot(self):
        """Why the guest ended before its init wrote a line on the channel
        (the kernel's first report, or QEMU's exit), or None when it
        wrote one, timed out or was stopped by a person."""
        if self.channel_lines or self.exit_status is not None or self.timed_out \
                or self.interrupted:
            return None
        reports = self.reports()
        if reports:
            return reports[0][0].split("] ", 1)[-1]
        return f"QEMU ended (status {self.qemu_status}) before /init wrote a line"


def boot_retrying_death(make_boot, make_reader):
    """Boot (make_boot() gives a Boot not yet started), feeding every
    channel line to make_reader()'s feed, and boot once more if the first
    guest died before its init wrote a line: under multi-threaded TCG a
    kernel patching its own text can die of it
    (docs/findings/int3-tracepoint-switched-under-load.txt). The dead
    boot's console is kept beside the second's as console-died.log.
    Returns (boot, reader, why the first boot died or None); a second
    death stands, to be judged as any other boot."""
    boot, reader = make_boot(), make_reader()
    boot.start()
    boot.serve(on_line=reader.feed)
    died = boot.death_at_boot()
    if died:
        os.replace(os.path.join(boot.workdir, "console.log"),
                   os.path.join(boot.workdir, "console-died.log"))
        boot, reader = make_boot(), make_reader()
        boot.start()
        boot.serve(on_line=reader.feed)
    return boot, reader, died


def keys_to_guest(fd):
    """Every key goes to the guest as typed: no echo or line editing here
    (the guest's shell does both), no signals from keys (Ctrl-C is read
    as a byte and ends the run). Output processing stays on, so a bare
    newline still starts its line at the left."""
    mode = termios.tcgetattr(fd)
    mode[0] &= ~(termios.ICRNL | termios.IXON)
    mode[3] &= ~(termios.ICANON | termios.ECHO | termios.ISIG | termios.IEXTEN)
    mode[6][termios.VMIN], mode[6][termios.VTIME] = 1, 0
    termios.tcsetattr(fd, termios.TCSAFLUSH, mode)


def accel_key():
    """What a KVM verdict depends on: this QEMU, this host kernel, /dev/kvm."""
    qemu = subprocess.run(["qemu-system-x86_64", "--version"], capture_output=True,
                          text=True, check=False).stdout.split("\n", 1)[0]
    kvm = "usable" if os.access("/dev/kvm", os.R_OK | os.W_OK) else "absent"
    return f"{qemu}; host {os.uname().release}; /dev/kvm {kvm}"


def choose_accel(build, kernel, initrd):
    """TCG, unless a probe boot under KVM reached /init; the verdict is kept
    with what it depends on and probed again when that changes."""
    verdict_file = os.path.join(build, "accel")
    forced = os.environ.get("SIGMOUSE_ACCEL")
    if forced:
        return forced
    key = accel_key()
    if os.path.exists(verdict_file):
        verdict, _, kept_key = open(verdict_file).read().partition("\n")
        if kept_key.strip() == key:
            return verdict.strip()
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
        f.write(f"{verdict}\n{key}\n")
    return verdict


if __name__ == "__main__":
    sys.exit("guest.py is the boot path; run run.py, run-tests.py or run-bench.py")
