"""make bench's exact path lengths: the instructions each kill_fasync()
call executes, counted by a QEMU TCG plugin in a boot of its own, and
the empty-list path read from the kernel's disassembly beside it.

The guest (bench.sh's paths section, kill-fasync-calls) runs phases of
one-byte pipe writes, each phase on a new pipe with N subscribers on
its read side and opened by a sync(); the plugin
(plugins/kill-fasync-count.c) starts a phase at each sync and counts
every call's instructions, callees included. A phase's most frequent
count is its path (an interrupt inside a call adds to that call alone).
The static walk (kill_fasync_path.executed_path()) gives the empty-list
path of the same vmlinux with the design's keys: the two must agree.
"""

import os
import subprocess

from guest import BENCH_CLOCK, Boot, tree_of
from kill_fasync_path import Kernel, executed_path

# the static keys each design enables (the others' kill_fasync() is
# today's, keyless)
DESIGN_KEYS = {"rwlock": ["fasync_design_rwlock"], "rcu-global": ["fasync_design_rcu_global"]}
PLUGIN_SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plugins")
# the function whose entry opens a phase: sync()'s system call
MARK = "__x64_sys_sync"


def build_plugin(folder):
    """The plugin in folder, compiled from its source when that is
    newer: its path."""
    source = os.path.join(PLUGIN_SOURCE, "kill-fasync-count.c")
    header = os.path.join(PLUGIN_SOURCE, "qemu-plugin-api.h")
    plugin = os.path.join(folder, "kill-fasync-count.so")
    if not os.path.exists(plugin) or \
            os.path.getmtime(plugin) < max(map(os.path.getmtime, (source, header))):
        os.makedirs(folder, exist_ok=True)
        subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-fPIC", "-shared",
                        "-fvisibility=hidden", "-o", plugin, source], check=True)
    return plugin


def system_map(image):
    return os.path.join(tree_of(image), "System.map")


def symbol(image, name):
    with open(system_map(image)) as f:
        for line in f:
            address, _, found = line.split()[:3]
            if found == name:
                return int(address, 16)
    raise SystemExit(f"path_lengths: no {name} in {system_map(image)}")


def count_boot(plugin, image, initrd, workdir, append, subscribers, writes, on_line):
    """Boot image with the plugin on one vCPU and run the phases: the
    boot, and the plugin's counts file."""
    counts = os.path.join(workdir, "plugin-counts.txt")
    os.makedirs(workdir, exist_ok=True)
    if os.path.exists(counts):
        os.unlink(counts)
    plugin_arg = (f"{plugin},entry={symbol(image, 'kill_fasync'):#x},"
                  f"mark={symbol(image, MARK):#x},out={counts}")
    settings = (f"nokaslr profile=0 {BENCH_CLOCK} sigmouse_bench_sections=paths "
                f"sigmouse_bench_paths={','.join(map(str, subscribers))} "
                f"sigmouse_bench_path_writes={writes} {append}")
    boot = Boot(workdir, image, initrd, "bench", append=settings.strip(), smp=1, accel="tcg",
                qemu_args=("-plugin", plugin_arg), timeout=600, echo_channel=False)
    boot.run_to_end(on_line=on_line)
    return boot, counts


def read_counts(path):
    """{phase: {instructions: calls}} from the plugin's file; a call too
    long for the plugin's histogram counts as None instructions."""
    phases = {}
    if not os.path.exists(path):
        return phases
    with open(path) as f:
        for line in f:
            word, *pairs = line.split()
            if word in ("calls", "longer"):
                fields = dict(p.split("=") for p in pairs)
                count = int(fields["instructions"]) if word == "calls" else None
                phases.setdefault(int(fields["phase"]), {})[count] = int(fields["calls"])
    return phases


def path_of(histogram):
    """(the most frequent count, its share of the phase's calls, calls)."""
    total = sum(histogram.values())
    count, calls = max(histogram.items(), key=lambda item: (item[1], -(item[0] or 0)))
    return count, calls / total, total


def static_count(image, design):
    """(instructions on the empty-list path by the disassembly, or None,
    and why not)."""
    vmlinux = os.path.join(tree_of(image), "vmlinux")
    try:
        return len(executed_path(Kernel(vmlinux), DESIGN_KEYS.get(design, ()))), ""
    except (ValueError, KeyError, OSError) as error:
        return None, str(error)


def table(results, subscribers):
    """Markdown: per kernel, each phase's path and the static count, and
    the problems (disagreements, phases without a clear path)."""
    lines = ["| kernel | static, empty list | " +
             " | ".join(f"{n} subscribers" for n in subscribers) + " | per subscriber |",
             "| --- | --- |" + " --- |" * (len(subscribers) + 1)]
    problems = []
    for design, r in results.items():
        cells, paths = [], {}
        for phase, n in enumerate(subscribers, 1):
            histogram = r["counts"].get(phase)
            if not histogram:
                cells.append("-")
                problems.append(f"{design}: no calls counted with {n} subscribers")
                continue
            count, share, calls = path_of(histogram)
            if count is None:
                cells.append(f"longer than the plugin counts ({calls} calls)")
                problems.append(f"{design}: with {n} subscribers most calls are longer "
                                "than the plugin's histogram")
                continue
            paths[n] = count
            cells.append(f"{count} ({100 * share:.0f} % of {calls})")
            if share < 0.5:
                problems.append(f"{design}: with {n} subscribers no count has half the calls")
        ordered = [paths[n] for n in subscribers if n in paths]
        if ordered != sorted(set(ordered)):
            problems.append(f"{design}: the path does not grow with the list: {ordered}")
        static = r["static"]
        if static is None:
            static_cell = f"not walked ({r['why']})"
        else:
            static_cell = str(static)
            if paths.get(0) not in (None, static):
                problems.append(f"{design}: the disassembly's empty-list path has {static} "
                                f"instructions, the plugin counted {paths[0]}")
        longest = max((n for n in paths if n), default=None)
        per = f"{(paths[longest] - paths[0]) / longest:.1f}" if longest and 0 in paths else "-"
        lines.append(f"| {design} | {static_cell} | " + " | ".join(cells) + f" | {per} |")
    return lines, problems


def section(out, images, subscribers, require_static):
    """The bench's path-length section from the boots in out/paths/
    (one folder a kernel): (markdown lines, problems). images: design ->
    the bzImage it booted. Without require_static a kernel the walk
    cannot follow (the debug kernel's KASAN checks branch on shadow
    memory) is shown as not walked."""
    folder = os.path.join(out, "paths")
    if not os.path.isdir(folder):
        return [], []
    results = {}
    for design in images:
        counts = os.path.join(folder, design, "plugin-counts.txt")
        if os.path.isdir(os.path.dirname(counts)):
            static, why = static_count(images[design], design)
            results[design] = {"counts": read_counts(counts), "static": static, "why": why}
    lines, problems = table(results, subscribers)
    if require_static:
        problems += [f"{d}: the disassembly's walk failed: {r['why']}"
                     for d, r in results.items() if r["static"] is None]
    return ["", "## Path lengths: instructions per kill_fasync() call, counted exactly", "",
            "A boot of each kernel on one vCPU with a QEMU TCG plugin that counts every",
            "instruction of every kill_fasync() call, callees included",
            "(qemu-scripts/plugins/kill-fasync-count.c), while kill-fasync-calls makes one",
            "phase of one-byte pipe writes per list length (SIGIO ignored). Each cell is",
            "the phase's most frequent count and its share of the phase's calls; 'static'",
            "is the empty-list path read from the same vmlinux's disassembly",
            "(qemu-scripts/kill_fasync_path.py, the design's jump labels patched, NOPs",
            "counted, as the CPU runs them). The two must be equal.", ""] + lines + \
        [f"- problem: {p}" for p in problems], problems
