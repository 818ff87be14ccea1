#!/usr/bin/env python3
"""make check-kernel: run-tests.py's KTAP document (results.py) is one
the kernel's own KTAP parser, tools/testing/kunit/kunit_parser.py of the
debug kernel's tree, reads without an error, a test per boot or row and
a subtest per suite, with the counts the JSON summary gives.

The boot is real: sigio-test's channel output from a 6.1 rcu boot (one
check failed in it) and the KUnit suites from a debug kernel's console;
the expected report, the timeout and the rows beside the boot are made
up around it.
"""

import io
import os
import sys
import unittest

from ktap import Suites, Tally, kunit_suites
from results import BootResult, ktap_document, summary

HERE = os.path.dirname(os.path.abspath(__file__))
# the debug kernel's tree (check.sh says which), 6.1's if run alone
TREE = os.environ.get("KERNEL_TREE", os.path.join(HERE, "..", "build", "6.1", "linux"))
KUNIT_TOOL = os.path.join(TREE, "tools", "testing", "kunit")


def lines_of(name):
    with open(os.path.join(HERE, "testdata", name)) as f:
        return [line.rstrip("\n") for line in f]


def boot():
    """The rcu boot as run-tests.py judges it, with one expected report
    and one timeout more than it had."""
    suites = Suites("sigio-test")
    for line in lines_of("sigio-test-channel-excerpt.log"):
        if not line.startswith("@@ "):  # the guest's requests: Boot answers them
            suites.feed(line)
    for suite, tally in kunit_suites(lines_of("kunit-console-excerpt.log")).items():
        suites.tallies[f"kunit {suite}"] = tally
    fresh = [f"not ok: {t}" for t in suites.tallies["sigio-test"].failed]
    fresh.append("timeout: the guest ran past 900 s")
    xfail = [("splat: BUG: KASAN: slab-use-after-free in send_sigio [#1]", "a known race")]
    return BootResult("6.1/rcu", [(s, t, "" if s == "sigio-test" else f"{s}: ")
                                  for s, t in suites.tallies.items()], fresh, xfail)


def series():
    tally = Tally()
    for line in ["1..3", "ok 1 series.git_am_onto_pristine", "ok 2 series.checkpatch_strict",
                 "ok 3 series.prefixes_build # SKIP WALK=no"]:
        tally.feed(line)
    # run-tests.py fails a skip too
    return BootResult("6.1/series", [("series", tally, "")],
                      [f"skipped: {t}" for t in tally.skipped])


def parse(lines):
    """kunit_parser's Test of the document, its printing kept quiet."""
    if not os.path.exists(os.path.join(KUNIT_TOOL, "kunit_parser.py")):
        raise AssertionError(f"no kunit_parser.py in {KUNIT_TOOL}: make kernel extracts the "
                             "debug kernel's tree, or set KERNEL_TREE to a kernel tree")
    sys.path.insert(0, KUNIT_TOOL)
    try:
        import kunit_parser
        import kunit_printer
    finally:
        sys.path.remove(KUNIT_TOOL)
    kunit_parser.stdout = kunit_printer.Printer(io.StringIO())
    return kunit_parser.parse_run_tests(lines), kunit_parser.TestStatus


class ResultsTest(unittest.TestCase):
    def setUp(self):
        self.boots = [boot(), BootResult("6.1/bad-options", check="bad-options"), series(),
                      BootResult("6.1/atlas-report", check="atlas-report",
                                 fresh=["row pipe_read_data: stale", "skipped: differ"])]
        self.test, self.status = parse(ktap_document(self.boots))

    def test_parsed_without_errors(self):
        self.assertEqual(self.test.counts.errors, 0)
        self.assertEqual(self.test.status, self.status.FAILURE)

    def test_a_test_per_row_a_subtest_per_suite(self):
        self.assertEqual([t.name for t in self.test.subtests],
                         ["6.1/rcu", "6.1/bad-options", "6.1/series", "6.1/atlas-report"])
        rcu = self.test.subtests[0]
        self.assertEqual([t.name for t in rcu.subtests][:3],
                         ["sigio-test", "kunit fasync", "kunit sigmouse"])
        self.assertEqual(len(rcu.subtests[0].subtests), 79)
        self.assertEqual(rcu.subtests[0].subtests[50].name, "node.fasync_add_race_sampler")
        self.assertEqual(rcu.subtests[0].subtests[50].status, self.status.FAILURE)
        self.assertEqual(self.test.subtests[1].status, self.status.SUCCESS)
        # a failed check is its problems
        self.assertEqual([t.name for t in self.test.subtests[3].subtests],
                         ["row pipe_read_data: stale", "skipped: differ"])

    def test_counts_agree_with_the_summary(self):
        totals = summary(self.boots)["totals"]
        self.assertEqual(totals, {"passed": 78 + 5 + 9 + 1 + 2, "failed": 5, "skipped": 1,
                                  "xfail": 1})
        self.assertEqual(self.test.counts.passed, totals["passed"])
        self.assertEqual(self.test.counts.skipped, totals["skipped"])
        # kunit_parser knows no XFAIL: it counts the expected report as failed
        self.assertEqual(self.test.counts.failed, totals["failed"] + totals["xfail"])

    def test_summary_names_the_failures(self):
        rcu = summary(self.boots)["boots"][0]
        self.assertEqual(rcu["failures"], ["not ok: node.fasync_add_race_sampler",
                                           "timeout: the guest ran past 900 s"])
        self.assertEqual((rcu["passed"], rcu["failed"], rcu["xfail"]), (92, 2, 1))


if __name__ == "__main__":
    unittest.main()
