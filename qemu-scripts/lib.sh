# Paths and helpers shared by the host scripts; sourced, not run.
# shellcheck shell=sh

top=$(cd "$(dirname "$0")/.." && pwd)
build=${BUILD_DIR:-$top/build}
# four kernels from one source: "test" (the debug kernel every suite
# shares), "bench" (the same without the debug options, whose cost would
# swamp what the benchmarks measure) and "stock" (the bench configuration
# on pristine 6.1: no patches, no sigmouse; the bench's control), and
# "kcsan" (the test kernel with KCSAN for KASAN and lockdep: the two
# sanitizers exclude each other)
flavour=${SIGMOUSE_KERNEL:-test}
case $flavour in
test) kernel_tree=$build/linux ;;
bench) kernel_tree=$build/linux-bench ;;
stock) kernel_tree=$build/linux-stock ;;
kcsan) kernel_tree=$build/linux-kcsan ;;
*) echo "SIGMOUSE_KERNEL must be test, bench, stock or kcsan, not $flavour" >&2; exit 1 ;;
esac
bzimage=$kernel_tree/arch/x86/boot/bzImage
initramfs=$build/initramfs.cpio.gz
# the kernel source everything starts from: Debian's linux-source-6.1
source_tarball=/usr/src/linux-source-6.1.tar.xz

say() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

die() {
	say "error: $*"
	exit 1
}

# Print the sha256 of the named files' contents, in order.
content_hash() {
	cat "$@" | sha256sum | cut -d' ' -f1
}

# Copy $1 to $2 only when the contents differ, so make sees no change
# in files that did not change.
sync_file() {
	cmp -s "$1" "$2" 2>/dev/null && return 0
	mkdir -p "$(dirname "$2")"
	cp "$1" "$2"
}

# make in the kernel tree, with the same compiler every time: a changed
# CC would make kbuild rebuild everything it compiled before.
kernel_make() {
	cc=gcc
	command -v ccache >/dev/null && cc="ccache gcc"
	CCACHE_BASEDIR="$kernel_tree" CCACHE_NOHASHDIR=1 \
	KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2003-12-20}" \
	KBUILD_BUILD_USER=sigmouse KBUILD_BUILD_HOST=sigmouse \
		make -C "$kernel_tree" -s CC="$cc" "$@"
}
