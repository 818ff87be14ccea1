#!/bin/sh
# Build the patched Linux with sigmouse built in: 6.1 or 6.12 (make's VERSION=,
# SIGMOUSE_VERSION here).
#
# The tree is extracted from Debian's linux-source-<version> into
# build/<version>/linux and patches/<version>/series applied; a stamp keyed on the patches' content
# re-extracts it cleanly when a patch changes. The new files the series
# adds (driver/'s, the selftest's from guest-apps/) are copied where
# driver/files and guest-apps/files say, one by one, so an edit rebuilds
# only what it touches. The config is tinyconfig plus the config fragments
# (lib.sh's kernel_fragments: guest-apps/guest.config, Kconfig.snippet,
# then qemu-scripts/configs/debug.config for the debug kernel,
# bench.config for the bench kernel, SIGMOUSE_FLAVOUR=bench); any of
# their lines missing from the final .config fails the build.
# SIGMOUSE_FLAVOUR=kcsan builds the data-race kernel (kcsan.config).
# SIGMOUSE_FLAVOUR=stock builds the bench configuration from the
# pristine tree, without the series and without the options only the
# series defines.
# Arguments name other kbuild targets than bzImage.
set -eu
. "$(dirname "$0")/lib.sh"

[ -r "$source_tarball" ] || die "$source_tarball missing: install $source_package"

if [ "$flavour" = bench ]; then
	# the series' head, as make series committed it from patches/ and
	# driver/
	[ -d "$series_repo/.git" ] || die "no $series_repo: run make series first"
	series_tree_at "$(git -C "$series_repo" rev-parse sigmouse)"
	configure_kernel || exit 1
else
	require_series
	patch_files=$(series_patches)
	if [ "$flavour" = stock ]; then
		patch_files= patch_stamp=pristine
	else
		patch_stamp=$(cd "$patches" && content_hash series $patch_files)
	fi

	if [ "$(cat "$kernel_tree/.sigmouse-patches" 2>/dev/null)" != "$patch_stamp" ]; then
		say "extracting $source_tarball"
		rm -rf "$kernel_tree"
		mkdir -p "$kernel_tree"
		tar -xJf "$source_tarball" -C "$kernel_tree" --strip-components=1
		for p in $patch_files; do
			say "applying $p"
			# -l: 6.1.192 realigned ioctl-number.rst's table; bookworm's
			# 6.1.176 (without the security suite) has the old spacing.
			# No .orig or .rej file left in the tree: a hunk at an
			# offset (Debian's MAINTAINERS moves) would otherwise leave
			# a backup that a later step could read
			patch -d "$kernel_tree" -p1 -l --quiet --forward --no-backup-if-mismatch \
				--reject-file=- <"$patches/$p" ||
				die "patches/$version/$p does not apply to Linux $(kernel_make -s kernelversion) \
($source_package $(dpkg-query -W -f='${Version}' "$source_package" 2>/dev/null)); \
the series was made against $(sed -n 's/^# Made against //p' "$patches/series"): port it"
		done
		echo "$patch_stamp" >"$kernel_tree/.sigmouse-patches"
	fi

	if [ "$flavour" != stock ]; then
		series_new_files | while read -r file path; do
			sync_file "$file" "$kernel_tree/$path"
		done
	fi

	# stock has none of sigmouse's options: left out of the check
	configure_kernel "$([ "$flavour" = stock ] && echo lenient)" || exit 1
fi

# kbuild targets to build, bzImage unless named (make disasm wants one object)
[ $# -gt 0 ] || set -- bzImage
targets=$*
say "building $targets (make -j$(nproc))"
# shellcheck disable=SC2086
kernel_make -j"$(nproc)" $targets
say "built $targets in $kernel_tree"
