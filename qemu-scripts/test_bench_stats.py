#!/usr/bin/env python3
"""make check: run-bench.py's intervals resample boots, not runs; its
precision figures, its rows' placements and regimes, and its readprofile
comparison.

Runs of one boot share its state (the pipe load's regime, the host's
load), so a boot is the independent unit: two boots whose runs agree
within each boot but differ between them must give an interval as wide
as the boots' disagreement, where resampling the runs would give a
narrow one; and one boot a side gives no spread at all.
"""

import argparse
import importlib.util
import os
import random
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("run_bench", os.path.join(HERE, "run-bench.py"))
run_bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(run_bench)


class BootstrapByBootTest(unittest.TestCase):
    def test_boots_are_the_unit(self):
        # a: one boot at 1 ns, one at 3 (2 pooled); b: two boots at 1
        a = [[1.0] * 8, [3.0] * 8]
        b = [[1.0] * 8, [1.0] * 8]
        point, low, high = run_bench.bootstrap_ratio(a, b, random.Random(1))
        self.assertAlmostEqual(0.5, point)
        # resampled boots give a's mean 1, 2 or 3: b/a from 1/3 to 1
        self.assertAlmostEqual(1 / 3, low)
        self.assertAlmostEqual(1.0, high)

    def test_one_boot_a_side_has_no_spread(self):
        a = [[1.0, 2.0, 3.0, 4.0]]
        b = [[2.0, 4.0, 6.0, 8.0]]
        self.assertEqual((2.0, 2.0, 2.0), run_bench.bootstrap_ratio(a, b, random.Random(1)))

    def test_rows_grouped_by_boot(self):
        rows = [{"mode": "mttcg", "design": "rcu", "boot": boot, "ns": ns}
                for boot, ns in ((1, 5.0), (2, 7.0), (1, 6.0))]
        rows.append({"mode": "mttcg", "design": "rwlock", "boot": 1, "ns": 9.0})
        self.assertEqual([[5.0, 6.0], [7.0]],
                         run_bench.select_boots(rows, "mttcg", "rcu", "ns"))

    def test_placement_and_regime_chosen(self):
        # a row of a run before placements is a cross-CPU run
        rows = [{"mode": "mttcg", "design": "rcu", "boot": 1, "ns": 1.0},
                {"mode": "mttcg", "design": "rcu", "boot": 1, "ns": 2.0, "placement": "local",
                 "regime": "sleeping"},
                {"mode": "mttcg", "design": "rcu", "boot": 2, "ns": 3.0, "placement": "cross",
                 "regime": "spinning"}]
        self.assertEqual([[1.0], [3.0]], run_bench.select_boots(rows, "mttcg", "rcu", "ns"))
        self.assertEqual([[2.0]], run_bench.select_boots(rows, "mttcg", "rcu", "ns", "local"))
        self.assertEqual([[3.0]], run_bench.select_boots(rows, "mttcg", "rcu", "ns",
                                                         regime="spinning"))


class PrecisionTest(unittest.TestCase):
    def test_difference_resamples_boots(self):
        a = [[1.0] * 4, [1.0] * 4]
        b = [[2.0] * 4, [4.0] * 4]
        point, low, high = run_bench.bootstrap_difference(a, b, random.Random(1))
        self.assertAlmostEqual(2.0, point)
        self.assertAlmostEqual(1.0, low)
        self.assertAlmostEqual(3.0, high)

    def test_boots_needed_grow_with_the_spread(self):
        tight = [[10.0], [10.5], [9.5], [10.0]]
        loose = [[5.0], [15.0], [8.0], [12.0]]
        n, half, needed = run_bench.precision(tight, random.Random(1))
        self.assertEqual(4, n)
        self.assertLess(half, 0.10)
        self.assertLessEqual(needed, 4)
        n, half, needed = run_bench.precision(loose, random.Random(1))
        self.assertGreater(half, 0.10)
        self.assertGreater(needed, 4)
        self.assertIsNone(run_bench.precision([[1.0, 2.0]], random.Random(1)))

    def test_extra_in_line_transfers(self):
        b = run_bench.BootResult("mttcg", "stock", 1, 250)
        for line in ("section anchor", "pingpong round=1 handovers=9 ns_per_transfer=200",
                     "pingpong round=2 handovers=9 ns_per_transfer=100"):
            b.feed(line)
        text = "\n".join(run_bench.line_transfers([b], [50.0, 60.0, 70.0], (300.0, 200.0, 400.0)))
        self.assertIn("| host | 3 | 60.0 | 55.0-65.0 |", text)
        self.assertIn("| guest (TCG) | 2 | 150.0 | 125.0-175.0 |", text)
        self.assertIn("5.0 of the host's line transfers and 2.0 of the guest (TCG)'s", text)


class CurveTest(unittest.TestCase):
    def test_points_by_subscribers_and_boot(self):
        boots = []
        for number, busy in ((1, 4), (2, 8)):
            b = run_bench.BootResult("mttcg", "rcu", number, 1000)
            b.feed("section curve")
            for n in (0, 4):
                b.feed(f"pipe-load placement=cross subscribers={n} calls=1000000 writes_per_s=1")
                b.feed(f"kprofile total={busy + n} step=1")
                b.feed(f"ksyms kill_fasync={n} send_sigio={n} default_idle=0 pipe_write={busy}")
            boots.append(b)
        curve = run_bench.pipe_rows(boots, curve=True)
        self.assertEqual([], run_bench.pipe_rows(boots))
        points = run_bench.curve_points(curve, "rcu")
        self.assertEqual([0, 4], list(points))
        self.assertEqual(2, len(points[4]))
        # 4 ticks of 1 ms in kill_fasync over a million calls: 4 ns; with send_sigio 8
        self.assertAlmostEqual(4.0, points[4][0][0]["kf_ns_per_call"])
        self.assertAlmostEqual(8.0, points[4][0][0]["fasync_ns_per_call"])
        text = "\n".join(run_bench.curve_table(boots, random.Random(1)))
        # busy kernel: (4 + 4) and (8 + 4) ticks over a million calls, by boot
        self.assertIn("| rcu | 4 | 2 | 4.0 | 8.0 | 10 (8-12) |", text)


class ProfileAgreementTest(unittest.TestCase):
    def boot(self, kprofile, readprofile):
        b = run_bench.BootResult("mttcg", "rcu", 1, 250)
        for line in ("section readprofile", kprofile, readprofile):
            b.feed(line)
        return b

    def test_equal_counts_agree(self):
        b = self.boot("ksyms (unknown)=2 kill_fasync=9 alias_a=3 alias_b=3",
                      "readprofile *unknown*=2 kill_fasync=9 alias_b=3")
        self.assertEqual((3, []), run_bench.profile_disagreements([b]))

    def test_a_different_count_is_named(self):
        # planted: one tick more in readprofile's kill_fasync
        b = self.boot("ksyms kill_fasync=9", "readprofile kill_fasync=10")
        compared, differ = run_bench.profile_disagreements([b])
        self.assertEqual(1, compared)
        self.assertEqual(["boot 1 kill_fasync: readprofile 10, kprofile 9"], differ)


class PeerTest(unittest.TestCase):
    """sigmouse against evdev: a boot's order pairs, by placement; the
    ablations' table against the kit."""

    @staticmethod
    def boot(variant, number, pairs, mode="mttcg", pin="none"):
        """A boot whose peer ran pairs of (sigmouse, evdev) packets/s."""
        b = run_bench.BootResult(mode, variant, number, 1000)
        b.feed("section peer")
        for sigmouse, evdev in pairs:
            for node, rate in (("sigmouse", sigmouse), ("evdev", evdev)):
                b.feed(f"fanout node={node} pin={pin} packets=100 packets_per_s={rate}")
        return b

    def test_pairs_by_boot_and_placement(self):
        b = self.boot("rcu", 1, [(100, 110), (100, 121)])
        b.feed("fanout node=sigmouse pin=apart packets=1 packets_per_s=50")
        b.feed("fanout node=evdev pin=apart packets=1 packets_per_s=100")
        logs = run_bench.peer_logs([b], "none")
        self.assertEqual(1, len(logs))
        self.assertAlmostEqual(1.1 * 1.1 ** 0.5, run_bench.peer_ratio(logs))
        self.assertAlmostEqual(2.0, run_bench.peer_ratio(run_bench.peer_logs([b], "apart")))

    def test_a_run_before_placements_is_unpinned(self):
        b = run_bench.BootResult("mttcg", "rcu", 1, 1000)
        b.feed("section peer")
        b.feed("fanout node=sigmouse packets=1 packets_per_s=100")
        b.feed("fanout node=evdev packets=1 packets_per_s=100")
        self.assertEqual([[0.0]], run_bench.peer_logs([b], "none"))

    def test_ablation_against_the_kit(self):
        # the kit: evdev 10 % faster in every boot; the ablation closes
        # half of it (in logs), and pinning apart doubles it (in logs)
        args = argparse.Namespace(version="6.1", ablation_design="rcu", rounds=2, seed=1,
                                  smp=2, seconds=2)
        half = 1.1 ** 0.5
        boots = [self.boot("kit", 1, [(100, 110)]), self.boot("kit", 2, [(100, 110)]),
                 self.boot("kit", 3, [(100, 121)], pin="apart"),
                 self.boot("closer", 4, [(100, 100 * half)]),
                 self.boot("closer", 5, [(100, 100 * half)])]
        text = run_bench.ablation_summary(boots, args, random.Random(1))
        rows = {line.split(" | ")[0] + "|" + line.split(" | ")[1]: line
                for line in text.splitlines() if line.startswith("| ")}
        self.assertIn("| 1.10 (95 %: 1.10-1.10, 2 pairs in 2 boots) |  |  |", rows["| kit|none"])
        self.assertIn(f"| {1 / half:.3f} ({1 / half:.3f}-{1 / half:.3f}) | 50 % |",
                      rows["| closer|none"])
        self.assertIn("| 1.100 (1.100-1.100) | -100 % |", rows["| kit|apart"])


class TimedRateTest(unittest.TestCase):
    """The rate sweep's second pass: ftrace's time over its calls, per
    rate, apart from the plain pass's points."""

    def test_time_per_call_at_each_rate(self):
        b = run_bench.BootResult("mttcg", "rcu", 1, 1000)
        for line in ("section rate", "pipe-paced rate=1000 achieved=1000 median_ns=9000",
                     "section rate-ftrace", "pipe-paced rate=1000 achieved=999",
                     "ftrace kill_fasync=2000 time_ns=500000",
                     "pipe-paced rate=100000 achieved=90000",
                     "ftrace kill_fasync=0 time_ns=0"):
            b.feed(line)
        self.assertEqual([1000.0], [r["rate"] for r in b.rate])
        self.assertEqual(250.0, b.rate_ftrace[0]["ns_per_call"])
        # a rate whose calls ftrace did not see is no point of the curve
        self.assertEqual({1000.0: [[b.rate_ftrace[0]]]},
                         run_bench.rate_points([b], "rcu", timed=True))


if __name__ == "__main__":
    unittest.main()
