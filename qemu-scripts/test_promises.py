#!/usr/bin/env python3
"""make check: promises.py cuts the ABI document into the units the
promise table must quote, and judges a table as make check must."""

import unittest

from promises import header_units, problems, rst_units

RST = """\
.. SPDX-License-Identifier: GPL-2.0

=====
Title
=====

A first sentence. A second one (with ``code``)::

\tliteral block, no unit

Heading
-------

``read()``
\tA term's body. Its second sentence.

- a list item
  that goes on.

============  =======
Call          Error
============  =======
``write()``   ``EINVAL``
              (read-only)
``mmap()``    ``ENODEV``
============  =======

.. code-block:: c

\tint x;
"""

HEADER = """\
/* SPDX-License-Identifier: GPL-2.0 */
/*
 * name: a title
 *
 * One sentence. Another.
 */
#define FLAG\t0x1U /* a flag's comment */

/**
 * struct s - the summary
 * @a: field a,
 *\tgoing on
 * @b: field b
 */
"""


class UnitsTest(unittest.TestCase):
    def test_rst(self):
        self.assertEqual(rst_units(RST), [
            "A first sentence.", "A second one (with ``code``):",
            "A term's body.", "Its second sentence.",
            "a list item that goes on.",
            "``write()`` | ``EINVAL`` (read-only)", "``mmap()`` | ``ENODEV``"])

    def test_header(self):
        self.assertEqual(header_units(HEADER), [
            "name: a title", "One sentence.", "Another.", "FLAG: a flag's comment",
            "struct s - the summary", "a: field a, going on", "b: field b"])


UNITS = [("sigmouse.rst", "Reads return whole records."),
         ("sigmouse.rst", "History happened.")]
CHECKS = {"node.read_sizes", "node.ioctls"}


def row(ident, quote, checks, mutants, number=1):
    return (number, ident, quote, checks, mutants)


class TableTest(unittest.TestCase):
    def test_complete_table(self):
        rows = [row("read.whole", "whole records", ["node.read_sizes"], ["01-m"]),
                row("history", "History", ["context"], [], 2)]
        mutants = {"01-m": (["read.whole"], ["read_sizes"])}
        self.assertEqual(problems(UNITS, rows, CHECKS, mutants), [])

    def test_each_rule_fails(self):
        rows = [row("read.whole", "whole records", ["node.read_sizes"], ["01-m"]),
                row("read.whole", "records", ["node.nothing"], [], 2),
                row("Bad ID", "not in the document", [], ["02-m"], 3)]
        mutants = {"01-m": (["read.whole"], ["ioctls"]), "02-m": ([], ["read_sizes"]),
                   "03-m": (["unknown.id"], ["read_sizes"])}
        found = "\n".join(problems(UNITS, rows, CHECKS, mutants))
        for expected in ("given twice", "no check node.nothing", "no mutant shows",
                         "ID 'Bad ID'", "quote in no unit", "no check reads",
                         "02-m's Promises: line lacks it", "01-m's Checks: names none",
                         "no row of docs/promises.md quotes: 'History happened.'",
                         "names unknown ID unknown.id"):
            self.assertIn(expected, found)


if __name__ == "__main__":
    unittest.main()
