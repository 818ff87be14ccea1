# sigmouse: driver/ and patches/ go into the kernel, guest-apps/ into the
# initramfs, qemu-scripts/ build and boot it all. Everything built lives
# in build/, each kernel's in build/<version>/.

# One name per setting, in make, shell and Python alike: VERSION (the
# kernel; SIGMOUSE_VERSION in the scripts' environment, --version in
# Python), the flavour of kernel (debug, kcsan, bench, stock;
# SIGMOUSE_FLAVOUR, --flavour), the design (rwlock, rcu-global, rcu,
# waitqueue; --design), BUILD_DIR, WALK (SIGMOUSE_WALK), SMP (--smp).

# the kernel make run, make bench and the other targets build and boot:
# Debian's linux-source-6.1 or linux-source-6.12 (make test covers both)
VERSION ?= 6.1
export SIGMOUSE_VERSION := $(VERSION)
# every build output, each kernel's in $(BUILD_DIR)/<version>; absolute,
# for the scripts wherever they run
BUILD_DIR ?= build
override BUILD_DIR := $(abspath $(BUILD_DIR))
export BUILD_DIR
# this kernel's build outputs
KBUILD := $(BUILD_DIR)/$(VERSION)
PYTHON := python3
SCRIPTS := qemu-scripts
# make test's split: every design on the first kernel, the rest
# on the second (TEST_SPLIT in run-tests.py says which designs), which
# make test-all gives every design too
FULL_VERSION := 6.1
SPLIT_VERSION := 6.12

.PHONY: museum lava-jobs lava-run models help all deps kernel kcsan-kernel initramfs run person test test-one check-node check-nodes test-all test-full test-split check check-host check-kernel series check-series disasm mutants fuzz bench bench-one bench-ablations bench-smoke boot-deaths atlas-report kunit clean

# plain make builds nothing: it lists the targets
.DEFAULT_GOAL := help

# every target, one line each, with what it costs on a 2-core machine
# under TCG (docs/measurements.md has each figure's command and revision)
help:
	@echo 'make TARGET [VERSION=6.1|6.12]   (the kernel; 6.1 unless given)'
	@echo '  help          this list; builds nothing'
	@echo '  run           [BZIMAGE=yours|LINUX_TREE=yours] boot the guest, one SIGIO line per mouse packet; first time: deps, kernel, initramfs'
	@echo '  test          what CI runs: both kernels, every kind of check; cold about 50 min, about 33 with ccache warm'
	@echo '  test-one      CHECK=name[,name] [DESIGN=rcu]: only those checks, in one boot of the debug kernel'
	@echo '  check-node    sigio-check on one node: NODE=uinput:event|ps2:event|pty|PATH [PROVOKE=cmd] [HANGUP=1] [BZIMAGE=yours|LINUX_TREE=yours]; 1 min'
	@echo '  check-nodes   check-node on sigmouse, evdev and a pty under every design, and on a defconfig kernel (test-all'"'"'s); 50 min cold'
	@echo '  test-all      every configuration on every kernel and sanitizer; about 3 hours cold'
	@echo '  test-full     make test'"'"'s builds and checks on VERSION, no suite boots (make test boots them)'
	@echo '  test-split    make test'"'"'s 6.12 part, no suite boots: check, check-series, initramfs'
	@echo '  person        make run used as a person would, the README'"'"'s commands as a newcomer would; about 4.5 min'
	@echo '  check         check-host, then check-kernel'
	@echo '  check-host    the host scripts'"'"' tests and the promise table; no kernel build, about a second'
	@echo '  check-kernel  sparse on the driver and fs/fcntl.c, the tests that read the kernel tree; needs the kernel'
	@echo '  deps          install the missing Debian packages as root, or print the apt-get line'
	@echo '  kernel        the debug kernel (KASAN, lockdep); cold 10-17 min, seconds once built'
	@echo '  kcsan-kernel  the data-race (KCSAN) kernel; about 10 min cold'
	@echo '  initramfs     the guest programs and /init; the kernel first, then seconds'
	@echo '  all           the same as initramfs'
	@echo '  series        the kernel series as git format-patch, in build/<version>/series/out; about 1 min'
	@echo '  check-series  checks of that series; WALK=no 1.5 min, WALK=dirs about 6, WALK=yes (default) 23 cold'
	@echo '  disasm        stock kill_fasync() beside the patched one in the bench tree; about 1 min'
	@echo '  mutants       every mutant in mutants/ must be killed; about 37 s each (MUTANTS=names picks)'
	@echo '  fuzz          the syscall fuzzer for FUZZ_SECONDS (60) per boot; builds the KCSAN kernel first'
	@echo '  bench         the benchmarks on both kernels, side by side; about an hour'
	@echo '  bench-one     the benchmarks on VERSION: bench and stock kernels, 65 boots; about 30 min once built'
	@echo '  bench-ablations sigmouse against evdev with each driver ablation, and pinned; about 25 min'
	@echo '  bench-smoke   a seconds-long bench run to keep make bench working; about 4 min'
	@echo '  boot-deaths   how often a guest dies while its kernel patches its text; BOOTS (20) of each mode'
	@echo '  atlas-report  docs/sigio-atlas-<version>.md from the last make test-all'"'"'s boots; seconds'
	@echo '  lava-jobs     a LAVA job per boot of make test (ALL=1: of make test-all), validated by LAVA'"'"'s schema; seconds'
	@echo '  museum        fasync bugs the kernel fixed, brought back into VERSION'"'"'s kernel, each caught; writes docs/museum.md'
	@echo '  lava-run      a local LAVA server and worker (Debian'"'"'s packages, root) run the LAVA jobs; results via its API; about 3 min to set up'
	@echo '  models        the four designs model-checked with spin (docs/models/); MODEL_BOUNDS=small (30 s) or big (2 min)'
	@echo '  kunit         the KUnit suites with kunit.py, its own kernel; about 9 min cold, 25 s warm'
	@echo '  clean         remove build/ (every kernel, the KVM verdict)'

all: initramfs

deps:
	@sh $(SCRIPTS)/install-deps.sh

kernel: deps
	@sh $(SCRIPTS)/build-kernel.sh

initramfs: kernel
	@sh $(SCRIPTS)/build-initramfs.sh

# the data-race kernel: KCSAN instead of KASAN and lockdep
kcsan-kernel: deps
	@SIGMOUSE_FLAVOUR=kcsan sh $(SCRIPTS)/build-kernel.sh

# the kernel make run and make check-node boot: BZIMAGE=path, a kernel
# of yours; LINUX_TREE=path, your kernel tree, its .config merged with
# guest-apps/guest.config and built first (qemu-scripts/build-tree.sh);
# neither, VERSION's debug kernel
your_kernel = $(if $(LINUX_TREE),--bzimage $(LINUX_TREE)/arch/x86/boot/bzImage, \
	$(if $(BZIMAGE),--bzimage $(BZIMAGE)))

# boot the guest and show a SIGIO line per mouse packet: at a terminal the
# guest runs with a shell until you end it, otherwise the host moves the
# mice for RUN_SECONDS; DISPLAY set opens QEMU's window
run: initramfs
	$(if $(LINUX_TREE),@sh $(SCRIPTS)/build-tree.sh $(LINUX_TREE))
	@$(PYTHON) $(SCRIPTS)/run.py --version $(VERSION) $(your_kernel)

# make run used as a person would: its window under Xvfb, the X pointer
# moved by xdotool, then its terminal on a pty (person_test.py); its
# KTAP in build/<version>/person/ktap, which run-tests.py counts
person: initramfs
	@$(PYTHON) $(SCRIPTS)/person_test.py --version $(VERSION)

# make test, both kernels under the split: on 6.1 every kind of check
# (make test-full without the prefix walk, whose last prefix is the
# debug kernel's whole-tree build: check-series checks that the series'
# head is that kernel's source; its bench smoke on the debug kernel;
# thirteen of the mutants: QUICK_MUTANTS; the spin models; make person), on 6.12 make check,
# the exported series' checks, and the suite under two designs without
# the atlas (make test-split); then both kernels' boots, two at a time,
# and one closing line. The walk is make test-all's (WALK=yes).
# Once 6.1's kernel is built (both cores), 6.12's part runs beside 6.1's
# at nice 19, in its own session, its output in SPLIT_LOG and shown
# when 6.1's part ends: 6.1's checks, single boots and one-file mutant
# builds leave a core idle most of the time, and the niced build takes
# only what they leave; make person, last, keeps one core busy for
# 2.5 minutes, the other building. A session of its own is also a scheduler
# autogroup of its own, which competes with make test's as an equal
# whatever its tasks' nice values: the autogroup gets nice 19 too.
# Either part failing, or an interrupt, ends the other. test-full does
# not make the kernel again (-o kernel): kbuild took 16 s to find
# nothing to do
SPLIT_LOG = $(BUILD_DIR)/$(SPLIT_VERSION)/test-split.log
test:
	@$(MAKE) --no-print-directory VERSION=$(FULL_VERSION) kernel
	@mkdir -p $(dir $(SPLIT_LOG)); \
	setsid sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null; exec nice -n 19 "$$@"' sh \
		$(MAKE) --no-print-directory VERSION=$(SPLIT_VERSION) WALK=no test-split \
		>$(SPLIT_LOG) 2>&1 & split=$$!; \
	trap 'kill -TERM -$$split 2>/dev/null' EXIT INT TERM; \
	$(MAKE) --no-print-directory -o kernel VERSION=$(FULL_VERSION) WALK=no \
		MUTANTS="$(QUICK_MUTANTS)" MUSEUM="$(QUICK_MUSEUM)" test-full museum models \
		lava-jobs person || exit; \
	echo "make test: $(FULL_VERSION)'s part done; $(SPLIT_VERSION)'s, from $(SPLIT_LOG):"; \
	wait $$split; status=$$?; trap - EXIT INT TERM; cat $(SPLIT_LOG); exit $$status
	@$(PYTHON) $(SCRIPTS)/run-tests.py \
		--version $(FULL_VERSION) --version $(SPLIT_VERSION)

# one boot of the debug kernel under DESIGN with only the checks CHECK
# names (comma-separated): sigio-test's tests (read_sizes, not
# node.read_sizes) or the SIGIO atlas's variants (pipe_read_data), whose
# KTAP it shows and then the closing line
DESIGN ?= rcu
ifneq ($(filter test-one,$(MAKECMDGOALS)),)
ifndef CHECK
$(error make test-one needs CHECK=name: a test of guest-apps/sigio-test.c or a variant of guest-apps/sigio-atlas.c)
endif
endif
test-one: initramfs
	@$(PYTHON) $(SCRIPTS)/run-tests.py --version $(VERSION) --design $(DESIGN) --only $(CHECK)

# sigio-check (guest-apps/sigio-check.c) on one node, in one boot of
# BZIMAGE (any kernel with guest-apps/guest.config's options; by default
# VERSION's debug kernel) with the kit's initramfs, under DESIGN:
# NODE=uinput:HANDLER, the node of that handler (event, mouse, sigmouse)
# for a uinput mouse sigio-check makes and moves; NODE=MOUSE:HANDLER, the
# handler's node of one of QEMU's mice (ps2, virtio-mouse,
# virtio-tablet), moved over QMP; NODE=pty, a
# pseudo-terminal's slave, a line written to its master; or NODE=PATH
# with PROVOKE='a shell command, run in the guest, that makes the node
# signal'. REASON= the si_code the event must bring (in, out, msg, err,
# pri, hup; none for no signal); SETS_OWNER=1 for a driver that makes the
# subscriber the owner, as ttys do; HANGUP=1 makes the event the device
# going away (the uinput mouse destroyed, the pty's master closed, or
# PROVOKE removing NODE's device), whose REASON is hup unless given.
# BZIMAGE= or LINUX_TREE= as for make run
NODE ?= uinput:event
REASON ?= $(if $(HANGUP),hup,in)
QEMU_MICE := ps2 virtio-mouse virtio-tablet
check_node_args = --reason $(REASON) $(if $(SETS_OWNER),--sets-owner) $(if $(HANGUP),--hangup) \
	$(if $(filter pty,$(NODE)),--pty,$(if $(filter uinput:%,$(NODE)),--uinput-mouse \
	$(patsubst uinput:%,%,$(NODE)),$(if $(filter $(QEMU_MICE),$(firstword $(subst :, ,$(NODE)))), \
	--qemu-mouse $(subst :, ,$(NODE)),--provoke '$(PROVOKE)' $(NODE))))
check-node: initramfs
	$(if $(LINUX_TREE),@sh $(SCRIPTS)/build-tree.sh $(LINUX_TREE))
	@$(PYTHON) $(SCRIPTS)/check_node.py --version $(VERSION) --design $(DESIGN) \
		$(your_kernel) -- $(check_node_args)

# sigio-check on the nodes whose fasync is known, as make check-node
# runs it: sigmouse's, evdev's and a pty's event under every design;
# once, their hangup (a pty's slave signals nothing when its master
# goes) and QEMU's mice moved over QMP;
# then on a kernel the kit did not configure its own way, the series'
# head from x86_64_defconfig and guest.config (build-tree.sh
# --series-head: 33 min cold), evdev's and a pty's (the driver is off)
CHECK_NODE_EVENTS := uinput:sigmouse uinput:event pty
CHECK_NODE_ONCE := "NODE=uinput:sigmouse HANGUP=1" "NODE=uinput:event HANGUP=1" \
	"NODE=pty HANGUP=1 REASON=none" "NODE=ps2:event" "NODE=virtio-tablet:sigmouse"
check-nodes: initramfs series
	@for d in rwlock rcu-global rcu waitqueue; do for n in $(CHECK_NODE_EVENTS); do \
		$(MAKE) --no-print-directory check-node DESIGN=$$d NODE=$$n || exit; done; done
	@for row in $(CHECK_NODE_ONCE); do \
		$(MAKE) --no-print-directory check-node $$row || exit; done
	@sh $(SCRIPTS)/build-tree.sh --series-head
	@for n in uinput:event pty; do $(MAKE) --no-print-directory check-node NODE=$$n \
		BZIMAGE=$(KBUILD)/defconfig/arch/x86/boot/bzImage || exit; done

# every kind of check on VERSION, built: sparse and the host scripts'
# tests, the exported series' checks (git am, checkpatch, its prefixes
# built one by one in the bench tree, whose last stop is the bench
# kernel), the default path's disassembly against stock and a
# seconds-long bench run to keep make bench working, the mutants. It
# boots no suite: make test and make test-all then run run-tests.py,
# which boots the KUnit suites and the guest suite on the debug kernel
# under all four designs, the SIGIO atlas under rcu (and make person, on
# the first kernel)
test-full: check check-series disasm initramfs bench-smoke mutants

# the split kernel's part of make test, built: make check, the series'
# checks without the prefix walk (WALK=no), the initramfs; no boot (make
# test's run-tests.py boots it under two designs)
test-split: check check-series initramfs

# every configuration on every kernel and sanitizer: make test-full on
# both kernels with the SIGIO atlas under every design, the KCSAN kernel
# (its own build) with the suite's stress checks under all four designs
# and its mutants, the bench smoke against stock, and check-nodes; then both atlas
# reports from those boots, whatever run-tests.py said, whose status
# test-all ends with (kept in a file: a recipe line with $(MAKE) in it
# runs even under make -n, so run-tests.py has a line of its own)
test-all:
	@for v in $(FULL_VERSION) $(SPLIT_VERSION); do \
		$(MAKE) --no-print-directory VERSION=$$v STOCK=1 MUTANT_FLAVOURS="debug kcsan" \
			test-full kcsan-kernel check-nodes museum || exit; \
	done
	@$(MAKE) --no-print-directory VERSION=$(FULL_VERSION) MODEL_BOUNDS=big ALL=1 \
		models lava-jobs person
	@$(PYTHON) $(SCRIPTS)/run-tests.py --all \
		--version $(FULL_VERSION) --version $(SPLIT_VERSION); \
		echo $$? >$(BUILD_DIR)/test-all.status
	@for v in $(FULL_VERSION) $(SPLIT_VERSION); do \
		$(MAKE) --no-print-directory VERSION=$$v atlas-report || exit; \
	done
	@exit "$$(cat $(BUILD_DIR)/test-all.status)"

# the suite must kill every mutant in mutants/ of the flavours of kernel
# MUTANT_FLAVOURS names: each built into that kernel's tree in turn,
# booted with its checks, judged and reverted. make test leaves out the
# KCSAN kernel's (a 250 s boot and two rebuilds: CI's hour), make
# test-all runs it
MUTANT_FLAVOURS ?= debug
# MUTANTS=names: only those (make test's: one for each way the suite
# kills a mutant: a signal check on the node, the wait-queue design, a
# design's walk in fs/fcntl.c, the hangup, a kernel report under fault
# injection, the atlas, a race widened until a sampler meets it, the
# permission check between users, a KUnit case, a deterministic expected
# failure gone, the bad-options boot, a check of the exported series;
# each kernel mutant costs a cold make test about 37 s); KEEP_KERNELS=1
# keeps each mutant's bzImage for make lava-jobs MUTANT=
QUICK_MUTANTS := 01-no-kill-fasync 02-unkeyed-wakeup 04-hangup-poll-in \
	05-first-subscriber-only 14-open-unchecked-alloc 17-msg-band-without-pollmsg \
	18-info-name-after-unlock 19-sigio-perm-ignores-uids 123-put-back-overfills \
	127-rwlock-reader-irqsave 128-unknown-design-resets 149-uapi-kernel-type \
	160-model-rcu-reader-skips-fa-lock
mutants: initramfs series $(if $(filter kcsan,$(MUTANT_FLAVOURS)),kcsan-kernel)
	@$(PYTHON) $(SCRIPTS)/run-mutants.py --version $(VERSION) \
		$(foreach f,$(MUTANT_FLAVOURS),--flavour $(f)) $(if $(KEEP_KERNELS),--keep-kernels) \
		$(MUTANTS)

# a LAVA job per boot of make test's run (ALL=1: make test-all's; DESIGN=
# one design's), for LAVA's QEMU device type, from the boots run-tests.py
# makes (test_plan.py), each validated with LAVA's schema from Debian's
# lava-common (so with Debian's python3); the jobs and their KTAP in
# build/lava/, which run-tests.py counts. ARTIFACTS=url: where a lab
# serves build/ (default: file:// URLs of this machine's); CHECK=a,b
# narrows the boots to those checks, as make test-one; MUTANT=name adds
# a job of a mutant make mutants KEEP_KERNELS=1 MUTANTS=name built
lava-jobs: deps
	@/usr/bin/python3 $(SCRIPTS)/lava_jobs.py --version $(FULL_VERSION) --version $(SPLIT_VERSION) \
		$(if $(ALL),--all) $(if $(filter command line,$(origin DESIGN)),--design $(DESIGN)) \
		$(if $(CHECK),--only $(CHECK)) $(foreach m,$(MUTANT),--mutant $(m)) \
		$(if $(ARTIFACTS),--artifacts $(ARTIFACTS))

# the jobs make lava-jobs wrote, run by a LAVA lab set up here from
# Debian's lava-server and lava-dispatcher (qemu-scripts/lava-run.sh:
# PostgreSQL, the server, scheduler and one TCG worker started by hand,
# on loopback; torn down after), their results read back through
# LAVA's API; not in make test (root, packages beyond its list)
lava-run: lava-jobs
	@sh $(SCRIPTS)/lava-run.sh run $(BUILD_DIR)/lava/*.yaml

# the designs as Promela models (docs/models/), each property searched
# exhaustively by spin within MODEL_BOUNDS (small: make test's, big: make
# test-all's); the verdicts' KTAP in build/models/<bounds>/ktap, which
# run-tests.py counts
MODEL_BOUNDS ?= small
models: deps
	@$(PYTHON) $(SCRIPTS)/models.py --bounds $(MODEL_BOUNDS)

# the museum (mutants/museum/): each fix of the kernel's fasync code
# taken back out of VERSION's debug kernel, as make mutants runs its
# mutants, and caught by the check its header names; docs/museum.md
# written from the last run of each entry on each kernel (make test runs
# some on 6.1, make test-all all on both). MUSEUM=names runs only those
# (make test's: a wrong si_code, a stale pid, a wrong errno and a lock
# order lockdep reports, one of each way an entry is caught, about 37 s
# each)
QUICK_MUSEUM := d08477aa975e-sigio-si-code-ambiguous cc4a3f885e8f-f_getown-dead-owner \
	f73127356f34-f_setown-esrch f671a691e299-f_getown-irq-lock-inversion
museum: initramfs
	@$(PYTHON) $(SCRIPTS)/run-mutants.py --version $(VERSION) --museum $(MUSEUM)

# the syscall fuzzer for FUZZ_SECONDS (make test runs it for 10) under
# every design on the debug kernel, rcu on the KCSAN kernel;
# SEED=S replays a seed it printed
FUZZ_SECONDS ?= 60
fuzz: initramfs kcsan-kernel
	@$(PYTHON) $(SCRIPTS)/run-tests.py --version $(VERSION) --flavour debug --flavour kcsan \
		--only fuzz_then_node_works \
		--timeout $$(($(FUZZ_SECONDS) + 900)) \
		--append "SIGMOUSE_FUZZ_SECONDS=$(FUZZ_SECONDS)$(if $(SEED), SIGMOUSE_FUZZ_SEED=$(SEED))"


# a seconds-long bench run to keep make bench working: after the whole
# walk on the bench kernel, its control stock in make test-all (STOCK=1)
# and the bench kernel again otherwise; in make test (WALK=no, no
# bench kernel built) on the debug kernel against itself. Building the
# bench and stock kernels too would push a cold make test past CI's hour
BENCH_BZIMAGE = $(KBUILD)/series/walk/arch/x86/boot/bzImage
DEBUG_BZIMAGE = $(KBUILD)/linux/arch/x86/boot/bzImage
WHOLE_WALK = $(filter yes,$(WALK))
SMOKE_BZIMAGE = $(if $(WHOLE_WALK),$(BENCH_BZIMAGE),$(DEBUG_BZIMAGE))
bench-smoke: initramfs series
	@$(if $(WHOLE_WALK),SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/build-kernel.sh,:)
	@$(if $(STOCK),SIGMOUSE_FLAVOUR=stock sh $(SCRIPTS)/build-kernel.sh,:)
	@$(PYTHON) $(SCRIPTS)/run-bench.py --version $(VERSION) --smoke --bzimage $(SMOKE_BZIMAGE) \
		$(if $(STOCK),,--stock-bzimage $(SMOKE_BZIMAGE)) >$(KBUILD)/bench-smoke.log || \
		{ tail -20 $(KBUILD)/bench-smoke.log; exit 1; }
	@echo "bench smoke: ok ($(KBUILD)/bench-smoke.log)"

# the benchmarks on both kernels, one run each, then side by side
# (build/bench-kernels.md); with VERSION= given, on that kernel only
ifeq ($(origin VERSION),file)
bench:
	@for v in $(FULL_VERSION) $(SPLIT_VERSION); do \
		$(MAKE) --no-print-directory VERSION=$$v bench-one || exit; \
	done
	@$(PYTHON) $(SCRIPTS)/run-bench.py --out $(BUILD_DIR)/bench-kernels.md \
		--versions $(FULL_VERSION) $(SPLIT_VERSION)
else
bench: bench-one
endif

# the benchmarks on VERSION, on a kernel without the debug options (the
# series' head in the tree make check-series walks) and on stock with
# the same configuration (the control); SMP=N vCPUs in the main rounds,
# and VCPUS="1 4" the pipe load's rounds at those counts too (default 1):
# on a host with 8 cores, SMP=8 VCPUS="1 2 4" draws the curve to 8
bench-one: series
	@SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/build-kernel.sh
	@SIGMOUSE_FLAVOUR=stock sh $(SCRIPTS)/build-kernel.sh
	@SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/build-initramfs.sh
	@$(PYTHON) $(SCRIPTS)/run-bench.py --version $(VERSION) $(if $(SMP),--smp $(SMP)) \
		$(if $(VCPUS),--vcpus $(VCPUS))

# sigmouse against evdev on VERSION's bench kernel, with each patch of
# driver/ablations/ built into it in turn (as make mutants builds its
# mutants): ABLATION_ROUNDS blocks of every kernel on a vCPU per host CPU and on
# one, under ABLATION_DESIGN, the kit's kernel also with writer and
# receiver pinned together and apart; results in
# build/<version>/bench-ablations/
ABLATION_ROUNDS ?= 8
ABLATION_DESIGN ?= rcu
bench-ablations: series
	@SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/build-kernel.sh
	@SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/build-initramfs.sh
	@$(PYTHON) $(SCRIPTS)/run-bench.py --version $(VERSION) --ablations \
		--rounds $(ABLATION_ROUNDS) --ablation-design $(ABLATION_DESIGN)

# make check: first what needs no kernel build (the host scripts' tests,
# the promise table), then what needs the debug kernel's tree (sparse,
# the KCSAN filter's test, which reads the tree's functions, and the
# results' test, which reads them with the tree's KTAP parser)
check: check-host check-kernel

check-host: deps
	@sh $(SCRIPTS)/check.sh host

check-kernel: kernel
	@sh $(SCRIPTS)/check.sh kernel

# the series as a kernel developer takes it: git format-patch --rfc
# --cover-letter against the pristine source, written to
# build/<version>/series/out
series: deps
	@sh $(SCRIPTS)/series.sh

# make test's checks of that series: git am onto pristine, checkpatch
# --strict, kernel-doc, every prefix builds (vmlinux, one non-debug
# tree; WALK=dirs compiles only the folders each patch's C files are in,
# WALK=no leaves it out), the UAPI header alone in C and C++, the
# .kunitconfig, the documentation
WALK ?= yes
check-series: series kernel
	@SIGMOUSE_WALK=$(WALK) sh $(SCRIPTS)/check-series.sh

# stock kill_fasync() next to the patched one, in the bench tree;
# fails unless the empty-list path is stock apart from NOPs
disasm: series
	@SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/build-kernel.sh fs/fcntl.o
	@SIGMOUSE_FLAVOUR=bench sh $(SCRIPTS)/disasm.sh

# the series' KUnit suites as kernel developers run them: kunit.py run
# in make series' repository with every .kunitconfig the series adds,
# x86_64 under QEMU; its own kernel in build/<version>/kunit, so not in
# make test, whose debug kernels run the same suites at boot
kunit: series
	@sh $(SCRIPTS)/kunit.sh

# how often a guest dies while its kernel patches its own text, under
# multi- and single-threaded TCG: BOOTS boots of each, the fasync
# tracepoint switched under a pipe flood for TEXT_POKE_SECONDS (20),
# and plain boots; WORKLOAD="..." picks others (boot-deaths.py's list)
BOOTS ?= 20
boot-deaths: initramfs
	@$(PYTHON) $(SCRIPTS)/boot-deaths.py --version $(VERSION) --boots $(BOOTS) \
		$(if $(TEXT_POKE_SECONDS),--text-poke-seconds $(TEXT_POKE_SECONDS)) \
		$(foreach w,$(WORKLOAD),--workload $(w))

# docs/sigio-atlas-<version>.md from the atlas's results in the last
# make test-all's boots (build/<version>/test/<design>/channel.log);
# make test holds the committed report against its own atlas boot
atlas-report:
	@$(PYTHON) $(SCRIPTS)/atlas_report.py --version $(VERSION) \
		--output docs/sigio-atlas-$(VERSION).md

clean:
	rm -rf $(BUILD_DIR)
