#!/usr/bin/env python3
"""make check: ktap.kunit_suites() reads the KUnit suites' results from a
kernel console as run-tests.py must: a Tally per suite, its plan and
each case, printk's time stamps and the top-level lines left out. And
run-tests.py judges the kselftest runner's run of the series' selftest
(ktap.RunnerTally, kselftest_problems()): the runner's own result, then
the program's, whose QEMU variants must skip and only they.

The excerpts are real: the debug kernel's console from a boot with
fasync_lock=rwlock, both suites passing; the guest channel's lines of
the kselftest runner from 6.1's rcu boot.
"""

import importlib.util
import os
import unittest

from ktap import RunnerTally, Suites, kunit_suites

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("run_tests", os.path.join(HERE, "run-tests.py"))
run_tests = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_tests)


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


def kselftest_run(edit=lambda line: line):
    """The runner's tally of the excerpt, each line through edit first."""
    suites = Suites("sigio-test", runners=("kselftest",))
    with open(os.path.join(HERE, "testdata", "kselftest-channel-excerpt.log")) as f:
        for line in f:
            suites.feed(edit(line.rstrip("\n")))
    return suites.tallies["kselftest"]


class KselftestRunnerTest(unittest.TestCase):
    SIZE = 8  # the five checks, rt_signal_per_packet in four variants

    def test_the_real_run_passes(self):
        tally = kselftest_run()
        self.assertIsInstance(tally, RunnerTally)
        self.assertEqual(tally.runner.passed, ["selftests: sigmouse: sigio-test"])
        self.assertEqual(len(tally.passed), 5)
        self.assertEqual(len(tally.skipped), 3)
        self.assertEqual(run_tests.kselftest_problems(tally, self.SIZE), [])

    def test_a_qemu_variant_that_ran(self):
        tally = kselftest_run(lambda line: line.replace(
            "# ok 2 # SKIP ps2 needs the host runner", "# ok 2 source.ps2.rt_signal_per_packet"))
        self.assertEqual(run_tests.kselftest_problems(tally, self.SIZE),
                         ["passed without the host runner, not skipped: "
                          "source.ps2.rt_signal_per_packet"])

    def test_a_uinput_check_skipped_or_failed(self):
        tally = kselftest_run(lambda line: line.replace(
            "ok 8 node.hangup_on_uinput_destroy", "ok 8 node.hangup_on_uinput_destroy # SKIP x")
            .replace("ok 5 node.setown_ex_thread", "not ok 5 node.setown_ex_thread"))
        self.assertEqual(run_tests.kselftest_problems(tally, self.SIZE),
                         ["not ok: node.setown_ex_thread",
                          "skipped: node.hangup_on_uinput_destroy # SKIP x"])

    def test_the_runner_failed_or_ran_nothing(self):
        tally = kselftest_run(lambda line: "not " + line if line.startswith("ok 1 selftests")
                              else line)
        self.assertEqual(run_tests.kselftest_problems(tally, self.SIZE),
                         ["runner: not ok: selftests: sigmouse: sigio-test"])
        # the program's output lost, as where /dev/stdout is missing
        tally = kselftest_run(lambda line: "" if line.startswith("# ") and "suite:" not in line
                              else line)
        self.assertEqual(run_tests.kselftest_problems(tally, self.SIZE), ["no KTAP plan"])


if __name__ == "__main__":
    unittest.main()
