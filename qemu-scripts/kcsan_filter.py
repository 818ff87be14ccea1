"""Whose data race is it: KCSAN's reports sorted into this project's code
and the stock kernel's.

A report names the racing functions in its first line, "BUG: KCSAN:
data-race in f / g" (or one, "... in f+0x1c/0x40" when the other access
is unknown). It is the project's when either function is defined in a
file the project wrote or patched, or the input path between them: the
list is OURS, and the definitions are read from the kernel tree that
was booted, so a function the series adds is counted without a list to
keep. A race on data the series holds can also show up in stock
functions only, when the series hands it to them (a wait queue to the
scheduler's wake-ups, a list to the list helpers): so a report counts
too when either access was reached through a function of the series'
own files (SERIES), whatever the two racing functions are. Every other
report is stock code's: listed, not failed.

The names are read once, when the booted bzImage is built
(defined_functions), and judged against later (split_reports): a
runner that changes the tree while a boot runs (make mutants builds the
next mutant) must not read the tree for the boot before.
"""

import os
import re
from typing import NamedTuple

OURS = ("fs/fcntl.c", "drivers/input/sigmouse.c", "drivers/input/input.c")
SERIES = ("fs/fcntl.c", "drivers/input/sigmouse.c")
# a frame of an access's stack: "[ time]  function+0x1a/0x40"
FRAME = re.compile(r"^(?:\[[^\]]*\])?\s+([A-Za-z_][\w.]*)\+0x[0-9a-f]+/0x")
HEADER = re.compile(r"BUG: KCSAN: .+? in (\S+?)(?:\+0x\S+)?(?: / (\S+?)(?:\+0x\S+)?)?\s*$")
# a definition starts in column 0 and its first line has no semicolon
DEFINITION = re.compile(r"^[a-z_][\w \t*]*?\b([a-z_]\w*)\((?![^\n]*;)", re.M)
NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof"}


class Project(NamedTuple):
    """The project's functions in a kernel tree: those of OURS, and among
    them the series' own files' (SERIES)."""
    ours: frozenset
    series: frozenset


def functions_of(tree, files):
    names = set()
    for path in files:
        with open(os.path.join(tree, path)) as f:
            names.update(DEFINITION.findall(f.read()))
    return frozenset(names - NOT_FUNCTIONS)


def defined_functions(tree):
    """The project's functions, as the tree at tree defines them."""
    return Project(functions_of(tree, OURS), functions_of(tree, SERIES))


def racing_functions(header):
    """The functions a KCSAN header line names, compiler suffixes
    (.isra.0, .constprop.0) taken off; empty when it is no KCSAN header."""
    match = HEADER.search(header)
    if not match:
        return []
    return [name.split(".")[0] for name in match.groups() if name]


def stack_functions(report):
    """The functions of the report's access stacks, suffixes taken off."""
    return [m.group(1).split(".")[0] for line in report[1:] if (m := FRAME.match(line))]


def split_reports(reports, project):
    """(reports that count, stock code's data races) of a boot of a
    kernel whose project functions are project (defined_functions() of
    its tree when it was built): KASAN, lockdep and other reports all
    count."""
    counted, stock = [], []
    for report in reports:
        racing = racing_functions(report[0])
        ours = (any(n in project.ours for n in racing)
                or any(n in project.series for n in stack_functions(report)))
        (stock if racing and not ours else counted).append(report)
    return counted, stock
