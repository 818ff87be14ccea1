#!/usr/bin/env python3
"""make bench: how much time the fasync designs spend in kill_fasync().

Boots, each running guest-apps/bench.sh with the sections it is given:
  main        ROUNDS rounds of stock (the control: same config, no
              patches, no sigmouse) and the patched kernel under each
              design, each round a block in its own random order (seeded,
              --seed): the pipe load with a whole tick profile
              (profile=0, one counter per byte of kernel text) and its
              own count of kill_fasync() calls per run, each pipe's ends
              on two CPUs ("cross") and on one ("local": the CPUs share
              only a global lock's word), ftrace's count once per boot as
              a check, readprofile against kprofile on one snapshot, then
              fan-out and the evdev peer
  curves      in the first CURVE_ROUNDS rounds, the cross-CPU pipe load
              again with 0, 1, 4, 16 and 64 subscribers on each read
              side's fasync list, a profile a point, and the open-loop
              load (pipe-paced) at each offered rate of --rates, then
              again with ftrace's function profiler timing every
              kill_fasync() call
  vCPUs       VCPU_ROUNDS rounds of the same kernels with each count of
              --vcpus (default 1), the pipe load only: with one, the
              uncontended cost, whose difference from the local load on
              --smp vCPUs is what sharing the lock line costs
  paths       a boot of each kernel on one vCPU with the TCG plugin
              that counts every kill_fasync() call's instructions
              (path_lengths.py), beside the disassembly's count
  anchor      the same read-side program on the host and in the guest,
              and cacheline-pingpong: what moving one cache line between
              two CPUs costs, on each
Every boot records the host's load average and the share of its CPU
time stolen by the hypervisor while it ran. A run is put in a regime by
its wait-queue share (ticks in prepare_to_wait_event() of the busy
ticks): "sleeping" pipes wait on their wait queue, "spinning" ones do
not, and the two cost differently; tables give the regimes apart.
Ratios are within this one run, with 95 % bootstrap intervals that
resample boots (a boot's runs share its state: the pipe's regime, the
host's load), each boot with all its runs. Results go to build/<version>/bench/: runs.csv, results.md, the raw
profiles (profiles/), diffprofile tables and PNG plots (gnuplot).

--ablations (make bench-ablations) runs none of that: it builds each
patch of driver/ablations/ into the bench kernel in turn (kernel_variant,
as make mutants builds a mutant) and boots every kernel, the kit's too,
--rounds times on --smp vCPUs and on one in random blocks, the evdev peer
alone; the kit on --smp also with writer and receiver pinned together
and apart. Its results (build/<version>/bench-ablations/) give
evdev/sigmouse per kernel and each against the kit.

--versions VERSION... boots nothing: it puts the kernels' finished runs side
by side (make bench, both kernels), each design's pipe load against the
stock control of its own kernel's run, and writes that table (--out,
default build/bench-kernels.md); --runs-from DIR reads kept runs'
DIR/<version>/runs.csv instead (docs/bench), or DIR/runs.csv, a folder
holding one kernel's run.
"""

import argparse
import csv
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

import kernel_variant
import path_lengths
from guest import (BENCH_CLOCK, BZIMAGE, DEFAULT_VERSION, DESIGNS, Boot, add_version_argument, build_folder,
                   choose_accel, kernel_reports, tree_of)

# the kill_fasync() time: its own, each design's walk, and the lock
# functions it calls out of line (bench.sh checks they exist)
LOCK_HELPERS = ("_raw_read_lock", "queued_read_lock_slowpath")
# The modes, all QEMU's multi-threaded TCG, where locked operations are
# the host's own atomics: "mttcg", the main rounds with --smp vCPUs, and
# "mttcg-<n>cpu", the pipe load's rounds with n vCPUs for each n of
# --vcpus; with one vCPU no cache line moves between CPUs.
# (Single-threaded TCG and -icount once ran here too, and are gone:
# single-threaded TCG has no parallel atomics at all, and icount's
# "instructions" were a periodic tick sampling a periodic loop, fewer
# than the path has: docs/bench.md keeps them as negative results.)
MAIN_MODE = "mttcg"
VCPU_MODE = re.compile(r"^mttcg-(\d+)cpu$")
# the driver's variants make bench-ablations measures against it ("kit")
ABLATIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "driver", "ablations")
KIT = "kit"
# fanout-bench's placements of writer and receiver
PINS = ("none", "together", "apart")
# a boot's folder: <number>-<mode>-<design>
BOOT_FOLDER = re.compile(r"^(\d+)-(mttcg(?:-\d+cpu)?)-(.+)$")


def vcpu_mode(n):
    return f"mttcg-{n}cpu"


def mode_vcpus(mode, smp):
    """The vCPUs a mode's boots have (smp: the main rounds')."""
    m = VCPU_MODE.match(mode)
    return int(m.group(1)) if m else smp


def ordered_modes(modes):
    """The main mode first, then the others by their vCPUs."""
    return sorted(set(modes), key=lambda m: (m != MAIN_MODE, mode_vcpus(m, 0)))
BOOTSTRAP = 2000
# a run whose busy ticks are at least this share (%) in
# prepare_to_wait_event() runs its pipes sleeping on their wait queues
# (the kept runs: about 10 % against under 2.4 % in every other run)
SLEEPING_WQ_SHARE = 5.0


def parse(line):
    """'word k=v k=v' -> (word, {k: v}); numbers become floats."""
    word, *pairs = line.split()
    fields = {}
    for pair in pairs:
        key, _, value = pair.partition("=")
        try:
            fields[key] = float(value)
        except ValueError:
            fields[key] = value
    return word, fields


class BootResult:
    """What one boot measured."""

    def __init__(self, mode, design, number, hz):
        self.mode, self.design, self.number, self.hz = mode, design, number, hz
        self.pipe = []       # one dict per pipe-load run, with its profile
        self.curve = []      # the same, of the curve's points
        self.profile_check = {"kprofile": {}, "readprofile": {}}
        self.host = {}
        self.calls_check = None
        self.anchor = []
        self.pingpong = []
        self.fanout = []
        self.rate = []       # one dict per offered rate of the open-loop load
        self.rate_ftrace = []  # the same, its kill_fasync() calls timed by ftrace
        self.errors = []
        self.section = None

    def feed(self, line):
        if not line or line.startswith("#"):
            return
        word, fields = parse(line)
        if word == "section":
            self.section = line.split()[1]
        elif word == "pipe-load" and self.section in ("pipe", "curve"):
            self.profiled().append(dict(fields, symbols={}))
        elif word == "pipe-load" and self.section == "calls":
            self.calls_check = {"estimated": fields["calls"]}
        elif word == "ftrace" and self.calls_check:
            self.calls_check["ftrace"] = fields["kill_fasync"]
        elif word == "kprofile" and self.section in ("pipe", "curve") and self.profiled():
            self.profiled()[-1].update(ticks=fields["total"], step=fields["step"])
        elif word == "ksyms" and self.section in ("pipe", "curve") and self.profiled():
            self.profiled()[-1]["symbols"].update(fields)
        elif word in ("kprofile", "ksyms") and self.section in ("peer", "fanout") \
                and self.fanout:
            self.fanout[-1].setdefault("symbols", {}).update({} if word == "kprofile" else fields)
        elif word == "ksyms" and self.section == "readprofile":
            self.profile_check["kprofile"].update(fields)
        elif word == "readprofile" and self.section == "readprofile":
            self.profile_check["readprofile"].update(fields)
        elif word == "host":
            self.host = fields
        elif word == "anchor":
            self.anchor.append(fields)
        elif word == "pingpong":
            self.pingpong.append(fields["ns_per_transfer"])
        elif word == "pipe-paced" and self.section == "rate":
            self.rate.append(fields)
        elif word == "pipe-paced" and self.section == "rate-ftrace":
            self.rate_ftrace.append(fields)
        elif word == "ftrace" and self.section == "rate-ftrace" and self.rate_ftrace:
            self.rate_ftrace[-1].update(calls=fields["kill_fasync"], time_ns=fields["time_ns"],
                                        ns_per_call=fields["time_ns"] / fields["kill_fasync"]
                                        if fields["kill_fasync"] else None)
        elif word == "fanout":
            fields.setdefault("pin", "none")
            fields["section"] = self.section
            fields["tick_ns"] = 1e9 / self.hz
            self.fanout.append(fields)
        elif word == "latency_hist" and self.fanout:
            self.fanout[-1]["hist"] = fields.get("us", "")
        elif word == "bench-error":
            self.errors.append(line)


    def profiled(self):
        """The profiled runs of the section being read."""
        return self.curve if self.section == "curve" else self.pipe


def idle_ticks(symbols):
    """The idle loop's ticks: a CPU waiting for work, not serving calls."""
    return sum(n for name, n in symbols.items() if "idle" in name)


def kf_ticks(symbols):
    return sum(n for name, n in symbols.items()
               if name.startswith("kill_fasync") or name in LOCK_HELPERS)


def fasync_ticks(symbols):
    """Ticks in every function named for fasync or SIGIO (the walk,
    send_sigio() and its helpers) and in the lock helpers."""
    return sum(n for name, n in symbols.items()
               if "fasync" in name or "sigio" in name or name in LOCK_HELPERS)


def pipe_rows(boots, curve=False):
    """One row per profiled pipe run (with curve, per point of the
    curve): ns per kill_fasync() call, its own and with the whole kernel,
    from ticks of 1/HZ s; its placement and its regime."""
    rows = []
    for b in boots:
        tick_ns = 1e9 / b.hz
        for i, r in enumerate(b.curve if curve else b.pipe):
            if "ticks" not in r or not r["calls"]:
                continue
            k = kf_ticks(r["symbols"])
            busy = r["ticks"] - idle_ticks(r["symbols"])
            wq_share = 100.0 * r["symbols"].get("prepare_to_wait_event", 0) / busy if busy else 0
            rows.append({"mode": b.mode, "design": b.design, "boot": b.number, "run": i + 1,
                         "placement": r.get("placement", "cross"), "wq_share": wq_share,
                         "regime": "sleeping" if wq_share >= SLEEPING_WQ_SHARE else "spinning",
                         "writes_per_s": r["writes_per_s"], "calls": r["calls"],
                         "kernel_ticks": r["ticks"], "kf_ticks": k,
                         "kf_share": 100.0 * k / busy if busy else 0,
                         "kf_ns_per_call": k * tick_ns / r["calls"],
                         "subscribers": r.get("subscribers", 0),
                         "fasync_ns_per_call": fasync_ticks(r["symbols"]) * tick_ns / r["calls"],
                         "kernel_ns_per_call": busy * tick_ns / r["calls"],
                         "symbols": r["symbols"]})
    return rows


def chosen(r, mode, design, placement, regime):
    """Whether a row is of mode and design, of the placement (rows of
    runs before placements were cross) and, unless None, of the regime."""
    return (r["mode"] == mode and r["design"] == design
            and (r.get("placement") or "cross") == placement
            and regime in (None, r.get("regime")))


def select(rows, mode, design, key, placement="cross", regime=None):
    return [r[key] for r in rows if chosen(r, mode, design, placement, regime)]


def select_boots(rows, mode, design, key, placement="cross", regime=None):
    """select()'s values grouped by boot, [[one boot's runs], ...]: the
    unit the intervals resample."""
    boots = {}
    for r in rows:
        if chosen(r, mode, design, placement, regime):
            boots.setdefault(r["boot"], []).append(r[key])
    return list(boots.values())


# below this many boots of a design, a bootstrap over boots has too few
# distinct resamples for its interval to mean much: the tables say so
FEW_BOOTS = 8


def few_boots_note(counts):
    """A line for tables whose designs had fewer than FEW_BOOTS boots."""
    if counts and min(counts) < FEW_BOOTS:
        return [f"({min(counts)} to {max(counts)} boots a design: an interval that resamples "
                f"fewer than {FEW_BOOTS} boots is rough, often too narrow.)"]
    return []


def pooled(boots):
    return [v for runs in boots for v in runs]


def interval(values):
    """The 95 % percentile interval of bootstrap replicates."""
    values = sorted(values)
    return values[int(0.025 * len(values))], values[int(0.975 * len(values)) - 1]


def resample(statistic, samples, rng):
    """statistic(*samples) and its 95 % percentile interval over
    replicates that resample each sample's boots (a sample: a list of
    boots, each a list of values); a replicate whose statistic is None
    is left out."""
    point = statistic(*samples)
    replicates = (statistic(*(rng.choices(s, k=len(s)) for s in samples))
                  for _ in range(BOOTSTRAP))
    return (point, *interval(r for r in replicates if r is not None))


def mean_of(boots):
    return statistics.mean(pooled(boots))


def bootstrap_ratio(a, b, rng):
    """mean(b) / mean(a) over all runs, and its 95 % interval resampling
    each side's boots (a, b: select_boots()); one boot a side gives no
    spread, which is what one boot can say."""
    if not pooled(a) or not pooled(b) or not mean_of(a):
        return None
    return resample(lambda a, b: mean_of(b) / mean_of(a) if mean_of(a) else None, (a, b), rng)


def bootstrap_difference(a, b, rng):
    """mean(b) - mean(a) over all runs, and its 95 % interval resampling
    each side's boots, as bootstrap_ratio()."""
    if not pooled(a) or not pooled(b):
        return None
    return resample(lambda b, a: mean_of(b) - mean_of(a), (b, a), rng)


def bootstrap_mean(boots, rng):
    """The mean of values grouped by boot, and its 95 % interval
    resampling boots."""
    return resample(mean_of, (boots,), rng)


def precision(boots, rng, target=0.10):
    """(boots, the 95 % half-width of the mean as a fraction of it, the
    boots a half-width of target would take) of one design's values
    grouped by boot: the spread between boots, resampled by boot."""
    if len(boots) < 2 or not statistics.mean(pooled(boots)):
        return None
    mean, low, high = bootstrap_mean(boots, rng)
    half = (high - low) / 2 / mean
    return len(boots), half, math.ceil(len(boots) * (half / target) ** 2)


def fmt_reduction(r):
    """A ratio b/a as 'X % less (interval)'."""
    if r is None:
        return "n/a"
    point, lo, hi = r
    word = "less" if point <= 1 else "more"
    sign = 1 if point <= 1 else -1
    low, high = sorted((sign * 100 * (1 - hi), sign * 100 * (1 - lo)))
    return f"{sign * 100 * (1 - point):.0f} % {word} (95 %: {low:.0f} to {high:.0f} %)"


def fmt_ratio(r):
    if r is None:
        return "n/a"
    point, lo, hi = r
    return f"{point:.3f} (95 %: {lo:.3f}-{hi:.3f})"


def mean_sd(values):
    if not values:
        return "n/a"
    if len(values) == 1:
        return f"{values[0]:.1f}"
    return f"{statistics.mean(values):.1f} ± {statistics.stdev(values):.1f}"


def diffprofile(rows, mode, a, b, top=15):
    """Per function, mean ticks per million calls in b minus in a: where
    the difference between two designs goes, whatever the attribution."""
    def per_million(design):
        runs = [r for r in rows if r["mode"] == mode and r["design"] == design]
        totals = {}
        for r in runs:
            for name, n in r["symbols"].items():
                totals[name] = totals.get(name, 0) + 1e6 * n / r["calls"] / len(runs)
        return totals
    pa, pb = per_million(a), per_million(b)
    diffs = sorted(((pb.get(n, 0) - pa.get(n, 0), n) for n in set(pa) | set(pb)),
                   key=lambda d: -abs(d[0]))
    total = sum(d for d, _ in diffs)
    lines = [f"| function | {a} | {b} | {b} - {a} |", "| --- | --- | --- | --- |"]
    lines += [f"| {n} | {pa.get(n, 0):.1f} | {pb.get(n, 0):.1f} | {d:+.1f} |" for d, n in diffs[:top]]
    lines.append(f"| (all functions) | {sum(pa.values()):.1f} | {sum(pb.values()):.1f} | {total:+.1f} |")
    return lines


def anchor_summary(runs, label):
    """ns per operation by workload and mode; the rwlock's extra per op."""
    out = {}
    for workload in ("pipe", "tight"):
        ns = {m: [a["ns_per_op"] for a in runs if a["workload"] == workload and a["mode"] == m]
              for m in ("rwlock", "rcu")}
        if ns["rwlock"] and ns["rcu"]:
            out[workload] = (statistics.median(ns["rwlock"]), statistics.median(ns["rcu"]))
    return [f"| {label} | {w} | {rw:.1f} | {rc:.1f} | {rw - rc:.1f} |"
            for w, (rw, rc) in out.items()], out


def fanout_runs(boots, design, section, **match):
    return [f for b in boots if b.design == design and b.mode == "mttcg"
            for f in b.fanout if f["section"] == section and
            all(f.get(k) == v for k, v in match.items())]


def peer_logs(boots, pin):
    """[[log(evdev's packets/s over sigmouse's) of each order pair of a
    boot's peer runs at the placement pin], ...], a list per boot."""
    logs = []
    for b in boots:
        sm = [f for f in b.fanout if f["section"] == "peer" and f["node"] == "sigmouse"
              and f["pin"] == pin]
        ev = [f for f in b.fanout if f["section"] == "peer" and f["node"] == "evdev"
              and f["pin"] == pin]
        pairs = [math.log(e["packets_per_s"] / s["packets_per_s"])
                 for s, e in zip(sm, ev) if s["packets_per_s"] and e["packets_per_s"]]
        if pairs:
            logs.append(pairs)
    return logs


def peer_ratio(logs):
    """evdev over sigmouse: the geometric mean of peer_logs()' pairs."""
    return math.exp(statistics.mean(pooled(logs)))


def fmt_peer(logs, rng):
    point, low, high = resample(peer_ratio, (logs,), rng)
    return (f"{point:.2f} (95 %: {low:.2f}-{high:.2f}, "
            f"{len(pooled(logs))} pairs in {len(logs)} boots)")


def per_packet(runs, ticks):
    """ns per packet of the profiled fan-out runs, ticks(symbols) each."""
    return [ticks(f["symbols"]) * f["tick_ns"] / f["packets"] for f in runs
            if f.get("symbols") and f["packets"]]


def quartiles(values):
    """(first quartile, median, third quartile)."""
    q1, median, q3 = statistics.quantiles(values, n=4, method="inclusive")
    return q1, median, q3


def curve_points(curve, design):
    """{subscribers: [[one boot's runs' rows], ...]} of a design's curve."""
    points = {}
    for r in curve:
        if r["design"] == design:
            points.setdefault(r["subscribers"], {}).setdefault(r["boot"], []).append(r)
    return {n: list(by_boot.values()) for n, by_boot in sorted(points.items())}


def curve_table(boots, rng):
    """Cost per call against the fasync list's length."""
    curve = pipe_rows(boots, curve=True)
    if not curve:
        return []
    lines = ["", "## Cost against the fasync list's length (cross-CPU pipe load, mttcg)", "",
             "Each read side's fasync list holds N subscribers (open files of the pipe, owned",
             "by the load, which ignores SIGIO): the writes' calls walk them, the reads' an",
             "empty list, so a walked call costs about twice a call's increase. kill_fasync:",
             "as above; fasync: every function named for fasync or SIGIO (send_sigio() and",
             "its helpers) and the lock helpers; busy kernel: every tick outside the idle",
             "loop. Means over the point's runs, the busy kernel's 95 % interval resampling",
             "boots (plotted in curve-subscribers.png).", "",
             "| design | subscribers | boots | kill_fasync ns/call | fasync ns/call "
             "| busy kernel ns/call (95 %) |", "| --- | --- | --- | --- | --- | --- |"]
    for d in ["stock"] + list(DESIGNS):
        for n, by_boot in curve_points(curve, d).items():
            rows = pooled(by_boot)
            busy = bootstrap_mean([[r["kernel_ns_per_call"] for r in b] for b in by_boot], rng)
            lines.append(f"| {d} | {n:.0f} | {len(by_boot)} "
                         f"| {statistics.mean(r['kf_ns_per_call'] for r in rows):.1f} "
                         f"| {statistics.mean(r['fasync_ns_per_call'] for r in rows):.1f} "
                         f"| {busy[0]:.0f} ({busy[1]:.0f}-{busy[2]:.0f}) |")
    return lines


def rate_points(boots, design, timed=False):
    """{offered writes/s: [[a boot's run], ...]} of a design's open-loop
    sweep, each run pipe-paced's fields; timed: the sweep whose
    kill_fasync() calls ftrace timed, its runs with a time."""
    points = {}
    for b in boots:
        if b.design == design and b.mode == "mttcg":
            for r in b.rate_ftrace if timed else b.rate:
                if not timed or r.get("ns_per_call"):
                    points.setdefault(r["rate"], []).append([r])
    return dict(sorted(points.items()))


def rate_cells(boots, rng, key, timed=False):
    """Per design and offered rate of the sweep (timed: rate_points()'),
    (design, rate, its runs by boot, its runs, the mean of key with its
    95 % interval resampling boots, its difference from stock's as a
    cell, "-" for stock)."""
    stock = rate_points(boots, "stock", timed)
    for d in ["stock"] + list(DESIGNS):
        for rate, by_boot in rate_points(boots, d, timed).items():
            values = [[r[key] for r in b] for b in by_boot]
            mean = bootstrap_mean(values, rng)
            extra = bootstrap_difference([[r[key] for r in b] for b in stock[rate]], values,
                                         rng) if d != "stock" and rate in stock else None
            cell = f"{extra[0]:+.0f} ({extra[1]:+.0f} to {extra[2]:+.0f})" if extra else "-"
            yield d, rate, by_boot, pooled(by_boot), mean, cell


def rate_table(boots, rng):
    """Cost per write against the offered rate, and each design's extra
    over stock at that rate."""
    if not any(b.rate for b in boots):
        return []
    lines = ["", "## Cost against the event rate (open-loop pipe load, mttcg)", "",
             "pipe-paced: a writer on CPU 0 offers the rate's one-byte writes on a fixed",
             "schedule, a reader on CPU 1 drains, nobody subscribed; each write() is timed",
             "from user space (one kill_fasync() call on the write, one on the read). Median",
             "write() ns: mean of the boots' medians, 95 % interval resampling boots; minus",
             "stock: the same median's difference from the stock kernel's at that rate (its",
             "interval resampling both sides' boots). Achieved below offered: the guest could",
             "not keep the schedule (plotted in rate.png).", "",
             "| design | offered writes/s | boots | achieved writes/s | median write() ns (95 %) "
             "| minus stock, ns (95 %) | p90 write() ns |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    for d, rate, by_boot, runs, median, extra in rate_cells(boots, rng, "median_ns"):
        lines.append(f"| {d} | {rate:.0f} | {len(by_boot)} "
                     f"| {statistics.mean(r['achieved'] for r in runs):.0f} "
                     f"| {median[0]:.0f} ({median[1]:.0f}-{median[2]:.0f}) | {extra} "
                     f"| {statistics.mean(r['p90_ns'] for r in runs):.0f} |")
    if not any(b.rate_ftrace for b in boots):
        return lines
    lines += ["", "The same rates again, ftrace's function profiler timing every kill_fasync()",
              "call from entry to return (callees included; the profiler's own cost inside",
              "the call too, the same on every kernel, so the differences from stock are the",
              "designs'): ns per call, mean of the boots' (each its time over its calls), 95 %",
              "interval resampling boots; plotted in rate-kill-fasync.png.", "",
              "| design | offered writes/s | boots | achieved writes/s | calls a boot "
              "| ns per kill_fasync() call (95 %) | minus stock, ns (95 %) |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for d, rate, by_boot, runs, ns, extra in rate_cells(boots, rng, "ns_per_call", timed=True):
        lines.append(f"| {d} | {rate:.0f} | {len(by_boot)} "
                     f"| {statistics.mean(r['achieved'] for r in runs):.0f} "
                     f"| {statistics.mean(r['calls'] for r in runs):.0f} "
                     f"| {ns[0]:.0f} ({ns[1]:.0f}-{ns[2]:.0f}) | {extra} |")
    # waitqueue and rcu boot one image, and the pipe's calls are the same
    # on both: a difference between them is the boots', not a design's
    rcu, waitqueue = (rate_points(boots, d, timed=True) for d in ("rcu", "waitqueue"))
    control = []
    for rate in sorted(set(rcu) & set(waitqueue)):
        point, low, high = bootstrap_difference(
            [[r["ns_per_call"] for r in b] for b in rcu[rate]],
            [[r["ns_per_call"] for r in b] for b in waitqueue[rate]], rng)
        control.append(f"{rate:.0f}: {point:+.0f} ({low:+.0f} to {high:+.0f})")
    if control:
        lines += ["", "The same-image control, waitqueue minus rcu, ns per call at each offered "
                      "rate (95 %): " + "; ".join(control) + ". Design differences no larger "
                      "than these are the boots' spread."]
    return lines


def vcpu_points(rows, design, smp):
    """{vCPUs: [[a boot's runs' kill_fasync() ns per call], ...]} of a
    design's local pipe load in every mode (smp: the main mode's)."""
    points = {}
    for mode in ordered_modes(r["mode"] for r in rows):
        by_boot = select_boots(rows, mode, design, "kf_ns_per_call", "local")
        if by_boot:
            points[mode_vcpus(mode, smp)] = by_boot
    return dict(sorted(points.items()))


def vcpu_table(rows, designs, smp, rng):
    """kill_fasync() ns per call against vCPUs, when boots had two
    counts or more."""
    counts = sorted({n for d in designs for n in vcpu_points(rows, d, smp)})
    if len(counts) < 2:
        return []
    lines = ["", "## Cost against vCPUs (local pipe load)", "",
             "A writer/reader pair per vCPU, each pair's ends on one CPU: kill_fasync() ns",
             "per call, mean of the boots, 95 % interval resampling boots (plotted in",
             "vcpus.png). Each vCPU is a host thread: counts past the host's cores measure",
             "its scheduler, not the kernel.", "",
             "| design | " + " | ".join(f"{n} vCPU{'s' if n > 1 else ''}" for n in counts) + " |",
             "| --- |" + " --- |" * len(counts)]
    for d in designs:
        points = vcpu_points(rows, d, smp)
        cells = [bootstrap_mean(points[n], rng) if n in points else None for n in counts]
        lines.append(f"| {d} | " + " | ".join(f"{m[0]:.1f} ({m[1]:.1f}-{m[2]:.1f})" if m else "-"
                                              for m in cells) + " |")
    return lines


def line_transfers(boots, host_pingpong, extra):
    """What moving a cache line costs on the host and in the guest, and
    the rwlock's contended extra (ns) in those transfers."""
    guest = [ns for b in boots for ns in b.pingpong]
    lines = ["", "## What moving a cache line costs (cacheline-pingpong, ns per transfer)", "",
             "Two threads on two CPUs hand one word back and forth; each round's time over",
             "its handovers. The host is itself a virtual machine: its spread is part of the",
             "figure.", "", "| machine | rounds | median | interquartile range |",
             "| --- | --- | --- | --- |"]
    medians = {}
    for label, values in (("host", host_pingpong), ("guest (TCG)", guest)):
        if len(values) >= 2:
            q1, medians[label], q3 = quartiles(values)
            lines.append(f"| {label} | {len(values)} | {medians[label]:.1f} | {q1:.1f}-{q3:.1f} |")
    if extra and medians:
        lines += ["", f"The rwlock's contended extra per kill_fasync() call, {extra[0]:.1f} ns "
                      f"(95 %: {extra[1]:.1f} to {extra[2]:.1f}), is "
                  + " and ".join(f"{extra[0] / m:.1f} of the {label}'s line transfers"
                                 for label, m in medians.items() if m) + "."]
    return lines


def summarize(boots, host_anchor, args, rng, out, host_pingpong=(), paths=()):
    rows = pipe_rows(boots)
    md = [f"# make bench results: Linux {args.version}", "",
          f"Command: `{args.command}`; {args.rounds} rounds ({args.vcpu_rounds} more with "
          f"{' and '.join(map(str, args.vcpus))} vCPU{'s' if args.vcpus != [1] else ''}), seed {args.seed}, {args.runs} pipe-load runs of each placement "
          f"of {args.pipe_seconds:g} s per boot, {args.smp} vCPUs, QEMU's multi-threaded TCG, "
          f"HZ={boots[0].hz if boots else '?'}, profile=0.", "",
          "Each pipe run's kill_fasync() time is the profile's ticks in kill_fasync(), the",
          "design's walk and the out-of-line lock helpers (" + ", ".join(LOCK_HELPERS) + "),",
          "times the tick length, over the run's own count of calls (pipe-load: writes +",
          "reads + sleeps, checked against ftrace once per boot). 'kernel ns per call' is",
          "every kernel tick outside the idle loop (functions named *idle*) over the same",
          "calls: attribution cannot hide a cost there. Shares are of those busy ticks.",
          "Intervals: 95 % bootstrap resampling boots, each with all its runs (a boot's",
          "runs share its state), so a design's boot count is its sample size.", ""]

    md += ["## Pipe load (nobody subscribed): ns per kill_fasync() call", "",
           "| mode | placement | design | runs (spinning, sleeping) | writes/s | kill_fasync % of busy kernel ticks | kill_fasync ns/call | busy kernel ns/call |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    modes = ordered_modes(r["mode"] for r in rows)
    designs = [d for d in ["stock"] + list(DESIGNS) if any(r["design"] == d for r in rows)]
    placements = [p for p in ("cross", "local")
                  if any((r.get("placement") or "cross") == p for r in rows)]
    for mode in modes:
        for placement in placements:
            for d in designs:
                def values(key):
                    return select(rows, mode, d, key, placement)
                if not values("calls"):
                    continue
                regimes = values("regime")
                md.append(f"| {mode} | {placement} | {d} | {len(regimes)} "
                          f"({regimes.count('spinning')}, {regimes.count('sleeping')}) "
                          f"| {mean_sd(values('writes_per_s'))} "
                          f"| {mean_sd(values('kf_share'))} "
                          f"| {mean_sd(values('kf_ns_per_call'))} "
                          f"| {mean_sd(values('kernel_ns_per_call'))} |")
    md += ["", f"A run is sleeping when at least {SLEEPING_WQ_SHARE:g} % of its busy ticks are in "
               "prepare_to_wait_event() (its pipes wait on their wait queues), spinning otherwise."]

    checks = [b.calls_check for b in boots if b.calls_check and b.calls_check.get("estimated")]
    if checks:
        ratios = [c["ftrace"] / c["estimated"] for c in checks if "ftrace" in c]
        if ratios:
            md += ["", f"Call count check: ftrace's kill_fasync() count / pipe-load's estimate, "
                       f"{len(ratios)} boots: {min(ratios):.3f}-{max(ratios):.3f}."]

    def ratio(mode, a, b, key="kf_ns_per_call", placement="cross", regime=None):
        return bootstrap_ratio(select_boots(rows, mode, a, key, placement, regime),
                               select_boots(rows, mode, b, key, placement, regime), rng)

    md += ["", "## The 2003 comparison", "",
           "Each placement's runs, all of them and then each regime's alone (a boot counts",
           "on a side with the runs it had in that regime); the half-width is the reduction's",
           "interval's, in points.", "",
           "| mode | placement | regime | comparison | kill_fasync ns/call | half-width | busy kernel ns/call |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    for mode in modes:
        for placement in placements:
            for regime in (None, "spinning", "sleeping"):
                for a, b in (("rwlock", "rcu-global"), ("rwlock", "rcu")):
                    r = ratio(mode, a, b, placement=placement, regime=regime)
                    if r is None:
                        continue
                    md.append(f"| {mode} | {placement} | {regime or 'all'} | {a} -> {b} "
                              f"| {fmt_reduction(r)} | {100 * (r[2] - r[1]) / 2:.1f} "
                              f"| {fmt_reduction(ratio(mode, a, b, 'kernel_ns_per_call', placement, regime))} |")
    md += ["", "The RFC measured 81 % less time in kill_fasync() for rwlock -> RCU on 2003 hardware."]
    md += few_boots_note([len(select_boots(rows, m, d, "calls")) for m in modes for d in designs
                          if select_boots(rows, m, d, "calls")])

    md += ["", "## Precision: the spread between boots", "",
           "kill_fasync() ns per call of the cross-CPU load (one vCPU: its only load), per",
           "design: the boots, the 95 % half-width of the mean resampling boots, as a share",
           "of the mean, and how many boots a half-width of 10 % would take at this run's",
           "spread between boots.", "",
           "| mode | design | boots | half-width | boots for ±10 % |", "| --- | --- | --- | --- | --- |"]
    for mode in modes:
        placement = "local" if mode != MAIN_MODE else "cross"
        for d in designs:
            p = precision(select_boots(rows, mode, d, "kf_ns_per_call", placement), rng)
            if p:
                md.append(f"| {mode} | {d} | {p[0]} | {100 * p[1]:.0f} % | {p[2]} |")

    md += vcpu_table(rows, designs, args.smp, rng)
    if vcpu_mode(1) in modes:
        md += ["", "## What sharing the lock line costs", "",
               f"kill_fasync() ns per call with one vCPU against {args.smp} vCPUs with each",
               "pipe's ends on one CPU (local): the pipes behave alike, and only with more than",
               "one vCPU does a global lock's cache line move between CPUs. The extra is the",
               "difference of the means, its 95 % interval resampling boots.", "",
               f"| design | 1 vCPU | {args.smp} vCPUs, local | contended extra ns (95 %) |",
               "| --- | --- | --- | --- |"]
        extras = {}
        for d in designs:
            one = select_boots(rows, vcpu_mode(1), d, "kf_ns_per_call", "local")
            many = select_boots(rows, "mttcg", d, "kf_ns_per_call", "local")
            extras[d] = extra = bootstrap_difference(one, many, rng)
            if extra:
                md.append(f"| {d} | {mean_sd(pooled(one))} | {mean_sd(pooled(many))} "
                          f"| {extra[0]:.1f} ({extra[1]:.1f} to {extra[2]:.1f}) |")
        md += line_transfers(boots, host_pingpong, extras.get("rwlock"))

    md += ["", "## Controls (ratios of kill_fasync ns/call; 1 is no difference)", ""]
    if "stock" in designs and "rcu" in designs:
        md.append(f"- patched default (rcu) / stock {args.version}: {fmt_ratio(ratio('mttcg', 'stock', 'rcu'))}; "
                  f"busy kernel ns/call {fmt_ratio(ratio('mttcg', 'stock', 'rcu', 'kernel_ns_per_call'))}")
    if "waitqueue" in designs and "rcu" in designs:
        md.append(f"- noise: waitqueue / rcu (one image, the same pipe code): "
                  f"{fmt_ratio(ratio('mttcg', 'rcu', 'waitqueue'))}; busy kernel ns/call "
                  f"{fmt_ratio(ratio('mttcg', 'rcu', 'waitqueue', 'kernel_ns_per_call'))}")

    md += ["", "Busy kernel ns/call per boot (mean of its runs), the spread between boots:", ""]
    for d in designs:
        per_boot = {}
        for r in rows:
            if r["mode"] == "mttcg" and r["design"] == d:
                per_boot.setdefault(r["boot"], []).append(r["kernel_ns_per_call"])
        md.append(f"- {d}: " + ", ".join(f"{statistics.mean(v):.0f}" for v in per_boot.values()))
    md += ["", "## Where the difference goes (diffprofile, ticks per million calls, mttcg)", ""]
    for a, b in (("rcu", "rwlock"), ("stock", "rcu")):
        if a in designs and b in designs:
            md += [f"### {a} -> {b}", ""] + diffprofile(rows, "mttcg", a, b) + [""]

    guest_anchor = [a for b in boots for a in b.anchor]
    md += ["## The read side alone (rwlock-anchor, two threads on two CPUs, ns per operation)", "",
           "| machine | workload | rwlock | rcu | rwlock extra |", "| --- | --- | --- | --- | --- |"]
    host_lines, host_ns = anchor_summary(host_anchor, "host (itself a virtual machine)")
    guest_lines, guest_ns = anchor_summary(guest_anchor, "guest (TCG)")
    md += host_lines + guest_lines
    if "tight" in host_ns and "tight" in guest_ns:
        host_extra = host_ns["tight"][0] - host_ns["tight"][1]
        guest_extra = guest_ns["tight"][0] - guest_ns["tight"][1]
        if host_extra > 0:
            md += ["", f"A contended read side costs {guest_extra / host_extra:.1f} times as much "
                       f"in the guest as on the host ({guest_extra:.0f} vs {host_extra:.0f} ns)."]

    md += ["", "## Fan-out: one sigmouse node, RT-signal subscribers (mttcg)", "",
           "Loss is 0 by construction (at most 8 packets in flight, unlimited",
           "RLIMIT_SIGPENDING): a check of the bench, not a finding. From 4 subscribers on",
           "the latency is about the window over the throughput. Each run is profiled:",
           "kill_fasync ns/packet is its ticks in kill_fasync(), the walk and the lock",
           "helpers times the tick over the packets; fasync, in every function named for",
           "fasync or SIGIO.", "",
           "| design | subscribers | runs | packets/s | signals/s | latency p50 us | p99 us "
           "| kill_fasync ns/packet | fasync ns/packet |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for d in DESIGNS:
        subs = sorted({f["subscribers"] for f in fanout_runs(boots, d, "fanout", churn=0)})
        for s in subs:
            runs = fanout_runs(boots, d, "fanout", churn=0, subscribers=s)
            md.append(f"| {d} | {s:.0f} | {len(runs)} "
                      f"| {mean_sd([f['packets_per_s'] for f in runs])} "
                      f"| {mean_sd([f['signals_per_s'] for f in runs])} "
                      f"| {mean_sd([f['p50_us'] for f in runs])} "
                      f"| {mean_sd([f['p99_us'] for f in runs])} "
                      f"| {mean_sd(per_packet(runs, kf_ticks))} "
                      f"| {mean_sd(per_packet(runs, fasync_ticks))} |")
    md += ["", "| design | churn: packets/s | signals/s | O_ASYNC switches/s |",
           "| --- | --- | --- | --- |"]
    for d in DESIGNS:
        runs = [f for f in fanout_runs(boots, d, "fanout") if f["churn"] > 0]
        if runs:
            md.append(f"| {d} | {mean_sd([f['packets_per_s'] for f in runs])} "
                      f"| {mean_sd([f['signals_per_s'] for f in runs])} "
                      f"| {mean_sd([f['toggles_per_s'] for f in runs])} |")
    md += ["", "sigmouse vs evdev, 1 subscriber, each boot both orders: geometric mean of",
           "evdev's packets/s over sigmouse's in the same order pair (above 1: evdev is faster;",
           "the interval resamples boots, each with all its pairs)", ""]
    for d in DESIGNS:
        for pin in PINS:
            logs = peer_logs([b for b in boots if b.design == d and b.mode == MAIN_MODE], pin)
            if logs:
                placed = "" if pin == "none" else f", writer and receiver pinned {pin}"
                md.append(f"- {d}{placed}: {fmt_peer(logs, rng)}")
    for d in DESIGNS:
        # diffprofile's rows: a peer run's packets are its calls
        peer = [{"mode": "peer", "design": f["node"], "symbols": f["symbols"],
                 "calls": f["packets"]} for f in fanout_runs(boots, d, "peer")
                if f.get("symbols") and f["packets"]]
        if {r["design"] for r in peer} == {"sigmouse", "evdev"}:
            md += ["", f"Where sigmouse's packets go against evdev's under {d} (ticks per million "
                       "packets, every peer run):", ""] + diffprofile(peer, "peer", "evdev",
                                                                        "sigmouse", top=10)
    md += [f"- {b.mode} {b.design} boot {b.number}: {e}" for b in boots for e in b.errors]
    md += curve_table(boots, rng) + rate_table(boots, rng) + list(paths) + profile_agreement(boots) \
        + host_table(boots, modes, designs)
    died = os.path.join(out, "died")
    if os.path.isdir(died):
        md += ["", "## Boots run again", "",
               "Their kernel died before the guest's first workload (console kept in died/);",
               "each ran once more and its second boot is the one measured:", ""]
        md += [f"- {name}: {first_report(os.path.join(died, name))}"
               for name in sorted(os.listdir(died))]

    write_outputs(rows, boots, host_anchor, out, md, args.smp)
    return "\n".join(md)


def profile_disagreements(boots):
    """(function counts compared, [what differed]) between readprofile
    and kprofile on each boot's one snapshot: every function readprofile
    charges ticks to must have as many in kprofile's dump."""
    compared, differ = 0, []
    for b in boots:
        kprofile = b.profile_check["kprofile"]
        for name, n in b.profile_check["readprofile"].items():
            compared += 1
            k = kprofile.get("(unknown)" if name == "*unknown*" else name)
            if k != n:
                differ.append(f"boot {b.number} {name}: readprofile {n:.0f}, kprofile "
                              + ("none" if k is None else f"{k:.0f}"))
    return compared, differ


def profile_agreement(boots):
    checked = [b for b in boots if b.profile_check["readprofile"]]
    if not checked:
        return []
    compared, differ = profile_disagreements(checked)
    extra = sum(1 for b in checked for name in b.profile_check["kprofile"]
                if name not in b.profile_check["readprofile"] and name != "(unknown)")
    return ["", "## readprofile against kprofile", "",
            f"util-linux's readprofile (-p on a copy of /proc/profile, -m /proc/kallsyms) and "
            f"kprofile on the same copy, once a boot: {len(checked)} boots, {compared} function "
            f"counts of readprofile's, {compared - len(differ)} equal to kprofile's; kprofile "
            f"names {extra} more functions with ticks (it charges every name of an address, "
            f"readprofile one)."] + [f"- differs: {d}" for d in differ[:10]]


def host_table(boots, modes, designs):
    """The host while the boots ran, per mode and design."""
    lines = ["", "## The host while each boot ran", "",
             "The host's load average over the last minute at each boot's end, and the share",
             "of its CPU time its hypervisor stole during the boot: mean (lowest-highest).", "",
             "| mode | design | boots | load (1 min) | steal % |", "| --- | --- | --- | --- | --- |"]
    for mode in modes:
        for d in designs:
            hosts = [b.host for b in boots if b.mode == mode and b.design == d and b.host]
            if hosts:
                cells = [f"{statistics.mean(v):.2f} ({min(v):.2f}-{max(v):.2f})"
                         for v in ([h["load1"] for h in hosts], [h["steal_pct"] for h in hosts])]
                lines.append(f"| {mode} | {d} | {len(hosts)} | {cells[0]} | {cells[1]} |")
    return lines


def host_cpu():
    """(stolen, total) jiffies of the host's CPUs, /proc/stat's first line."""
    with open("/proc/stat") as f:
        times = [int(v) for v in f.readline().split()[1:9]]
    return times[7], sum(times)


def host_line(before, after):
    """bench.sh's line for what the host did while a boot ran."""
    stolen, total = after[0] - before[0], after[1] - before[1]
    return (f"host load1={os.getloadavg()[0]:.2f} "
            f"steal_pct={100.0 * stolen / total if total else 0:.2f}")


def fanout_csv_rows(boots):
    """runs.csv's rows of the boots' fan-out and peer runs."""
    return [{"workload": f"{f['section']}-{f['node']}", "mode": b.mode, "design": b.design,
             "boot": b.number, "run": i + 1,
             **{k: v for k, v in f.items() if k not in ("section", "symbols")}}
            for b in boots for i, f in enumerate(b.fanout)]


def write_csv(out, csv_rows):
    """out/runs.csv: a row per run, the columns every row has first."""
    first = ["workload", "mode", "design", "boot", "run"]
    keys = first + sorted({k for r in csv_rows for k in r} - set(first))
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=keys)
        writer.writeheader()
        writer.writerows(csv_rows)


def write_outputs(rows, boots, host_anchor, out, md, smp):
    profiles = os.path.join(out, "profiles")
    os.makedirs(profiles, exist_ok=True)
    csv_rows = []
    for r in rows:
        name = f"{r['mode']}-{r['design']}-boot{r['boot']}-run{r['run']}.txt"
        with open(os.path.join(profiles, name), "w") as f:
            f.write(f"# calls={r['calls']:.0f} kernel_ticks={r['kernel_ticks']:.0f}\n")
            for sym, n in sorted(r["symbols"].items(), key=lambda kv: -kv[1]):
                f.write(f"{n:.0f} {sym}\n")
        csv_rows.append({"workload": "pipe", **{k: v for k, v in r.items() if k != "symbols"}})
    csv_rows += fanout_csv_rows(boots)
    for b in boots:
        for a in b.anchor:
            csv_rows.append({"workload": f"anchor-{a['workload']}", "mode": "guest",
                             "design": a["mode"], "boot": b.number, "run": a["round"],
                             "ns_per_op": a["ns_per_op"]})
    for a in host_anchor:
        csv_rows.append({"workload": f"anchor-{a['workload']}", "mode": "host",
                         "design": a["mode"], "boot": 0, "run": a["round"],
                         "ns_per_op": a["ns_per_op"]})
    write_csv(out, csv_rows)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    plot(rows, boots, out, smp)


def write_curves(path, points):
    """gnuplot's data for one line per design, the mean at each point
    (points: design -> {x: [[a boot's values], ...]}): the designs
    written."""
    written = [d for d in points if points[d]]
    with open(path, "w") as f:
        for d in written:
            f.write(f"{d}\n")
            for x, by_boot in points[d].items():
                f.write(f"{x} {statistics.mean(pooled(by_boot))}\n")
            f.write("\n\n")
    return written


def values_of(points, key):
    """{x: [[a boot's runs' key], ...]} of {x: [[a boot's runs], ...]}."""
    return {x: [[r[key] for r in b] for b in by_boot] for x, by_boot in points.items()}


def plot(rows, boots, out, smp):
    """PNG plots with gnuplot, from small data files next to them."""
    data = os.path.join(out, "plot-kill-fasync.dat")
    with open(data, "w") as f:
        for mode in ordered_modes(r["mode"] for r in rows):
            for d in ["stock"] + list(DESIGNS):
                ns = select(rows, mode, d, "kf_ns_per_call")
                if ns:
                    sd = statistics.stdev(ns) if len(ns) > 1 else 0
                    f.write(f'"{mode} {d}" {statistics.mean(ns)} {sd}\n')
    curve = pipe_rows(boots, curve=True)
    kernels = ["stock"] + list(DESIGNS)
    curve_data = os.path.join(out, "plot-curve.dat")
    curve_designs = write_curves(curve_data, {
        d: values_of(curve_points(curve, d), "kernel_ns_per_call") for d in kernels})
    rate_data = os.path.join(out, "plot-rate.dat")
    rate_designs = write_curves(rate_data, {
        d: values_of(rate_points(boots, d), "median_ns") for d in kernels})
    timed_data = os.path.join(out, "plot-rate-kill-fasync.dat")
    timed_designs = write_curves(timed_data, {
        d: values_of(rate_points(boots, d, timed=True), "ns_per_call") for d in kernels})
    vcpu_data = os.path.join(out, "plot-vcpus.dat")
    vcpu_designs = write_curves(vcpu_data, {d: vcpu_points(rows, d, smp) for d in kernels})
    hist = os.path.join(out, "plot-latency.dat")
    with open(hist, "w") as f:
        for d in DESIGNS:
            counts = {}
            for fo in fanout_runs(boots, d, "fanout", churn=0, subscribers=1):
                for bucket in str(fo.get("hist", "")).split(","):
                    if ":" in bucket:
                        low, n = bucket.split(":")
                        counts[int(low)] = counts.get(int(low), 0) + int(n)
            total = sum(counts.values()) or 1
            f.write(f"{d}\n")
            for low in sorted(counts):
                f.write(f"{max(low, 0.5)} {100.0 * counts[low] / total}\n")
            f.write("\n\n")
    script = f"""
set terminal png size 900,480 noenhanced
set output '{out}/kill-fasync.png'
set title 'pipe load: ns per kill_fasync() call with its lock helpers (mean, sd)'
set ylabel 'ns per call'
set style fill solid 0.5
set boxwidth 0.5
set yrange [0:*]
set xtics rotate by -30
plot '{data}' using 0:2:xtic(1) with boxes notitle, '' using 0:2:3 with yerrorbars notitle
set output '{out}/latency.png'
set title 'fan-out, 1 subscriber: packet-to-handler latency distribution (all runs)'
set ylabel '% of packets'
set xlabel 'latency bucket (us, lower bound, powers of two)'
set logscale x 2
set xtics norotate
set key top right
plot for [i=0:{len(DESIGNS) - 1}] '{hist}' index i using 1:2 with linespoints title columnheader(1)
""" + (f"""
set output '{out}/curve-subscribers.png'
set title 'pipe load: busy kernel ns per call against subscribers on each fasync list (mean of runs)'
set ylabel 'ns per call'
set xlabel 'subscribers on each read side'
unset logscale x
set xtics auto
set yrange [0:*]
plot for [i=0:{len(curve_designs) - 1}] '{curve_data}' index i using 1:2 with linespoints title columnheader(1)
""" if curve_designs else "") + (f"""
set output '{out}/rate.png'
set title 'open-loop pipe load: median write() ns against the offered rate (mean of boots)'
set ylabel 'median write() ns'
set xlabel 'offered writes/s'
set logscale x 10
set yrange [0:*]
plot for [i=0:{len(rate_designs) - 1}] '{rate_data}' index i using 1:2 with linespoints title columnheader(1)
""" if rate_designs else "") + (f"""
set output '{out}/rate-kill-fasync.png'
set title 'open-loop pipe load: ns per kill_fasync() call, timed by ftrace, against the offered rate (mean of boots)'
set ylabel 'ns per call (with the profiler inside)'
set xlabel 'offered writes/s'
set logscale x 10
set yrange [0:*]
plot for [i=0:{len(timed_designs) - 1}] '{timed_data}' index i using 1:2 with linespoints title columnheader(1)
""" if timed_designs else "") + (f"""
set output '{out}/vcpus.png'
set title 'local pipe load, a pair per vCPU: kill_fasync() ns per call against vCPUs (mean of boots)'
set ylabel 'ns per call'
set xlabel 'vCPUs'
unset logscale x
set xtics 1
set yrange [0:*]
plot for [i=0:{len(vcpu_designs) - 1}] '{vcpu_data}' index i using 1:2 with linespoints title columnheader(1)
""" if len({x for d in vcpu_designs for x in vcpu_points(rows, d, smp)}) > 1 else "")
    result = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if result.returncode:
        print(f"run-bench: gnuplot failed: {result.stderr.strip()}", file=sys.stderr)


def ablation_kernels(args, kernel, out):
    """{name: bzImage} of the bench kernel ("kit") and of each ablation
    of driver/ablations/, a patch of the driver each, built in the
    bench kernel's tree as make mutants builds its mutants
    (kernel_variant); the kit's kernel is rebuilt after the last."""
    tree = tree_of(kernel)
    paths = {name[:-len(".patch")]: os.path.join(ABLATIONS, name)
             for name in sorted(os.listdir(ABLATIONS)) if name.endswith(".patch")}
    # every one must apply exactly before the first is built
    for path in paths.values():
        kernel_variant.patch(tree, path, True, dry_run=True, who="run-bench")
    kit = kernel_variant.digests({o for path in paths.values()
                                  for o in kernel_variant.patched_objects(tree, path)})
    log = os.path.join(out, "build.log")
    images = {KIT: os.path.join(out, "kernels", KIT, BZIMAGE)}
    os.makedirs(os.path.dirname(images[KIT]), exist_ok=True)
    shutil.copyfile(kernel, images[KIT])
    try:
        for name, path in paths.items():
            print(f"run-bench: building the ablation {name} (log: {log})", flush=True)
            kernel_variant.patch(tree, path, True, who="run-bench")
            try:
                kernel_variant.build_variant(args.version, "bench", name, tree, path, log, kit,
                                             who="run-bench")
            finally:
                kernel_variant.patch(tree, path, True, reverse=True, who="run-bench")
            images[name] = os.path.join(out, "kernels", name, BZIMAGE)
            os.makedirs(os.path.dirname(images[name]), exist_ok=True)
            shutil.copyfile(os.path.join(tree, BZIMAGE), images[name])
    finally:
        print("run-bench: rebuilding the kit's bench kernel", flush=True)
        kernel_variant.build(args.version, "bench", log, CCACHE_DISABLE="1")
    changed = [o for o, d in kernel_variant.digests(kit).items() if d != kit[o]]
    if changed:
        sys.exit(f"run-bench: {', '.join(changed)} differ from the kit's after the rebuild")
    return images


def ablation_plan(args, rng, variants):
    """Rounds, each a block of every kernel on --smp vCPUs and on one in
    its own random order; the peer alone. On one vCPU writer, receiver
    and handlers take turns on one CPU, so a packet's costs add up
    there, with no parallelism or cross-CPU wake-ups to hide or inflate
    them."""
    boots = [(mode, v) for v in variants for mode in (MAIN_MODE, vcpu_mode(1))]
    return [(mode, v, "peer") for _ in range(args.rounds)
            for mode, v in rng.sample(boots, len(boots))]


def ablation_summary(boots, args, rng):
    """Markdown: evdev over sigmouse for the kit at each placement and on
    one vCPU, and for each ablation; each against the kit's, and the
    share of the kit's gap it closes where the kit has one."""
    def logs(variant, mode=MAIN_MODE, pin="none"):
        return peer_logs([b for b in boots if b.design == variant and b.mode == mode], pin)
    md = [f"# make bench-ablations results: Linux {args.version}", "",
          f"Command: `make bench-ablations`; design {args.ablation_design}, {args.rounds} rounds, "
          f"each a block of every kernel on {args.smp} vCPUs and on 1 in its own random "
          f"order (seed {args.seed}), the kit on {args.smp} also with writer and receiver "
          "pinned to one CPU together and to two apart; in each boot the peer: "
          f"fanout-bench, one subscriber, {args.seconds:g} s a run, sigmouse and evdev in both "
          "orders. A ratio is evdev's packets/s over sigmouse's, the geometric mean of a "
          "boot's order pairs (above 1: evdev is faster), so each boot's evdev runs are "
          "the control of its sigmouse runs; intervals resample boots. 'against the kit': "
          "a kernel's ratio over the kit's unpinned one on as many vCPUs (below 1: the "
          "change speeds sigmouse up); the share of the kit's gap a change closes, where the "
          "kit's interval lies above 1.", "",
          "| kernel | writer and receiver | vCPUs | evdev/sigmouse | against the kit | "
          "share of the kit's gap closed |", "| --- | --- | --- | --- | --- | --- |"]
    variants = sorted({b.design for b in boots} - {KIT})
    rows = [(KIT, MAIN_MODE, pin) for pin in PINS] + \
        [(v, mode, "none") for mode in (MAIN_MODE, vcpu_mode(1))
         for v in ([KIT] if mode != MAIN_MODE else []) + variants]
    for variant, mode, pin in rows:
        these = logs(variant, mode, pin)
        if not these:
            continue
        # each against the kit unpinned on as many vCPUs
        base = logs(KIT, mode)
        against, share = "", ""
        if (variant, pin) != (KIT, "none") and base:
            point, low, high = resample(lambda k, v: peer_ratio(v) / peer_ratio(k),
                                        (base, these), rng)
            against = f"{point:.3f} ({low:.3f}-{high:.3f})"
            gap, gap_low, _ = resample(peer_ratio, (base,), rng)
            share = (f"{100 * math.log(gap / peer_ratio(these)) / math.log(gap):.0f} %"
                     if gap_low > 1 else "no gap (the kit's interval holds 1)")
        md.append(f"| {variant} | {pin} | {mode_vcpus(mode, args.smp)} "
                  f"| {fmt_peer(these, rng)} | {against} | {share} |")
    for variant in variants:
        for mode in (MAIN_MODE, vcpu_mode(1)):
            runs = [{"mode": "peer", "design": b.design, "symbols": f["symbols"],
                     "calls": f["packets"]} for b in boots if b.mode == mode
                    for f in b.fanout if b.design in (KIT, variant) and f["node"] == "sigmouse"
                    and f["pin"] == "none" and f.get("symbols") and f["packets"]]
            if {r["design"] for r in runs} == {KIT, variant}:
                md += ["", f"Where {variant}'s sigmouse packets go against the kit's on "
                           f"{mode_vcpus(mode, args.smp)} vCPUs (ticks per million packets, "
                           "every unpinned sigmouse run):", ""] + \
                    diffprofile(runs, "peer", KIT, variant, top=8)
    md += [f"- {b.mode} {b.design} boot {b.number}: {e}" for b in boots for e in b.errors]
    return "\n".join(md)


def run_ablations(args, kernel, out):
    """make bench-ablations: the ablations' kernels built, booted and
    summarized (with --reread, only summarized again)."""
    started = time.monotonic()
    hz = kernel_hz(kernel)
    if args.reread:
        boots = reread_boots(out, lambda design: hz)
    else:
        images = ablation_kernels(args, kernel, out)
        settings = f"profile=0 {BENCH_CLOCK} sigmouse_bench_seconds={args.seconds} " \
                   f"{DESIGNS[args.ablation_design]}"
        plan = ablation_plan(args, random.Random(args.seed), list(images))
        boots, failed = run_boots(
            plan, args, out, started,
            lambda mode, design, sections: (
                images[design], f"{settings} sigmouse_bench_sections={sections} "
                f"sigmouse_bench_pins={','.join(PINS) if (mode, design) == (MAIN_MODE, KIT) else 'none'}"),
            lambda design: hz)
    text = ablation_summary(boots, args, random.Random(2003))
    write_csv(out, fanout_csv_rows(boots))
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(text + "\n")
    print()
    print(text)
    print(f"\nrun-bench: {time.monotonic() - started:.0f} s; results in {out}/")
    return 1 if not args.reread and failed else 0


def kernel_hz(kernel):
    """CONFIG_HZ from the .config of the tree that built kernel."""
    config = os.path.join(tree_of(kernel), ".config")
    with open(config) as f:
        for line in f:
            if line.startswith("CONFIG_HZ="):
                return int(line.split("=")[1])
    raise SystemExit(f"run-bench: no CONFIG_HZ in {config}")


def boot_plan(args, rng):
    """(mode, design, sections): rounds of every kernel, each round a
    block in its own random order, so that a drift of the host's speed
    falls on no design more than another; then the one-vCPU rounds."""
    plan = []
    kernels = ["stock"] + args.design
    for r in range(args.rounds):
        for d in rng.sample(kernels, len(kernels)):
            sections = "pipe,calls" + (",curve,rate" if r < args.curve_rounds else "") \
                + ("" if d == "stock" else ",fanout,peer")
            if r == 0 and d == "stock":
                sections += ",anchor"
            plan.append(("mttcg", d, sections))
    for n in args.vcpus:
        for r in range(args.vcpu_rounds):
            plan += [(vcpu_mode(n), d, "pipe") for d in rng.sample(kernels, len(kernels))]
    return plan


def anchor_lines(text):
    return [parse(line)[1] for line in text.splitlines() if line.startswith("anchor ")]


def pingpong_values(text):
    return [parse(line)[1]["ns_per_transfer"] for line in text.splitlines()
            if line.startswith("pingpong ")]


def run_host_pingpong(build, out, rounds=21):
    program = os.path.join(build, "guest-apps", "cacheline-pingpong")
    result = subprocess.run([program, "200000", str(rounds)], capture_output=True, text=True,
                            check=True)
    with open(os.path.join(out, "host-pingpong.txt"), "w") as f:
        f.write(result.stdout)
    return pingpong_values(result.stdout)


def run_host_anchor(build, seconds, out):
    program = os.path.join(build, "guest-apps", "rwlock-anchor")
    result = subprocess.run([program, str(seconds), "2"], capture_output=True, text=True, check=True)
    with open(os.path.join(out, "host-anchor.txt"), "w") as f:
        f.write(result.stdout)
    return anchor_lines(result.stdout)


def reread_host(out):
    """The host anchor and ping-pong of a finished run, from its files."""
    with open(os.path.join(out, "host-anchor.txt")) as f:
        host_anchor = anchor_lines(f.read())
    with open(os.path.join(out, "host-pingpong.txt")) as f:
        host_pingpong = pingpong_values(f.read())
    return host_anchor, host_pingpong


def reread_boots(out, hz_of):
    """Every boot of a finished run, from its files (hz_of(design): the
    HZ of the kernel it booted)."""
    boots = []
    for name in sorted(os.listdir(os.path.join(out, "boots"))):
        number, mode, design = BOOT_FOLDER.match(name).groups()
        result = BootResult(mode, design, int(number), hz_of(design))
        for log in ("channel.log", "host.log"):
            path = os.path.join(out, "boots", name, log)
            if not os.path.exists(path):
                continue
            with open(path) as f:
                for line in f:
                    if not line.startswith("@@ "):
                        result.feed(line.rstrip("\n"))
        boots.append(result)
    return boots


def read_pipe_runs(out):
    """The pipe-load rows of a finished run's runs.csv, numbers as floats."""
    with open(os.path.join(out, "runs.csv"), newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["workload"] == "pipe"]
    for r in rows:
        for key in ("kf_ns_per_call", "kernel_ns_per_call", "writes_per_s"):
            r[key] = float(r[key])
    return rows


def side_by_side(versions, rng, runs_from=None):
    """Markdown: the kernels' make bench runs, pipe load per design (mttcg),
    each against the stock control of its own run, and the 2003
    comparison in each. The runs are build/<version>/bench's, or with
    runs_from the kept runs.csv of <runs_from>/<version> (docs/bench)
    or, for a folder holding one kernel's run, of runs_from itself."""
    def folder(v):
        if not runs_from:
            return os.path.join(build_folder(v), "bench")
        one = os.path.join(runs_from, v)
        return one if os.path.isdir(one) else runs_from

    runs = {v: read_pipe_runs(folder(v)) for v in versions}

    def table(key):
        lines = ["| design | " + " | ".join(f"{k} ns/call | {k} / stock {k}" for k in runs) + " |",
                 "| --- |" + " --- | --- |" * len(runs)]
        for d in ["stock"] + list(DESIGNS):
            cells = []
            for rows in runs.values():
                ns = select_boots(rows, "mttcg", d, key)
                stock = select_boots(rows, "mttcg", "stock", key)
                cells += [mean_sd(pooled(ns)),
                          "1" if d == "stock" else fmt_ratio(bootstrap_ratio(stock, ns, rng))]
            lines.append(f"| {d} | " + " | ".join(cells) + " |")
        return lines

    md = ["# make bench on both kernels", "",
          "The pipe load (nobody subscribed), multi-threaded TCG: kill_fasync() ns per",
          "call, mean ± sd over the runs, and its ratio to the stock kernel of the same",
          "run (95 % bootstrap interval resampling boots; 1 is no difference). Each kernel's figures",
          "come from its own make bench run: compare the ratios across kernels, not",
          "the nanoseconds (the machine's load differs between runs).", ""]
    md += table("kf_ns_per_call")
    md += ["", "Busy kernel ns per call (every non-idle tick over the same calls), the same way:",
           ""] + table("kernel_ns_per_call")
    md += ["", "The 2003 comparison in each kernel's run, kill_fasync() ns per call:", "",
           "| kernel | boots a design | rwlock -> rcu-global | rwlock -> rcu |", "| --- | --- | --- | --- |"]
    for v, rows in runs.items():
        def reduction(a, b):
            return fmt_reduction(bootstrap_ratio(select_boots(rows, "mttcg", a, "kf_ns_per_call"),
                                                 select_boots(rows, "mttcg", b, "kf_ns_per_call"),
                                                 rng))
        boots = sorted({len(select_boots(rows, "mttcg", d, "kf_ns_per_call")) for d in DESIGNS})
        md.append(f"| {v} | {', '.join(map(str, boots))} | {reduction('rwlock', 'rcu-global')} "
                  f"| {reduction('rwlock', 'rcu')} |")
    md += [""] + few_boots_note([len(select_boots(rows, "mttcg", d, "kf_ns_per_call"))
                                 for rows in runs.values() for d in ["stock"] + list(DESIGNS)
                                 if select_boots(rows, "mttcg", d, "kf_ns_per_call")])
    return "\n".join(md) + "\n"


def bench_boot(n, mode, design, image, hz, initrd, workdir, label, started, **settings):
    """Boot one bench guest to its end: (what it measured, the boot)."""
    result = BootResult(mode, design, n, hz)
    boot = Boot(workdir, image, initrd, "bench", timeout=300, echo_channel=False, **settings)

    def progress(line):
        result.feed(line)
        if not line.startswith("ksyms"):
            print(f"[{time.monotonic() - started:5.0f} s] {label}: {line}", flush=True)

    boot.run_to_end(on_line=progress)
    return result, boot


def run_boots(plan, args, out, started, boot_of, hz_of):
    """Boot each (mode, design, sections) of plan in turn, boot_of(mode,
    design, sections) giving its (bzImage, command line) and hz_of(design)
    its kernel's HZ: (what each measured, whether any failed)."""
    # a new run's boots, none died yet: a reread must find no boot of an
    # earlier run whose plan named its folders otherwise
    died = os.path.join(out, "died")
    shutil.rmtree(died, ignore_errors=True)
    shutil.rmtree(os.path.join(out, "boots"), ignore_errors=True)
    boots, failed = [], False
    for n, (mode, design, sections) in enumerate(plan, 1):
        image, append = boot_of(mode, design, sections)
        smp = mode_vcpus(mode, args.smp)
        workdir = os.path.join(out, "boots", f"{n:02d}-{mode}-{design}")
        label = f"boot {n}/{len(plan)} {mode} {design}"
        # A kernel that died before the guest's first section measured
        # nothing: its console is kept in died/ with the report, and the
        # boot runs once more (seen: 6.12's bench kernel, an int3 Oops
        # in sched_clock_cpu() while a static key was patched at boot,
        # one mttcg boot in 15). A second death in the run, or a death
        # after the first section, fails it.
        while True:
            before = host_cpu()
            result, boot = bench_boot(n, mode, design, image, hz_of(design), args.initrd,
                                      workdir, label, started,
                                      append=append.strip(), smp=smp, accel="tcg")
            line = host_line(before, host_cpu())
            result.feed(line)
            with open(os.path.join(workdir, "host.log"), "w") as f:
                f.write(line + "\n")
            report = (result.section is None and not os.path.isdir(died)
                      and first_report(workdir))
            if not report:
                break
            os.makedirs(died)
            shutil.move(workdir, os.path.join(died, os.path.basename(workdir)))
            print(f"run-bench: {label} died before its workloads: {report}; booting it again",
                  file=sys.stderr, flush=True)
        measured = result.pipe if "pipe" in sections.split(",") else result.fanout
        if boot.timed_out or boot.exit_status != 0 or result.errors or not measured \
                or profile_disagreements([result])[1]:
            print(f"run-bench: boot {n} ({mode} {design}) did not finish its workloads "
                  f"(see {boot.workdir}/)", file=sys.stderr)
            failed = True
        boots.append(result)
    return boots, failed


def first_report(workdir):
    """The first line of a boot's first kernel report, or None."""
    with open(os.path.join(workdir, "console.log"), errors="replace") as f:
        reports = kernel_reports(f.read().splitlines())
    return reports[0][0].strip() if reports else None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version_argument(parser)
    parser.add_argument("--bzimage", help="the patched kernel to boot (default: the bench "
                        "kernel's, build/<version>/series/walk's)")
    parser.add_argument("--stock-bzimage", help="the stock kernel to boot (default: "
                        "build/<version>/linux-stock's)")
    parser.add_argument("--design", action="append", choices=DESIGNS)
    parser.add_argument("--smp", type=int, default=int(os.environ.get("SMP", os.cpu_count() or 2)))
    parser.add_argument("--rounds", type=int, default=8,
                        help="blocks of every kernel, each in its own random order")
    parser.add_argument("--vcpus", type=int, nargs="+", default=[1],
                        help="vCPU counts besides --smp's, each with rounds of the pipe load")
    parser.add_argument("--vcpu-rounds", type=int, default=4,
                        help="blocks of every kernel for each of --vcpus")
    parser.add_argument("--seed", type=int, default=2003, help="of the blocks' orders")
    parser.add_argument("--curve-rounds", type=int, default=3,
                        help="the first rounds, whose boots run the curves (list length, rate)")
    parser.add_argument("--curve", default="0 1 4 16 64",
                        help="subscribers on each read side, a point each")
    parser.add_argument("--curve-seconds", type=float, default=1, help="per point")
    parser.add_argument("--rates", default="1000 10000 100000 300000 1000000",
                        help="the open-loop load's offered writes/s, a point each")
    parser.add_argument("--rate-seconds", type=float, default=0.5,
                        help="per rate, in each of the sweep's two passes")
    parser.add_argument("--runs", type=int, default=1,
                        help="pipe-load runs of each placement per boot")
    parser.add_argument("--seconds", type=float, default=2, help="per fan-out run")
    parser.add_argument("--pipe-seconds", type=float, default=4, help="per pipe-load run")
    parser.add_argument("--subscribers", default="1 4 16 64")
    parser.add_argument("--pins", default="none",
                        help="the evdev peer's placements of writer and receiver "
                        "(comma-separated: none, together, apart)")
    parser.add_argument("--paths", default="0 1 4 16",
                        help="subscribers on the list of each phase of the path-length boots")
    parser.add_argument("--path-writes", type=int, default=2000,
                        help="kill_fasync() calls of each path-length phase")
    parser.add_argument("--out", help="results folder (default: build/<version>/bench)")
    parser.add_argument("--reread", action="store_true",
                        help="no boots: summarize the run already in the results folder again")
    parser.add_argument("--ablations", action="store_true",
                        help="no make bench: sigmouse against evdev with each of driver/ablations/ "
                        "built into the bench kernel, and pinned")
    parser.add_argument("--ablation-design", default="rcu", choices=DESIGNS,
                        help="the design the ablations' boots run")
    parser.add_argument("--smoke", action="store_true",
                        help="a seconds-long run of every piece, to keep the tooling from rotting")
    parser.add_argument("--versions", nargs="+", metavar="VERSION",
                        help="no boots: the kernels' finished runs side by side")
    parser.add_argument("--runs-from", metavar="DIR",
                        help="with --versions: DIR/<version>/runs.csv, a kept run "
                        "(docs/bench), or DIR/runs.csv, one kernel's, instead of "
                        "build/<version>/bench")
    args = parser.parse_args()
    if args.versions:
        text = side_by_side(args.versions, random.Random(2003), args.runs_from)
        with open(args.out or os.path.join(os.path.dirname(build_folder(DEFAULT_VERSION)),
                                           "bench-kernels.md"), "w") as f:
            f.write(text)
        print(text)
        return 0
    args.build = build_folder(args.version)
    args.command = "make bench" if not args.smoke else "make bench-smoke"
    if args.smoke:
        args.design, args.rounds, args.vcpu_rounds, args.runs = ["rwlock", "rcu"], 1, 1, 1
        args.seconds, args.pipe_seconds, args.subscribers = 0.5, 0.5, "1 2"
        args.curve, args.curve_seconds = "0 4", 0.5
        args.paths, args.path_writes = "0 1 4", 500
        # one rate: each rate of the timed pass patches kill_fasync()'s
        # entry twice (ftrace on, off), and under TCG a text patch while
        # the other vCPU runs can die of an int3 (6.12's bench kernel
        # lost 2 boots of 60 so in the calls section)
        args.rates, args.rate_seconds = "100000", 0.3
        args.pins = ",".join(PINS)
    args.design = args.design or list(DESIGNS)
    # the path-length boots: every kernel; in the smoke one, with calls on
    # its path, and the debug kernel's disassembly is not walked
    path_kernels = ["rwlock"] if args.smoke else ["stock"] + args.design

    kernel = args.bzimage or os.path.join(args.build, "series/walk", BZIMAGE)
    stock = args.stock_bzimage or os.path.join(args.build, "linux-stock", BZIMAGE)
    initrd = args.initrd = os.path.join(args.build, "initramfs.cpio.gz")
    out = args.out or os.path.join(args.build, "bench-smoke" if args.smoke else
                                   "bench-ablations" if args.ablations else "bench")
    os.makedirs(out, exist_ok=True)
    if args.ablations:
        return run_ablations(args, kernel, out)
    images = {d: stock if d == "stock" else kernel for d in path_kernels}
    hz = {"stock": kernel_hz(stock), "kernel": kernel_hz(kernel)}

    def hz_of(design):
        return hz["stock" if design == "stock" else "kernel"]
    subscribers = [int(n) for n in args.paths.split()]
    if args.reread:
        boots = reread_boots(out, hz_of)
        host_anchor, host_pingpong = reread_host(out)
        paths, _ = path_lengths.section(out, images, subscribers, not args.smoke)
        text = summarize(boots, host_anchor, args, random.Random(2003), out, host_pingpong, paths)
        print(text)
        return 0
    accel = choose_accel(args.build, kernel, initrd)
    if accel != "tcg":
        print(f"run-bench: {accel}: the bench measures TCG; using TCG", file=sys.stderr)
    settings = (f"profile=0 {BENCH_CLOCK} sigmouse_bench_runs={args.runs} sigmouse_bench_seconds={args.seconds} "
                f"sigmouse_bench_pipe_seconds={args.pipe_seconds} "
                f"sigmouse_bench_subscribers={args.subscribers.replace(' ', ',')} "
                f"sigmouse_bench_curve={args.curve.replace(' ', ',')} "
                f"sigmouse_bench_curve_seconds={args.curve_seconds} "
                f"sigmouse_bench_rates={args.rates.replace(' ', ',')} "
                f"sigmouse_bench_rate_seconds={args.rate_seconds} "
                f"sigmouse_bench_pins={args.pins}")

    started = time.monotonic()
    print("run-bench: the read side on the host first, while no guest runs", flush=True)
    host_anchor = run_host_anchor(args.build, 0.5, out)
    host_pingpong = run_host_pingpong(args.build, out)
    plan = boot_plan(args, random.Random(args.seed))
    boots, failed = run_boots(
        plan, args, out, started,
        lambda mode, design, sections: (stock if design == "stock" else kernel,
                                  f"{settings} sigmouse_bench_sections={sections} "
                                  f"{'' if design == 'stock' else DESIGNS[design]}"),
        hz_of)

    plugin = path_lengths.build_plugin(os.path.join(os.path.dirname(args.build), "plugins"))
    shutil.rmtree(os.path.join(out, "paths"), ignore_errors=True)
    for i, d in enumerate(path_kernels, 1):
        label = f"path lengths {i}/{len(path_kernels)} {d}"
        boot, _ = path_lengths.count_boot(
            plugin, images[d], initrd, os.path.join(out, "paths", d),
            "" if d == "stock" else DESIGNS[d], subscribers, args.path_writes,
            lambda line, label=label: print(f"[{time.monotonic() - started:5.0f} s] {label}: "
                                            f"{line}", flush=True))
        if boot.timed_out or boot.exit_status != 0 or first_report(boot.workdir):
            print(f"run-bench: the {label} boot did not finish (see {boot.workdir}/)",
                  file=sys.stderr)
            failed = True
    paths, problems = path_lengths.section(out, images, subscribers, not args.smoke)
    for problem in problems:
        print(f"run-bench: path lengths: {problem}", file=sys.stderr)
    failed = failed or bool(problems)

    text = summarize(boots, host_anchor, args, random.Random(2003), out, host_pingpong, paths)
    print()
    print(text)
    print(f"\nrun-bench: {time.monotonic() - started:.0f} s; results in {out}/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
