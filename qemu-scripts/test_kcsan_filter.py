#!/usr/bin/env python3
"""make check: kcsan_filter.py sorts saved reports of each kind as the
runners must: a data race in stock code is listed, one in the project's
code counts, and every other kind of report counts.

The reports are real, as the runner cut them from a console: the stock
race from a kcsan/rcu boot of make test, the project's from the kcsan/rcu
boot that found kill_fasync()'s unannotated empty-list test (patch 0003
now annotates it; docs/findings/kcsan-kill-fasync-quick-test.txt), the
series' race seen in stock functions only from the kcsan boot of
mutants/157-info-name-staged-globally.patch, the lockdep report from the
rwlock boot's finding.
"""

import os
import unittest

from kcsan_filter import defined_functions, racing_functions, split_reports

HERE = os.path.dirname(os.path.abspath(__file__))
# the debug kernel's tree (check.sh says which), 6.1's if run alone
OURS = defined_functions(
    os.environ.get("KERNEL_TREE", os.path.join(HERE, "..", "build", "6.1", "linux")))


def saved(path):
    with open(os.path.join(HERE, path)) as f:
        return [line.rstrip("\n") for line in f]


class KcsanFilterTest(unittest.TestCase):
    def test_headers(self):
        self.assertEqual(racing_functions(
            "[   17.4] BUG: KCSAN: data-race in __bitmap_and+0x9b/0x100"), ["__bitmap_and"])
        self.assertEqual(racing_functions(
            "BUG: KCSAN: data-race in sigmouse_fetch_packet / sigmouse_pass_packet.isra.0"),
            ["sigmouse_fetch_packet", "sigmouse_pass_packet"])
        self.assertEqual(racing_functions("BUG: KASAN: use-after-free in kill_fasync"), [])

    def test_stock_race_is_listed(self):
        report = saved("testdata/kcsan-stock-tlb-flush.txt")
        self.assertEqual(split_reports([report], OURS), ([], [report]))

    def test_project_race_counts(self):
        report = saved("testdata/kcsan-project-quick-test.txt")
        self.assertEqual(split_reports([report], OURS), ([report], []))

    def test_race_reached_through_the_series_counts(self):
        # the stock race's report, its access reached through the driver
        report = saved("testdata/kcsan-stock-tlb-flush.txt")
        at = report.index("[   17.468598]  asm_exc_page_fault+0x22/0x30")
        through = report[:at] + ["[   17.468598]  sigmouse_read+0x1a/0x2c0"] + report[at:]
        self.assertEqual(split_reports([through], OURS), ([through], []))
        # the input core's frames alone are not the series'
        through = report[:at] + ["[   17.468598]  input_event+0x5d/0x80"] + report[at:]
        self.assertEqual(split_reports([through], OURS), ([], [through]))

    def test_series_race_in_stock_functions_counts(self):
        # mutant 157: two devices' SIGMOUSE_IOC_INFO race on a static
        # buffer in strncpy() alone; only the stacks name the driver
        report = saved("testdata/kcsan-series-strncpy.txt")
        self.assertEqual(racing_functions(report[0]), ["strncpy", "strncpy"])
        self.assertFalse(set(racing_functions(report[0])) & OURS.ours)
        self.assertEqual(split_reports([report], OURS), ([report], []))
        # the same stacks without the driver's frames are stock code's
        stock = [line for line in report if "sigmouse_" not in line]
        self.assertEqual(split_reports([stock], OURS), ([], [stock]))

    def test_other_reports_count(self):
        report = saved("../docs/findings/rwlock-irq-lock-inversion.txt")
        self.assertEqual(split_reports([report], OURS), ([report], []))


if __name__ == "__main__":
    unittest.main()
