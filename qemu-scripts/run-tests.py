#!/usr/bin/env python3
"""Boot the debug kernel of each --version (its build folder
build/<version>) once per fasync design, run the guest suite in
each and the SIGIO atlas under rcu (in each with --all or --design),
and judge them (test_plan.py says which boots); make test's split
(TEST_SPLIT) boots some kernels under fewer designs and without the atlas, --all every kernel under every
design; with --all (make test-all) or --flavour kcsan, also boot the
data-race (KCSAN) kernel with the suite's checks that load the node
hardest (under rcu; every design with --all).

The rcu debug boot of each kernel also runs the series' selftest
through the kselftest runner, on some of its checks
(test_plan.KSELFTEST_DESIGN, guest.KSELFTEST_CHECKS): its uinput variants must pass, those moving
QEMU's mice skip without the host runner.

The programs' KTAP comes over the guest channel, each after its
"# suite:" line; QEMU's mice are moved when the suite asks. A configuration fails on any failed, missing, duplicate or
skipped result, a plan other than the suite's size, a guest exit status
other than the results imply, any kernel report in the console, or a
timeout, except where expected-failures.txt names the failure with its
reason. An expected failure that did not happen is a warning. On the
KCSAN kernel a data race in stock code (kcsan_filter.py tells) is listed
and saved, not failed. The run ends with a table per configuration, the
figures the checks printed (load held, faults injected, stress-ng's
bogo-ops, fuzz calls, reports, packets lost; also in
build/<version>/test/figures.md), and the line "N passed, N failed, N skipped" over
all of them: tests, with each problem that is not a test's result (a
report, a timeout) counted as one failed test. The same results, for
machines, go to build/<version>/test/ of the first --version: one KTAP
document (results.ktap: a test per boot, a subtest per suite; the
kernel's tools/testing/kunit/kunit_parser.py reads it) and a summary
(results.json); results.py says how.

Every boot of a kernel with the series also runs the KUnit suites
(sigmouse, fasync) before /init; their KTAP comes from the console and
counts with the programs'. Then (in a whole run: no --design, --only or
--append) a boot with bogus options, and the KTAP two make steps wrote
before the boots counts the same way: the exported series' checks (make
check-series, build/<version>/series/ktap) and make run used as a
person would, its window under Xvfb and its terminal on a pseudo-
terminal (make person on the first --version, build/<version>/person/ktap),
the designs' spin models (make models, build/models/<bounds>/ktap) and
the LAVA jobs of the run's boots (make lava-jobs, build/lava/ktap);
a file older than what it checked fails. Boots are named
<version>/<configuration>.
"""

import argparse
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from guest import (BZIMAGE, DEFAULT_VERSION, DESIGNS, FLAVOURS, KSELFTEST, KUNIT_SUITES,
                   QEMU_VARIANTS, SMP, SUITES, Boot, add_version_argument,
                   boot_retrying_death, build_folder, choose_accel, kunit_cases,
                   suite_selectable)
from atlas_report import report_path, stale_problems
from bad_options import BAD_OPTIONS, bad_options_problems
from expected import deterministic_missing, load_expected, matches
from kcsan_filter import defined_functions, split_reports
from models import BUILD_DIR as MODELS_BUILD_DIR
from models import DESIGNS as MODEL_DESIGNS
from models import KERNELS as MODEL_KERNELS
from models import MODELS_DIR, PROPERTIES
from ktap import RUN, RunnerTally, Suites, Tally, kunit_suites
from person_test import TESTS as PERSON_TESTS
from results import BootResult, summary, write_results
from test_plan import NODE_SUITE, boot_folder, plan
HERE = os.path.dirname(os.path.abspath(__file__))

def run_config(name, append, args, build, tree, initrd, accel, sizes):
    """Boot once (twice if the first guest died before its init wrote a
    line), running the suites sizes names (suite -> results expected),
    and judge it: (the lines to show, suites, [(problem, report lines)],
    the stock code's data races, why the first boot died or None). Boots
    run side by side, so the guest's lines come back to be shown when it
    has ended."""
    workdir = boot_folder(build, name)
    heading = (f"# run-tests: {name}: booted ({accel}, {args.smp} vCPUs) with "
               f"'{append or 'defaults'}'; console in {workdir}/console.log")
    boot, suites, died = boot_retrying_death(
        lambda: Boot(workdir, os.path.join(tree, BZIMAGE), initrd, "test",
                     append=f"{append} sigmouse_suites={','.join(sizes)}", smp=args.smp,
                     accel=accel, timeout=args.timeout, echo_channel=False),
        lambda: Suites(NODE_SUITE, runners=(KSELFTEST,)))
    if died:
        heading += (f"\n# run-tests: {name}: booted twice: the first boot died before /init "
                    f"wrote a line ({died}; {workdir}/console-died.log)")

    # (problem, the report's lines for the reports); the first suite's
    # problems unprefixed, as expected-failures.txt names them
    problems = []
    for suite, size in sizes.items():
        prefix = "" if suite == NODE_SUITE else f"{suite}: "
        if suite == KSELFTEST:
            tally = suites.tallies.get(suite, RunnerTally())
            problems += [(prefix + p, []) for p in kselftest_problems(tally, size)]
            continue
        tally = suites.tallies.get(suite, Tally())
        problems += [(prefix + p, []) for p in ktap_problems(tally, size)]
    failed = suites.total("failed")
    if boot.timed_out:
        problems.append((f"timeout: the guest ran past {args.timeout} s", []))
    if boot.exit_status is None and not boot.timed_out:
        problems.append(("the guest stopped before its init finished", []))
    elif boot.exit_status is not None and (boot.exit_status == 0) != (not failed):
        problems.append((f"the suites exited {boot.exit_status} with "
                         f"{len(failed)} failed tests", []))
    # the KUnit suites ran before the programs, their KTAP on the console;
    # counted with the programs' results, after the exit status's check
    kunit = kunit_suites(boot.console_lines)
    for suite, source in KUNIT_SUITES.items():
        tally = suites.tallies[f"kunit {suite}"] = kunit.get(suite, Tally())
        problems += [(f"kunit {suite}: {p}", [])
                     for p in ktap_problems(tally, len(kunit_cases(tree, source)))]
    counted, stock = split_reports(boot.reports(), defined_functions(tree))
    heading += without_lockdep(name, boot)
    problems += [(f"splat: {report[0]}", report) for report in counted]
    for i, report in enumerate(stock, 1):
        with open(os.path.join(workdir, f"kcsan-stock-{i}.txt"), "w") as f:
            f.write("\n".join(report) + "\n")
    return [heading] + boot.channel_lines, suites, problems, stock, died


# the reports after which lockdep turns itself off (debug_locks_off()),
# and with it PROVE_RCU's checks
LOCKDEP_REPORT = re.compile(r"possible (irq lock inversion|circular locking|recursive locking)|"
                            r"inconsistent lock state|lock order detected|suspicious RCU usage")


def without_lockdep(name, boot):
    """Lines saying which checks ran after lockdep's first report, and so
    without lockdep and PROVE_RCU ("" if it made none): the check running
    when it came, by where its line fell among the guest's, and all after."""
    first = next((i for i, line in enumerate(boot.console_lines) if LOCKDEP_REPORT.search(line)),
                 None)
    if first is None:
        return ""
    at = boot.channel_at[first]
    before = [m.group(1) for line in boot.channel_lines[:at] if (m := RUN.match(line))]
    after = [m.group(1) for line in boot.channel_lines[at:] if (m := RUN.match(line))]
    stamp = re.match(r"\[\s*([\d.]+)\]", boot.console_lines[first])
    return (f"\n# run-tests: {name}: lockdep reported at {stamp.group(1) if stamp else '?'} s "
            f"(console line {first + 1}) and then turned itself and PROVE_RCU off: "
            f"{before[-1] if before else 'no check'} was running, and {len(after)} checks ran "
            f"without them: {', '.join(after) or 'none'}")


def ktap_problems(tally, size):
    """What is wrong with a KTAP run of size tests, going by its results:
    a skip too, since the debug kernel has every source the suites use
    and the runner drives QEMU's."""
    problems = [f"not ok: {t}" for t in tally.failed]
    problems += [f"skipped: {t}" for t in tally.skipped]
    problems += tally.irregular()
    if tally.planned is None:
        problems.append("no KTAP plan")
    elif tally.planned != size:
        problems.append(f"the plan is 1..{tally.planned}, the test has {size} results")
    if tally.missing():
        problems.append(f"{tally.missing()} planned results never came")
    return problems


def kselftest_problems(tally, size):
    """What is wrong with the kselftest runner's run of the series'
    selftest: the runner's own result (one program, passed), then the
    program's as ktap_problems judges them, except that a variant moving
    one of QEMU's mice must skip, without the host runner, and only it."""
    problems = [f"runner: {p}" for p in ktap_problems(tally.runner, 1)]
    qemu = re.compile(rf"^\w+\.({'|'.join(QEMU_VARIANTS)})\.")
    for status, text in tally.results:
        if qemu.match(text) and status != "skipped":
            problems.append(f"{status} without the host runner, not skipped: {text}")
    problems += [p for p in ktap_problems(tally, size)
                 if not (p.startswith("skipped: ") and qemu.match(p[len("skipped: "):]))]
    return problems


def read_ktap(path, size, made_by, inputs):
    """The KTAP a make step wrote before the boots, if newer than every
    file in inputs (what it checked); ([], tally, problems), size the
    plan it must have (None: the plan's own)."""
    tally = Tally()
    try:
        with open(path) as f:
            for line in f:
                tally.feed(line.rstrip("\n"))
        written = os.path.getmtime(path)
    except FileNotFoundError:
        return [], tally, [f"no {path}: {made_by} has not run"]
    stale = [i for i in inputs if not os.path.exists(i) or os.path.getmtime(i) > written]
    if stale:
        return [], tally, [f"{path} is older than {stale[0]}: run {made_by} again"]
    return [], tally, ktap_problems(tally, tally.planned if size is None else size)


def read_series_checks(version):
    """The exported series' checks, which make check-series ran: their
    KTAP, in build/<version>/series/ktap, whose plan must be
    check-series.sh's results, and one per patch if it walked them."""
    build = build_folder(version)
    path = os.path.join(build, "series", "ktap")
    walk = None
    if os.path.exists(path):
        with open(path) as f:
            walk = next((line.split()[2] for line in f if line.startswith("# walk: ")), None)
    return read_ktap(path, series_size(version, walk), "make check-series",
                     [os.path.join(build, "series", "out", "0000-cover-letter.patch")])


def series_size(version, walk):
    """check-series.sh's results: those outside its walk, and a prefix's
    for each patch of patches/<version>/series unless walk is "no"."""
    with open(os.path.join(HERE, "check-series.sh")) as f:
        fixed = len(re.findall(r'^result "series\.\w+"', f.read(), re.M))
    with open(os.path.join(HERE, "..", "patches", version, "series")) as f:
        patches = [line for line in f if line.split("#")[0].strip()]
    return fixed + (0 if walk == "no" else len(patches))


def read_models(bounds):
    """The designs' spin models, which make models ran (models.py): their
    KTAP in build/models/<bounds>/, a result per design, property and
    kernel, older than no model (.pml) and than models.py."""
    path = os.path.join(MODELS_BUILD_DIR, bounds, "ktap")
    size = len(MODEL_DESIGNS) * len(MODEL_KERNELS) * len(PROPERTIES)
    inputs = [os.path.join(MODELS_DIR, name) for name in os.listdir(MODELS_DIR)
              if name.endswith(".pml")]
    return read_ktap(path, size, f"make models MODEL_BOUNDS={bounds}",
                     inputs + [os.path.join(HERE, "models.py")])


def read_lava_jobs(run):
    """The LAVA jobs of this run's boots, which make lava-jobs wrote and
    validated (lava_jobs.py): their KTAP in build/lava/, a result per
    boot of the run (versions, every: make test-all's)."""
    versions, every = run
    return read_ktap(os.path.join(build_folder("lava"), "ktap"),
                     len(plan(versions, every=every)), "make lava-jobs",
                     [os.path.join(HERE, name) for name in ("lava_jobs.py", "test_plan.py",
                                                            "guest.py")])


def read_person_test(version):
    """make run as a person uses it, its window and its terminal, which
    make person ran (person_test.py): its KTAP, in build/<version>/person/ktap."""
    build = build_folder(version)
    return read_ktap(os.path.join(build, "person", "ktap"), len(PERSON_TESTS), "make person",
                     [os.path.join(build, FLAVOURS["debug"][0], BZIMAGE),
                      os.path.join(build, "initramfs.cpio.gz")])



def check_bad_options(args, build, initrd, accel):
    """Unknown values on the command line (bad_options.py)."""
    kernel = os.path.join(build, FLAVOURS["debug"][0], BZIMAGE)
    boot, _, died = boot_retrying_death(
        lambda: Boot(os.path.join(build, "test", "bad-options"), kernel, initrd, "probe",
                     append=BAD_OPTIONS,
                     smp=args.smp,
                     accel=accel, timeout=args.timeout, echo_channel=False),
        Tally)
    if died:
        print(f"# run-tests: bad-options: booted twice: the first boot died before /init "
              f"({died})", flush=True)
    return bad_options_problems(boot)


def judge(name, problems, expected, workdir, whole_boot):
    """Split a boot's problems into expected failures and fresh ones. An
    entry names a configuration on every kernel ("rwlock") or on one
    ("6.12/rwlock"), or a kernel under every design ("6.1"). In a whole boot (every check, no --only), a
    deterministic entry that did not happen is a fresh problem, and a
    race's hits are said and its boots in a row without one counted in
    workdir/race-misses: as many as the entry allows is a fresh problem.
    A boot of some checks is no evidence that a failure did not happen:
    the checks that provoke it may not have run."""
    keys = (name, *name.split("/", 1))
    known = [entry for key in keys for entry in expected.get(key, [])]
    xfail, fresh, hits = [], [], {}
    for problem, body in problems:
        entry = next((e for e in known if matches(e[1], problem, body)), None)
        if entry:
            xfail.append((problem, entry[2]))
            hits[entry[1]] = hits.get(entry[1], 0) + 1
        else:
            fresh.append(problem)
    for p, why in xfail:
        print(f"# run-tests: {name}: expected failure: {p}\n#   why: {why}")
    if not whole_boot:
        return xfail, fresh
    fresh += [f"the deterministic expected failure did not happen: {what}"
              for what in deterministic_missing(expected, keys, problems)]
    misses = read_race_misses(workdir)
    for allowed, what, _ in known:
        if not allowed:
            continue
        misses[what] = 0 if what in hits else misses.get(what, 0) + 1
        print(f"# run-tests: {name}: race fired {hits.get(what, 0)} times this boot, "
              f"{misses[what]} boots in a row without it (fails at {allowed}): {what}")
        if misses[what] >= allowed:
            fresh.append(f"the race did not fire in {misses[what]} boots in a row: {what}")
    write_race_misses(workdir, misses)
    return xfail, fresh


def read_race_misses(workdir):
    """{expected failure: boots in a row without it} of a configuration."""
    misses = {}
    try:
        with open(os.path.join(workdir, "race-misses")) as f:
            for line in f:
                count, _, what = line.rstrip("\n").partition(" ")
                misses[what] = int(count)
    except FileNotFoundError:
        pass
    return misses


def write_race_misses(workdir, misses):
    with open(os.path.join(workdir, "race-misses"), "w") as f:
        f.writelines(f"{count} {what}\n" for what, count in misses.items())


FIGURE_COLUMNS = (
    ("checks", lambda t, r: t.count()),
    ("O_ASYNC toggles", lambda t, r: t.figures.get("churn.toggles", 0)),
    ("opens", lambda t, r: t.figures.get("churn.opens", 0)),
    ("owner changes", lambda t, r: t.figures.get("churn.owner_changes", 0)),
    ("forks", lambda t, r: t.figures.get("churn.forks", 0)),
    ("packets", lambda t, r: t.figure_sum("packets.")),
    ("signals", lambda t, r: t.figures.get("churn.signals", 0)),
    ("faults injected", lambda t, r: t.figure_sum("faults.")),
    ("stress-ng bogo-ops", lambda t, r: t.figure_sum("bogo.")),
    ("fuzz calls", lambda t, r: t.figures.get("fuzz.calls", 0)),
    # the samplers pass whether or not their race fired: how often its
    # window was met (window.<check>)
    ("race windows met", lambda t, r: t.figure_sum("window.")),
    ("kernel reports", lambda t, r: r[0]),
    ("stock races listed", lambda t, r: r[1]),
    ("packets lost", lambda t, r: t.figure_sum("lost.")),
)


def figures_table(boots):
    """Markdown: a row per boot, (name, tally, (kernel reports that
    count, stock code's data races listed))."""
    lines = ["| boot | " + " | ".join(c for c, _ in FIGURE_COLUMNS) + " |",
             "| --- |" + " ---: |" * len(FIGURE_COLUMNS)]
    for name, tally, reports in boots:
        cells = [f"{value(tally, reports):.0f}" for _, value in FIGURE_COLUMNS]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    add_version_argument(parser, repeatable=True)
    parser.add_argument("--flavour", action="append", choices=FLAVOURS,
                        help="boot only this flavour of kernel (repeatable)")
    parser.add_argument("--all", action="store_true",
                        help="every design on every kernel (make test-all)")
    parser.add_argument("--design", action="append", choices=DESIGNS,
                        help="boot only this design (repeatable)")
    parser.add_argument("--timeout", type=int, default=900, help="seconds for one boot")
    parser.add_argument("--smp", type=int, default=SMP)
    parser.add_argument("--jobs", type=int, default=2, help="boots at a time")
    parser.add_argument("--only", help="run only these checks (comma-separated): sigio-test's "
                        "tests, the atlas's variants (its sources and events)")
    parser.add_argument("--append", default="", help="more for the kernel command line")
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    # --only's names by the suite that has them
    chosen = only and {suite: [n for n in only if n in suite_selectable(suite)] for suite in SUITES}
    unknown = set(only or []) - {n for names in (chosen or {}).values() for n in names}
    if unknown:
        parser.error(f"--only: no check named {', '.join(sorted(unknown))}: not a test of "
                     f"guest-apps/{NODE_SUITE}.c (names without the fixture) nor a variant of "
                     "guest-apps/sigio-atlas.c")
    versions = args.version or [DEFAULT_VERSION]

    expected = load_expected()
    for version in versions:
        # the commit the boots ran, for reports made from their logs later
        os.makedirs(os.path.join(build_folder(version), "test"), exist_ok=True)
        with open(os.path.join(build_folder(version), "test", "revision"), "w") as f:
            f.write(subprocess.run(["git", "-C", HERE, "describe", "--always", "--dirty"],
                                   capture_output=True, text=True).stdout.strip() or "unknown")
    configs = plan(versions, args.flavour, args.all, args.design, chosen, args.append)
    atlas_boots = [(c.version, c.design) for c in configs if c.atlas and not args.all]
    # the rest belongs to a whole run
    whole = not args.flavour and not args.design and not args.only and not args.append
    first = build_folder(versions[0])
    accel = choose_accel(first, os.path.join(first, FLAVOURS["debug"][0], BZIMAGE),
                         os.path.join(first, "initramfs.cpio.gz"))

    # rows: the table's; boots: the figures'; results: the machines' and
    # the closing line's
    rows, boots, results = [], [], []
    # the suite's boots --jobs at a time: a TCG guest keeps less than one
    # of the two cores busy (174 s of CPU in a 203 s boot); each boot's
    # lines are shown in this order once it has ended. The bad-options
    # boots come after them, alone: beside another guest, a boot's
    # console lost a character at boot
    with ThreadPoolExecutor(args.jobs) as pool:
        running = [(c.name, c.build, pool.submit(run_config, c.name, c.append, args, c.build,
                                                 c.tree, c.initrd, accel, c.sizes))
                   for c in configs]
        try:
            for name, build, future in running:
                lines, suites, problems, stock, died = future.result()
                print("\n".join(lines), flush=True)
                for report in stock:
                    print(f"# run-tests: {name}: data race in stock code, listed, not failed: "
                          f"{report[0]}")
                xfail, fresh = judge(name, problems, expected, boot_folder(build, name),
                                     whole_boot=only is None)
                results.append(BootResult(
                    name, [(suite, tally, "" if suite == NODE_SUITE else f"{suite}: ")
                           for suite, tally in suites.tallies.items()], fresh, xfail))
                reports = sum(p.startswith("splat: ") for p, _ in problems)
                boots.append((name, suites.tallies[NODE_SUITE], (reports, len(stock))))
                rows.append((name, len(suites.total("passed")), len(suites.total("failed")),
                             len(suites.total("skipped")), len(xfail),
                             ("FAIL" if fresh else ("xfail" if xfail else "pass"))
                             + (" (booted twice)" if died else "")))
        except BaseException:
            # an error or ^C: the boots not started yet are not started
            for _, _, future in running:
                future.cancel()
            raise

    # the committed atlas report held against each boot of the atlas;
    # make test-all makes the report again, from every design's boot
    for version, design in atlas_boots:
        problems = stale_problems(build_folder(version), design,
                                  report_path(os.path.join(HERE, ".."), version))
        results.append(BootResult(f"{version}/atlas-report", fresh=problems,
                                  check="atlas-report"))
        rows.append((f"{version}/atlas-report", int(not problems), int(bool(problems)), 0, 0,
                     "FAIL" if problems else "pass"))

    if whole:
        for version in versions:
            build = build_folder(version)
            print(f"# run-tests: {version}/bad-options: booting with {BAD_OPTIONS}", flush=True)
            problems = check_bad_options(args, build, os.path.join(build, "initramfs.cpio.gz"),
                                         accel)
            results.append(BootResult(f"{version}/bad-options", fresh=problems,
                                      check="bad-options"))
            rows.append((f"{version}/bad-options", int(not problems), int(bool(problems)), 0, 0,
                         "FAIL" if problems else "pass"))

        # (row, suite, reader, its argument)
        parts = [(f"{v}/series", "series", read_series_checks, v) for v in versions]
        parts.append((f"{versions[0]}/person", "person", read_person_test, versions[0]))
        # the models hold both kernels' designs: one row, make test's
        # bounds or make test-all's
        bounds = "big" if args.all else "small"
        parts.append((f"models/{bounds}", "models", read_models, bounds))
        parts.append(("lava-jobs", "lava-jobs", read_lava_jobs, (versions, args.all)))
        for name, suite, result, argument in parts:
            lines, tally, problems = result(argument)
            print("\n".join(lines), flush=True)
            results.append(BootResult(name, [(suite, tally, "")], problems))
            rows.append((name, len(tally.passed), len(tally.failed), len(tally.skipped), 0,
                         "FAIL" if problems else "pass"))

    print()
    print(f"{'config':<20} {'passed':>6} {'failed':>6} {'skipped':>7} {'xfail':>5}  result")
    for row in rows:
        print(f"{row[0]:<20} {row[1]:>6} {row[2]:>6} {row[3]:>7} {row[4]:>5}  {row[5]}")
    print()
    table = figures_table(boots)
    for version in versions:
        with open(os.path.join(build_folder(version), "test", "figures.md"), "w") as f:
            f.write(table)
    print(table)
    for result in results:
        for problem in result.fresh:
            print(f"FAIL: {result.name}: {problem}")
    ktap, summary_json = write_results(os.path.join(build_folder(versions[0]), "test"), results)
    print(f"# run-tests: results in {ktap} (KTAP) and {summary_json}")
    # every unexplained problem is one failure: a test, a splat, a timeout
    totals = summary(results)["totals"]
    print(f"{totals['passed']} passed, {totals['failed']} failed, {totals['skipped']} skipped")
    return 1 if totals["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
