#!/usr/bin/env python3
"""make check-host: `make help` lists every target of the Makefile, one
line each, and plain `make` is `make help` (it builds nothing); make
test-one hands its settings to run-tests.py under their one names."""

import os
import re
import subprocess
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def make(*args, check=True):
    # not the calling make's flags (make check-host runs this under make)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    return subprocess.run(["make", "-s", "--no-print-directory", "-C", TOP, *args],
                          capture_output=True, text=True, check=check, env=env)


class MakeHelpTest(unittest.TestCase):
    def test_every_target_listed(self):
        with open(os.path.join(TOP, "Makefile")) as f:
            phony = re.search(r"^\.PHONY:(.*)$", f.read(), re.M).group(1).split()
        listed = [line.split()[0] for line in make("help").stdout.splitlines()
                  if line.startswith("  ")]
        self.assertEqual(sorted(listed), sorted(phony))

    def test_plain_make_is_help(self):
        self.assertEqual(make().stdout, make("help").stdout)


class TestOneTest(unittest.TestCase):
    # make -n: the recipes printed, nothing built or booted
    def test_settings_reach_run_tests(self):
        lines = make("-n", "test-one", "CHECK=read_sizes,pipe_read_data", "DESIGN=waitqueue",
                     "VERSION=6.12").stdout.splitlines()
        self.assertIn("python3 qemu-scripts/run-tests.py --version 6.12 --design waitqueue "
                      "--only read_sizes,pipe_read_data", lines)

    def test_needs_a_check(self):
        done = make("-n", "test-one", check=False)
        self.assertNotEqual(done.returncode, 0)
        self.assertIn("make test-one needs CHECK=name", done.stderr)
        self.assertEqual(done.stdout, "")


if __name__ == "__main__":
    unittest.main()
