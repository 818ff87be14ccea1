# Paths and helpers shared by the host scripts; sourced, not run.
# shellcheck shell=sh

top=$(cd "$(dirname "$0")/.." && pwd)
# the kernel everything is for (make VERSION=, which exports
# SIGMOUSE_VERSION): Debian's linux-source-6.1 or linux-source-6.12,
# each with its series in patches/<version>/ and its builds in
# build/<version>/ ($BUILD_DIR/<version>, as guest.build_folder())
version=${SIGMOUSE_VERSION:-6.1}
# The kit's make passes its command line (VERSION=6.1, say) on to every
# make below it in MAKEFLAGS, and kbuild's own VERSION is the kernel's
# major number: given 6.1, the kernel said it was 6.1.1.192 and left
# LINUX_VERSION_CODE empty. No make these scripts run takes the kit's.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS
case $version in
6.1|6.12) ;;
*) echo "VERSION must be 6.1 or 6.12, not $version" >&2; exit 1 ;;
esac
# every kernel's builds, and the LAVA lab's and jobs' folders
builds=${BUILD_DIR:-$top/build}
build=$builds/$version
patches=$top/patches/$version
# four flavours of kernel from each source (SIGMOUSE_FLAVOUR): "debug"
# (the debug kernel every suite
# shares), "bench" (the same without the debug options, whose cost would
# swamp what the benchmarks measure), "stock" (the bench configuration
# on the pristine source: no patches, no sigmouse; the bench's control), and
# "kcsan" (the debug kernel with KCSAN for KASAN and lockdep: the two
# sanitizers exclude each other). The bench tree is a git worktree of
# the exported series' repository: make check-series walks it through
# the series patch by patch, and the series' head is the bench kernel.
flavour=${SIGMOUSE_FLAVOUR:-debug}
case $flavour in
debug) kernel_tree=$build/linux ;;
bench) kernel_tree=$build/series/walk ;;
stock) kernel_tree=$build/linux-stock ;;
kcsan) kernel_tree=$build/linux-kcsan ;;
*) echo "SIGMOUSE_FLAVOUR must be debug, bench, stock or kcsan, not $flavour" >&2; exit 1 ;;
esac
# make series' git repository: the pristine source tagged "pristine", the
# series on the branch "sigmouse"
series_repo=$build/series/linux
# the series' head configured as a user would (x86_64_defconfig and
# guest.config; build-tree.sh --series-head), for make check-node
defconfig_tree=$build/defconfig
bzimage=$kernel_tree/arch/x86/boot/bzImage
initramfs=$build/initramfs.cpio.gz
# the kernel source everything starts from
source_package=linux-source-$version
source_tarball=/usr/src/$source_package.tar.xz

say() {
	printf '%s: %s\n' "${0##*/}" "$*" >&2
}

die() {
	say "error: $*"
	exit 1
}

# The series' patch files, in order (patches/<version>/series); a
# script that applies them checks first that the file is there
# (require_series), since a function in $(...) cannot stop it.
require_series() {
	[ -r "$patches/series" ] || die "no patches/$version/series: no series for Linux $version"
}

series_patches() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$patches/series" | awk '{ print $1 }'
}

# The new files a patch's commit takes, "<path in the kit> <path in the
# kernel tree>" a line: those of the list its line in the series names
# after it (driver/files, guest-apps/files; a list's paths are relative
# to its folder, which is their source of truth); none if it names none.
patch_new_files() {
	list=$(sed -e 's/#.*//' "$patches/series" | awk -v patch="$1" '$1 == patch { print $2 }')
	[ -n "$list" ] || return 0
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/$list" | while read -r file path; do
		echo "$top/${list%/*}/$file $path"
	done
}

# Every patch's new files, as patch_new_files.
series_new_files() {
	for patch in $(series_patches); do
		patch_new_files "$patch"
	done
}

# The .kunitconfig files the series adds (patch 5's fs/.kunitconfig for
# fasync, the driver's drivers/input/.kunitconfig), from make series'
# repository.
series_kunitconfigs() {
	git -C "$series_repo" diff --name-only --diff-filter=A pristine "${1:-sigmouse}" |
		grep '/\.kunitconfig$'
}

# The config fragments a kernel of $flavour and $version merges onto
# tinyconfig, a path a line, in order: guest-apps/guest.config (what any
# kernel needs for the kit's guest), Kconfig.snippet (what every kernel
# of the kit has), the flavour's qemu-scripts/configs/<name>.config and,
# where there is one, its <name>-<version>.config (the stock kernel takes
# the bench kernel's).
kernel_fragments() {
	case $flavour in
	bench|stock) name=bench ;;
	*) name=$flavour ;;
	esac
	echo "$top/guest-apps/guest.config"
	echo "$top/Kconfig.snippet"
	echo "$top/qemu-scripts/configs/$name.config"
	[ ! -e "$top/qemu-scripts/configs/$name-$version.config" ] ||
		echo "$top/qemu-scripts/configs/$name-$version.config"
}

# The lines of the config fragment $1 that $kernel_tree's .config does
# not hold as written, each indented: an option whose dependencies the
# tree does not meet, or a typo. With $2 "lenient", an option the tree's
# Kconfig does not define at all is left out.
fragment_missing() {
	grep -E '^(CONFIG_|# CONFIG_)' "$1" | while read -r line; do
		grep -qxF "$line" "$kernel_tree/.config" && continue
		option=$(printf '%s\n' "$line" | sed -E 's/^(# )?CONFIG_([A-Za-z0-9_]+).*/\2/')
		if [ "${2:-}" = lenient ] && ! grep -rqsE --include='Kconfig*' \
			"^[[:space:]]*(menu)?config[[:space:]]+$option\$" "$kernel_tree"; then
			continue
		fi
		echo "  $line"
	done
}

# Configure $kernel_tree: tinyconfig plus the config fragments of
# kernel_fragments, then fail naming every line of them missing from the final .config (an unmet dependency, a
# typo). With "lenient", a line whose option the tree's Kconfig does not
# define is left out of that check: the pristine source and the series'
# early prefixes have no sigmouse. Does nothing when the snippet and the
# tree's patches are those of the last configuration. Returns non-zero
# with the reason said, so that a caller can count it as a failure.
configure_kernel() {
	snippet=$kernel_tree/.sigmouse-snippet
	# shellcheck disable=SC2046 # the paths have no spaces
	cat $(kernel_fragments) >"$snippet.new" && mv "$snippet.new" "$snippet" || return
	config_stamp=$(content_hash "$snippet" "$kernel_tree/.sigmouse-patches")
	[ "$(cat "$kernel_tree/.sigmouse-config" 2>/dev/null)" != "$config_stamp" ] ||
		[ ! -e "$kernel_tree/.config" ] || return 0
	say "configuring the $flavour kernel of $version: tinyconfig +" \
		"$(kernel_fragments | sed "s|^$top/||" | paste -sd ' ')"
	rm -f "$kernel_tree/.sigmouse-config"
	kernel_make tinyconfig >/dev/null || { say "error: make tinyconfig failed"; return 1; }
	(cd "$kernel_tree" &&
	 scripts/kconfig/merge_config.sh -m .config "$snippet" >/dev/null) ||
		{ say "error: merging the config fragments failed"; return 1; }
	kernel_make olddefconfig || { say "error: make olddefconfig failed"; return 1; }
	missing=$(fragment_missing "$snippet" "${1:-}")
	if [ -n "$missing" ]; then
		say "error: the config fragments' options missing from the final .config (unmet dependencies?):
$missing"
		return 1
	fi
	echo "$config_stamp" >"$kernel_tree/.sigmouse-config"
}

# Check out commit $1 of the series' repository in $kernel_tree (the
# bench tree, or build-tree.sh's defconfig tree), adding the worktree first if it is not one (never git -C a directory
# without its own .git: git would find the project's repository above
# build/). Only the files that differ are rewritten, so make rebuilds
# what the step between the two commits touched.
series_tree_at() {
	if [ "$(git -C "$kernel_tree" rev-parse --show-toplevel 2>/dev/null)" != "$kernel_tree" ]; then
		rm -rf "$kernel_tree"
		git -C "$series_repo" worktree prune
		git -C "$series_repo" worktree add -q -f --detach "$kernel_tree" "$1"
	fi
	git -C "$kernel_tree" checkout -q -f --detach "$1"
	git -C "$kernel_tree" rev-parse HEAD >"$kernel_tree/.sigmouse-patches"
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
# CC would make kbuild rebuild everything it compiled before. LOCALVERSION
# set: no "+" in the release of a tree that is a git worktree (the bench
# tree), the same release as the extracted trees.
# ccache_mode=depend (the default): kbuild has gcc list each object's
# headers (-Wp,-MMD) anyway, and ccache hashes those rather than running
# the preprocessor on every file it has not seen before and again to
# compile it (cold fs/, kernel/ and mm/ of the debug tree: 234 s in the
# preprocessor mode, 211 s in depend mode). ccache_mode=preprocessor
# where a header changes in ways most files never see, as the series'
# prefixes do: ccache then finds the same preprocessed text.
# The compiler every kernel build uses: gcc through ccache when it is there.
kernel_cc() {
	if command -v ccache >/dev/null; then echo "ccache gcc"; else echo gcc; fi
}

kernel_make() {
	cc=$(kernel_cc)
	depend=CCACHE_DEPEND=1
	[ "${ccache_mode:-depend}" = depend ] || depend=CCACHE_NODEPEND=1
	env "$depend" CCACHE_BASEDIR="$kernel_tree" CCACHE_NOHASHDIR=1 \
	KBUILD_BUILD_TIMESTAMP="${KBUILD_BUILD_TIMESTAMP:-2003-12-20}" \
	KBUILD_BUILD_USER=sigmouse KBUILD_BUILD_HOST=sigmouse \
		make -C "$kernel_tree" -s CC="$cc" LOCALVERSION= "$@"
}
