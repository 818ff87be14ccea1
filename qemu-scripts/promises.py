#!/usr/bin/env python3
"""The promise table, docs/promises.md, checked in make check.

Every sentence of the driver's ABI document (driver/sigmouse.rst), every
row of its tables and every field and flag comment of its UAPI header
(driver/include/uapi/linux/sigmouse.h) is a promise. The table gives
each an ID, quotes it (a fragment of the unit, whitespace as one space,
that occurs in that unit alone), and names the checks that read it and
the mutants that break it; a mutant names the promises it breaks on its
own "Promises:" line ("none: <why>" for one that breaks a promise made
elsewhere, fcntl(2)'s or the project's), and must be killed by one of
the promise's checks (its "Checks:" line names one). A unit that promises nothing a program
could observe (history, a pointer to another section) is a row with
"context" in the checks column and no mutants.

make check fails on a unit no row quotes, a quote found in no unit or in
several, an ID given twice, a check that exists in no suite, a mutant
that does not exist or does not name the row's ID, a mutant naming an ID
the table does not have, and on promises without a check or a mutant
other than as many as the table's "Open:" line states: those counts
only go down, and at 0 every promise has both. --open lists them,
--units prints the units, one per line, for writing the table.
"""

import argparse
import glob
import os
import re
import sys

from guest import suite_source, suite_tests, suite_variants
from mutant_header import header_promises, read_header, split_list

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)
RST = os.path.join(TOP, "driver", "sigmouse.rst")
UAPI = os.path.join(TOP, "driver", "include", "uapi", "linux", "sigmouse.h")
TABLE = os.path.join(TOP, "docs", "promises.md")
MUTANTS = os.path.join(TOP, "mutants")
# a sentence ends at ., ? or ! before a space and what starts a sentence
SENTENCE_END = re.compile(r"(?<=[.?!])\s+(?=[A-Z`(\"])")
CONTEXT = "context"
NO_CHECK = "no check reads this promise"
NO_MUTANT = "no mutant shows its checks fail"
# the table's own count of the promises still without them
OPEN = re.compile(r"^Open: (\d+) promises without a check, (\d+) promises without a mutant\.$",
                  re.M)


def squash(text):
    return " ".join(text.split())


def sentences(paragraph):
    return [s for s in SENTENCE_END.split(squash(paragraph)) if s]


def table_rows(lines):
    """The rows of an rst simple table (lines between its header's border
    and its last: the header names columns, it promises nothing), each
    as its cells joined by " | "."""
    border = lines[0]
    columns = [(m.start(), m.end()) for m in re.finditer(r"=+", border)]
    header_end = next(i for i in range(1, len(lines)) if re.fullmatch(r"[= \t]+", lines[i]))
    rows = []
    for line in lines[header_end + 1:-1]:
        if re.fullmatch(r"[= \t]+", line):
            continue
        starts = [line[a:b if i < len(columns) - 1 else None].strip()
                  for i, (a, b) in enumerate(columns)]
        if starts[0] or not rows:
            rows.append(starts)
        else:
            rows[-1] = [f"{old} {new}".strip() for old, new in zip(rows[-1], starts)]
    return [" | ".join(cell for cell in row if cell) for row in rows]


def rst_units(text):
    """The document's units: sentences of its prose, rows of its tables;
    not its headings, comments, code or literal blocks."""
    lines = text.split("\n")
    units, paragraph, i = [], [], 0

    def flush():
        if paragraph:
            units.extend(sentences(" ".join(paragraph)))
            paragraph.clear()

    literal_next = False
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        underline = i + 1 < len(lines) and re.fullmatch(r"([=\-~^])\1{2,}", lines[i + 1].strip())
        if re.fullmatch(r"=+( +=+)+", stripped):
            flush()
            end = i + 1
            borders = 1
            while borders < 3 and end < len(lines):
                if re.fullmatch(r"=+( +=+)+", lines[end].strip()):
                    borders += 1
                end += 1
            units.extend(table_rows(lines[i:end]))
            i = end
            continue
        if stripped.startswith(".. ") or literal_next and line.startswith((" ", "\t")):
            # a directive or comment, or a literal block: its indented body
            flush()
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith((" ", "\t"))):
                i += 1
            literal_next = False
            continue
        if re.fullmatch(r"([=\-~^])\1{2,}", stripped) or underline:
            flush()  # a heading or its over- or underline
        elif not stripped:
            flush()
        elif stripped.startswith("- "):
            flush()
            paragraph.append(stripped[2:])
        elif not line.startswith((" ", "\t")) and i + 1 < len(lines) and \
                lines[i + 1].startswith("\t") and not paragraph:
            flush()  # a definition list's term: the body that follows says it
        else:
            paragraph.append(stripped)
        if stripped.endswith("::"):
            literal_next = True
            if paragraph:
                paragraph[-1] = paragraph[-1][:-1]  # "::" reads as ":"
        elif stripped:
            literal_next = False
        i += 1
    flush()
    return units


def header_units(text):
    """The header's units: its opening comment's sentences, each flag's
    comment, each struct's summary and each kernel-doc field."""
    units = []
    opening = re.search(r"/\*\n(.*?)\*/", text, re.S).group(1)
    for paragraph in re.sub(r"(?m)^ \* ?", "", opening).split("\n\n"):
        units.extend(sentences(paragraph))
    for name, comment in re.findall(r"#define\s+(\w+)\s+.*?/\* (.*?) \*/", text):
        units.append(f"{name}: {squash(comment)}")
    for doc in re.findall(r"/\*\*\n(.*?)\*/", text, re.S):
        body = re.sub(r"(?m)^ \* ?", "", doc)
        summary, _, fields = body.partition("\n@")
        units.append(squash(summary))
        for field in re.split(r"\n@", "@" + fields):
            if field.strip():
                units.append(squash(field.lstrip("@")))
    return units


def units():
    with open(RST) as f:
        rst = rst_units(f.read())
    with open(UAPI) as f:
        header = header_units(f.read())
    return [("sigmouse.rst", u) for u in rst] + [("sigmouse.h", u) for u in header]


def read_table(path):
    """[(line number, ID, quote, [checks], [mutants])] of the table."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if not line.startswith("| ") or line.startswith(("| ID ", "| --")):
                continue
            cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
            if len(cells) != 4:
                rows.append((number, None, line.strip(), [], []))
                continue
            ident, quote, checks, mutants = cells
            quote = quote.strip("`").replace("\\|", "|")
            rows.append((number, ident, quote, split_list(checks), split_list(mutants)))
    return rows


def known_checks():
    """Every check a suite reports, as the table names them: sigio-test's
    as fixture.test, the atlas's sources as atlas.variant, the KUnit cases (the driver's and
    the series' fasync suite) as kunit.case, the series' checks as
    series.name, the person test's as person.name, and run-tests.py's
    bad-options boot and its judge of expected failures (a deterministic
    one must happen in every boot of its design)."""
    checks = {"run-tests.bad_options", "run-tests.expected_failures"}
    checks.update(f"{fixture}.{test}" for fixture, test in suite_tests(suite_source("sigio-test")))
    checks.update(f"atlas.{variant}" for _, variant in suite_variants(suite_source("sigio-atlas")))
    kunit = [os.path.join(TOP, "driver", "sigmouse_kunit.c")] + \
        glob.glob(os.path.join(TOP, "patches", "*", "*.patch"))
    for path in kunit:
        with open(path) as f:
            checks.update(f"kunit.{c}" for c in re.findall(r"KUNIT_CASE\((\w+)\)", f.read()))
    with open(os.path.join(HERE, "check-series.sh")) as f:
        checks.update(re.findall(r'^result "(series\.\w+)"', f.read(), re.M))
    sys.path.insert(0, HERE)
    from person_test import TESTS as PERSON_TESTS
    checks.update(f"person.{t}" for t in PERSON_TESTS)
    return checks


def mutant_headers():
    """{mutant name: (promises, checks)} from mutants/*.patch."""
    mutants = {}
    for name in sorted(os.listdir(MUTANTS)):
        if name.endswith(".patch"):
            fields = read_header(os.path.join(MUTANTS, name))
            mutants[name[:-len(".patch")]] = (header_promises(fields),
                                              split_list(fields.get("checks", "")))
    return mutants


def problems(all_units, rows, checks, mutants):
    found = []
    seen = {}
    quoted = [0] * len(all_units)
    for number, ident, quote, row_checks, row_mutants in rows:
        where = f"docs/promises.md:{number}"
        if ident is None:
            found.append(f"{where}: not four cells: {quote}")
            continue
        if not re.fullmatch(r"[a-z0-9][a-z0-9.-]*", ident):
            found.append(f"{where}: ID {ident!r}: lower case, digits, '.' and '-'")
        if ident in seen:
            found.append(f"{where}: ID {ident} given twice (also line {seen[ident]})")
        seen[ident] = number
        hits = [i for i, (_, u) in enumerate(all_units) if quote in u]
        if not hits:
            found.append(f"{where}: {ident}: quote in no unit: {quote!r}")
        elif len(hits) > 1:
            found.append(f"{where}: {ident}: quote in {len(hits)} units: {quote!r}")
        for i in hits:
            quoted[i] += 1
        if row_checks == [CONTEXT]:
            if row_mutants:
                found.append(f"{where}: {ident}: context with mutants")
            continue
        if not row_checks:
            found.append(f"{where}: {ident}: {NO_CHECK}")
        if not row_mutants:
            found.append(f"{where}: {ident}: {NO_MUTANT}")
        for check in row_checks:
            if check not in checks:
                found.append(f"{where}: {ident}: no check {check} in any suite")
        for mutant in row_mutants:
            if mutant not in mutants:
                found.append(f"{where}: {ident}: no mutant {mutant}")
                continue
            promises, killers = mutants[mutant]
            if ident not in promises:
                found.append(f"{where}: {ident}: mutant {mutant}'s Promises: line lacks it")
            short = {c.split(".", 1)[1] for c in row_checks}
            if not short & set(killers):
                found.append(f"{where}: {ident}: mutant {mutant}'s Checks: names none of "
                             f"{', '.join(row_checks)}")
    for i, count in enumerate(quoted):
        if not count:
            source, unit = all_units[i]
            found.append(f"{source}: no row of docs/promises.md quotes: {unit!r}")
    by_ident = {r[1]: r for r in rows if r[1]}
    for mutant, (promises, _) in mutants.items():
        for ident in promises:
            if ident not in by_ident:
                found.append(f"mutants/{mutant}.patch: Promises: names unknown ID {ident}")
            elif mutant not in by_ident[ident][4]:
                found.append(f"mutants/{mutant}.patch: breaks {ident}, but its row does not "
                             "name the mutant")
    return found


def open_counts(found):
    return (sum(p.endswith(NO_CHECK) for p in found), sum(p.endswith(NO_MUTANT) for p in found))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--units", action="store_true", help="print the units and stop")
    parser.add_argument("--open", action="store_true",
                        help="also list the promises without a check or a mutant")
    args = parser.parse_args()
    all_units = units()
    if args.units:
        for source, unit in all_units:
            print(f"{source}\t{unit}")
        return 0
    rows = read_table(TABLE)
    found = problems(all_units, rows, known_checks(), mutant_headers())
    counts = open_counts(found)
    with open(TABLE) as f:
        stated = OPEN.search(f.read())
    if not stated:
        found.append("docs/promises.md: no line 'Open: N promises without a check, "
                     "M promises without a mutant.'")
    elif tuple(int(n) for n in stated.groups()) != counts:
        found.append(f"docs/promises.md says {stated.group(1)} promises without a check and "
                     f"{stated.group(2)} without a mutant; the table has {counts[0]} and "
                     f"{counts[1]}: state them")
    failures = [p for p in found if not p.endswith((NO_CHECK, NO_MUTANT))]
    for p in (found if args.open else failures):
        print(f"promises: {p}")
    promised = sum(1 for r in rows if r[3] != [CONTEXT])
    print(f"promises: {len(all_units)} units, {promised} promises, "
          f"{len(rows) - promised} context; open: {counts[0]} without a check, "
          f"{counts[1]} without a mutant; {len(failures)} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
