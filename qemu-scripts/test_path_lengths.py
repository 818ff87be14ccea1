"""The path-length instrument on a program whose paths are known: the
TCG plugin (plugins/kill-fasync-count.c) under QEMU's user-mode
emulation and the disassembly walk (kill_fasync_path.py) on
testdata/path-fixture.c, which has kill_fasync()'s shape: a jump label
choosing the design, today's unlocked test of the list head, 2.6.0's
read lock with its slow path out of line."""

import os
import shutil
import subprocess
import tempfile
import unittest

import path_lengths
from kill_fasync_path import Kernel, executed_path

HERE = os.path.dirname(os.path.abspath(__file__))
LENGTHS = [0, 1, 2, 4]



class PathLengths(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("qemu-x86_64"):
            raise RuntimeError("qemu-x86_64 missing: make deps installs qemu-user")
        cls.folder = tempfile.mkdtemp()
        cls.program = os.path.join(cls.folder, "path-fixture")
        subprocess.run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-no-pie",
                        "-o", cls.program, os.path.join(HERE, "testdata", "path-fixture.c")],
                       check=True)
        plugin = path_lengths.build_plugin(cls.folder)
        cls.kernel = Kernel(cls.program)
        cls.counts = {}
        for design in ("rcu", "rwlock"):
            out = os.path.join(cls.folder, f"{design}.txt")
            subprocess.run(["qemu-x86_64", "-plugin",
                            f"{plugin},entry={cls.kernel.symbols['kill_fasync']:#x},"
                            f"mark={cls.kernel.symbols['phase_mark']:#x},out={out}",
                            cls.program, design, *map(str, LENGTHS)], check=True)
            cls.counts[design] = path_lengths.read_counts(out)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder, ignore_errors=True)

    def static(self, design):
        return len(executed_path(self.kernel, path_lengths.DESIGN_KEYS.get(design, ())))

    def test_every_call_of_a_phase_runs_one_path(self):
        for design, phases in self.counts.items():
            self.assertEqual(sorted(phases), [1, 2, 3, 4], design)
            for phase, histogram in phases.items():
                self.assertEqual(path_lengths.path_of(histogram)[1:], (1.0, 100),
                                 f"{design} phase {phase}: {histogram}")

    def test_static_and_dynamic_counts_agree_on_the_empty_list(self):
        for design in self.counts:
            self.assertEqual(path_lengths.path_of(self.counts[design][1])[0],
                             self.static(design), design)

    def test_the_jump_label_changes_the_path(self):
        # the control: the walk with the key off is not the patched run's
        self.assertNotEqual(self.static("rcu"), self.static("rwlock"))
        self.assertNotEqual(path_lengths.path_of(self.counts["rcu"][1])[0],
                            path_lengths.path_of(self.counts["rwlock"][1])[0])

    def test_each_entry_after_the_first_adds_the_same_steps(self):
        for design, phases in self.counts.items():
            paths = [path_lengths.path_of(phases[p])[0] for p in (1, 2, 3, 4)]
            per_entry = paths[2] - paths[1]
            self.assertGreater(paths[1], paths[0], design)
            self.assertGreater(per_entry, 0, design)
            self.assertEqual(paths[3] - paths[2], 2 * per_entry, f"{design}: {paths}")

    def test_the_table_reports_a_disagreement(self):
        results = {d: {"counts": self.counts[d], "static": self.static(d) + (d == "rwlock"),
                       "why": ""} for d in self.counts}
        lines, problems = path_lengths.table(results, LENGTHS)
        self.assertEqual(len(lines), 2 + len(self.counts))
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("rwlock: the disassembly's empty-list path", problems[0])


if __name__ == "__main__":
    unittest.main()
