#!/usr/bin/env python3
"""make mutants: the suite must kill every mutant in mutants/.

A mutant is the kit's kernel with one deliberate, plausible bug: a patch
against the kernel tree, headed by the claim it breaks ("Breaks:"), the
promises of docs/promises.md it breaks ("Promises:", IDs), the
design to boot ("Design:", a name from guest.DESIGNS), the
checks to run ("Checks:", test names of sigio-test, passed as
SIGIO_TEST_ONLY on the command line; variant names with "Suite:
sigio-atlas", passed as SIGIO_ATLAS_ONLY; KUnit case names with "Suite:
kunit", judged from the console of a boot whose guest runs one quick
check, for KUnit runs before /init; the exported series' checks with
"Suite: series", for a mutant of what the series ships beside the code
(the UAPI header, Kconfig, .kunitconfig files, the ioctl registry): no
kernel is built or booted, the patch is committed on the series' head
in make series' repository (never checked out there for long: a
temporary index) and check-series.sh runs the checks of the head's tree
on that commit; sigio-check's test names with "Suite: sigio-check", for
a mutant of an in-tree driver that sigio-check must flag, booted as make
check-node boots, with sigio-check's command line from "Sigio-check:"
(--uinput-mouse event); the spin models' properties with "Suite:
models", for a mutant of a model of docs/models/ (its Design: the design
it breaks): nothing boots, models.py checks a copy of the models with
the patch applied; "Suite: sigio-test, sigio-atlas" boots both
programs, each with the checks it has, for a bug that needs what each
does in one boot; a name no suite named has stops the run), if not the
debug kernel, the flavour of kernel ("Flavour: kcsan" for a data race
only KCSAN sees), if a kernel report is what kills it, the text its
first line holds ("Report:", texts joined by " or " for a report that
comes in several forms) and,
if the boot needs more on its command line, that ("Append:"). Each is
applied to that kernel's tree, built incrementally (only the touched
file recompiles), its bzImage and the names of the project's functions
(kcsan_filter.defined_functions) taken aside and the patch reverted,
then booted while the next mutant builds. It is killed only by what its
header names: a failed check of its Checks:, or a kernel report (a data
race in stock code is none) whose first line holds a Report: text. A
timeout, a suite that did not run, another check failing or another
report is not a kill: the mutant survives, and the table says what
happened instead. The judge reads only what was taken aside, never
the tree, which the next mutant is being applied to and built in. A
mutant applies to the kernel it was written against (MADE_AGAINST)
exactly or not at all: one that needs an offset or fuzz there is stale
and stops the run. On another kernel (6.12's fs/fcntl.c has other line
numbers) a hunk may sit at an offset, said in the output, never with
fuzz. No .orig or .rej file is left in the tree. A boot that died before its init wrote a line is booted once more
(guest.boot_retrying_death) and its row says so. At the end the kernels
are rebuilt as they were. Prints a table, mutant by mutant, and exits 1
if any survived.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import kernel_variant
from guest import (BZIMAGE, DESIGNS, FLAVOURS, KUNIT_SUITES, SUITES, Boot, add_version_argument,
                   boot_retrying_death, build_folder, choose_accel, kernel_reports, kunit_cases,
                   suite_selectable)
from kcsan_filter import defined_functions, split_reports
from ktap import PRINTK_TIME, Tally, kunit_suites, read_tally
from bad_options import BAD_OPTIONS, bad_options_problems
from expected import deterministic_missing, load_expected
from models import PROPERTIES
from mutant_header import read_header, split_list
from test_plan import write_mutant_boot

HERE = os.path.dirname(os.path.abspath(__file__))
MUTANTS = os.path.join(HERE, "..", "mutants")
# the museum: fasync bugs the kernel fixed, each brought back into
# today's tree (mutants/museum/, the same header with what the fix was,
# "Fix:", its class, "Class:", how it comes back, "Brought back:", and
# the kernels it applies to, "Kernels:"), and its page
MUSEUM = os.path.join(MUTANTS, "museum")
MUSEUM_PAGE = os.path.join(HERE, "..", "docs", "museum.md")
# the fixes with no entry, each with why and what was tried
NOT_BROUGHT_BACK = os.path.join(MUSEUM, "not-brought-back.txt")
# the lines of a kernel report the museum's page shows
REPORT_EXCERPT = 30
# how a verdict names the kernel report that killed a mutant
KERNEL_REPORT = "kernel report: "
# init's switch for the kmemleak scans after the suites
LEAK_SCAN = "sigmouse_leak_scan"
# the guest's suites, the KUnit suites that run at boot (a kunit
# mutant's Checks: are case names, judged from the console) and the
# exported series' checks (short names: uapi_header_alone_c_and_cxx)
SERIES = "series"
CHECK_SERIES = os.path.join(HERE, "check-series.sh")
SIGIO_CHECK = "sigio-check"
MODELS = "models"
MODELS_PY = os.path.join(HERE, "models.py")
MUTANT_SUITES = (*SUITES, "kunit", SERIES, SIGIO_CHECK, MODELS)
# two checks of the runner's a sigio-test mutant may name: the
# Design: design's deterministic expected failures (the 2.6.0 behaviour the kit
# shows) all happened; and, alone, the bad-options boot (bad_options.py,
# its command line after the Design:'s, no suite)
EXPECTED_FAILURES = "expected_failures"
BAD_OPTIONS_CHECK = "bad_options"


def selectable(suite, tree):
    if suite == SERIES:
        with open(CHECK_SERIES) as f:
            return set(re.findall(r'^result "series\.(\w+)"', f.read(), re.M))
    if suite == "kunit":
        return {case for source in KUNIT_SUITES.values() for case in kunit_cases(tree, source)}
    if suite == MODELS:
        return {claim for claim, _ in PROPERTIES}
    if suite == "sigio-test":
        return suite_selectable(suite) | {EXPECTED_FAILURES, BAD_OPTIONS_CHECK}
    return suite_selectable(suite)


def read_mutant(path, tree):
    fields = read_header(path)
    fields.setdefault("flavour", "debug")
    fields.setdefault("append", "")
    fields.setdefault("suite", "sigio-test")
    # a report's first-line texts, one of which must come
    fields["report"] = [text.strip() for text in fields.get("report", "").split(" or ")
                        if text.strip()]
    if fields["suite"] == SERIES:
        # nothing boots: no design
        fields.setdefault("design", "-")
    missing = {"breaks", "promises", "design", "checks"} - fields.keys()
    if fields["suite"] == SIGIO_CHECK:
        missing |= {"sigio-check"} - fields.keys()
    suites = split_list(fields["suite"])
    if (missing or fields["design"] not in (*DESIGNS, "-") or fields["flavour"] not in FLAVOURS
            or not suites or not set(suites) <= set(MUTANT_SUITES)
            or (len(suites) > 1 and not set(suites) <= set(SUITES))
            or (fields["design"] == "-") != (fields["suite"] == SERIES)):
        sys.exit(f"run-mutants: {path}: needs Breaks:, Promises:, Design: (one of "
                 f"{', '.join(DESIGNS)}; none with Suite: {SERIES}), Checks: and optionally "
                 f"Flavour: (one of "
                 f"{', '.join(FLAVOURS)}), Suite: (one of {', '.join(MUTANT_SUITES)}, or "
                 f"several of {', '.join(SUITES)}; "
                 f"{SIGIO_CHECK} with Sigio-check:), Report: and Append: before the diff")
    fields["checks"] = split_list(fields["checks"])
    flavour_tree = os.path.join(tree, FLAVOURS[fields["flavour"]][0])
    unknown = set(fields["checks"]) - set().union(*(selectable(suite, flavour_tree)
                                                    for suite in suites))
    if unknown:
        sys.exit(f"run-mutants: {path}: Checks: names what {fields['suite']} does not have: "
                 f"{', '.join(sorted(unknown))}")
    return fields


# the kernel the mutants are written against: there each applies exactly
MADE_AGAINST = "6.1"
def patch(tree, version, path, reverse=False, dry_run=False):
    """kernel_variant.patch(), exact on MADE_AGAINST."""
    kernel_variant.patch(tree, path, version == MADE_AGAINST, reverse, dry_run)


def series_commit(args, name, path, check_only=False):
    """The mutant applied to the series' head, as a commit of make
    series' repository (made in a temporary index, so neither its
    working tree nor a branch moves), or the run stops: the mutant is
    stale. With check_only, whether it applies is all."""
    repo = os.path.join(args.build, "series", "linux")
    if not os.path.isdir(os.path.join(repo, ".git")):
        sys.exit(f"run-mutants: {name}: no {repo}: a series mutant needs make series")
    index = os.path.join(args.build, "mutants", "series.index")
    env = dict(os.environ, GIT_INDEX_FILE=index, GIT_AUTHOR_NAME="sigmouse developers",
               GIT_AUTHOR_EMAIL="sigmouse@localhost", GIT_COMMITTER_NAME="sigmouse developers",
               GIT_COMMITTER_EMAIL="sigmouse@localhost")

    def git(*cmd, **kw):
        return subprocess.run(["git", "-C", repo, *cmd], env=env, text=True,
                              capture_output=True, **kw)

    git("read-tree", "sigmouse", check=True)
    applied = git("apply", "--cached", *(["--check"] if check_only else []), path)
    if applied.returncode:
        os.unlink(index)
        sys.exit(f"run-mutants: {name} does not apply to the series' head in {repo}: the "
                 f"mutant is stale, port it\n{applied.stderr}")
    if check_only:
        os.unlink(index)
        return None
    tree = git("write-tree", check=True).stdout.strip()
    os.unlink(index)
    return git("commit-tree", tree, "-p", "sigmouse", "-m", f"mutant {name}",
               check=True).stdout.strip()


def judge_series(name, fields, args, commit):
    """check-series.sh's checks of the head's tree on the mutant's
    commit: (verdict(), None)."""
    log = os.path.join(args.build, "mutants", name, "check-series.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    # the KTAP read after is this run's or none
    ktap = os.path.join(args.build, "series", "mutant", "ktap")
    if os.path.exists(ktap):
        os.unlink(ktap)
    with open(log, "w") as out:
        subprocess.run(["sh", CHECK_SERIES], stdout=out, stderr=subprocess.STDOUT,
                       env=dict(os.environ, SIGMOUSE_VERSION=args.version, SIGMOUSE_WALK="no",
                                SIGMOUSE_SERIES_HEAD=commit))
    return verdict(fields, read_tally(ktap), [], None), None


def models_copy(args, name, path):
    """The kit's models with the mutant applied, in a copy of the kit's
    docs/models/ under build/<version>/mutants/<name>/kit/ (the patch's
    paths are the kit's): the copy's models folder."""
    kit = os.path.join(args.build, "mutants", name, "kit")
    models = os.path.join(kit, "docs", "models")
    shutil.rmtree(kit, ignore_errors=True)
    shutil.copytree(os.path.join(HERE, "..", "docs", "models"), models)
    patch(kit, MADE_AGAINST, path)
    return models


def judge_models(name, fields, args, models):
    """models.py on the mutated copy, the models of its Design: only:
    their KTAP, (verdict(), None)."""
    out = os.path.join(args.build, "mutants", name, "models")
    with open(os.path.join(args.build, "mutants", name, "models.log"), "w") as log:
        subprocess.run([sys.executable, MODELS_PY, "--models", models, "--out", out,
                        "--design", fields["design"]],
                       stdout=log, stderr=subprocess.STDOUT)
    return verdict(fields, read_tally(os.path.join(out, "ktap")), [], None), None


def judge(name, fields, args, ours, kernel, initrd, accel):
    """Boot a mutant's kernel (its bzImage and its tree's project
    functions, ours, taken apart from the tree, which the next mutant is
    built in meanwhile): (verdict(), why its first boot died or None)."""
    # KUnit runs at boot, before /init: the guest then runs one quick check
    suites = split_list(fields["suite"])
    if set(suites) <= set(SUITES):
        # each guest suite runs the checks of Checks: it has
        chosen = {}
        for suite in suites:
            names = selectable(suite, None) - {EXPECTED_FAILURES}
            chosen[suite] = [c for c in fields["checks"] if c in names]
    else:
        chosen = {"sigio-test": ["read_sizes"]}
    bad_options = chosen == {"sigio-test": [BAD_OPTIONS_CHECK]}
    # no kmemleak scans at the end (8 s a boot) unless the header's
    # Append: asks for them (sigmouse_leak_scan=1): a leak's mutant
    if bad_options:
        run, guest = "probe", [BAD_OPTIONS]
    elif fields["suite"] == SIGIO_CHECK:
        run, guest = "check", [f'sigio_check="{fields["sigio-check"]}"']
    else:
        run, guest = "test", [*(f"{SUITES[suite]}={','.join(checks)}"
                                for suite, checks in chosen.items())]
        if LEAK_SCAN not in fields["append"]:
            guest.append(f"{LEAK_SCAN}=0")
    append = " ".join(filter(None, [DESIGNS[fields["design"]], FLAVOURS[fields["flavour"]][1],
                                    fields["append"]] + guest))
    folder = os.path.join(args.build, "mutants", name)
    if run == "test":
        # the boot as lava_jobs.py --mutant makes a LAVA job of it
        write_mutant_boot(folder, fields["design"], fields["flavour"], append, chosen)
        append += f" sigmouse_suites={','.join(chosen)}"
    boot, tally, died = boot_retrying_death(
        lambda: Boot(folder, kernel, initrd, run, append=append, smp=args.smp,
                     accel=accel, timeout=args.timeout, echo_channel=False),
        Tally)
    if not args.keep_kernels:
        os.unlink(kernel)
    if bad_options:
        tally = Tally()
        tally.failed = [f"{BAD_OPTIONS_CHECK}: {p}" for p in bad_options_problems(boot)]
        tally.passed = [] if tally.failed else [BAD_OPTIONS_CHECK]
    if fields["suite"] == "kunit":
        tally = Tally()
        for suite_tally in kunit_suites(boot.console_lines).values():
            tally.passed += suite_tally.passed
            tally.failed += suite_tally.failed
            tally.skipped += suite_tally.skipped
    reports, _ = split_reports(boot.reports(), ours)
    if EXPECTED_FAILURES in fields["checks"]:
        for what in deterministic_missing(load_expected(), (f"{args.version}/{fields['design']}",
                                                            fields["design"]),
                                          [(f"splat: {r[0]}", r) for r in reports]):
            tally.failed.append(f"{EXPECTED_FAILURES}: did not happen: {what}")
    return verdict(fields, tally, [r[0].split("] ", 1)[-1] for r in reports],
                   boot.timed_out and f"timeout after {args.timeout} s"), died


def verdict(fields, tally, reports, timeout):
    """(True, the check or report of the header that killed the mutant)
    or (False, what happened instead)."""
    for name in tally.failed:
        name = name.split(" #")[0]
        if set(name.split(":")[0].split(".")) & set(fields["checks"]):
            return True, name
    for first_line in reports:
        if any(text in first_line for text in fields["report"]):
            return True, f"{KERNEL_REPORT}{first_line}"
    if timeout:
        return False, timeout
    if not tally.count():
        return False, "no result: the suite did not run"
    others = [n.split(" #")[0] for n in tally.failed] + [f"{KERNEL_REPORT}{r}" for r in reports]
    if others:
        return False, f"not by its header's checks or report: {others[0]}"
    return False, "every check passed, no kernel report"


def report_excerpt(kernel, name, first_line):
    """The head of the report whose first line a museum entry's boot on
    kernel printed, its time stamps off."""
    with open(os.path.join(build_folder(kernel), "mutants", name, "console.log"),
              errors="replace") as f:
        reports = [r for r in kernel_reports(f.read().splitlines()) if first_line in r[0]]
    if not reports:
        return [f"(the console no longer holds: {first_line})"]
    return [PRINTK_TIME.sub("", line) for line in reports[0][:REPORT_EXCERPT]]


def write_museum_page(version, rows):
    """docs/museum.md from the museum's runs, this one on version and the
    last on each other kernel (build/<kernel>/museum.json): per fix, what
    it fixed, how the kit brings the bug back, the check its header names
    and what caught it on each kernel."""
    # each entry's last run: a run of a few (make test's) keeps the others'
    path = os.path.join(build_folder(version), "museum.json")
    last = {}
    if os.path.exists(path):
        with open(path) as f:
            last = json.load(f)
    last.update({name: (killed, what) for name, _, (killed, what), _ in rows})
    with open(path, "w") as f:
        json.dump(last, f)
    root = os.path.dirname(build_folder(version))
    kernels = sorted(v for v in os.listdir(root)
                     if os.path.exists(os.path.join(build_folder(v), "museum.json")))
    caught = {}
    for kernel in kernels:
        with open(os.path.join(build_folder(kernel), "museum.json")) as f:
            caught[kernel] = json.load(f)
    lines = ["# The museum: fasync bugs the kernel fixed, brought back and caught", "",
             "Each entry is a fix from the kernel's history taken back out of today's",
             "tree (`mutants/museum/`, the mutants' header with the fix, its class,",
             "how the bug comes back and the kernels it applies to), booted with the",
             "check its header names, which must catch it. Written by `make museum`",
             f"from the last run of each entry on each kernel ({', '.join(kernels)}).", "",
             "| entry | fix | class | brought back | check | " +
             " | ".join(f"caught on {k}" for k in kernels) + " |",
             "| --- | --- | --- | --- | --- |" + " --- |" * len(kernels)]
    entries = sorted(f[:-len(".patch")] for f in os.listdir(MUSEUM) if f.endswith(".patch"))
    for name in entries:
        fields = read_header(os.path.join(MUSEUM, f"{name}.patch"))
        cells = []
        for kernel in kernels:
            if kernel not in split_list(fields["kernels"]):
                cells.append("-")
            elif name not in caught[kernel]:
                cells.append("not run")
            else:
                killed, what = caught[kernel][name]
                cells.append(what if killed else f"NOT CAUGHT: {what}")
        lines.append(f"| {name} | {fields['fix']} | {fields['class']} | "
                     f"{fields['brought back']} | {fields['checks']} | " + " | ".join(cells) + " |")
    lines += ["", "## The kernel's reports", "",
              "What the kernel said where a report caught an entry, from the console of",
              f"its boot, trimmed to the report's head ({REPORT_EXCERPT} lines at most).", ""]
    for kernel in kernels:
        for name in entries:
            killed, what = caught[kernel].get(name, (False, ""))
            if killed and what.startswith(KERNEL_REPORT):
                lines += [f"### {name} on {kernel}", "", "```",
                          *report_excerpt(kernel, name, what[len(KERNEL_REPORT):]), "```", ""]
    lines += ["## Not brought back", "",
              "The fixes the museum has no entry for, and why (`mutants/museum/"
              f"{os.path.basename(NOT_BROUGHT_BACK)}`).", "",
              "| fix | class | kernels | why not | what was tried |", "| --- | --- | --- | --- | --- |"]
    with open(NOT_BROUGHT_BACK) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                lines.append("| " + " | ".join(c.strip() for c in line.split(" | ")) + " |")
    with open(MUSEUM_PAGE, "w") as page:
        page.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    add_version_argument(parser)
    parser.add_argument("--timeout", type=int, default=300, help="seconds for one boot")
    parser.add_argument("--smp", type=int, default=2)
    parser.add_argument("--flavour", action="append", choices=FLAVOURS,
                        help="only the mutants of this flavour of kernel (repeatable; "
                             "default: every flavour)")
    parser.add_argument("--museum", action="store_true",
                        help="the museum's mutants (mutants/museum/) of this kernel, and "
                             "docs/museum.md from their run")
    parser.add_argument("--keep-kernels", action="store_true",
                        help="keep each mutant's bzImage in build/<version>/mutants/<name>/ "
                             "beside boot.json, for lava_jobs.py --mutant")
    parser.add_argument("mutant", nargs="*", help="names in mutants/ (default: all)")
    args = parser.parse_args()
    folder = MUSEUM if args.museum else MUTANTS

    args.build = build_folder(args.version)
    initrd = os.path.join(args.build, "initramfs.cpio.gz")
    log = os.path.join(args.build, "mutants", "build.log")
    os.makedirs(os.path.dirname(log), exist_ok=True)
    open(log, "w").close()
    accel = choose_accel(args.build, os.path.join(args.build, FLAVOURS["debug"][0], BZIMAGE),
                         initrd)

    names = args.mutant or sorted(f[:-len(".patch")] for f in os.listdir(folder)
                                  if f.endswith(".patch"))
    # every header read first (a bad one stops the run before any build),
    # and the kit's objects of every file a mutant patches taken before
    # the first mutant: a mutant of a header rebuilds objects of files
    # other mutants patch, and its revert leaves them built with it
    mutants = []
    for name in names:
        fields = read_mutant(os.path.join(folder, f"{name}.patch"), args.build)
        kernels = split_list(fields.get("kernels", args.version))
        if args.version not in kernels:
            print(f"# run-mutants: {name}: not run, a mutant of {', '.join(kernels)}", flush=True)
        elif args.flavour and fields["flavour"] not in args.flavour:
            print(f"# run-mutants: {name}: not run, a {fields['flavour']} kernel mutant",
                  flush=True)
        else:
            mutants.append((name, fields))
    # and every one must apply exactly before the first is built: one that
    # does not stops the run having spent nothing
    for name, fields in mutants:
        path = os.path.join(folder, f"{name}.patch")
        if fields["suite"] == SERIES:
            series_commit(args, name, path, check_only=True)
        elif fields["suite"] == MODELS:
            models_copy(args, name, path)
        else:
            patch(os.path.join(args.build, FLAVOURS[fields["flavour"]][0]), args.version, path,
                  dry_run=True)
    kit = kernel_variant.digests(
        {o for name, fields in mutants if fields["suite"] not in (SERIES, MODELS)
         for o in kernel_variant.patched_objects(
             os.path.join(args.build, FLAVOURS[fields["flavour"]][0]),
             os.path.join(folder, f"{name}.patch"))})
    # a mutant boots while the next one builds: the boot keeps less than
    # one of the two cores busy, the build's links one
    judged, built, changed = [], set(), []
    with ThreadPoolExecutor(1) as boots:
        try:
            for name, fields in mutants:
                path = os.path.join(folder, f"{name}.patch")
                print(f"# run-mutants: {name}: {fields['breaks']}", flush=True)
                if fields["suite"] == SERIES:
                    judged.append((name, SERIES, boots.submit(
                        judge_series, name, fields, args, series_commit(args, name, path))))
                    continue
                if fields["suite"] == MODELS:
                    judged.append((name, MODELS, boots.submit(
                        judge_models, name, fields, args, models_copy(args, name, path))))
                    continue
                tree = os.path.join(args.build, FLAVOURS[fields["flavour"]][0])
                kernel = os.path.join(args.build, "mutants", name, "bzImage")
                built.add(fields["flavour"])
                patch(tree, args.version, path)
                try:
                    kernel_variant.build_variant(args.version, fields["flavour"], name, tree,
                                                 path, log, kit)
                    os.makedirs(os.path.dirname(kernel), exist_ok=True)
                    shutil.copyfile(os.path.join(tree, BZIMAGE), kernel)
                    ours = defined_functions(tree)
                finally:
                    patch(tree, args.version, path, reverse=True)
                judged.append((name, fields["design"],
                               boots.submit(judge, name, fields, args, ours, kernel, initrd,
                                            accel)))
        finally:
            for flavour in sorted(built):
                print(f"# run-mutants: rebuilding the kit's {flavour} kernel", flush=True)
                kernel_variant.build(args.version, flavour, log, CCACHE_DISABLE="1")
            changed = [o for o, d in kernel_variant.digests(kit).items() if d != kit[o]]
    rows = [(name, boot, *judgement.result()) for name, boot, judgement in judged]

    print()
    print("| mutant | design | killed by |")
    print("| --- | --- | --- |")
    for name, boot, (killed, what), died in rows:
        retried = f" (booted twice: the first boot died before /init: {died})" if died else ""
        print(f"| {name} | {boot} | {what if killed else 'SURVIVED: ' + what}{retried} |")
    if changed:
        sys.exit(f"run-mutants: {', '.join(changed)} differ from the kit's after the "
                 "rebuild: the kit's kernel is not as it was")
    if args.museum:
        write_museum_page(args.version, rows)
    survivors = [name for name, _, (killed, _), _ in rows if not killed]
    print(f"\nrun-mutants: {len(rows) - len(survivors)} of {len(rows)} mutants killed"
          + (f"; survived: {', '.join(survivors)}" if survivors else ""))
    return 1 if survivors else 0


if __name__ == "__main__":
    sys.exit(main())
