#!/usr/bin/env python3
"""make atlas-report: docs/sigio-atlas-<version>.md from the last test
run's boots, and the check that the committed report is not stale.

sigio-atlas prints, before each result, one "# atlas: {json}" line: the
source, the event, the check, the kernel function that sends the signal,
how the event was provoked, what fcntl(2) and the source's code say
should arrive, what did, and the finding where 6.1 deviates. This reads
the atlas's part of every debug boot's channel log (build/<version>/test/
<design>/channel.log), pairs each line with its KTAP result and writes one row per
source and event with the result under each design, then the findings
and the sources skipped, with their reasons. It fails when a design's
boot has no atlas results, so a report is never made from nothing.

make test boots the atlas under one design only; stale_problems() holds
that boot against the committed report: every row the boot can derive
(source, event, provocation, sender, expected and observed signal, and
the boot's own design in each check's cell) must be the report's, every
variant the boot skipped listed as skipped and none else, and the boot
must have every result its plan has (a truncated log is no evidence).
"""

import argparse
import json
import os
import re
import sys

from guest import (DESIGNS, add_version_argument, build_folder, suite_source, suite_tests,
                   suite_variants)
from ktap import RESULT, SUITE as SUITE_LINE

ATLAS = re.compile(r"^# atlas: (\{.*\})$")
# the harness names a test when it starts it; a skip's result line
# ("ok N # SKIP why") does not
RUN = re.compile(r"^#\s+RUN\s+(\S+) \.\.\.$")
SUITE = "sigio-atlas"
# the checks of an event, in the order of the table's columns
CHECKS = ("rt_signal", "setsig_sigio", "plain_sigio", "setown_ex_thread", "async_off_silent",
          "no_owner", "unprivileged_owner")
# a table cell: " | " not escaped as "\\|"
CELL_SEPARATOR = re.compile(r"(?<!\\) \| ")
SKIPPED_LINE = re.compile(r"^- `(\w+)`: ")


def report_path(top, linux):
    """Where a kernel version's report is committed."""
    return os.path.join(top, "docs", f"sigio-atlas-{linux}.md")


def read_boot(path):
    """[(record or None, test name, "ok"/"not ok"/"skip", skip reason)]
    of the atlas in one boot's channel log."""
    results, record, running, in_atlas = [], None, "", False
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if m := SUITE_LINE.match(line):
                in_atlas = m.group(1) == SUITE
            elif not in_atlas:
                continue
            elif m := RUN.match(line):
                running = m.group(1)
            elif m := ATLAS.match(line):
                record = json.loads(m.group(1))
            elif m := RESULT.match(line):
                text = m.group(3)
                verdict = "skip" if "# SKIP" in text else ("not ok" if m.group(1) else "ok")
                results.append((record, running, verdict, text.partition("# SKIP")[2].strip()))
                record = None
    return results


def variant_of(name):
    """source.<variant>.<check> -> (variant, check)."""
    parts = name.split(".")
    return (parts[1], parts[2]) if len(parts) == 3 else (name, "")


def describe(signal):
    if not signal:
        return "nothing"
    return f"{signal.get('signo')} {signal.get('code')} {signal.get('band', '')}".strip()


def build_rows(boots):
    """variant -> {"record": rt_signal record, "checks": {check: {design:
    (verdict, record)}}}, in the order the atlas ran them."""
    rows = {}
    for design, results in boots.items():
        for record, name, verdict, why in results:
            variant, check = variant_of(name)
            row = rows.setdefault(variant, {"records": {}, "checks": {}, "skips": {}})
            row["checks"].setdefault(check, {})[design] = (verdict, record)
            if record:
                row["records"].setdefault(check, record)
            if verdict == "skip":
                row["skips"][check] = why
    return rows


def cell(results, designs):
    """One check's verdict under every design: "ok" when all agree."""
    verdicts = [results.get(d, ("missing", None))[0] for d in designs]
    if len(set(verdicts)) == 1:
        return verdicts[0]
    return ", ".join(f"{d}: {v}" for d, v in zip(designs, verdicts))


def event_cells(record):
    """The cells of an event's row before the checks', as the table has them."""
    cells = [record["source"], record["event"], record.get("provoke", ""),
             f"`{record.get('sender', '')}`", describe(record.get("expected")),
             describe(record.get("observed"))]
    return [str(c).replace("|", "\\|") for c in cells]


def table_row(record, verdicts):
    return "| " + " | ".join(event_cells(record) + verdicts) + " |"


def render(rows, designs, source_of_run, linux):
    findings, skipped, events = [], [], 0
    lines = [
        f"# The SIGIO atlas of Linux {linux}",
        "",
        "Generated by `make atlas-report` from the debug kernel's boots of "
        + source_of_run + ", one per fasync design; do not edit by hand. Each row is one event of one of the "
        "kernel's own fasync users, provoked in a QEMU guest by "
        "`guest-apps/sigio-atlas.c`: subscribed with `F_SETOWN`, `O_ASYNC` (`F_NOTIFY` "
        "for dnotify, `F_SETLEASE` for leases) and `F_SETSIG` to a real-time signal, "
        "the queued signal's `si_signo`, `si_code`, `si_band` and `si_fd` compared with "
        "what fcntl(2) and the source's code say (expected and observed: the rt signal "
        "check, SIGRTMIN+1). The other checks of each event: `F_SETSIG(SIGIO)`, plain "
        "SIGIO without `F_SETSIG`, `F_SETOWN_EX` to one thread (the signal must be "
        "queued to that thread), silence once `O_ASYNC` is cleared, no `F_SETOWN` "
        "at all, and owners across users (a process of another uid named as owner by "
        "an unprivileged one gets nothing, while one that names itself is signalled, "
        "for a process, a group and a thread). A hangup is an event of its own. A deviation from the documented "
        f"semantics is a finding: the check asserts what {linux} does, so it fails if that "
        "changes, and the finding is listed below.",
        "",
        f"Designs: {', '.join(designs)}. A cell reads `ok` when the check passed "
        "under every design, otherwise it gives each design's result.",
        "",
        "| source | event | provoked by | sent by | expected | observed | "
        + " | ".join(c.replace("_", " ") for c in CHECKS) + " |",
        "| --- | --- | --- | --- | --- | --- |" + " --- |" * len(CHECKS),
    ]
    sources = set()
    for variant, row in rows.items():
        record = row["records"].get("rt_signal")
        if record is None:
            skipped.append((variant, "; ".join(sorted(set(row["skips"].values())))
                            or "no atlas line printed"))
            continue
        sources.add(record["source"])
        events += 1
        lines.append(table_row(record, [cell(row["checks"].get(c, {}), designs)
                                        for c in CHECKS]))
        for check, rec in row["records"].items():
            if rec.get("finding"):
                findings.append((variant, check, rec["source"], rec["event"], rec["finding"]))
    listed, seen = [], set()
    for variant, check, source, event, text in findings:
        if text not in seen:
            seen.add(text)
            listed.append(f"- **{source}, {event}** (`{variant}`, {check}): {text}")
    lines += ["", f"{len(sources)} sources, {events} events driven, "
              f"{len(skipped)} variants skipped, {len(listed)} findings.", "",
              "## Findings", ""] + (listed or ["None."])
    lines += ["", "## Skipped", ""]
    lines += [f"- `{variant}`: {why}" for variant, why in skipped] or ["None."]
    return "\n".join(lines) + "\n"


def boot_log(build, design):
    return os.path.join(build, "test", design, "channel.log")


def read_report(path):
    """({(source, event): cells}, skipped variants) of a committed report."""
    rows, skipped = {}, set()
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if m := SKIPPED_LINE.match(line):
                skipped.add(m.group(1))
            elif line.startswith("| ") and not line.startswith(("| source |", "| --- |")):
                cells = CELL_SEPARATOR.split(line[2:-2])
                rows[(cells[0], cells[1])] = cells
    return rows, skipped


def design_verdict(text, design):
    """A design's verdict in a check's cell: "ok" for all, or "d: v, ...". """
    if ": " not in text:
        return text
    for part in text.split(", "):
        name, _, verdict = part.partition(": ")
        if name == design:
            return verdict
    return "missing"


def stale_problems(build, design, path):
    """What the boot of design in build says the report at path gets wrong."""
    log = boot_log(build, design)
    results = read_boot(log) if os.path.exists(log) else []
    text = suite_source(SUITE)
    planned = len(suite_tests(text)) * len(suite_variants(text))
    if len(results) != planned:
        return [f"{log}: {len(results)} atlas results, the plan has {planned}: no evidence "
                "for the report"]
    return [f"{path}: {p}" for p in report_problems(results, design, path)]


def report_problems(results, design, path):
    """Where the report at path disagrees with one design's atlas results."""
    reported, reported_skips = read_report(path)
    problems, seen, skipped = [], set(), set()
    for variant, row in build_rows({design: results}).items():
        record = row["records"].get("rt_signal")
        if record is None:
            skipped.add(variant)
            continue
        key = tuple(event_cells(record)[:2])
        seen.add(key)
        cells = reported.get(key)
        if cells is None:
            problems.append(f"{variant}: no row for {key[0]}, {key[1]}")
            continue
        if cells[:6] != event_cells(record):
            problems.append(f"{variant}: the row reads {cells[:6]}, the boot {event_cells(record)}")
        for check, reported_cell in zip(CHECKS, cells[6:] + ["missing"] * len(CHECKS)):
            verdict = row["checks"].get(check, {}).get(design, ("missing", None))[0]
            if design_verdict(reported_cell, design) != verdict:
                problems.append(f"{variant}: {check} reads {reported_cell!r}, "
                                f"{design}'s boot {verdict!r}")
    problems += [f"a row for {k[0]}, {k[1]}, which the boot did not drive"
                 for k in reported if k not in seen]
    if skipped != reported_skips:
        problems.append(f"skipped: the boot {sorted(skipped)}, the report "
                        f"{sorted(reported_skips)}")
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    add_version_argument(parser)
    parser.add_argument("--output", default="-")
    args = parser.parse_args()
    build = build_folder(args.version)
    boots = {}
    for design in DESIGNS:
        path = boot_log(build, design)
        results = read_boot(path) if os.path.exists(path) else []
        if not results:
            sys.exit(f"atlas_report: no sigio-atlas results in {path}: run make test-all first")
        boots[design] = results
    revision = os.path.join(build, "test", "revision")
    with open(revision) if os.path.exists(revision) else open(os.devnull) as f:
        commit = f.read().strip() or "an unknown commit"
    text = render(build_rows(boots), list(DESIGNS), f"the last test run (at {commit})",
                  args.version)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
