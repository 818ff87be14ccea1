#!/usr/bin/env python3
"""The boots a test run makes, one description for every runner: the
kit's own (run-tests.py) and the LAVA jobs it writes (lava_jobs.py).
A Config is one boot: its name (<version>/<design>, or
<version>/<flavour>/<design>), the kernel command line's part that
chooses the design, flavour and checks, the build folder, kernel tree
and initramfs, and the suites it runs with the results each must give.
"""

import os
from collections import namedtuple

from guest import (DESIGNS, FLAVOURS, KSELFTEST, KSELFTEST_CHECKS, SUITES, build_folder,
                   suite_size)

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

Config = namedtuple("Config", "name append build tree initrd sizes version flavour design atlas")


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
                configs.append(Config(name, command_line, build, tree, initrd, sizes,
                                      version, flavour, design, atlas))
    return configs
