#!/bin/sh
# Build the guest programs and pack them with busybox-static, Debian's
# stress-ng and util-linux's readprofile and the libraries they link, guest-apps/init.sh and bench.sh
# into build/<version>/initramfs.cpio.gz, the kselftest harness from that
# kernel's tree; and the series' selftest as kernel developers build and
# install it (the UAPI headers, then the selftests' install), in
# /kselftest for the boots that run it through the kselftest runner.
set -eu
. "$(dirname "$0")/lib.sh"

[ -x /bin/busybox ] || die "/bin/busybox missing: install busybox-static"
[ -x /usr/bin/stress-ng ] || die "/usr/bin/stress-ng missing: install stress-ng"
[ -x /usr/sbin/readprofile ] || die "/usr/sbin/readprofile missing: install util-linux"

make -s -C "$top/guest-apps" KERNEL_TREE="$kernel_tree" OUT="$build/guest-apps"
kernel_make headers
rm -rf "$build/kselftest"
make -s -C "$kernel_tree/tools/testing/selftests" TARGETS=sigmouse LDFLAGS=-static \
	INSTALL_PATH="$build/kselftest" install >/dev/null

root=$build/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys"
cp /bin/busybox "$root/bin/busybox"
cp -R "$build/kselftest" "$root/kselftest"
cp "$top/guest-apps/init.sh" "$root/init"
cp "$top/guest-apps/bench.sh" "$root/bench.sh"
cp "$top/guest-apps/guest.config" "$root/guest.config"
chmod +x "$root/init"
# Debian's programs the guest runs (make bench holds util-linux's
# readprofile against kprofile), with their shared libraries and the
# loader at the paths they were linked with
for program in /usr/bin/stress-ng /usr/sbin/readprofile; do
	cp "$program" "$root/bin/"
	for lib in $(ldd "$program" | grep -o '/[^ ]*'); do
		mkdir -p "$root${lib%/*}"
		cp -L "$lib" "$root$lib"
	done
done
for program in "$build"/guest-apps/*; do
	case $program in *.o) continue ;; esac
	cp "$program" "$root/bin/"
done
(cd "$root" && find . | sort | cpio --quiet -o -H newc --reproducible) |
	gzip -1n >"$initramfs.tmp"
mv "$initramfs.tmp" "$initramfs"
say "initramfs ready: $initramfs"
