#!/usr/bin/env python3
"""make run, used as a person would: its window, then its terminal; KTAP.

The window: under Xvfb this starts `make run` (no terminal, DISPLAY set,
the host's scripted moves off), finds QEMU's window, moves the real X
pointer over it with xdotool along a known path and clicks, and checks
what sigio-watch printed for the virtio tablet: the dx/dy totals the
path implies at the window's scale, the click in the button state.
Screenshots of the window (xwd, saved as PNG under build/<version>/person/) before
and after the moves must show the guest's screen filling with signal
lines. Then the virtio mouse is unplugged and plugged back over QMP, and
the new node must be watched and signal. make run must end by itself
with exit 0 and no packet lost.

The terminal: `make run` on a pseudo-terminal, no DISPLAY. The guest's
shell must answer there, VNC must serve the guest's screen on 127.0.0.1,
qmp_mouse.py from "another terminal" must make signal lines appear, and
poweroff in the guest (one boot) and Ctrl-C (another) must each end the
run with exit 0, the terminal's mode restored, and no QEMU left.

Its KTAP goes to stdout and to build/<version>/person/ktap, which
run-tests.py counts (make person; make test runs it beside the second
kernel's build).
"""

import argparse
import ctypes
import os
import pty
import re
import shutil
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading
import time
import zlib

from guest import add_version_argument, build_folder, mice_socket, run_folder
from run import SHELL_BANNER

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
# the guest's VGA text screen: 80x25 cells of 9x16 pixels; QEMU's tablet
# spans it with absolute values 0..0x7fff
SCREEN_W, SCREEN_H, CELL_H = 720, 400, 16
ABS_MAX = 0x7FFF
# the window's run: the moves, the screenshots and the replug end about
# 30 s after the guest starts watching (TCG, make test's machine); twice
# that before the guest powers off by itself
RUN_SECONDS = 60
# the pointer's path over the window, in screen pixels
START = (100, 100)
STEPS = [(10, 5)] * 20 + [(-4, 8)] * 15
WINDOW_TESTS = ("window_opened", "tablet_follows_pointer", "click_in_button_state",
                "screen_shows_signal_lines", "screen_header_stays", "replugged_mouse_watched",
                "run_ends_cleanly")
TERMINAL_TESTS = ("terminal_quiet_until_shell", "terminal_gives_guest_shell", "vnc_on_loopback",
                  "mice_moved_from_another_terminal", "typing_survives_signal_lines",
                  "newcomer_mouse_commands", "poweroff_ends_run", "ctrl_c_ends_run",
                  "closing_window_ends_run")
NEWCOMER_TESTS = ("newcomer_make_help", "newcomer_test_one", "newcomer_check_node")
TESTS = ("newcomer_readme_commands",) + WINDOW_TESTS + TERMINAL_TESTS + NEWCOMER_TESTS
# The README's commands, run as written from a fresh copy of the
# repository's files (what a clone has) that shares this run's build
# folder through BUILD_DIR, so that nothing is rebuilt: the commands
# the checks run (make help, make test-one and make check-node by
# newcomer_*, make run as
# the first terminal boot, qmp_mouse.py while it runs); then those make
# test cannot run, and why
README_RUNS = ("make help", "make run", "python3 qemu-scripts/qmp_mouse.py ", "make test-one ",
               "make check-node ")
README_NOT_HERE = (("make test", "it is the run this check is part of"),
                   ("apt-get ", "it changes the machine's packages; make test's make deps "
                    "installs what is missing"))
# a code block's line that runs something, rather than shows output
COMMAND = re.compile(r"^ {4,}((?:make|python3|apt-get)\b.*)$")
# the guest shell's prompt: at a line's start, or after a line of make
# run's own that the guest's prompt overtook (seen once: "run: the
# virtio tablet follows the pointer over the window/ # ")
PROMPT = r"(?m)(^|^run: .*)/ # "
TYPED = "typed-while-moving"
CURSOR_QUERY, CURSOR_AT_BOTTOM = b"\x1b[6n", b"\x1b[25;1R"
# sigio-watch's line per signal: node, si_code, si_band, si_fd, the packet
LINE = re.compile(r"^(sigmouse\d+) (\S+) \S+ fd=-?\d+"
                  r"(?: seq=\d+ dx=(-?\d+) dy=(-?\d+) wheel=-?\d+ buttons=(\S+))?")
# and its first, what the kernel booted with; make run boots the defaults
BOOTED = r"^sigio-watch: fasync_lock rcu, notify fasync$"
# a line of the kernel's log (CONFIG_PRINTK_TIME)
KERNEL_LINE = re.compile(r"^\[\s*\d+\.\d+\] ")


class Run:
    """make run in the background with its output on a pseudo-terminal (and
    its input too when terminal=True); the output as it comes."""

    def __init__(self, version, log, env, terminal, readme=None):
        """readme: a copy of the repository, whose README's make run line
        runs there instead (the build folder the environment's BUILD_DIR,
        as this script's, and the version its VERSION)."""
        self.log = open(log, "w")
        self.master, slave = pty.openpty()
        if readme:
            argv, cwd = ["sh", "-c", readme_line(readme, "make run")], readme
            env = newcomer_env(version, env)
        else:
            argv, cwd = ["make", "-s", "-C", TOP, "run", f"VERSION={version}"], TOP
        self.proc = subprocess.Popen(argv, cwd=cwd,
                                     stdin=slave if terminal else subprocess.DEVNULL,
                                     stdout=slave, stderr=slave, env=env,
                                     start_new_session=True)
        os.close(slave)
        self.text = ""
        self.changed = threading.Condition()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    @property
    def lines(self):
        with self.changed:
            return [line.rstrip("\r") for line in self.text.split("\n")]

    def _read(self):
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:  # the last writer closed the terminal
                data = b""
            with self.changed:
                if not data:
                    self.done = True
                    self.changed.notify_all()
                    return
                text = data.decode(errors="replace")
                if not self.log.closed:
                    self.log.write(text)
                    self.log.flush()
                self.text += text
                self.changed.notify_all()
            # the guest shell's line editor asks where the cursor is, as
            # busybox does at every prompt; a terminal answers
            if CURSOR_QUERY in data:
                os.write(self.master, CURSOR_AT_BOTTOM)

    def _wait(self, search, timeout):
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                if found := search():
                    return found
                remaining = deadline - time.monotonic()
                if remaining <= 0 or self.proc.poll() is not None:
                    return search()
                self.changed.wait(min(remaining, 1.0))

    def wait_for(self, pattern, timeout, after=0):
        """The first whole line from index after that matches pattern, or None."""
        def search():
            for line in self.lines[after:-1]:
                if m := re.search(pattern, line):
                    return m
            return None
        return self._wait(search, timeout)

    def wait_lines(self, pattern, count, timeout, after=0):
        """The whole lines from index after that match pattern, once there
        are count of them or timeout has passed."""
        def search():
            found = [line for line in self.lines[after:-1] if re.search(pattern, line)]
            return found if len(found) >= count else None
        return self._wait(search, timeout) or []

    def wait_text(self, pattern, timeout, after=0):
        """pattern in the output from offset after, lines or not, or None."""
        return self._wait(lambda: re.compile(pattern).search(self.text, after), timeout)

    def complete_lines(self):
        return len(self.lines) - 1

    def type(self, keys):
        os.write(self.master, keys.encode())

    def mode(self):
        return termios.tcgetattr(self.master)

    def wait(self, timeout):
        try:
            return self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
        self.proc.wait()
        self.reader.join(timeout=10)  # it ends when the last writer has gone
        with self.changed:
            self.log.close()
        if not self.reader.is_alive():
            os.close(self.master)


class XClientMessageEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("serial", ctypes.c_ulong),
                ("send_event", ctypes.c_int), ("display", ctypes.c_void_p),
                ("window", ctypes.c_ulong), ("message_type", ctypes.c_ulong),
                ("format", ctypes.c_int), ("data", ctypes.c_long * 5)]


class XEvent(ctypes.Union):
    _fields_ = [("xclient", XClientMessageEvent), ("pad", ctypes.c_long * 24)]


def close_window(window):
    """What a window manager does for the title bar's close button: send
    WM_DELETE_WINDOW (Xvfb has no window manager; xdotool 3.2016 can only
    destroy a window or kill its client, which no person does)."""
    x11 = ctypes.CDLL("libX11.so.6")
    x11.XOpenDisplay.restype = ctypes.c_void_p
    x11.XOpenDisplay.argtypes = [ctypes.c_char_p]
    x11.XInternAtom.restype = ctypes.c_ulong
    x11.XInternAtom.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    x11.XSendEvent.argtypes = [ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int, ctypes.c_long,
                               ctypes.POINTER(XEvent)]
    x11.XFlush.argtypes = x11.XCloseDisplay.argtypes = [ctypes.c_void_p]
    display = x11.XOpenDisplay(None)
    if not display:
        raise OSError("cannot open the X display")
    event = XEvent()
    event.xclient.type = 33  # ClientMessage
    event.xclient.window = int(window)
    event.xclient.message_type = x11.XInternAtom(display, b"WM_PROTOCOLS", False)
    event.xclient.format = 32
    event.xclient.data[0] = x11.XInternAtom(display, b"WM_DELETE_WINDOW", False)
    x11.XSendEvent(display, int(window), False, 0, ctypes.byref(event))
    x11.XFlush(display)
    x11.XCloseDisplay(display)


def find_window():
    """QEMU's window, ([id], {geometry})."""
    found = xdotool("search", "--sync", "--onlyvisible", "--name", r"^QEMU \(sigmouse\)$").split()
    geometry = dict(kv.split("=") for kv in xdotool("getwindowgeometry", "--shell",
                                                    found[0]).split()) if found else {}
    return found, geometry


def xdotool(*args):
    return subprocess.run(["xdotool", *args], capture_output=True, text=True, timeout=60,
                          check=True).stdout


def readme_commands(top):
    """The command lines of top's README.md, as written: its code blocks'
    lines that start with make, python3 or apt-get, a line ending in a
    backslash joined with the next."""
    commands, pending = [], None
    with open(os.path.join(top, "README.md")) as f:
        for line in f:
            line = line.rstrip("\n")
            if pending is not None:
                pending += " " + line.strip()
            elif m := COMMAND.match(line):
                pending = m.group(1)
            else:
                continue
            if pending.endswith("\\"):
                pending = pending[:-1].rstrip()
            else:
                commands.append(pending)
                pending = None
    return commands


def command_of(line):
    """A command line without its comment."""
    return re.sub(r"\s+#.*$", "", line)


def starts(line, start):
    """line's command is start, or, where start ends in a space, begins
    with it (make help, never make help-me)."""
    command = command_of(line)
    return command == start.rstrip() or (start.endswith(" ") and command.startswith(start))


def readme_lines(top, start):
    """The README's command lines that start with start."""
    return [line for line in readme_commands(top) if starts(line, start)]


def readme_line(top, start):
    lines = readme_lines(top, start)
    if not lines:
        raise ValueError(f"the README has no {start.strip()!r} line")
    return lines[0]


def copy_repository(to):
    """The repository's tracked files as they are now, in to: what a fresh
    clone has, modification times kept so that nothing built is older."""
    if os.path.exists(to):
        shutil.rmtree(to)
    files = subprocess.run(["git", "-C", TOP, "ls-files", "-z"], capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        os.makedirs(os.path.join(to, os.path.dirname(name)), exist_ok=True)
        shutil.copy2(os.path.join(TOP, name), os.path.join(to, name))


def newcomer_env(version, env=None):
    """A newcomer's shell's environment (env, or this process's): no make
    above it, the build folder shared, the version chosen."""
    env = {name: value for name, value in (env or os.environ).items()
           if name not in ("MAKEFLAGS", "MAKEOVERRIDES", "MFLAGS", "MAKELEVEL")}
    return dict(env, BUILD_DIR=os.path.dirname(build_folder(version)),
                VERSION=version, SIGMOUSE_VERSION=version)


def check_readme_commands(copy, checks):
    """Every README command is one a check runs, or one listed as not
    runnable here, with its reason."""
    known = README_RUNS + tuple(start for start, _ in README_NOT_HERE)
    commands = readme_commands(copy)
    unknown = [line for line in commands if not any(starts(line, start) for start in known)]
    for start, why in README_NOT_HERE:
        for line in commands:
            if starts(line, start):
                checks.say(f"# not run here: {command_of(line)[:60]}: {why}")
    checks.result("newcomer_readme_commands", bool(commands) and not unknown,
                  f"{len(commands)} command lines in the README, {len(unknown)} that no "
                  f"check runs or lists: {unknown}")


def run_readme_lines(copy, version, start, timeout):
    """Each README line starting with start, run as written in copy:
    [(line, exit status, its output and errors as a terminal shows them)]."""
    ran = []
    for line in readme_lines(copy, start):
        done = subprocess.run(["sh", "-c", line], cwd=copy, env=newcomer_env(version),
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              timeout=timeout)
        ran.append((line, done.returncode, done.stdout))
    return ran


def check_newcomer_commands(copy, version, checks):
    """make help, the single-check recipe and sigio-check on a node, as
    the README writes them: each must end with its closing line, all
    passed."""
    started = time.monotonic()
    ran = run_readme_lines(copy, version, "make help", 60)
    took = time.monotonic() - started
    listed = all(f"  {target} " in output for target in ("run", "test", "test-one", "help")
                 for _, _, output in ran)
    checks.result("newcomer_make_help", bool(ran) and all(status == 0 for _, status, _ in ran)
                  and listed and took < 20,
                  f"{[line for line, _, _ in ran]} exited {[status for _, status, _ in ran]} "
                  f"in {took:.0f} s; {'lists' if listed else 'does NOT list'} run, test, "
                  f"test-one and help")
    for name, start in (("newcomer_test_one", "make test-one "),
                        ("newcomer_check_node", "make check-node ")):
        ran = run_readme_lines(copy, version, start, 900)
        tallies = [(line, status, output.rstrip().rsplit("\n", 1)[-1])
                   for line, status, output in ran]
        passed = [line for line, status, last in tallies
                  if status == 0 and re.fullmatch(r"[1-9]\d* passed, 0 failed, 0 skipped", last)]
        checks.result(name, bool(ran) and len(passed) == len(ran),
                      "; ".join(f"{line!r} exited {status}, ending {last!r}"
                                for line, status, last in tallies) or f"no {start.strip()} line")


def qmp_mouse(build, *args):
    subprocess.run([sys.executable, os.path.join(HERE, "qmp_mouse.py"),
                    "--qmp", mice_socket(build), *args],
                   check=True, timeout=60)


def screenshot(window, png):
    """The window's pixels (rows of (r, g, b)) by xwd, also saved as PNG."""
    xwd = subprocess.run(["xwd", "-silent", "-id", window], capture_output=True,
                         check=True, timeout=60).stdout
    (header_size, _, _, _, width, height, _, byte_order, _, _, _, bpp, stride, _,
     red, green, blue, _, _, ncolors) = struct.unpack(">20I", xwd[:80])
    if bpp != 32:
        raise ValueError(f"xwd gave {bpp} bits per pixel; this reads 32")
    data = xwd[header_size + 12 * ncolors:]
    order = "<" if byte_order == 0 else ">"
    rows = []
    for y in range(height):
        words = struct.unpack(f"{order}{width}I", data[y * stride:y * stride + 4 * width])
        rows.append([(channel(w, red), channel(w, green), channel(w, blue)) for w in words])
    write_png(png, rows)
    return rows


def channel(word, mask):
    shift = (mask & -mask).bit_length() - 1
    return (word & mask) >> shift


def write_png(path, rows):
    def chunk(kind, body):
        return (struct.pack(">I", len(body)) + kind + body +
                struct.pack(">I", zlib.crc32(kind + body)))
    raw = b"".join(b"\0" + bytes(v for pixel in row for v in pixel) for row in rows)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", len(rows[0]), len(rows), 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def text_rows(rows):
    """The guest's screen (the window's bottom 400 pixels, under QEMU's
    menu bar) as its text rows: each its pixels, or None where all are
    the background's colour."""
    screen = rows[-SCREEN_H:]
    colours = {}
    for row in screen:
        for pixel in row:
            colours[pixel] = colours.get(pixel, 0) + 1
    background = max(colours, key=colours.get)
    cells = [tuple(pixel for row in screen[top:top + CELL_H] for pixel in row)
             for top in range(0, SCREEN_H, CELL_H)]
    return [cell if any(pixel != background for pixel in cell) else None for cell in cells]


def used(text):
    """How many of the screen's text rows show something."""
    return sum(row is not None for row in text)


def start_xvfb():
    """Xvfb on a free display number; (process, ":N")."""
    read_end, write_end = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write_end), "-screen", "0",
                             "1024x768x24", "-nolisten", "tcp"],
                            pass_fds=(write_end,), stderr=subprocess.DEVNULL)
    os.close(write_end)
    with os.fdopen(read_end) as f:
        number = f.readline().strip()
    if not number:
        raise RuntimeError("Xvfb did not start")
    return xvfb, f":{number}"


class Checks:
    """The KTAP, shown and written to ktap (run-tests.py counts it)."""

    def __init__(self, ktap):
        self.number = 0
        self.ktap = ktap
        self.say(f"1..{len(TESTS)}")

    def say(self, line):
        print(line, flush=True)
        self.ktap.write(line + "\n")
        self.ktap.flush()

    def result(self, name, ok, detail):
        self.number += 1
        assert TESTS[self.number - 1] == name
        self.say(f"{'ok' if ok else 'not ok'} {self.number} {name}"
                 f"{'' if ok else ' # ' + detail}")
        if ok:
            self.say(f"# {detail}")

    def rest_not_run(self, why, part):
        """Every test of part (WINDOW_TESTS, TERMINAL_TESTS) not reported yet fails."""
        for name in part:
            if name in TESTS[self.number:]:
                self.result(name, False, why)


def tablet_moves(run, node, after):
    """(dx total, dy total, buttons seen) of node's packets from line after."""
    dx = dy = 0
    buttons = []
    for line in run.lines[after:]:
        m = LINE.match(line)
        if m and m.group(1) == node and m.group(3) is not None:
            dx += int(m.group(3))
            dy += int(m.group(4))
            buttons.append(int(m.group(5), 16))
    return dx, dy, buttons


def drive_window(run, build, out, checks):
    ready = run.wait_for(r"^run: the virtio tablet follows the pointer", 300)
    tablet = run.wait_for(r"^watching (/dev/sigmouse\d+) \(QEMU Virtio Tablet\)", 1)
    if not ready or not tablet:
        return checks.rest_not_run("make run never said the tablet follows the pointer",
                                   WINDOW_TESTS)
    tablet = os.path.basename(tablet.group(1))
    found, geometry = find_window()
    checks.result("window_opened", len(found) == 1 and geometry.get("WIDTH") == str(SCREEN_W),
                  f"QEMU's window {geometry.get('WIDTH')}x{geometry.get('HEIGHT')} "
                  f"({len(found)} found)")
    if not found:
        return checks.rest_not_run("no window", WINDOW_TESTS)
    window = found[0]
    menu = int(geometry["HEIGHT"]) - SCREEN_H  # the screen sits under the menu bar
    before = text_rows(screenshot(window, os.path.join(out, "before.png")))

    x, y = START
    xdotool("mousemove", "--window", window, str(x), str(menu + y))
    time.sleep(1)
    mark = run.complete_lines()
    for step_x, step_y in STEPS:
        x, y = x + step_x, y + step_y
        xdotool("mousemove", "--window", window, str(x), str(menu + y))
        time.sleep(0.05)
    xdotool("click", "1")
    want = ((x - START[0]) * ABS_MAX / SCREEN_W, (y - START[1]) * ABS_MAX / SCREEN_H)
    # at most one unit of rounding per packet; the packets: one per step
    deadline = time.monotonic() + 30
    while True:
        dx, dy, buttons = tablet_moves(run, tablet, mark)
        if len(buttons) >= len(STEPS) + 2 or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    slack = len(buttons) + 1
    checks.result("tablet_follows_pointer",
                  abs(dx - want[0]) <= slack and abs(dy - want[1]) <= slack,
                  f"{tablet}: dx {dx:+d} dy {dy:+d} for a path of {x - START[0]:+d},"
                  f"{y - START[1]:+d} px, expected {want[0]:+.0f},{want[1]:+.0f} "
                  f"(within {slack}) in {len(buttons)} packets")
    pressed = [b for b in buttons if b & 1]
    checks.result("click_in_button_state", len(pressed) == 1 and buttons[-1] == 0,
                  f"button states after the path: {[hex(b) for b in buttons[-3:]]}")

    time.sleep(2)
    after = text_rows(screenshot(window, os.path.join(out, "after.png")))
    checks.result("screen_shows_signal_lines", used(before) <= 8 and used(after) >= 20,
                  f"text rows on the guest's screen: {used(before)} before the moves, "
                  f"{used(after)} after (of {SCREEN_H // CELL_H}); {out}/before.png, after.png")
    # the header: what the kernel booted with and the rule stay put while
    # the lines scroll under them, the counts between them change
    booted = run.wait_for(BOOTED, 1)
    kept = before[0] is not None and before[0] == after[0] and before[2] == after[2]
    counted = before[1] != after[1]
    checks.result("screen_header_stays", bool(booted) and kept and counted,
                  f"{'the channel says ' + repr(booted.group(0)) if booted else 'no line ' + BOOTED}"
                  f"; rows 1 and 3 {'unchanged' if kept else 'CHANGED or blank'}, row 2 (the "
                  f"counts) {'changed' if counted else 'UNCHANGED'} over the moves")

    mark = run.complete_lines()
    old = run.wait_for(r"^watching /dev/(sigmouse\d+) \(QEMU Virtio Mouse\)", 1)
    qmp_mouse(build, "unplug", "virtio-mouse")
    hup = run.wait_for(rf"^{old.group(1)} POLL_HUP ", 30, mark) if old else None
    qmp_mouse(build, "plug", "virtio-mouse")
    new = run.wait_for(r"^watching /dev/(sigmouse\d+) \(QEMU Virtio Mouse\) with signal "
                       r"SIGRTMIN\+\d+", 60, mark)
    moved = []
    if new:
        qmp_mouse(build, "move", "virtio-mouse", "5", "-3", "3")
        moved = run.wait_lines(rf"^{new.group(1)} POLL_IN .* dx=5 dy=-3 ", 3, 30, mark)
    checks.result("replugged_mouse_watched", bool(hup and new and len(moved) == 3),
                  f"unplug: {'POLL_HUP' if hup else 'no POLL_HUP'}; plug: "
                  f"{new.group(0) if new else 'never watched'}; moves: "
                  f"{len(moved)} of 3 lines")

    status = run.wait(RUN_SECONDS + 120)
    summaries = [line for line in run.lines if line.startswith("summary ")]
    lost = [line for line in summaries if not re.search(r" lost 0 ", line)]
    checks.result("run_ends_cleanly", status == 0 and summaries and not lost,
                  f"make run exited {status}; {len(summaries)} summaries, "
                  f"{len(lost)} with packets lost")


def qemu_left(build):
    """QEMU processes still running this build's make run."""
    workdir = run_folder(build) + "/"
    left = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except OSError:
            continue
        if argv[0].endswith(b"qemu-system-x86_64") and any(workdir.encode() in a for a in argv):
            left.append(pid)
    return left


def ended_cleanly(run, build, status, mode_before):
    """What is wrong after a person ended make run: (ok, detail)."""
    left = qemu_left(build)
    restored = run.mode() == mode_before
    return (status == 0 and not left and restored,
            f"make run exited {status}; QEMU left: {left or 'none'}; terminal mode "
            f"{'restored' if restored else 'NOT restored'}")


def shell_ready(run, checks, first):
    """Wait for the guest's shell; the first boot's checks say if the
    terminal kept the boot's log to a file until then, and if it answers."""
    if not run.wait_text(PROMPT, 300):
        return False
    if first:
        log = run.wait_for(r"^run: the kernel's log goes to (\S+\.log)", 1)
        lines = run.lines
        banner = next((n for n, line in enumerate(lines) if re.search(SHELL_BANNER, line)),
                      len(lines))
        shown = [line for line in lines[:banner] if KERNEL_LINE.match(line)]
        kept = 0
        if log and os.path.exists(log.group(1)):
            with open(log.group(1), errors="replace") as f:
                kept = sum(1 for line in f if KERNEL_LINE.match(line))
        checks.result("terminal_quiet_until_shell", bool(log) and not shown and kept >= 100,
                      f"kernel log lines on the terminal before the prompt: {len(shown)}; "
                      f"in {log.group(1) if log else 'no file named'}: {kept}")
    mark = len(run.text)
    run.type("echo $((6 * 7))-answered\r")
    answered = run.wait_text(r"\n42-answered\r", 30, mark)
    if first:
        checks.result("terminal_gives_guest_shell", bool(answered),
                      "the guest's shell answered echo $((6 * 7))" if answered else
                      f"no answer; the terminal ended with {run.text[-200:]!r}")
    return bool(answered)


def drive_terminal(version, out, checks, display, copy):
    build = build_folder(version)
    env = dict(os.environ)
    env.pop("DISPLAY", None)
    mode_before = None
    # the first boot: the README's make run, in the copy
    run = Run(version, os.path.join(out, "terminal-poweroff.log"), env, terminal=True,
              readme=copy)
    try:
        mode_before = run.mode()
        if not shell_ready(run, checks, first=True):
            return checks.rest_not_run("no guest shell on the terminal", TERMINAL_TESTS)
        vnc = run.wait_for(r"^run: the guest's screen on VNC at ([\d.]+):(\d+)", 1)
        greeting = b""
        if vnc:
            with socket.create_connection((vnc.group(1), int(vnc.group(2))), timeout=10) as c:
                greeting = c.recv(12)
        checks.result("vnc_on_loopback", bool(vnc) and vnc.group(1) == "127.0.0.1" and
                      greeting.startswith(b"RFB "),
                      f"{vnc.group(0) if vnc else 'no VNC line'}; it greets {greeting!r}")

        ps2 = run.wait_for(r"^watching /dev/(sigmouse\d+) \(ImExPS/2", 1)
        tablet = run.wait_for(r"^watching /dev/(sigmouse\d+) \(QEMU Virtio Tablet\)", 1)
        # a person has half typed a command when the mice move: each guest
        # line still starts a line of its own, and the command runs whole
        offset = len(run.text)
        run.type(f"echo {TYPED}")
        run.wait_text(rf"echo {TYPED}", 30, offset)
        mark = run.complete_lines()
        qmp_mouse(build, "move", "ps2", "7", "-2", "3")
        moves = run.wait_lines(rf"^{ps2.group(1)} POLL_IN .* dx=7 dy=-2 ", 3, 30,
                               mark) if ps2 else []
        # the tablet's first report moves it from the input core's 0,0 to
        # the centre, where qmp_mouse.py's circles start and end
        qmp_mouse(build, "move", "virtio-tablet", "0", "0")
        run.wait_lines(rf"^{tablet.group(1)} POLL_IN ", 1, 30, mark) if tablet else None
        mark = run.complete_lines()
        qmp_mouse(build, "circle", "virtio-tablet", "3000")
        run.wait_lines(rf"^{tablet.group(1)} POLL_IN ", 17, 30, mark) if tablet else None
        dx, dy, packets = tablet_moves(run, tablet.group(1), mark) if tablet else (0, 0, [])
        shown = len(moves)
        checks.result("mice_moved_from_another_terminal",
                      shown == 3 and len(packets) == 16 and dx == dy == 0,
                      f"ps2 moves: {shown} of 3 lines starting a line; the tablet's circle: "
                      f"{len(packets)} packets summing to dx {dx:+d} dy {dy:+d}")
        offset = len(run.text)
        run.type("\r")
        ran = run.wait_text(rf"\n{TYPED}\r", 30, offset)
        checks.result("typing_survives_signal_lines", bool(ran),
                      f"the command typed before the moves, ended after them, "
                      f"{'ran whole' if ran else 'did not run'}")

        # the README's mouse commands from "a second terminal", as written
        ran = run_readme_lines(copy, version, "python3 qemu-scripts/qmp_mouse.py ", 60)
        failed = [f"{line!r} exited {status}: {output.strip()[-120:]}"
                  for line, status, output in ran if status]
        checks.result("newcomer_mouse_commands", bool(ran) and not failed,
                      f"{len(ran) - len(failed)} of {len(ran)} README qmp_mouse.py lines "
                      f"exited 0 (default socket){'; ' if failed else ''}{'; '.join(failed)}")

        run.type("poweroff\r")
        status = run.wait(120)
        checks.result("poweroff_ends_run", *ended_cleanly(run, build, status, mode_before))
    finally:
        run.stop()

    run = Run(version, os.path.join(out, "terminal-ctrl-c.log"), env, terminal=True)
    try:
        mode_before = run.mode()
        if not shell_ready(run, checks, first=False):
            return checks.rest_not_run("no guest shell on the second boot", TERMINAL_TESTS)
        mark = len(run.text)
        run.type("\x03")
        status = run.wait(60)
        ok, detail = ended_cleanly(run, build, status, mode_before)
        # the host ends the run: a guest that powered off saw the key
        guest_off = run.wait_text(r"reboot: Power down", 0, mark)
        checks.result("ctrl_c_ends_run", ok and not guest_off,
                      f"{detail}; the guest {'powered off' if guest_off else 'was stopped'}")
    finally:
        run.stop()

    # a terminal and a window: the window's close button ends it all
    run = Run(version, os.path.join(out, "terminal-close.log"), dict(env, DISPLAY=display),
              terminal=True)
    try:
        mode_before = run.mode()
        if not shell_ready(run, checks, first=False):
            return checks.rest_not_run("no guest shell on the boot with a window",
                                       TERMINAL_TESTS)
        found, _ = find_window()
        if found:
            close_window(found[0])
        status = run.wait(60)
        ok, detail = ended_cleanly(run, build, status, mode_before)
        checks.result("closing_window_ends_run", ok and bool(found),
                      f"{'window closed' if found else 'no window'}; {detail}")
    finally:
        run.stop()


def drive(version, out, checks):
    """The README's commands known, the window's run, the terminal's (its
    first make run the README's), then the README's other commands."""
    build = build_folder(version)
    copy = os.path.join(out, "newcomer")
    copy_repository(copy)
    check_readme_commands(copy, checks)
    xvfb, display = start_xvfb()
    os.environ["DISPLAY"] = display  # for xdotool, xwd and libX11
    run = None
    try:
        env = dict(os.environ, RUN_SECONDS=str(RUN_SECONDS), RUN_HOST_MOVES="0")
        run = Run(version, os.path.join(out, "window.log"), env, terminal=False)
        drive_window(run, build, out, checks)
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        checks.rest_not_run(f"stopped: {e}", WINDOW_TESTS)
    finally:
        if run:
            run.stop()
    try:
        drive_terminal(version, out, checks, display, copy)
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        checks.rest_not_run(f"stopped: {e}", TERMINAL_TESTS)
    finally:
        xvfb.terminate()
        xvfb.wait()
    try:
        check_newcomer_commands(copy, version, checks)
    except (subprocess.SubprocessError, OSError, ValueError) as e:
        checks.rest_not_run(f"stopped: {e}", NEWCOMER_TESTS)
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version_argument(parser)
    args = parser.parse_args()
    out = os.path.join(build_folder(args.version), "person")
    os.makedirs(out, exist_ok=True)

    with open(os.path.join(out, "ktap"), "w") as ktap:
        return drive(args.version, out, Checks(ktap))

if __name__ == "__main__":
    sys.exit(main())
