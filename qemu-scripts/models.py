#!/usr/bin/env python3
"""Model-check the four fasync designs with spin (docs/models/).

Each model (a design on one kernel's owner lifetime) is compiled once;
each property is one run of its pan with the property's ltl claim:
safety mode for the four "always" properties, acceptance cycles (-a)
for no_deadlock. The search is exhaustive within the bounds. A run that
finds a violation keeps its trail in build/models/<bounds>/<model>/ and
the trail is printed as an interleaving of the C functions the model
mirrors. Exit status 1 when any property fails that should hold, holds
that should fail, or a search did not complete. The verdicts also go to
a KTAP file, a result per design, property and kernel
(<design>.<property>.<kernel>: ok when it came as expected), which
run-tests.py counts with the boots' results (make test, make test-all).

    python3 qemu-scripts/models.py [--bounds small|big] [--models DIR] [--out DIR] [--design D]

--models, --out and --design: another copy of the models, another folder
for the trails and the KTAP, and one design's models only (make
mutants' model mutants).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import time

from guest import build_folder

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODELS_DIR = os.path.join(REPO, "docs", "models")
BUILD_DIR = build_folder("models")

# The machine is shared with kernel builds: every tool runs at the lowest priority.
NICE = ["nice", "-n", "19"]

PROPERTIES = [
    ("no_use_after_free", "no use of a freed entry, file, owner, struct pid or wait queue"),
    ("only_own_owner_signalled", "no signal to a process that was never the file's owner"),
    ("fasync_flag_matches_list", "FASYNC set exactly when the file is on the list "
     "(or, after POLLFREE, off the freed queue, and then no wake function runs for it)"),
    ("every_subscriber_signalled", "every subscriber present across an event offered its signal"),
    ("no_deadlock", "no deadlock: every run ends with every process done"),
]
SHORT_NAMES = {
    "no_use_after_free": "no UAF",
    "only_own_owner_signalled": "own owner",
    "fasync_flag_matches_list": "FASYNC",
    "every_subscriber_signalled": "delivery",
    "no_deadlock": "no deadlock",
}

KERNELS = {"6.1": [], "6.12": ["-DKERNEL_612"]}

# (name, model file, defines, properties expected to fail on both kernels, why)
DESIGNS = [
    ("rwlock", "fasync-list.pml", ["-DDESIGN_RWLOCK"], {"no_deadlock"},
     "2.6.0's read_lock() with interrupts on, a queued writer and an event_lock holder in process context"),
    ("rwlock-irq-holder", "fasync-list.pml", ["-DDESIGN_RWLOCK", "-DEVENT_LOCK_HOLDER_IN_IRQ"], set(),
     "the same with the event_lock holder in interrupt context: its read passes the waiting writer"),
    ("rcu-global", "fasync-list.pml", ["-DDESIGN_RCU_GLOBAL"],
     {"no_use_after_free", "only_own_owner_signalled"},
     "the reader uses fa_file of a removed entry: a freed owner or struct pid, or their reuse"),
    ("rcu", "fasync-list.pml", [], set(), "mainline"),
    ("waitqueue", "waitqueue.pml", [], set(), "entry at the head of the poll queue"),
    ("waitqueue-tail", "waitqueue.pml", ["-DTAIL_INSERT"], {"every_subscriber_signalled"},
     "the first version: entry at the tail, behind an exclusive epoll waiter"),
    ("waitqueue-pollfree", "waitqueue.pml", ["-DPOLLFREE"], set(),
     "the queue freed with wake_up_pollfree() and kfree_rcu() while files are subscribed"),
    ("waitqueue-pollfree-no-grace", "waitqueue.pml", ["-DPOLLFREE", "-DPOLLFREE_NO_GRACE"],
     {"no_use_after_free"},
     "the same with kfree() at once: the helper's removal locks the freed queue"),
]

BOUNDS = {
    "small": ([], "two files, two entries (A subscribed, B subscribing), one owner (A's) and "
              "one owner change (B's F_SETOWN by a forked process), two struct pids; "
              "lifetime scenario: a process-context and an interrupt-context reader on CPU 0 "
              "(one event each), a writer subscribing B, the last close of A, the fork + F_SETOWN; "
              "locking scenario: the same two readers, an input task holding event_lock (one event), "
              "the writer"),
    "big": (["-DBIG"], "small, and in both scenarios the writer also changes B's fd through a racing "
            "F_SETFL and then unsubscribes B"),
}

# pan: a deep enough stack for every path here, memory capped so a blow-up fails instead of swapping
PAN_COMPILE_FLAGS = ["-O0", "-DNOFAIR", "-DMEMLIM=2048", "-w"]
PAN_DEPTH = "-m20000"


def run(command, cwd):
    return subprocess.run(NICE + command, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)


def compile_model(models_dir, work_dir, model, defines):
    """spin -a, then gcc: a pan for every claim of the model."""
    for name in os.listdir(models_dir):
        if name.endswith(".pml"):
            shutil.copy(os.path.join(models_dir, name), work_dir)
    spin = run(["spin", "-a"] + defines + [model], work_dir)
    if spin.returncode != 0 or not os.path.exists(os.path.join(work_dir, "pan.c")):
        raise RuntimeError("spin -a %s %s failed:\n%s" % (" ".join(defines), model, spin.stdout))
    gcc = run(["gcc"] + PAN_COMPILE_FLAGS + ["-o", "pan", "pan.c"], work_dir)
    if gcc.returncode != 0:
        raise RuntimeError("gcc pan.c failed:\n%s" % gcc.stdout)


def verify(work_dir, model, claim):
    """One exhaustive search; returns (violated, states, trail path or None)."""
    mode = ["-a"] if claim == "no_deadlock" else []
    trail = os.path.join(work_dir, model + ".trail")
    if os.path.exists(trail):
        os.remove(trail)
    pan = run(["./pan", PAN_DEPTH] + mode + ["-N", claim], work_dir)
    errors = re.search(r"errors: (\d+)", pan.stdout)
    states = re.search(r"(\d+) states, stored", pan.stdout)
    if not errors or not states:
        raise RuntimeError("pan -N %s gave no verdict:\n%s" % (claim, pan.stdout))
    violated = int(errors.group(1)) > 0
    # A clean verdict counts only for a complete search: not cut by depth or memory.
    if not violated and ("max search depth too small" in pan.stdout or
                         "out of memory" in pan.stdout or "Search not completed" in pan.stdout):
        raise RuntimeError("pan -N %s did not complete its search:\n%s" % (claim, pan.stdout))
    kept = None
    if violated:
        kept = os.path.join(work_dir, claim + ".trail")
        os.replace(trail, kept)
    return violated, int(states.group(1)), kept


STEP_LINE = re.compile(r"^\s*\d+:\s+proc\s+\d+ \(([^)]+)\) (\S+) \(state \d+\)\s*(\[.*\])?")
FINAL_PROCESS = re.compile(r"^\s*\d+:\s+proc\s*\d+ \(([^)]+)\)\s+(\S+) \(state\s+\d+\)(.*)$")


def readable_trail(work_dir, claim, trail):
    """Replay a trail with pan and keep the model's own step messages,
    each named by the process (proctype: its CPU and role) that made it;
    for a deadlock, also where each stuck process waits."""
    replay = run(["./pan", "-r", os.path.basename(trail), "-N", claim], work_dir).stdout
    lines = replay.splitlines()
    steps = []
    pending = []
    in_final_state = False
    stuck = []
    # cpu0_task cannot run while the interrupt handler holds its CPU
    cpu0_in_irq_at_end = re.search(r"cpu0_in_irq:\s+1", replay) is not None
    for index, line in enumerate(lines):
        if line.startswith("#processes"):
            in_final_state = True
            continue
        if in_final_state:
            final = FINAL_PROCESS.match(line)
            if claim == "no_deadlock" and final and "invalid end state" in final.group(3) \
                    and final.group(1) != claim:
                waiting_on = lines[index + 1].strip() if index + 1 < len(lines) else ""
                if final.group(1) == "cpu0_task" and cpu0_in_irq_at_end:
                    waiting_on += ", and preempted by cpu0_irq, which holds CPU 0"
                stuck.append("  STUCK %-17s waiting for %s" % (final.group(1), waiting_on))
            continue
        if line.startswith("@ "):
            pending.append(line[2:])
            continue
        if "START OF CYCLE" in line:
            steps.append("  (from here on nothing moves: the run ends with processes stuck)")
            continue
        step = STEP_LINE.match(line)
        if step and pending:
            for message in pending:
                steps.append("  %-17s %s" % (step.group(1), message))
            pending = []
    steps.extend("  %-17s %s" % ("", message) for message in pending)
    return "\n".join(steps + stuck)


def check_model(models_dir, out_dir, bounds, design, kernel):
    name, model, defines, expected_failures, _why = design
    work_dir = os.path.join(out_dir, "%s-%s" % (name, kernel))
    shutil.rmtree(work_dir, ignore_errors=True)
    os.makedirs(work_dir)
    all_defines = defines + KERNELS[kernel] + BOUNDS[bounds][0]
    compile_model(models_dir, work_dir, model, all_defines)
    results = {}
    for claim, _ in PROPERTIES:
        violated, states, trail = verify(work_dir, model, claim)
        text = None
        if trail:
            text = readable_trail(work_dir, claim, trail)
            with open(trail[:-len(".trail")] + ".txt", "w") as out:
                out.write(text + "\n")
        results[claim] = {
            "holds": not violated,
            "expected_holds": claim not in expected_failures,
            "states": states,
            "trail": trail,
            "text": text,
            "command": "cd %s && spin -a %s %s && gcc %s -o pan pan.c && ./pan %s%s -N %s" % (
                os.path.relpath(work_dir, REPO), " ".join(all_defines), model,
                " ".join(PAN_COMPILE_FLAGS), PAN_DEPTH, " -a" if claim == "no_deadlock" else "", claim),
        }
    return results


def write_ktap(path, rows):
    """A result per design, property and kernel: ok when it came as
    expected; a model without a verdict fails all its properties."""
    lines = []
    for design, kernel, results in rows:
        for claim, _ in PROPERTIES:
            name = "%s.%s.%s" % (design[0], claim, kernel)
            if results is None:
                lines.append("not ok %%d %s # no verdict" % name)
                continue
            result = results[claim]
            state = "holds" if result["holds"] else "fails"
            expected = "holds" if result["expected_holds"] else "fails"
            if state == expected:
                lines.append("ok %%d %s" % name)
            else:
                lines.append("not ok %%d %s # %s, expected to %s" % (
                    name, state, expected[:-1] if expected == "holds" else "fail"))
    with open(path, "w") as out:
        out.write("1..%d\n" % len(lines))
        out.writelines(line % number + "\n" for number, line in enumerate(lines, 1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bounds", choices=sorted(BOUNDS), default="small")
    parser.add_argument("--models", default=MODELS_DIR, help="the models' folder")
    parser.add_argument("--out", help="trails and KTAP (default build/models/<bounds>)")
    parser.add_argument("--design", help="only this design's models (a model mutant's)")
    args = parser.parse_args()
    out_dir = args.out or os.path.join(BUILD_DIR, args.bounds)
    os.makedirs(out_dir, exist_ok=True)
    for tool in ("spin", "gcc"):
        if not shutil.which(tool):
            sys.exit("models.py: %s not found (apt-get install spin gcc)" % tool)

    started = time.monotonic()
    print("Bounds (%s): %s." % (args.bounds, BOUNDS[args.bounds][1]))
    print("Models: %s/; trails: %s/\n" % (os.path.relpath(args.models, REPO),
                                          os.path.relpath(out_dir, REPO)))

    rows = []
    unexpected = []
    for design in DESIGNS:
        if args.design and design[0] != args.design:
            continue
        for kernel in KERNELS:
            try:
                results = check_model(args.models, out_dir, args.bounds, design, kernel)
            except RuntimeError as error:
                print("ERROR %s on %s: %s" % (design[0], kernel, error))
                unexpected.append("%s/%s: %s" % (design[0], kernel, "no verdict"))
                rows.append((design, kernel, None))
                continue
            rows.append((design, kernel, results))
            for claim, result in results.items():
                if result["holds"] != result["expected_holds"]:
                    unexpected.append("%s/%s/%s" % (design[0], kernel, claim))

    write_ktap(os.path.join(out_dir, "ktap"), rows)
    rows = [row for row in rows if row[2] is not None]
    for design, kernel, results in rows:
        for claim, result in results.items():
            if result["trail"]:
                verdict = "expected" if not result["expected_holds"] else "UNEXPECTED"
                print("=== %s on %s violates %s (%s): %s" % (
                    design[0], kernel, claim, verdict, os.path.relpath(result["trail"], REPO)))
                print(result["text"])
                print()

    header = ["design", "kernel"] + [SHORT_NAMES[claim] for claim, _ in PROPERTIES] + ["states (max)"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for design, kernel, results in rows:
        cells = []
        for claim, _ in PROPERTIES:
            result = results[claim]
            actual = "holds" if result["holds"] else "FAILS"
            expected = "holds" if result["expected_holds"] else "fails"
            mark = "" if result["holds"] == result["expected_holds"] else " UNEXPECTED"
            cells.append("%s (exp. %s)%s" % (actual, expected, mark))
        states = max(result["states"] for result in results.values())
        print("| " + " | ".join([design[0], kernel] + cells + [str(states)]) + " |")
    print()
    for claim, meaning in PROPERTIES:
        print("  %-12s %s: %s" % (SHORT_NAMES[claim], claim, meaning))
    print("\n%d models, %d runs, %.1f s wall." % (
        len(rows), len(rows) * len(PROPERTIES), time.monotonic() - started))
    if unexpected:
        print("UNEXPECTED: " + ", ".join(unexpected))
        return 1
    print("Every property holds or fails as expected.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
