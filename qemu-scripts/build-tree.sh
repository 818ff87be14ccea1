#!/bin/sh
# make check-node LINUX_TREE=path: a kernel tree of yours, built for the
# kit's guest, as vng --build builds one: its .config (x86_64_defconfig
# when it has none) with guest-apps/guest.config merged in, then bzImage
# in the tree. Stops naming each line of the fragment the final .config
# does not hold (a dependency the tree does not meet). With
# --series-head, the tree is the series' head checked out in
# build/<version>/defconfig (make test-all's kernel the kit did not
# configure its own way).
#
#   build-tree.sh LINUX_TREE | --series-head
set -eu
. "$(dirname "$0")/lib.sh"

[ $# -eq 1 ] || die "usage: build-tree.sh LINUX_TREE | --series-head"
if [ "$1" = --series-head ]; then
	kernel_tree=$defconfig_tree
	series_tree_at "$(git -C "$series_repo" rev-parse sigmouse)"
else
	kernel_tree=$(cd "$1" 2>/dev/null && pwd) || die "LINUX_TREE=$1: no such folder"
fi
[ -x "$kernel_tree/scripts/kconfig/merge_config.sh" ] ||
	die "LINUX_TREE=$1 is no kernel source tree (no scripts/kconfig/merge_config.sh)"
fragment=$top/guest-apps/guest.config

if [ ! -e "$kernel_tree/.config" ]; then
	say "$kernel_tree has no .config: x86_64_defconfig"
	kernel_make x86_64_defconfig >/dev/null
fi
say "merging guest-apps/guest.config into $kernel_tree/.config"
(cd "$kernel_tree" && scripts/kconfig/merge_config.sh -m .config "$fragment" >/dev/null)
kernel_make olddefconfig >/dev/null
missing=$(fragment_missing "$fragment")
[ -z "$missing" ] || die "guest.config's options missing from $kernel_tree/.config (unmet dependencies?):
$missing"
say "building bzImage (make -j$(nproc))"
kernel_make -j"$(nproc)" bzImage
say "built $kernel_tree/arch/x86/boot/bzImage"
