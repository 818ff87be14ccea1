#!/usr/bin/env python3
"""The boots a test run makes, one description for every runner: the
kit's own (run-tests.py) and the LAVA jobs it writes (lava_jobs.py).
A Config is one boot: its name (<version>/<design>, or
<version>/<flavour>/<design>), the kernel command line's part that
chooses the design, flavour and checks, the build folder, kernel tree,
kernel image and initramfs, the suites it runs with the results each
must give, and the folder its logs go to (boot_folder()).
"""

import json
import os
from collections import namedtuple

from guest import (BZIMAGE, DESIGNS, FLAVOURS, KSELFTEST, KSELFTEST_CHECKS, SUITES, build_folder,
                   suite_size)

# a mutant's boot (make mutants): its folder keeps the mutant's bzImage
# (run-mutants.py --keep-kernels) and its description, this file
MUTANT_BOOT = "boot.json"

# every boot runs the node's suite, a whole debug boot the atlas too:
# the debug kernel alone has the atlas's sources
NODE_SUITE = "sigio-test"
# the debug kernel runs the whole suite under every design, the
# data-race kernel (KCSAN) these checks under today's design (every
# design with --all: make test-all; make test, in CI's hour, leaves the
# KCSAN kernel out)
KCSAN_DESIGNS = ("rcu",)
# the SIGIO atlas runs in the debug boot of these designs (every design
# with --all or a --design: make test-all, make atlas-report's input);
# its other sources go through kill_fasync() as the node's do, and make
# test, in CI's hour, has room for one
ATLAS_DESIGNS = ("rcu",)
# make test's split, in CI's hour: the kernels named here boot the debug
# kernel under these designs only (today's and the wait-queue design,
# the two a driver can choose) and without the atlas, the others under
# every design; --all (make test-all) boots every kernel under every
# design, the atlas in each
TEST_SPLIT = {"6.12": ("rcu", "waitqueue")}
# the series' selftest runs through the kselftest runner in the whole
# debug boot of this design on every kernel (guest.KSELFTEST_CHECKS)
KSELFTEST_DESIGN = "rcu"
KCSAN_CHECKS = ("fasync_churn_during_delivery", "stress_ng_beside_stream",
                "fuzz_then_node_works", "teardown_during_delivery",
                "pipe_teardown_during_delivery", "many_opens_one_list",
                "info_names_on_two_devices_at_once")

Config = namedtuple("Config", "name append build tree kernel initrd sizes version flavour design "
                               "atlas folder")


def boot_folder(build, name):
    """A boot's folder: build/<version>/test/<name without the version>."""
    return os.path.join(build, "test", name.split("/", 1)[1])


def plan(versions, flavours=None, every=False, designs=None, chosen=None, append=""):
    """The boots of a run on versions: flavours (default the debug
    kernel; every flavour with every, make test-all), designs (default
    make test's split; all with every), chosen ({suite: names} to narrow
    each suite to, None for whole suites) and more for the command line."""
    only = chosen and {n for names in chosen.values() for n in names}
    configs = []
    for version in versions:
        build = build_folder(version)
        initrd = os.path.join(build, "initramfs.cpio.gz")
        # make test boots the debug kernel; the KCSAN kernel is make test-all's
        for flavour in flavours or (FLAVOURS if every else ["debug"]):
            tree = os.path.join(build, FLAVOURS[flavour][0])
            # the names each suite is narrowed to; None: whole suites
            picked = chosen if flavour == "debug" else {
                NODE_SUITE: [c for c in KCSAN_CHECKS if only is None or c in only]}
            if picked is not None and not any(picked.values()):
                continue
            if every:
                its_designs = DESIGNS
            elif flavour == "debug":
                its_designs = TEST_SPLIT.get(version, DESIGNS)
            else:
                its_designs = KCSAN_DESIGNS
            for design in designs or its_designs:
                # a whole debug boot runs the atlas too, under ATLAS_DESIGNS
                # on a kernel outside TEST_SPLIT (every design with every or
                # designs named)
                atlas = bool(picked is None
                             and (every or designs or
                                  (design in ATLAS_DESIGNS and version not in TEST_SPLIT)))
                if picked is not None:
                    suites = [s for s in SUITES if picked.get(s)]
                else:
                    suites = list(SUITES) if atlas else [NODE_SUITE]
                sizes = {s: suite_size(s, picked and picked[s]) for s in suites}
                # the kselftest runner in each kernel's whole debug boot of
                # today's design
                kselftest = picked is None and flavour == "debug" and design == KSELFTEST_DESIGN
                if kselftest:
                    sizes[KSELFTEST] = suite_size(NODE_SUITE, KSELFTEST_CHECKS)
                name = (f"{version}/{design}" if flavour == "debug"
                        else f"{version}/{flavour}/{design}")
                command_line = " ".join(filter(None, [
                    DESIGNS[design], FLAVOURS[flavour][1], append,
                    *(f"{SUITES[s]}={','.join(picked[s])}" for s in suites if picked),
                    kselftest and f"sigmouse_kselftest_only={','.join(KSELFTEST_CHECKS)}"]))
                configs.append(Config(name, command_line, build, tree,
                                      os.path.join(tree, BZIMAGE), initrd, sizes, version,
                                      flavour, design, atlas, boot_folder(build, name)))
    return configs


def write_mutant_boot(folder, design, flavour, append, chosen):
    """Write down the boot run-mutants.py makes of a mutant: its command
    line's part (append) runs the checks chosen names ({suite: checks})."""
    with open(os.path.join(folder, MUTANT_BOOT), "w") as f:
        json.dump({"design": design, "flavour": flavour, "append": append, "chosen": chosen},
                  f, indent=1)


def mutant_config(version, name):
    """The boot make mutants made of mutant name on version, as a Config
    (its kernel the bzImage run-mutants.py --keep-kernels kept)."""
    build = build_folder(version)
    folder = os.path.join(build, "mutants", name)
    path = os.path.join(folder, MUTANT_BOOT)
    if not os.path.exists(os.path.join(folder, "bzImage")):
        raise SystemExit(f"test_plan: no kernel of mutant {name} in {folder}: run "
                         f"run-mutants.py --version {version} --keep-kernels {name} first")
    with open(path) as f:
        boot = json.load(f)
    return Config(f"{version}/mutant-{name}", boot["append"], build,
                  os.path.join(build, FLAVOURS[boot["flavour"]][0]),
                  os.path.join(folder, "bzImage"), os.path.join(build, "initramfs.cpio.gz"),
                  {suite: suite_size(suite, checks) for suite, checks in boot["chosen"].items()},
                  version,
                  boot["flavour"], boot["design"], False, folder)
