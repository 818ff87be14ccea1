#!/usr/bin/env python3
"""make check-host: `make help` lists every target of the Makefile, one
line each, and plain `make` is `make help` (it builds nothing)."""

import os
import re
import subprocess
import unittest

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def make(*args):
    # not the calling make's flags (make check-host runs this under make)
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS")}
    return subprocess.run(["make", "-s", "--no-print-directory", "-C", TOP, *args],
                          capture_output=True, text=True, check=True, env=env).stdout


class MakeHelpTest(unittest.TestCase):
    def test_every_target_listed(self):
        with open(os.path.join(TOP, "Makefile")) as f:
            phony = re.search(r"^\.PHONY:(.*)$", f.read(), re.M).group(1).split()
        listed = [line.split()[0] for line in make("help").splitlines()
                  if line.startswith("  ")]
        self.assertEqual(sorted(listed), sorted(phony))

    def test_plain_make_is_help(self):
        self.assertEqual(make(), make("help"))


if __name__ == "__main__":
    unittest.main()
