#!/usr/bin/env python3
"""make check: every ablation of driver/ablations/ (make bench-ablations)
says what it changes and what it tests, changes the driver only, and
applies exactly to today's driver: a driver edit that leaves one stale
fails here, not half an hour into a bench run."""

import os
import re
import shutil
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from io import StringIO

import kernel_variant

HERE = os.path.dirname(os.path.abspath(__file__))
ABLATIONS = os.path.join(HERE, "..", "driver", "ablations")
DRIVER = os.path.join(HERE, "..", "driver", "sigmouse.c")
# where driver/files puts the driver in the kernel tree
IN_TREE = "drivers/input/sigmouse.c"


def applies(tree, path):
    """Whether kernel_variant.patch() takes the patch, exactly."""
    try:
        with redirect_stdout(StringIO()), redirect_stderr(StringIO()):
            kernel_variant.patch(tree, path, True, dry_run=True, who="test")
    except SystemExit:
        return False
    return True


class AblationsTest(unittest.TestCase):
    def setUp(self):
        self.tree = tempfile.mkdtemp()
        os.makedirs(os.path.join(self.tree, os.path.dirname(IN_TREE)))
        shutil.copyfile(DRIVER, os.path.join(self.tree, IN_TREE))
        self.patches = sorted(os.path.join(ABLATIONS, n) for n in os.listdir(ABLATIONS)
                              if n.endswith(".patch"))

    def tearDown(self):
        shutil.rmtree(self.tree)

    def test_there_are_ablations(self):
        self.assertGreaterEqual(len(self.patches), 1)

    def test_each_says_what_and_why_and_changes_the_driver_only(self):
        for path in self.patches:
            with open(path) as f:
                text = f.read()
            with self.subTest(os.path.basename(path)):
                self.assertRegex(text, r"^Ablation: \S")
                self.assertRegex(text, r"\nTests: \S")
                self.assertEqual([IN_TREE], re.findall(r"^\+\+\+ b/(\S+)", text, re.M))

    def test_each_applies_exactly(self):
        for path in self.patches:
            with self.subTest(os.path.basename(path)):
                self.assertTrue(applies(self.tree, path))

    def test_a_stale_one_is_refused(self):
        # the positive control: each ablation's first removed or context
        # line edited in the driver, as a driver change would
        for path in self.patches:
            with open(path) as f:
                line = next(l[1:] for l in f if l[:1] in " -" and l[1:].strip()
                            and not l.startswith("---"))
            driver = os.path.join(self.tree, IN_TREE)
            shutil.copyfile(DRIVER, driver)
            with open(driver) as f:
                text = f.read()
            with open(driver, "w") as f:
                f.write(text.replace(line, "/* edited */ " + line, 1))
            with self.subTest(os.path.basename(path)):
                self.assertFalse(applies(self.tree, path))


if __name__ == "__main__":
    unittest.main()
