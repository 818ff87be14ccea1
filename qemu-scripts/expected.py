"""The expected failures, qemu-scripts/expected-failures.txt: what a
boot of a design must show (a deterministic failure: the 2.6.0 behaviour
the kit exists to show; a check of what a kernel lacks, which must
skip there) or may show (a race, within a stated number of boots). run-tests.py judges its boots by them; run-mutants.py kills a
mutant that makes a deterministic one go away."""

import os
import re
import sys

EXPECTED = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected-failures.txt")


def load_expected():
    """config -> [(kind, what, why)], from expected-failures.txt; kind is
    0 for a deterministic failure, N for a race (N boots without a hit
    fail)."""
    expected = {}
    with open(EXPECTED) as f:
        for number, line in enumerate(f, 1):
            if line.strip() and not line.startswith("#"):
                config, kind, what, why = (field.strip() for field in line.split(" | ", 3))
                if kind == "deterministic":
                    misses = 0
                elif re.fullmatch(r"race [1-9]\d*", kind):
                    misses = int(kind.split()[1])
                else:
                    sys.exit(f"{EXPECTED}:{number}: kind {kind!r}: 'deterministic' or 'race N'")
                expected.setdefault(config, []).append((misses, what, why))
    return expected


def matches(what, problem, body):
    """Whether an expected-failures entry names this problem.

    "test: <name>" names a failed test, "skip: <name>" a skipped one;
    "splat: <header> + <text> + ..."
    a report whose first line holds the header and whose lines hold each
    text (the locks, say), so that another report with the same header is
    not taken for it. "<header> or <header>": lockdep names one finding
    by whichever of its two lock orders it saw first.
    """
    kind, _, text = what.partition(": ")
    if kind == "test":
        return problem == f"not ok: {text}"
    if kind == "skip":
        return problem == f"skipped: {text}" or problem.startswith(f"skipped: {text} # SKIP")
    if kind == "splat" and problem.startswith("splat: "):
        headers, *needed = (t.strip() for t in text.split(" + "))
        return (any(h in problem for h in headers.split(" or "))
                and all(any(n in line for line in body) for n in needed))
    return False


def deterministic_missing(expected, names, problems):
    """The deterministic entries for any of names (a configuration, on
    every kernel or on one) that none of problems, [(problem, report
    lines)], matches."""
    return [what for name in names for misses, what, _ in expected.get(name, [])
            if not misses and not any(matches(what, p, body) for p, body in problems)]
