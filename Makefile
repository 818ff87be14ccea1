# sigmouse: driver/ and patches/ go into the kernel, guest-apps/ into the
# initramfs, qemu-scripts/ build and boot it all. Everything built lives
# in build/.

# one setting for every build output: BUILD here, BUILD_DIR in the scripts
BUILD ?= build
export BUILD_DIR := $(abspath $(BUILD))
PYTHON := python3
SCRIPTS := qemu-scripts

.PHONY: all deps kernel kcsan-kernel initramfs run test test-all check series check-series disasm mutants fuzz bench bench-smoke atlas-report clean

all: initramfs

deps:
	@sh $(SCRIPTS)/install-deps.sh

kernel: deps
	@sh $(SCRIPTS)/build-kernel.sh

initramfs: kernel
	@sh $(SCRIPTS)/build-initramfs.sh

# the data-race kernel: KCSAN instead of KASAN and lockdep
kcsan-kernel: deps
	@SIGMOUSE_KERNEL=kcsan sh $(SCRIPTS)/build-kernel.sh

# boot the guest and show a SIGIO line per mouse packet: at a terminal the
# guest runs with a shell until you end it, otherwise the host moves the
# mice for RUN_SECONDS; DISPLAY set opens QEMU's window
run: initramfs
	@$(PYTHON) $(SCRIPTS)/run.py --build $(BUILD)

# every kind of check: sparse and the host scripts' tests, the exported
# series' checks (git am, checkpatch, its prefixes built one by one in
# the bench tree, whose last stop is the bench kernel), on that kernel
# the default path's disassembly against stock and a seconds-long bench
# run to keep make bench working (no stock kernel), the mutants, then
# the KUnit suites and the guest suite on the debug kernel under all
# four designs, the SIGIO atlas under rcu, and make run used as a
# person would (window under Xvfb, terminal on a pty), two boots at a
# time
test: check check-series disasm initramfs bench-smoke mutants
	@$(PYTHON) $(SCRIPTS)/run-tests.py --build $(BUILD)

# every configuration on every kernel and sanitizer: make test with the
# SIGIO atlas under every design, and the KCSAN kernel (its own build) with the suite's stress checks under all
# four designs and its mutant, and the bench smoke against stock 6.1
test-all: STOCK = 1
test-all: MUTANT_KERNELS = debug kcsan
test-all: check check-series disasm initramfs kcsan-kernel bench-smoke mutants
	@$(PYTHON) $(SCRIPTS)/run-tests.py --build $(BUILD) --all

# the suite must kill every mutant in mutants/ of the kernels
# MUTANT_KERNELS names: each built into that kernel's tree in turn,
# booted with its checks, judged and reverted. make test leaves out the
# KCSAN kernel's (a 250 s boot and two rebuilds: CI's hour), make
# test-all runs it
MUTANT_KERNELS ?= debug
mutants: initramfs $(if $(filter kcsan,$(MUTANT_KERNELS)),kcsan-kernel)
	@$(PYTHON) $(SCRIPTS)/run-mutants.py --build $(BUILD) \
		$(foreach k,$(MUTANT_KERNELS),--kernel $(k))

# the syscall fuzzer for SECONDS (make test runs it for 10) under every
# design on the debug kernel, rcu on the KCSAN kernel;
# SEED=S replays a seed it printed
SECONDS ?= 60
fuzz: initramfs kcsan-kernel
	@$(PYTHON) $(SCRIPTS)/run-tests.py --build $(BUILD) --kernel debug --kernel kcsan \
		--only fuzz_then_node_works \
		--timeout $$(($(SECONDS) + 900)) \
		--append "SIGMOUSE_FUZZ_SECONDS=$(SECONDS)$(if $(SEED), SIGMOUSE_FUZZ_SEED=$(SEED))"


# a seconds-long bench run to keep make bench working, on the bench
# kernel; its control is stock 6.1 in make test-all (STOCK=1) and the
# bench kernel again in make test, where building stock would push a
# cold run past CI's hour
BENCH_BZIMAGE = $(BUILD)/series/walk/arch/x86/boot/bzImage
bench-smoke: initramfs series
	@SIGMOUSE_KERNEL=bench sh $(SCRIPTS)/build-kernel.sh
	@$(if $(STOCK),SIGMOUSE_KERNEL=stock sh $(SCRIPTS)/build-kernel.sh,:)
	@$(PYTHON) $(SCRIPTS)/run-bench.py --build $(BUILD) --smoke \
		$(if $(STOCK),,--stock-kernel $(BENCH_BZIMAGE)) >$(BUILD)/bench-smoke.log || \
		{ tail -20 $(BUILD)/bench-smoke.log; exit 1; }
	@echo "bench smoke: ok ($(BUILD)/bench-smoke.log)"

# the benchmarks, on a kernel without the debug options (the series'
# head in the tree make check-series walks) and on stock 6.1 with the
# same configuration (the control); SMP=N vCPUs
bench: series
	@SIGMOUSE_KERNEL=bench sh $(SCRIPTS)/build-kernel.sh
	@SIGMOUSE_KERNEL=stock sh $(SCRIPTS)/build-kernel.sh
	@SIGMOUSE_KERNEL=bench sh $(SCRIPTS)/build-initramfs.sh
	@$(PYTHON) $(SCRIPTS)/run-bench.py --build $(BUILD) $(if $(SMP),--smp $(SMP))

check: kernel
	@sh $(SCRIPTS)/check.sh

# the series as a kernel developer takes it: git format-patch --rfc
# --cover-letter against pristine 6.1, written to build/series/out
series: deps
	@sh $(SCRIPTS)/series.sh

# make test's checks of that series: git am onto pristine, checkpatch
# --strict, kernel-doc, every prefix builds (vmlinux, one non-debug
# tree), the UAPI header alone in C and C++, the .kunitconfig
check-series: series kernel
	@sh $(SCRIPTS)/check-series.sh

# stock 6.1's kill_fasync() next to the patched one, in the bench tree;
# fails unless the empty-list path is stock apart from NOPs
disasm: series
	@SIGMOUSE_KERNEL=bench sh $(SCRIPTS)/build-kernel.sh fs/fcntl.o
	@SIGMOUSE_KERNEL=bench sh $(SCRIPTS)/disasm.sh

# docs/sigio-atlas.md from the atlas's results in the last make
# test-all's boots (build/test/<design>/channel.log)
atlas-report:
	@$(PYTHON) $(SCRIPTS)/atlas_report.py --build $(BUILD) --output docs/sigio-atlas.md

clean:
	rm -rf $(BUILD)
