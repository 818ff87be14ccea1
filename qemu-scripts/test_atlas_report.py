#!/usr/bin/env python3
"""make check: atlas_report.py reads a boot's channel log as the atlas
writes it: only the lines after "# suite: sigio-atlas", each "# atlas:"
record paired with its test's result, a skip (whose result line names no
test) by the test the harness last started, and every check of an event
in its row. The excerpt is real: the end of sigio-test and the atlas's
first two events (12 checks) from an rcu boot of make test.
"""

import os
import tempfile
import unittest

from atlas_report import build_rows, read_boot, render, report_problems

HERE = os.path.dirname(os.path.abspath(__file__))
EXCERPT = os.path.join(HERE, "testdata", "atlas-channel-excerpt.log")


class AtlasReportTest(unittest.TestCase):
    def test_pairs_records_with_results(self):
        results = read_boot(EXCERPT)
        self.assertEqual(12, len(results))
        record, name, verdict, why = results[0]
        self.assertEqual("source.pipe_read_data.rt_signal", name)
        self.assertEqual("ok", verdict)
        self.assertEqual("fs/pipe.c: pipe_write()", record["sender"])
        self.assertEqual("POLL_IN", record["observed"]["code"])
        self.assertTrue(all(r[0] is not None for r in results))

    def test_skip_named_by_the_test_started(self):
        path = os.path.join(self.enterContext(tempfile.TemporaryDirectory()), "channel.log")
        with open(path, "w") as f:
            f.write("# suite: sigio-atlas\nTAP version 13\n1..1\n"
                    "#  RUN           source.rtc_update.rt_signal ...\n"
                    "#      SKIP      /dev/rtc0: No such file or directory\n"
                    "ok 1 # SKIP /dev/rtc0: No such file or directory\n")
        self.assertEqual([(None, "source.rtc_update.rt_signal", "skip",
                           "/dev/rtc0: No such file or directory")], read_boot(path))

    def test_rows_per_event_and_designs(self):
        results = read_boot(EXCERPT)
        failed = [(r, n, "not ok" if n.endswith("no_owner") else v, w)
                  for r, n, v, w in results]
        rows = build_rows({"rcu": results, "rwlock": failed})
        self.assertEqual(["pipe_read_data", "pipe_read_hangup"], list(rows))
        text = render(rows, ["rcu", "rwlock"], "a test", "6.1")
        self.assertIn("1 sources, 2 events driven, 0 variants skipped, 1 findings.", text)
        self.assertIn("| rcu: ok, rwlock: not ok |", text)
        self.assertIn("`fs/pipe.c: pipe_release()`", text)


    def report_of(self, boots):
        path = os.path.join(self.enterContext(tempfile.TemporaryDirectory()), "report.md")
        with open(path, "w") as f:
            f.write(render(build_rows(boots), list(boots), "a test", "6.1"))
        return path

    def test_report_matches_its_boot(self):
        results = read_boot(EXCERPT)
        failed = [(r, n, "not ok" if n.endswith("no_owner") else v, w)
                  for r, n, v, w in results]
        path = self.report_of({"rcu": results, "rwlock": failed})
        self.assertEqual([], report_problems(results, "rcu", path))
        self.assertEqual([], report_problems(failed, "rwlock", path))

    def test_stale_report_fails(self):
        results = read_boot(EXCERPT)
        path = self.report_of({"rcu": results})
        # a check that fails now, a row the boot no longer drives, a skip
        failed = [(r, n, "not ok" if n.endswith("pipe_read_data.no_owner") else v, w)
                  for r, n, v, w in results]
        self.assertEqual(["pipe_read_data: no_owner reads 'ok', rcu's boot 'not ok'"],
                         report_problems(failed, "rcu", path))
        self.assertIn("a row for pipe, the last writer closes, which the boot did not drive",
                      report_problems(results[:6], "rcu", path))
        skipped = [(None if "hangup" in n else r, n, "skip" if "hangup" in n else v, "gone")
                   for r, n, v, w in results]
        problems = report_problems(skipped, "rcu", path)
        self.assertIn("skipped: the boot ['pipe_read_hangup'], the report []", problems)
        observed = [({**r, "observed": None}, n, v, w) for r, n, v, w in results]
        self.assertTrue(any("the row reads" in p
                            for p in report_problems(observed, "rcu", path)))


if __name__ == "__main__":
    unittest.main()
