#!/usr/bin/env python3
"""make check-node: sigio-check on one node, in one boot of a kernel with
the kit's initramfs, the way vng -r boots a kernel: --bzimage, any kernel
built with the options the guest needs (docs/check-your-driver.md), or by
default the kit's debug kernel of --version. What follows "--" is
sigio-check's command line (guest-apps/sigio-check.c):

    check_node.py --version 6.1 -- --uinput-mouse event
    check_node.py --bzimage ~/linux/arch/x86/boot/bzImage -- --pty

The guest's init first holds the kernel against the options it needs
(/proc/config.gz when the kernel has it, else what the guest can probe)
and names each one missing. Prints the check's KTAP as the guest sends
it, then the closing line "N passed, N failed, N skipped"; exits 1 on a
failed check, a missing option, a boot that did not finish, a plan not
met or no result at all.
"""

import argparse
import os
import shlex
import sys

from guest import (BZIMAGE, DESIGNS, FLAVOURS, Boot, add_version_argument, boot_retrying_death,
                   build_folder, choose_accel)
from ktap import Tally


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version_argument(parser)
    parser.add_argument("--bzimage", help="the kernel to boot (default: the kit's debug kernel)")
    parser.add_argument("--design", default="rcu", choices=DESIGNS,
                        help="fasync_lock= (meaningful on a kernel with the kit's series)")
    parser.add_argument("--timeout", type=int, default=600, help="seconds for the boot")
    parser.add_argument("check", nargs=argparse.REMAINDER,
                        help="-- and sigio-check's arguments")
    args = parser.parse_args()
    check = args.check[1:] if args.check[:1] == ["--"] else args.check
    if not check:
        parser.error("sigio-check's arguments after --, e.g. -- --uinput-mouse event")
    quoted = shlex.join(check)
    # the kernel's command line quotes a value in double quotes, whole
    if '"' in quoted:
        sys.exit("check-node: sigio-check's arguments cannot hold a double quote")

    build = build_folder(args.version)
    kernel = os.path.abspath(args.bzimage) if args.bzimage else os.path.join(
        build, FLAVOURS["debug"][0], BZIMAGE)
    initrd = os.path.join(build, "initramfs.cpio.gz")
    for path, what in ((kernel, "kernel"), (initrd, "initramfs (make initramfs)")):
        if not os.path.isfile(path):
            sys.exit(f"check-node: no {what} at {path}")
    workdir = os.path.join(build, "check-node")
    print(f"check-node: {kernel}: sigio-check {quoted}; the kernel's log goes to "
          f"{os.path.join(workdir, 'console.log')}", flush=True)
    append = " ".join(filter(None, [DESIGNS[args.design], f'sigio_check="{quoted}"']))
    boot, tally, died = boot_retrying_death(
        lambda: Boot(workdir, kernel, initrd, "check", append=append,
                     accel=choose_accel(build, kernel, initrd), timeout=args.timeout),
        Tally)
    if died:
        print(f"check-node: the first boot died before /init ({died}); booted again")
    problems = []
    if boot.timed_out:
        problems.append(f"the boot did not end within {args.timeout} s")
    if tally.missing():
        problems.append(f"{tally.missing()} results of the plan never came")
    problems += tally.irregular()
    for problem in problems:
        print(f"check-node: {problem}")
    # the options the guest found missing, shown above as it sent them
    lacking = any(line.startswith("sigmouse guest: ") for line in boot.channel_lines)
    print(f"{len(tally.passed)} passed, {len(tally.failed)} failed, {len(tally.skipped)} skipped")
    return 1 if tally.failed or problems or lacking or not tally.count() else 0


if __name__ == "__main__":
    sys.exit(main())
