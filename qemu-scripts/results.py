"""A run-tests.py run's results for machines: one KTAP document and one
JSON summary, written to build/<version>/test/results.ktap and
results.json of the run's first kernel.

The KTAP is the kernel's KTAP version 1, as its own
tools/testing/kunit/kunit_parser.py reads it: a test per boot or row of
the run's table (6.1/rcu, 6.1/bad-options, 6.1/series, ...), and under
it a subtest per suite that reported results (the KUnit suites,
sigio-test, sigio-atlas; the series' checks, the person test) with
their results as they came, renumbered; a failure the run expected
carries the XFAIL directive (which kunit_parser, knowing only SKIP,
counts as a failure). A problem that is no test's result (a kernel
report, a timeout, a plan cut short, a stale file) is a case of the
boot's own, failed; a row that is one check (bad-options,
atlas-report) is one case when it passed, and its problems when not;
a boot with no case at all, one result line. So kunit_parser's counts
are the closing line's, expected failures counted as failed (and a
boot with no case as one test). The JSON has, per boot, the counts of the
run's closing line (a problem the run did not expect is one failure)
and the failures' names, and the totals.
"""

import json
import os


class BootResult:
    """One row of the run's table as run-tests.py judged it.

    suites: [(suite, Tally, prefix)], prefix being what run-tests.py
    puts before a failed result's problem ("not ok: <name>"); fresh: the
    problems the run did not expect; xfail: [(problem, why)] the ones it
    did; check: the name of the one check a row without suites is."""

    def __init__(self, name, suites=(), fresh=(), xfail=(), check=None):
        self.name = name
        self.suites = [s for s in suites if s[1].results]
        self.fresh = list(fresh)
        self.xfail = list(xfail)
        self.check = check

    def count(self, status):
        """The row's results of one status, as the closing line counts them."""
        results = sum(len(getattr(tally, status)) for _, tally, _ in self.suites)
        if status == "passed" and self.check and not self.fresh:
            results += 1
        return results

    def summary(self):
        return {"name": self.name, "passed": self.count("passed"), "failed": len(self.fresh),
                "skipped": self.count("skipped"), "xfail": len(self.xfail),
                "failures": self.fresh}

    def ktap(self, number):
        """The row as a subtest of the document: its lines, four spaces
        deep, and its result line at the document's level."""
        expected = dict(self.xfail)
        results_of = set()
        cases = []
        for suite, tally, prefix in self.suites:
            lines = []
            for i, (status, text) in enumerate(tally.results, 1):
                name, _, why = text.partition("#")
                name = name.strip() or f"{suite} result {i}"
                problem = f"{prefix}not ok: {text}"
                results_of.add(problem)
                if status == "skipped":
                    lines.append(f"ok {i} {name} # {why.strip()}")
                elif status == "failed" and problem in expected:
                    lines.append(f"not ok {i} {name} # XFAIL {clean(expected[problem])}")
                else:
                    lines.append(f"{'ok' if status == 'passed' else 'not ok'} {i} {name}")
            unexpected = [line for line in lines
                          if line.startswith("not ok") and "# XFAIL" not in line]
            cases.append((suite, not unexpected, lines))
        if self.check and not self.fresh:
            cases.append((self.check, True, None))
        # the problems that are no test's result, each a failed case
        cases += [(clean(p), False, None) for p in self.fresh if p not in results_of]
        cases += [(f"{clean(p)} # XFAIL {clean(why)}", False, None)
                  for p, why in self.xfail if p not in results_of]
        result = f"{'not ok' if self.fresh else 'ok'} {number} {self.name}"
        if not cases:
            return [result]
        body = ["KTAP version 1", f"# Subtest: {self.name}", f"1..{len(cases)}"]
        for i, (name, ok, lines) in enumerate(cases, 1):
            if lines is not None:
                body += ["    KTAP version 1", f"    # Subtest: {name}", f"    1..{len(lines)}"]
                body += ["    " + line for line in lines]
            body.append(f"{'ok' if ok else 'not ok'} {i} {name}")
        return ["    " + line for line in body] + [result]


def clean(text):
    """text as a KTAP name or diagnostic: one line, no "#"."""
    return " ".join(text.replace("#", "").split())


def ktap_document(boots):
    """The run as one KTAP document, a line a string."""
    lines = ["KTAP version 1", f"1..{len(boots)}"]
    for number, boot in enumerate(boots, 1):
        lines += boot.ktap(number)
    return lines


def summary(boots):
    """The run as one JSON-ready summary: per boot, then the totals."""
    rows = [boot.summary() for boot in boots]
    return {"boots": rows,
            "totals": {key: sum(row[key] for row in rows)
                       for key in ("passed", "failed", "skipped", "xfail")}}


def write_results(folder, boots):
    """results.ktap and results.json in folder; their paths."""
    os.makedirs(folder, exist_ok=True)
    ktap, summary_json = os.path.join(folder, "results.ktap"), os.path.join(folder, "results.json")
    with open(ktap, "w") as f:
        f.write("\n".join(ktap_document(boots)) + "\n")
    with open(summary_json, "w") as f:
        json.dump(summary(boots), f, indent=1)
        f.write("\n")
    return ktap, summary_json
