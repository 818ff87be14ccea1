#!/bin/sh
# Build the guest programs and pack them with busybox-static,
# guest-apps/init.sh and bench.sh into build/initramfs.cpio.gz.
set -eu
. "$(dirname "$0")/lib.sh"

[ -x /bin/busybox ] || die "/bin/busybox missing: install busybox-static"

make -s -C "$top/guest-apps" KERNEL_TREE="$kernel_tree" OUT="$build/guest-apps"

root=$build/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/dev" "$root/proc" "$root/sys"
cp /bin/busybox "$root/bin/busybox"
cp "$top/guest-apps/init.sh" "$root/init"
cp "$top/guest-apps/bench.sh" "$root/bench.sh"
chmod +x "$root/init"
for program in "$build"/guest-apps/*; do
	case $program in *.o) continue ;; esac
	cp "$program" "$root/bin/"
done
(cd "$root" && find . | sort | cpio --quiet -o -H newc --reproducible) |
	gzip -1n >"$initramfs.tmp"
mv "$initramfs.tmp" "$initramfs"
say "initramfs ready: $initramfs"
