#!/usr/bin/env python3
"""make lava-jobs: a LAVA job for each boot of a test run, for labs that
run the kit's boots on many workers (LAVA's QEMU device type).

The boots are test_plan.py's, the ones run-tests.py makes (make test's,
or with --all make test-all's; --design and --only narrow them as
run-tests.py's do). Each job deploys the boot's kernel and initramfs to
tmpfs (from --artifacts, a URL the build folder is served at; by
default file:// URLs of this machine's build folder), boots them under
QEMU with the boot's command line (guest.kernel_command_line) plus
sigmouse_channel=console: a LAVA worker gives the guest one serial line
and no host runner, so the programs' KTAP goes to the console and the
checks that move QEMU's mice skip. A monitor per KUnit suite and per
program turns each result line into a LAVA test case, the suite its
test set; a skipped check is left out. The checks a LAVA job leaves to
the local runner (the QEMU mice's, which need the host channel) are
listed in build/lava/local-only.txt.

Every job is validated with LAVA's own schema (lava_common.schemas from
Debian's lava-common, run with Debian's python3, which has it), strictly:
the jobs go to build/lava/<version>-[<flavour>-]<design>.yaml and a
KTAP line per job to build/lava/ktap, which run-tests.py counts.

    make lava-jobs [VERSION=6.1] [DESIGN=rcu]
    lava_jobs.py --version 6.1 --version 6.12 [--all] [--design D] [--only checks]
                 [--mutant NAME] [--artifacts http://lab.example/sigmouse/build]

A mutant's job (--mutant) boots the kernel make mutants built of it
(run-mutants.py --keep-kernels keeps it) as make mutants booted it.
Each job's metadata names the folder of the local runner's boot of the
same (sigmouse.local), which lava_results.py --compare holds LAVA's
results against.
"""

import argparse
import os
import re
import sys

import yaml
from lava_common.schemas import validate

from guest import (DEFAULT_VERSION, DESIGNS, GUEST_DEVICES, KSELFTEST, KUNIT_SUITES, MEMORY,
                   QEMU_VARIANTS, SMP, SUITES, add_version_argument, build_folder,
                   kernel_command_line, suite_selectable, suite_source, suite_tests,
                   suite_variants)
from test_plan import NODE_SUITE, mutant_config, plan

OUT = build_folder("lava")
# a result line: the name must end where the line's word does, and a
# skipped result ("# SKIP") is none (6.1's harness names no skipped test).
# LAVA matches as the console streams in, a line perhaps half received:
# an end pattern must see what follows the name, and a program's result
# must begin a line (a kernel line "took 50407960 ns" holds "ok 50407960
# ns")
RESULT = r"(?P<result>ok|not ok) \d+ (?P<test_case_id>[\w.:-]+)(?=\s)(?! # SKIP)"
FIXUP = {"ok": "pass", "not ok": "fail"}
# minutes: LAVA's timeouts, a boot's whole run within the job's
DEPLOY_MINUTES = 5
BOOT_MINUTES = 5
TEST_MINUTES = 15


def local_only(suite):
    """A suite's checks a LAVA job cannot run: those of the variants that
    move QEMU's mice over the host channel."""
    text = suite_source(suite)
    fixtures = {fixture for fixture, name in suite_variants(text) if name in QEMU_VARIANTS}
    variants = {(fixture, name) for fixture, name in suite_variants(text)}
    checks = []
    for fixture, test in suite_tests(text):
        for f, variant in sorted(variants):
            if f == fixture and variant in QEMU_VARIANTS:
                checks.append(f"{fixture}.{variant}.{test}")
        # a fixture without variants whose setup needs a QEMU mouse
        if fixture not in fixtures and re.search(
                rf"FIXTURE_SETUP\({fixture}\)\s*{{[^}}]*MOUSE_SOURCE_(PS2|VIRTIO)", text):
            checks.append(f"{fixture}.{test}")
    return checks


def monitors(config):
    """The job's test action: a monitor per KUnit suite, then one per
    program in the order init runs them."""
    found = []
    for suite in KUNIT_SUITES:
        found.append({"name": f"kunit-{suite}", "start": f"# Subtest: {suite}",
                      "end": rf"ok \d+ {suite}(?=\s)", "pattern": r"\]     " + RESULT,
                      "fixupdict": dict(FIXUP)})
    for suite in config.sizes:
        # the harness's programs end with their totals; the kselftest
        # runner with its own result, the program's one "# " deeper
        runner = suite == KSELFTEST
        found.append({"name": suite, "start": f"# suite: {suite}",
                      "end": r"ok \d+ selftests: " if runner else r"# Totals: pass:",
                      "pattern": "\n" + ("# " if runner else "") + RESULT,
                      "fixupdict": dict(FIXUP)})
    return found


def monitor_cases(job, console):
    """The test cases LAVA's monitors make of a console's text, as
    {monitor: [(test case, pass or fail)]}: each monitor in turn waits
    for its start, then takes its pattern's matches until its end."""
    cases, at = {}, 0
    for monitor in job["actions"][2]["test"]["monitors"]:
        start = re.compile(monitor["start"]).search(console, at)
        if not start:
            break
        end = re.compile(monitor["end"]).search(console, start.end())
        stop = end.start() if end else len(console)
        cases[monitor["name"]] = [
            (found["test_case_id"], monitor["fixupdict"].get(found["result"], found["result"]))
            for found in re.finditer(monitor["pattern"], console[start.end():stop])]
        at = end.end() if end else stop
    return cases


def job(config, artifacts):
    """The LAVA job of one boot of the plan."""
    build = os.path.abspath(config.build)
    command_line = kernel_command_line(
        "test", f"{config.append} sigmouse_suites={','.join(config.sizes)} "
                "sigmouse_channel=console")
    kernel = os.path.relpath(config.kernel, build)
    initrd = os.path.relpath(config.initrd, build)
    base = artifacts.rstrip("/") if artifacts else f"file://{build}"
    return {
        "device_type": "qemu",
        "job_name": f"sigmouse {config.name}: {', '.join(config.sizes)}",
        "timeouts": {"job": {"minutes": DEPLOY_MINUTES + BOOT_MINUTES + TEST_MINUTES},
                     "action": {"minutes": TEST_MINUTES}},
        "priority": "medium",
        "visibility": "public",
        "context": {"arch": "amd64", "machine": "pc", "memory": MEMORY,
                    "extra_options": ["-smp", str(SMP), *GUEST_DEVICES]},
        "metadata": {"sigmouse.boot": config.name, "sigmouse.version": config.version,
                     "sigmouse.design": config.design, "sigmouse.flavour": config.flavour,
                     # where the local runner's boot of the same keeps its
                     # logs, under the build folder (lava_results.py --compare)
                     "sigmouse.local": os.path.relpath(config.folder,
                                                       os.path.dirname(build))},
        "actions": [
            {"deploy": {"to": "tmpfs", "timeout": {"minutes": DEPLOY_MINUTES},
                        "images": {
                            "kernel": {"image_arg": f"-kernel {{kernel}} -append "
                                                    f"'{command_line}'",
                                       "url": f"{base}/{kernel}"},
                            "initrd": {"image_arg": "-initrd {initrd}",
                                       "url": f"{base}/{initrd}"}}}},
            {"boot": {"method": "qemu", "media": "tmpfs",
                      "timeout": {"minutes": BOOT_MINUTES}}},
            {"test": {"timeout": {"minutes": TEST_MINUTES}, "monitors": monitors(config)}},
        ],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    add_version_argument(parser, repeatable=True)
    parser.add_argument("--all", action="store_true", help="make test-all's boots")
    parser.add_argument("--design", action="append", choices=DESIGNS,
                        help="only this design's boots (repeatable)")
    parser.add_argument("--only", help="only these checks (comma-separated), as run-tests.py's")
    parser.add_argument("--artifacts", help="the URL the build folder is served at")
    parser.add_argument("--mutant", action="append", default=[],
                        help="also a job of this mutant's boot, as make mutants made it on the "
                             "first --version (run-mutants.py --keep-kernels keeps its kernel; "
                             "repeatable)")
    args = parser.parse_args()
    only = args.only.split(",") if args.only else None
    chosen = only and {suite: [n for n in only if n in suite_selectable(suite)] for suite in SUITES}
    # the jobs of this run only
    os.makedirs(OUT, exist_ok=True)
    for name in os.listdir(OUT):
        if name.endswith(".yaml"):
            os.unlink(os.path.join(OUT, name))
    versions = args.version or [DEFAULT_VERSION]
    configs = plan(versions, None, args.all, args.design, chosen) + [
        mutant_config(versions[0], name) for name in args.mutant]
    lines = []
    for number, config in enumerate(configs, 1):
        document = job(config, args.artifacts)
        path = os.path.join(OUT, config.name.replace("/", "-") + ".yaml")
        with open(path, "w") as f:
            yaml.safe_dump(document, f, sort_keys=False)
        # what LAVA reads is the file: validated as read back
        with open(path) as f:
            try:
                validate(yaml.safe_load(f), strict=True)
                lines.append(f"ok {number} lava.{config.name}")
            except Exception as error:  # voluptuous's Invalid and its kin
                lines.append(f"not ok {number} lava.{config.name} # "
                             f"{' '.join(str(error).split())}")
        print(f"lava_jobs.py: {os.path.relpath(path)}: {lines[-1]}")
    with open(os.path.join(OUT, "ktap"), "w") as f:
        f.write(f"1..{len(lines)}\n" + "".join(line + "\n" for line in lines))
    with open(os.path.join(OUT, "local-only.txt"), "w") as f:
        f.write("".join(f"{NODE_SUITE}: {check}\n" for check in local_only(NODE_SUITE)))
    print(f"lava_jobs.py: {len(local_only(NODE_SUITE))} checks of {NODE_SUITE} need the host "
          f"channel and stay with the local runner: {os.path.relpath(OUT)}/local-only.txt")
    return 0 if all(line.startswith("ok") for line in lines) else 1


if __name__ == "__main__":
    sys.exit(main())
