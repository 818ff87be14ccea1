#!/usr/bin/env python3
"""make bench: boot the bench kernel once per fasync design and measure.

In each boot the guest (guest-apps/bench.sh) runs, each RUNS times:
  pipe load   pipe pairs on every vCPU, nobody subscribed; time in
              kill_fasync() from the kernel's tick profiler (profile=2),
              calls counted once by ftrace's function profiler
  fan-out     a uinput mouse into one sigmouse node with 1..64 RT-signal
              subscribers: packets/s, signals/s, loss, latency
  churn       the fan-out stream while two threads toggle O_ASYNC
  evdev       the same stream through evdev, the in-tree peer
Figures are medians of the runs with their min-max spread, and the
comparisons are ratios within this one run. Results go to build/bench/:
runs.csv (every run), results.md (the tables) and PNG plots (gnuplot).
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys
import time

from guest import DESIGNS, Boot, choose_accel



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


class Design:
    """What one boot measured."""

    def __init__(self, name):
        self.name = name
        self.pipe = []       # one dict per run: pipe-load + kprofile fields
        self.calls = None    # kill_fasync calls in the counting pass
        self.calls_writes = None
        self.fanout = []     # fanout lines
        self.errors = []
        self.section = None

    def profiled_pipe_runs(self):
        return [r for r in self.pipe if "profile" in r]

    def feed(self, line):
        if not line or line.startswith("#"):
            return
        word, fields = parse(line)
        if word == "pipe-load":
            self.pipe.append(dict(fields))
        elif word == "kprofile" and self.pipe:
            self.pipe[-1]["profile"] = fields
        elif word == "calls":
            # the counting pass's pipe-load line came just before
            counted = self.pipe.pop()
            self.calls, self.calls_writes = fields["kill_fasync"], counted["writes"]
        elif word == "section":
            self.section = line.split()[1]
        elif word == "fanout":
            fields["section"] = self.section
            self.fanout.append(fields)
        elif word == "bench-error":
            self.errors.append(line)


def fanout_runs(d, subscribers=None):
    """The fan-out series: one sigmouse node, no churn."""
    return [f for f in d.fanout if f["section"] == "fanout" and f["churn"] == 0 and
            (subscribers is None or f["subscribers"] == subscribers)]


def churn_runs(d):
    return [f for f in d.fanout if f["section"] == "fanout" and f["churn"] > 0]


def peer_runs(d, node):
    """sigmouse and evdev, one subscriber each, run alternately."""
    return [f for f in d.fanout if f["section"] == "peer" and f["node"] == node]


def median_spread(values):
    values = [v for v in values if v is not None]
    if not values:
        return None, None, None
    return statistics.median(values), min(values), max(values)


def fmt(triple, digits=0, unit=""):
    mid, lo, hi = triple
    if mid is None:
        return "n/a"
    return f"{mid:.{digits}f}{unit} ({lo:.{digits}f}-{hi:.{digits}f})"


def pipe_metrics(run):
    """Ticks per function as bench.sh asked kprofile for them: kill_fasync*
    is kill_fasync()'s own, the rest the lock functions it may call."""
    ticks = dict(run["profile"])
    total = ticks.pop("total") or 1
    own = sum(n for name, n in ticks.items() if name.startswith("kill_fasync"))
    helpers = sum(ticks.values()) - own
    return {"writes_per_s": run["writes_per_s"], "ticks": total,
            "kf_ticks": own, "helper_ticks": helpers,
            "kf_share": 100.0 * own / total, "kf_lock_share": 100.0 * (own + helpers) / total}


def summarize(designs, out):
    rows = []
    md = ["# make bench results", ""]
    md += ["Medians of the runs, min-max in parentheses. Ticks are the kernel's",
           "profile=2 samples over all vCPUs; 'kill_fasync + locks' adds the",
           "out-of-line rwlock helpers, as 2003's inline locks were counted.", ""]
    md += ["## Pipe load (nobody subscribed)", "",
           "| design | writes/s | kill_fasync ticks | % of all ticks | kill_fasync + locks % | calls per write | ns per call |",
           "| --- | --- | --- | --- | --- | --- | --- |"]
    shares, per_call = {}, {}
    for d in designs:
        profiled = d.profiled_pipe_runs()
        runs = [pipe_metrics(r) for r in profiled]
        per_write = d.calls / d.calls_writes if d.calls and d.calls_writes else None
        # ns per call: kill_fasync's share of all CPU time over the calls made in it
        ns = []
        for r, raw in zip(runs, profiled):
            if per_write:
                cpu_ns = raw["seconds"] * 1e9 * d.cpus
                ns.append(cpu_ns * (r["kf_ticks"] + r["helper_ticks"]) / r["ticks"] /
                          (raw["writes"] * per_write))
        shares[d.name] = median_spread([r["kf_lock_share"] for r in runs])[0]
        per_call[d.name] = median_spread(ns)[0]
        md.append(f"| {d.name} | {fmt(median_spread([r['writes_per_s'] for r in runs]))} "
                  f"| {fmt(median_spread([r['kf_ticks'] for r in runs]))} "
                  f"| {fmt(median_spread([r['kf_share'] for r in runs]), 2)} "
                  f"| {fmt(median_spread([r['kf_lock_share'] for r in runs]), 2)} "
                  f"| {f'{per_write:.2f}' if per_write else 'n/a'} "
                  f"| {fmt(median_spread(ns), 1)} |")
        for i, r in enumerate(runs):
            rows.append({"design": d.name, "workload": "pipe", "subscribers": 0, "run": i + 1, **r})
    if shares.get("rwlock") and shares.get("rcu") is not None:
        md += ["", f"rwlock -> rcu: {100.0 * (1 - shares['rcu'] / shares['rwlock']):.0f} % less of "
                   f"the CPU's ticks in kill_fasync() (with the rwlock helpers)"]
        if per_call.get("rwlock") and per_call.get("rcu"):
            md[-1] += (f", {100.0 * (1 - per_call['rcu'] / per_call['rwlock']):.0f} % less time "
                       f"per call; the 2003 RFC measured 81 % less time in kill_fasync().")

    md += ["", "## Fan-out: one sigmouse node, RT-signal subscribers", "",
           "| design | subscribers | packets/s | signals/s | lost | latency p50 us | p99 us | max us |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for d in designs:
        for s in sorted({f["subscribers"] for f in fanout_runs(d)}):
            runs = fanout_runs(d, s)
            md.append(f"| {d.name} | {s:.0f} | {fmt(median_spread([f['packets_per_s'] for f in runs]))} "
                      f"| {fmt(median_spread([f['signals_per_s'] for f in runs]))} "
                      f"| {sum(f['lost'] for f in runs):.0f} "
                      f"| {fmt(median_spread([f['p50_us'] for f in runs]), 1)} "
                      f"| {fmt(median_spread([f['p99_us'] for f in runs]), 1)} "
                      f"| {fmt(median_spread([f['max_us'] for f in runs]), 1)} |")
    md += ["", "## Churn (4 subscribers, 2 threads toggling O_ASYNC) and the evdev peer (1 subscriber)", "",
           "| design | workload | packets/s | signals/s | lost | p99 us | O_ASYNC on+off pairs/s | us per O_ASYNC switch |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    for d in designs:
        for label, runs in (("churn", churn_runs(d)), ("evdev", peer_runs(d, "evdev")),
                            ("sigmouse", peer_runs(d, "sigmouse"))):
            if not runs:
                continue
            toggles = median_spread([f["toggles_per_s"] for f in runs])
            # wall time of one fcntl(F_SETFL) that adds or removes an entry
            # (fasync_helper() and the syscall around it): each of the two
            # threads makes toggles_per_s / 2 on+off pairs, toggles_per_s switches
            per_call = median_spread([1e6 / f["toggles_per_s"] for f in runs
                                      if f["toggles_per_s"]]) if label == "churn" else (None, None, None)
            md.append(f"| {d.name} | {label} | {fmt(median_spread([f['packets_per_s'] for f in runs]))} "
                      f"| {fmt(median_spread([f['signals_per_s'] for f in runs]))} "
                      f"| {sum(f['lost'] for f in runs):.0f} "
                      f"| {fmt(median_spread([f['p99_us'] for f in runs]), 1)} "
                      f"| {fmt(toggles) if label == 'churn' else ''} | {fmt(per_call, 1) if label == 'churn' else ''} |")
    ratios = []
    for d in designs:
        # each sigmouse run against the evdev run right after it
        paired = [e["packets_per_s"] / s["packets_per_s"]
                  for s, e in zip(peer_runs(d, "sigmouse"), peer_runs(d, "evdev")) if s["packets_per_s"]]
        if paired:
            ratios.append(f"- {d.name}: sigmouse's time per delivered packet / evdev's, 1 subscriber: "
                          f"{fmt(median_spread(paired), 2)} (below 1: sigmouse is cheaper)")
    by_name = {d.name: d for d in designs}
    if "waitqueue" in by_name and "rcu" in by_name:
        def sps(d, s=64):
            return median_spread([f["signals_per_s"] for f in fanout_runs(d, s)])[0]
        w, r = sps(by_name["waitqueue"]), sps(by_name["rcu"])
        if w and r:
            ratios.append(f"- waitqueue / rcu signals/s at 64 subscribers: {w / r:.2f}")
    md += ["", "## Ratios", ""] + ratios

    for d in designs:
        for i, f in enumerate(d.fanout):
            workload = "churn" if f["churn"] else f"{f['section']}-{f['node']}"
            rows.append({"design": d.name, "workload": workload, "run": i + 1, **f})
        md += [f"- {d.name}: {e}" for e in d.errors]

    keys = sorted({k for r in rows for k in r})
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["design", "workload", "run"] +
                                [k for k in keys if k not in ("design", "workload", "run")])
        writer.writeheader()
        writer.writerows(rows)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    return "\n".join(md)


def plot(designs, out):
    """PNG plots with gnuplot, from small data files next to them."""
    data = os.path.join(out, "plot-kill-fasync.dat")
    with open(data, "w") as f:
        for d in designs:
            runs = [pipe_metrics(r) for r in d.profiled_pipe_runs()]
            mid, lo, hi = median_spread([r["kf_lock_share"] for r in runs])
            f.write(f'"{d.name}" {mid or 0} {lo or 0} {hi or 0}\n')
    fan = os.path.join(out, "plot-fanout.dat")
    lat = os.path.join(out, "plot-latency.dat")
    with open(fan, "w") as f, open(lat, "w") as g:
        for d in designs:
            f.write(f'# {d.name}\n')
            for s in sorted({x["subscribers"] for x in fanout_runs(d)}):
                runs = fanout_runs(d, s)
                f.write(f"{s:.0f} {median_spread([x['signals_per_s'] for x in runs])[0]}\n")
                g.write(f'"{d.name} {s:.0f}" {median_spread([x["p50_us"] for x in runs])[0]} '
                        f'{median_spread([x["p99_us"] for x in runs])[0]}\n')
            f.write("\n\n")
    script = f"""
set terminal png size 800,480 noenhanced
set output '{out}/kill-fasync.png'
set title 'pipe load: ticks in kill_fasync() + rwlock helpers (median, min-max)'
set ylabel '% of all ticks'
set style fill solid 0.5
set boxwidth 0.5
set yrange [0:*]
plot '{data}' using 0:2:xtic(1) with boxes notitle, '' using 0:2:3:4 with yerrorbars notitle
set output '{out}/signals-per-subscriber.png'
set title 'fan-out: signals/s against subscribers (median)'
set ylabel 'signals/s'
set xlabel 'subscribers'
set logscale x 2
set key top left
plot for [i=0:{len(designs) - 1}] '{fan}' index i using 1:2 with linespoints title columnheader(1)
unset logscale x
set output '{out}/latency.png'
set title 'fan-out: packet-to-handler latency (median of runs)'
set ylabel 'microseconds'
set xlabel ''
set style data histograms
set style histogram clustered
set xtics rotate by -45
plot '{lat}' using 2:xtic(1) title 'p50', '' using 3 title 'p99'
"""
    # gnuplot's columnheader wants a header line per block: the "# name" comments
    with open(fan) as f:
        text = f.read().replace("# ", "")
    with open(fan, "w") as f:
        f.write(text)
    result = subprocess.run(["gnuplot"], input=script, text=True, capture_output=True)
    if result.returncode:
        print(f"run-bench: gnuplot failed: {result.stderr.strip()}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default="build")
    parser.add_argument("--kernel", help="bzImage (default: the bench kernel)")
    parser.add_argument("--design", action="append", choices=DESIGNS)
    parser.add_argument("--smp", type=int, default=int(os.environ.get("SMP", os.cpu_count() or 2)))
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=2, help="per fan-out run")
    parser.add_argument("--pipe-seconds", type=float, default=6, help="per pipe-load run")
    parser.add_argument("--subscribers", default="1 4 16 64")
    parser.add_argument("--out", help="results folder (default: build/bench)")
    parser.add_argument("--smoke", action="store_true",
                        help="seconds-long run of one design, to keep the tooling from rotting")
    args = parser.parse_args()
    if args.smoke:
        args.design, args.runs, args.seconds, args.pipe_seconds, args.subscribers = \
            ["rcu"], 1, 0.5, 0.5, "2"

    kernel = args.kernel or os.path.join(args.build, "linux-bench/arch/x86/boot/bzImage")
    initrd = os.path.join(args.build, "initramfs.cpio.gz")
    out = args.out or os.path.join(args.build, "bench-smoke" if args.smoke else "bench")
    os.makedirs(out, exist_ok=True)
    accel = choose_accel(args.build, kernel, initrd)
    settings = (f"profile=2 sigmouse_bench_runs={args.runs} sigmouse_bench_seconds={args.seconds} "
                f"sigmouse_bench_pipe_seconds={args.pipe_seconds} "
                f"sigmouse_bench_subscribers={args.subscribers.replace(' ', ',')}")

    designs, failed = [], False
    started = time.monotonic()
    for name in args.design or DESIGNS:
        design = Design(name)
        boot = Boot(os.path.join(out, name), kernel, initrd, "bench",
                    append=f"{settings} {DESIGNS[name]}".strip(), smp=args.smp, accel=accel,
                    timeout=600, echo_channel=False)

        def progress(line, name=name, design=design):
            design.feed(line)
            print(f"[{time.monotonic() - started:5.0f} s] {name}: {line}", flush=True)

        boot.start()
        boot.serve(on_line=progress)
        design.cpus = args.smp
        if boot.timed_out or boot.exit_status != 0 or design.errors or not design.fanout:
            print(f"run-bench: {name}: the guest did not finish its workloads "
                  f"(see {out}/{name}/)", file=sys.stderr)
            failed = True
        designs.append(design)

    print()
    print(summarize(designs, out))
    plot(designs, out)
    print(f"\nrun-bench: {time.monotonic() - started:.0f} s; results in {out}/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
