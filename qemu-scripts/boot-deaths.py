#!/usr/bin/env python3
"""make boot-deaths: how often a guest dies while its kernel patches its
own text, under each of QEMU's TCG modes.

An x86 kernel switches a static key or a tracepoint with text_poke_bp():
an int3 over the first byte, the rest of the new instruction, then the
first byte, syncing every CPU between the steps. A vCPU of QEMU's
multi-threaded TCG that runs a translation of the old bytes across those
steps, or meets the int3 after the kernel's handler has stopped
expecting it, dies with "int3: 0000 [#1]". Seen twice on this kit: a
guest suite that switched the fasync tracepoint under a pipe flood
(docs/findings/int3-tracepoint-switched-under-load.txt), and 6.12's
bench kernel at boot (sched_clock's static key). Whether QEMU or the
kernel is to blame is told by booting the same kernel the same way
under both modes: multi-threaded TCG (one host thread per vCPU, the
kit's default) and single-threaded (one host thread running every vCPU
in turn, where no vCPU runs while another writes code).

Workloads: "churn" runs text-poke-churn (the fasync tracepoint switched
on and off for --text-poke-seconds while every other vCPU floods a subscribed
pipe), "boot" only boots to /init and powers off. The two "wakeups"
workloads switch the same tracepoint while the other vCPUs wake each
other through semaphores and never call kill_fasync(), with tracefs's
recording of task names on (the kernel's default: enabling an event
then hooks the scheduler's wake-up tracepoints too) or off (as init
sets it). Each boot is judged
dead when the kernel reported anything or the guest never reached the
end of its init. The table gives, per mode and workload, the boots, the
deaths and their rate with a 95 % Wilson interval (the boot is the
independent unit), and is written to build/<version>/boot-deaths/results.md.
"""

import argparse
import math
import os
import sys
from concurrent.futures import ThreadPoolExecutor

from guest import BZIMAGE, FLAVOURS, Boot, add_version_argument, build_folder

# mode -> QEMU's -accel value
MODES = {"multi": "tcg,thread=multi", "single": "tcg,thread=single"}
# workload -> (init's sigmouse_run, the command line's rest)
CHURN = "sigmouse_suites=text-poke-churn sigmouse_leak_scan=0 TEXT_POKE_SECONDS={seconds}"
WORKLOADS = {
    "churn": ("test", CHURN),
    "wakeups-record-cmd-on": ("test", CHURN + " TEXT_POKE_LOAD=ping-pong TEXT_POKE_RECORD_CMD=1"),
    "wakeups-record-cmd-off": ("test", CHURN + " TEXT_POKE_LOAD=ping-pong TEXT_POKE_RECORD_CMD=0"),
    "boot": ("probe", ""),
}


def wilson(deaths, boots, z=1.96):
    """95 % Wilson score interval of a rate, as (low, high) fractions."""
    if not boots:
        return 0.0, 1.0
    p = deaths / boots
    centre = (p + z * z / (2 * boots)) / (1 + z * z / boots)
    half = z * math.sqrt(p * (1 - p) / boots + z * z / (4 * boots * boots)) / (1 + z * z / boots)
    return max(0.0, centre - half), min(1.0, centre + half)


def one_boot(args, kernel, initrd, mode, workload, n):
    """Boot once: (mode, workload, why it died or None)."""
    run, rest = WORKLOADS[workload]
    boot = Boot(os.path.join(args.out, f"{mode}-{workload}-{n:03d}"), kernel, initrd, run,
                append=rest.format(seconds=args.text_poke_seconds), smp=args.smp, accel=MODES[mode],
                timeout=args.text_poke_seconds + 300, echo_channel=False)
    boot.start()
    boot.serve()
    reports = boot.reports()
    if reports:
        return mode, workload, reports[0][0].split("] ", 1)[-1]
    if boot.timed_out:
        return mode, workload, f"timeout after {args.text_poke_seconds + 300} s"
    if boot.exit_status is None:
        return mode, workload, "the guest ended before its init did"
    return mode, workload, None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version_argument(parser)
    parser.add_argument("--bzimage", help="the kernel to boot (default: the debug kernel's)")
    parser.add_argument("--boots", type=int, default=20, help="boots per mode and workload")
    parser.add_argument("--text-poke-seconds", type=int, default=20,
                        help="churn per boot (the guest's TEXT_POKE_SECONDS)")
    parser.add_argument("--smp", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2, help="boots at a time, as make test's")
    parser.add_argument("--mode", action="append", choices=MODES)
    parser.add_argument("--workload", action="append", choices=WORKLOADS)
    args = parser.parse_args()
    args.build = build_folder(args.version)
    kernel = args.bzimage or os.path.join(args.build, FLAVOURS["debug"][0], BZIMAGE)
    initrd = os.path.join(args.build, "initramfs.cpio.gz")
    args.out = os.path.join(args.build, "boot-deaths")
    plan = [(mode, workload, n) for workload in args.workload or ("churn", "boot")
            for mode in args.mode or MODES for n in range(1, args.boots + 1)]

    deaths = {}
    with ThreadPoolExecutor(args.jobs) as pool:
        for mode, workload, died in pool.map(lambda p: one_boot(args, kernel, initrd, *p),
                                             plan):
            deaths.setdefault((mode, workload), []).append(died)
            if died:
                print(f"boot-deaths: {mode} {workload}: died: {died}", flush=True)

    lines = [f"# boot-deaths: {os.path.basename(kernel)} of {args.build}, {args.smp} vCPUs, "
             f"{args.jobs} boots at a time, churn {args.text_poke_seconds} s",
             "", "| TCG mode | workload | boots | deaths | rate (95 % interval) | first death |",
             "| --- | --- | ---: | ---: | --- | --- |"]
    for (mode, workload), results in deaths.items():
        dead = [d for d in results if d]
        low, high = wilson(len(dead), len(results))
        lines.append(f"| {mode} | {workload} | {len(results)} | {len(dead)} | "
                     f"{len(dead) / len(results):.0%} ({low:.0%}-{high:.0%}) | "
                     f"{dead[0] if dead else ''} |")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
