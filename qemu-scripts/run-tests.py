#!/usr/bin/env python3
"""Boot the test kernel, run the guest suite, judge it.

The suite's KTAP comes over the guest channel; QEMU's mice are moved when
the suite asks. A run fails on any failed or missing result, on any
kernel splat in the console, or on a timeout. It ends with the line
"N passed, N failed, N skipped".
"""

import argparse
import os
import sys

from guest import Boot, choose_accel
from ktap import Tally


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--build", default="build")
    parser.add_argument("--timeout", type=int, default=1200, help="seconds for the whole boot")
    parser.add_argument("--smp", type=int, default=2)
    args = parser.parse_args()

    kernel = os.path.join(args.build, "linux/arch/x86/boot/bzImage")
    initrd = os.path.join(args.build, "initramfs.cpio.gz")
    accel = choose_accel(args.build, kernel, initrd)
    workdir = os.path.join(args.build, "test")
    print(f"run-tests: booting {kernel} ({accel}, {args.smp} vCPUs); console in {workdir}/console.log",
          flush=True)

    tally = Tally()
    boot = Boot(workdir, kernel, initrd, "test", smp=args.smp, accel=accel,
                timeout=args.timeout)
    boot.start()
    boot.serve(on_line=tally.feed)

    failures = list(tally.failed)
    if boot.timed_out:
        failures.append(f"timeout: the guest ran past {args.timeout} s")
    if tally.planned is None:
        failures.append("the suite printed no KTAP plan")
    if tally.missing():
        failures.append(f"{tally.missing()} planned results never came")
    if boot.exit_status is None and not boot.timed_out:
        failures.append("the guest stopped before its init finished")
    splats = boot.splats()
    if splats:
        failures.append("kernel splat in the console:\n    " + "\n    ".join(splats[:10]))

    print()
    for failure in failures:
        print(f"FAIL: {failure}")
    passed = len(tally.passed)
    failed = len(tally.failed) + (len(failures) - len(tally.failed))
    print(f"{passed} passed, {failed} failed, {len(tally.skipped)} skipped")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
