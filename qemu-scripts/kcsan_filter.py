"""Whose data race is it: KCSAN's reports sorted into this project's code
and the stock kernel's.

A report names the racing functions in its first line, "BUG: KCSAN:
data-race in f / g" (or one, "... in f+0x1c/0x40" when the other access
is unknown). It is the project's when either function is defined in a
file the project wrote or patched, or the input path between them: the
list is OURS, and the definitions are read from the kernel tree that
was booted, so a function the series adds is counted without a list to
keep. Every other report is stock code's: listed, not failed.

The names are read once, when the booted bzImage is built
(defined_functions), and judged against later (split_reports): a
runner that changes the tree while a boot runs (make mutants builds the
next mutant) must not read the tree for the boot before.
"""

import os
import re

OURS = ("fs/fcntl.c", "drivers/input/sigmouse.c", "drivers/input/input.c")
HEADER = re.compile(r"BUG: KCSAN: .+? in (\S+?)(?:\+0x\S+)?(?: / (\S+?)(?:\+0x\S+)?)?\s*$")
# a definition starts in column 0 and its first line has no semicolon
DEFINITION = re.compile(r"^[a-z_][\w \t*]*?\b([a-z_]\w*)\((?![^\n]*;)", re.M)
NOT_FUNCTIONS = {"if", "for", "while", "switch", "return", "sizeof"}


def defined_functions(tree, files=OURS):
    """Names of the functions the files define, in the tree at tree."""
    names = set()
    for path in files:
        with open(os.path.join(tree, path)) as f:
            names.update(DEFINITION.findall(f.read()))
    return names - NOT_FUNCTIONS


def racing_functions(header):
    """The functions a KCSAN header line names, compiler suffixes
    (.isra.0, .constprop.0) taken off; empty when it is no KCSAN header."""
    match = HEADER.search(header)
    if not match:
        return []
    return [name.split(".")[0] for name in match.groups() if name]


def split_reports(reports, ours):
    """(reports that count, stock code's data races) of a boot of a
    kernel whose project functions are ours (defined_functions() of its
    tree when it was built): KASAN, lockdep and other reports all
    count."""
    counted, stock = [], []
    for report in reports:
        racing = racing_functions(report[0])
        (stock if racing and not any(n in ours for n in racing) else counted).append(report)
    return counted, stock
