"""Tally KTAP results: "ok N name", "not ok N name # why", "ok N # SKIP why",
and the figures tests print as "# figure: <name> <number>"; several
programs' KTAP on one line, each after its "# suite: <program>"; the
kselftest runner's, a program's KTAP nested in its own; and the KUnit
suites' KTAP in a kernel console log."""

import os
import re

RESULT = re.compile(r"^(not )?ok (\d+)\b ?(.*)$")
PLAN = re.compile(r"^1\.\.(\d+)$")
FIGURE = re.compile(r"^# figure: (\S+) (-?\d+(?:\.\d+)?)$")
SUITE = re.compile(r"^# suite: (\S+)$")
# the kselftest harness's line before a test runs
RUN = re.compile(r"^#\s+RUN\s+(\S+) \.\.\.")
# KUnit: printk's time stamp, then each suite's block four spaces deep
PRINTK_TIME = re.compile(r"^\[\s*\d+\.\d+\] ")
KUNIT_INDENT = "    "
KUNIT_SUBTEST = re.compile(r"^# Subtest: (\S+)$")


class Tally:
    def __init__(self):
        self.planned = None
        self.passed = []
        self.failed = []
        self.skipped = []
        self.numbers = []
        # (status: "passed", "failed" or "skipped", the rest of the line)
        # in the order they came
        self.results = []
        self.figures = {}
        # the test the harness said it runs
        self.running = None

    def feed(self, line):
        if m := PLAN.match(line):
            self.planned = int(m.group(1))
        elif m := FIGURE.match(line):
            self.figures[m.group(1)] = float(m.group(2))
        elif m := RUN.match(line):
            self.running = m.group(1)
        elif m := RESULT.match(line):
            failed, number, name = m.group(1), int(m.group(2)), m.group(3)
            # 6.1's harness names no skipped test: its RUN line did
            if name.startswith("#") and self.running:
                name = f"{self.running} {name}"
            self.numbers.append(number)
            status = "skipped" if "# SKIP" in name else "failed" if failed else "passed"
            getattr(self, status).append(name)
            self.results.append((status, name))

    def count(self):
        return len(self.passed) + len(self.failed) + len(self.skipped)

    def missing(self):
        """Results the plan promised that never came (a crash or a hang)."""
        return max(0, (self.planned or 0) - self.count())

    def irregular(self):
        """Result numbers seen twice, or outside the plan."""
        seen, odd = set(), []
        for n in self.numbers:
            if n in seen:
                odd.append(f"result {n} came twice")
            elif self.planned is None or not 1 <= n <= self.planned:
                odd.append(f"result {n} is outside the plan 1..{self.planned}")
            seen.add(n)
        return odd

    def figure_sum(self, prefix):
        """The sum of the figures whose names start with prefix."""
        return sum(v for k, v in self.figures.items() if k.startswith(prefix))


def read_tally(path):
    """The Tally of a KTAP file a step wrote; empty if it wrote none."""
    tally = Tally()
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                tally.feed(line.rstrip("\n"))
    return tally


class RunnerTally(Tally):
    """The kselftest runner's KTAP (run_kselftest.sh): its own plan and a
    result per program, each program's KTAP one "# " deeper before it.
    The programs' results are this tally's, the runner's its .runner's."""

    def __init__(self):
        super().__init__()
        self.runner = Tally()

    def feed(self, line):
        if line.startswith("# "):
            super().feed(line[2:])
        else:
            self.runner.feed(line)


class Suites:
    """A Tally per program, in the order their "# suite:" lines came;
    lines before the first go to the first suite named; the suites
    runners names are the kselftest runner's (RunnerTally)."""

    def __init__(self, first, runners=()):
        self.tallies = {first: Tally()}
        self.current = self.tallies[first]
        self.runners = runners

    def feed(self, line):
        if m := SUITE.match(line):
            name = m.group(1)
            self.current = self.tallies.setdefault(
                name, RunnerTally() if name in self.runners else Tally())
        else:
            self.current.feed(line)

    def total(self, attribute):
        """All suites' results of one kind: passed, failed or skipped."""
        return [r for t in self.tallies.values() for r in getattr(t, attribute)]


def kunit_suites(console_lines):
    """A Tally per KUnit suite that ran at boot, from the console: the
    lines of each suite's "# Subtest:" block, one level deep (a
    parameterized case's own results, deeper, count as its one)."""
    suites, current = {}, None
    for line in console_lines:
        line = PRINTK_TIME.sub("", line.rstrip(), count=1)
        if not line.startswith(KUNIT_INDENT):
            continue
        line = line[len(KUNIT_INDENT):]
        if line.startswith(" "):
            continue
        if m := KUNIT_SUBTEST.match(line):
            current = suites.setdefault(m.group(1), Tally())
        elif current:
            current.feed(line)
    return suites


def boot_results(folder, runners=()):
    """What a boot the kit ran wrote, read back from its folder (guest.Boot's
    channel.log and console.log): {suite: {check: "pass" or "fail"}}, the
    programs' suites by name (runners: the kselftest runner's), the KUnit
    suites as "kunit-<suite>"; a skipped check is left out, and a result's
    comment ("not ok 3 name # why") with it."""
    suites = Suites("-", runners)
    with open(os.path.join(folder, "channel.log"), errors="replace") as f:
        for line in f:
            suites.feed(line.rstrip("\n"))
    with open(os.path.join(folder, "console.log"), errors="replace") as f:
        kunit = kunit_suites(f)
    tallies = {**suites.tallies, **{f"kunit-{name}": t for name, t in kunit.items()}}
    return {suite: {name.split(" #")[0].strip(): "pass" if status == "passed" else "fail"
                    for status, name in tally.results if status != "skipped"}
            for suite, tally in tallies.items() if tally.results}
