#!/usr/bin/env python3
"""make check: ktap.kunit_suites() reads the KUnit suites' results from a
kernel console as run-tests.py must: a Tally per suite, its plan and
each case, printk's time stamps and the top-level lines left out.

The excerpt is real: the debug kernel's console from a boot with
fasync_lock=rwlock, both suites passing.
"""

import os
import unittest

from ktap import kunit_suites

HERE = os.path.dirname(os.path.abspath(__file__))


def console():
    with open(os.path.join(HERE, "testdata", "kunit-console-excerpt.log")) as f:
        return [line.rstrip("\n") for line in f]


class KunitSuitesTest(unittest.TestCase):
    def test_both_suites_pass(self):
        suites = kunit_suites(console())
        self.assertEqual(sorted(suites), ["fasync", "sigmouse"])
        self.assertEqual(suites["fasync"].planned, 5)
        self.assertEqual(len(suites["fasync"].passed), 5)
        self.assertEqual(suites["sigmouse"].planned, 9)
        self.assertEqual(suites["sigmouse"].passed[0], "sigmouse_test_relative_frame")
        self.assertFalse(suites["sigmouse"].failed or suites["sigmouse"].irregular())

    def test_a_failed_case_and_a_missing_one(self):
        lines = console()
        lines = [line.replace("    ok 3 fasync_test_wait_reason",
                              "    not ok 3 fasync_test_wait_reason") for line in lines
                 if "ok 9 sigmouse_test_put_back_into_full_ring" not in line]
        suites = kunit_suites(lines)
        self.assertEqual(suites["fasync"].failed, ["fasync_test_wait_reason"])
        self.assertEqual(suites["sigmouse"].missing(), 1)

    def test_nothing_outside_a_suite(self):
        self.assertEqual(kunit_suites(["[    1.0] ok 1 fasync", "    ok 1 stray"]), {})


if __name__ == "__main__":
    unittest.main()
