#!/usr/bin/env python3
"""make check-host: lava_jobs.py writes jobs LAVA's own schema
(lava_common.schemas, Debian's lava-common) accepts, strictly, for every
boot of make test and make test-all, and the schema is no rubber stamp:
a job with a monitor LAVA cannot name fails it. Its result pattern
takes a check's line as a test case and a skipped check's as none, in
both kernels' harness forms, the kselftest runner's and KUnit's, and on
a real console of a boot with a job's command line (one serial line)
its monitors make a case of every check that ran and of no skip, and
none of half a line (LAVA matches the stream as it comes); the checks it
leaves to the local runner are the QEMU mice's. lava_results.py's
comparison finds no difference where LAVA's cases say what a local
boot's logs say, and finds each planted one: another result, a check
LAVA has no case of, a case the local boot has no result of.

Run with Debian's python3, which has lava-common (check.sh does).
"""

import os
import re
import tempfile
import unittest

from lava_common.schemas import validate
from voluptuous import Invalid

import lava_jobs
from lava_results import differences
from ktap import boot_results
from test_plan import plan

HERE = os.path.dirname(os.path.abspath(__file__))


class LavaJobsTest(unittest.TestCase):
    def test_every_boot_validates(self):
        configs = plan(["6.1", "6.12"]) + plan(["6.1", "6.12"], every=True)
        self.assertEqual(len(configs), 6 + 16)
        for config in configs:
            validate(lava_jobs.job(config, None), strict=True)

    def test_a_bad_job_fails(self):
        job = lava_jobs.job(plan(["6.1"])[0], "http://lab.example/build")
        job["actions"][2]["test"]["monitors"][0]["name"] = "kunit sigmouse"
        with self.assertRaises(Invalid):
            validate(job, strict=True)
        del job["actions"][0]["deploy"]["to"]
        with self.assertRaises(Invalid):
            validate(job, strict=True)

    def match(self, pattern, line):
        found = re.search(pattern, line + "\n")
        return found and (found["result"], found["test_case_id"])

    def test_result_lines(self):
        result = lava_jobs.RESULT
        self.assertEqual(self.match(result, "ok 3 node.read_sizes"), ("ok", "node.read_sizes"))
        self.assertEqual(self.match(result, "not ok 7 source.uinput.plain_sigio"),
                         ("not ok", "source.uinput.plain_sigio"))
        # 6.12's skip names the check, 6.1's does not: neither is a case
        self.assertIsNone(self.match(
            result, "ok 2 source.ps2.rt_signal_per_packet # SKIP ps2 needs the host runner"))
        self.assertIsNone(self.match(result, "ok 2 # SKIP ps2 needs the host runner"))
        self.assertEqual(self.match("# " + result, "# ok 5 node.setown_ex_thread"),
                         ("ok", "node.setown_ex_thread"))
        self.assertEqual(self.match(r"\]     " + result,
                                    "[    7.034149]     ok 1 fasync_test_helper_bookkeeping"),
                         ("ok", "fasync_test_helper_bookkeeping"))

    def test_half_a_line(self):
        """LAVA matches as the console streams in: an end pattern must not
        take a case's name still arriving for its suite's, and a kernel
        line with "took N ns" in it is no case."""
        monitors = lava_jobs.monitors(plan(["6.1"])[0])
        kunit = next(m for m in monitors if m["name"] == "kunit-sigmouse")
        # "ok 5 sigmouse_test_key_frame" received as far as its suite's name
        self.assertIsNone(re.search(kunit["end"], "[   11.5]     ok 5 sigmouse"))
        self.assertTrue(re.search(kunit["end"], "[   11.6] ok 2 sigmouse\r\n"))
        program = next(m for m in monitors if m["name"] == "sigio-test")
        self.assertIsNone(re.search(program["pattern"],
                                    "[  30.1] hrtimer: interrupt took 50407960 ns\r\n"))
        self.assertTrue(re.search(program["pattern"], "\r\nok 3 node.read_sizes\r\n"))

    def test_a_real_console(self):
        """6.1's rcu boot as the job's command line made it, one serial
        line (sigmouse_channel=console), three of the suite's checks."""
        config = plan(["6.1"], designs=["rcu"],
                      chosen={"sigio-test": ["read_sizes", "setown_ex_thread",
                                             "rt_signal_per_packet"], "sigio-atlas": []})[0]
        with open(os.path.join(HERE, "testdata", "lava-console-6.1-rcu.log")) as f:
            cases = lava_jobs.monitor_cases(lava_jobs.job(config, None), f.read())
        self.assertEqual(sorted(cases), ["kunit-fasync", "kunit-sigmouse", "sigio-test"])
        self.assertEqual(len(cases["kunit-fasync"]), 8)
        self.assertEqual(len(cases["kunit-sigmouse"]), 13)
        self.assertEqual(cases["sigio-test"], [("source.uinput.rt_signal_per_packet", "pass"),
                                               ("node.read_sizes", "pass"),
                                               ("node.setown_ex_thread", "pass")])
        self.assertEqual({result for found in cases.values() for _, result in found}, {"pass"})

    def test_the_qemu_mice_stay_local(self):
        local = lava_jobs.local_only("sigio-test")
        self.assertEqual(len(local), 16)
        self.assertIn("virtio_unplug.unplug_then_replug", local)
        self.assertFalse([c for c in local if ".uinput." in c or c.startswith("node.")])



class CompareTest(unittest.TestCase):
    """A local boot's folder as guest.Boot writes it, the channel's KTAP
    and the console's KUnit, held against LAVA's cases of the same."""

    CHANNEL = ["# suite: sigio-test", "TAP version 13", "1..4",
               "ok 1 source.uinput.plain_sigio",
               "ok 2 source.ps2.plain_sigio",
               "not ok 3 node.setown_ex_thread # the thread got no SIGIO",
               "#  RUN           node.read_sizes ...",
               "ok 4 # SKIP no uinput"]
    CONSOLE = ["[   13.191378]     # Subtest: fasync", "[   13.191400]     1..1",
               "[   13.200000]     ok 1 fasync_test_helper_bookkeeping",
               "[   13.300000] ok 1 fasync"]
    LOCAL_ONLY = {"sigio-test: source.ps2.plain_sigio"}

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        for name, lines in (("channel.log", self.CHANNEL), ("console.log", self.CONSOLE)):
            with open(os.path.join(folder.name, name), "w") as f:
                f.write("\n".join(lines) + "\n")
        self.local = boot_results(folder.name)
        self.lava = {"sigio-test": {"source_uinput_plain_sigio": "pass",
                                    "node_setown_ex_thread": "fail"},
                     "kunit-fasync": {"fasync_test_helper_bookkeeping": "pass"}}

    def test_the_local_boot_read_back(self):
        self.assertEqual(self.local, {
            "sigio-test": {"source.uinput.plain_sigio": "pass", "source.ps2.plain_sigio": "pass",
                           "node.setown_ex_thread": "fail"},
            "kunit-fasync": {"fasync_test_helper_bookkeeping": "pass"}})

    def test_the_same_results_agree(self):
        self.assertEqual(differences(self.local, self.lava, self.LOCAL_ONLY), [])

    def test_each_difference_is_found(self):
        self.lava["sigio-test"]["node_setown_ex_thread"] = "pass"
        del self.lava["kunit-fasync"]["fasync_test_helper_bookkeeping"]
        self.lava["sigio-test"]["node_read_sizes"] = "pass"
        self.assertEqual(differences(self.local, self.lava, self.LOCAL_ONLY), [
            ("kunit-fasync", "fasync_test_helper_bookkeeping", "pass", "none"),
            ("sigio-test", "node_read_sizes", "none", "pass"),
            ("sigio-test", "node.setown_ex_thread", "fail", "pass")])
        self.assertEqual(len(differences(self.local, self.lava, set())), 4)


if __name__ == "__main__":
    unittest.main()
