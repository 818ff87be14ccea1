#!/usr/bin/env python3
"""Boot the test kernel once per fasync configuration, run the guest suite
in each, and judge it.

The suite's KTAP comes over the guest channel; QEMU's mice are moved when
the suite asks. A configuration fails on any failed or missing result,
any kernel splat in the console, or a timeout, except where
expected-failures.txt names the failure with its reason. The run ends
with a table per configuration and the line "N passed, N failed,
N skipped" over all of them.
"""

import argparse
import os
import sys

from guest import DESIGNS as CONFIGS, Boot, choose_accel
from ktap import Tally
EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected-failures.txt")


def load_expected():
    """config -> [(what, why)], from expected-failures.txt."""
    expected = {}
    with open(EXPECTED) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                config, what, why = (field.strip() for field in line.split(" | ", 2))
                expected.setdefault(config, []).append((what, why))
    return expected


def explain(problem, known):
    """The reason problem is expected in this configuration, or None."""
    for what, why in known:
        kind, _, text = what.partition(": ")
        if kind == "test" and problem == f"not ok: {text}":
            return why
        if kind == "splat" and problem.startswith("splat: ") and text in problem:
            return why
    return None


def run_config(name, append, args, kernel, initrd, accel):
    print(f"# run-tests: {name}: booting ({accel}, {args.smp} vCPUs) with "
          f"'{append or 'defaults'}'; console in {args.build}/test/{name}/console.log",
          flush=True)
    tally = Tally()
    boot = Boot(os.path.join(args.build, "test", name), kernel, initrd, "test",
                append=append, smp=args.smp, accel=accel, timeout=args.timeout)
    boot.start()
    boot.serve(on_line=tally.feed)

    problems = [f"not ok: {t}" for t in tally.failed]
    if boot.timed_out:
        problems.append(f"timeout: the guest ran past {args.timeout} s")
    if tally.planned is None:
        problems.append("the suite printed no KTAP plan")
    if tally.missing():
        problems.append(f"{tally.missing()} planned results never came")
    if boot.exit_status is None and not boot.timed_out:
        problems.append("the guest stopped before its init finished")
    # one problem per report: its first line; a trace with no header is one too
    headers = [line for line in boot.splats() if "Call Trace:" not in line]
    if not headers and boot.splats():
        headers = boot.splats()[:1]
    problems += [f"splat: {line}" for line in headers]
    return tally, problems


def check_bad_options(args, kernel, initrd, accel):
    """Unknown values on the command line: said at boot, defaults kept."""
    print("# run-tests: bad-options: booting with fasync_lock=bogus sigmouse.notify=bogus",
          flush=True)
    boot = Boot(os.path.join(args.build, "test", "bad-options"), kernel, initrd, "probe",
                append="fasync_lock=bogus sigmouse.notify=bogus", smp=args.smp,
                accel=accel, timeout=args.timeout, echo_channel=False)
    boot.start()
    boot.serve()
    wanted = ("fasync: unknown fasync_lock=bogus, keeping rcu", "fasync: fasync_lock=rcu",
              "`bogus' invalid for parameter `sigmouse.notify'")
    problems = [f"no \"{w}\" in the console" for w in wanted
                if not any(w in line for line in boot.console_lines)]
    if boot.exit_status != 0:
        problems.append("the guest did not reach /init")
    problems += [f"splat: {line}" for line in boot.splats()[:1]]
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default="build")
    parser.add_argument("--config", action="append", choices=CONFIGS,
                        help="run only this configuration (repeatable)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds for one boot")
    parser.add_argument("--smp", type=int, default=2)
    args = parser.parse_args()

    kernel = os.path.join(args.build, "linux/arch/x86/boot/bzImage")
    initrd = os.path.join(args.build, "initramfs.cpio.gz")
    accel = choose_accel(args.build, kernel, initrd)
    expected = load_expected()

    rows, unexpected, passed, skipped = [], [], 0, 0
    for name in args.config or CONFIGS:
        tally, problems = run_config(name, CONFIGS[name], args, kernel, initrd, accel)
        known = expected.get(name, [])
        verdicts = [(p, explain(p, known)) for p in problems]
        xfail = [(p, why) for p, why in verdicts if why]
        fresh = [p for p, why in verdicts if not why]
        unexpected += [f"{name}: {p}" for p in fresh]
        for p, why in xfail:
            print(f"# run-tests: {name}: expected failure: {p}\n#   why: {why}")
        passed += len(tally.passed)
        skipped += len(tally.skipped)
        rows.append((name, len(tally.passed), len(tally.failed), len(tally.skipped), len(xfail),
                     "FAIL" if fresh else ("xfail" if xfail else "pass")))

    problems = check_bad_options(args, kernel, initrd, accel)
    unexpected += [f"bad-options: {p}" for p in problems]
    passed += not problems
    rows.append(("bad-options", int(not problems), int(bool(problems)), 0, 0,
                 "FAIL" if problems else "pass"))

    print()
    print(f"{'config':<12} {'passed':>6} {'failed':>6} {'skipped':>7} {'xfail':>5}  result")
    for row in rows:
        print(f"{row[0]:<12} {row[1]:>6} {row[2]:>6} {row[3]:>7} {row[4]:>5}  {row[5]}")
    print()
    for u in unexpected:
        print(f"FAIL: {u}")
    # every unexplained problem is one failure: a test, a splat, a timeout
    print(f"{passed} passed, {len(unexpected)} failed, {skipped} skipped")
    return 1 if unexpected else 0


if __name__ == "__main__":
    sys.exit(main())
