#!/usr/bin/env python3
"""make check: run-bench.py's intervals resample boots, not runs.

Runs of one boot share its state (the pipe load's regime, the host's
load), so a boot is the independent unit: two boots whose runs agree
within each boot but differ between them must give an interval as wide
as the boots' disagreement, where resampling the runs would give a
narrow one; and one boot a side gives no spread at all.
"""

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


if __name__ == "__main__":
    unittest.main()
