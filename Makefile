# sigmouse: driver/ and patches/ go into the kernel, guest-apps/ into the
# initramfs, qemu-scripts/ build and boot it all. Everything built lives
# in build/.

BUILD := build
PYTHON := python3
SCRIPTS := qemu-scripts

.PHONY: all deps kernel initramfs run test check clean

all: initramfs

deps:
	@sh $(SCRIPTS)/install-deps.sh

kernel: deps
	@sh $(SCRIPTS)/build-kernel.sh

initramfs: kernel
	@sh $(SCRIPTS)/build-initramfs.sh

# boot the guest and show SIGIO lines while the host moves QEMU's mice
run: initramfs
	@$(PYTHON) $(SCRIPTS)/run.py --build $(BUILD)

# everything: the checks, then the guest suite on the debug kernel
test: check initramfs
	@$(PYTHON) $(SCRIPTS)/run-tests.py --build $(BUILD)

check: kernel
	@sh $(SCRIPTS)/check.sh

clean:
	rm -rf $(BUILD)
