#!/bin/sh
# make test's checks of the exported series (make series writes it to
# build/<version>/series/out), as a kernel developer taking it would
# run them, for the kernel VERSION= names:
#  - git am of the exported files onto the pristine source gives the
#    series' tree exactly;
#  - checkpatch.pl --strict: 0 errors, 0 warnings and 0 checks in every
#    patch;
#  - kernel-doc: no warning in the files the series adds or changes
#    that the pristine file did not have, and a kernel-doc comment on
#    every function the series exports;
#  - every prefix builds: vmlinux of each commit in turn, in one
#    non-debug tree (the bench tree and configuration, options a prefix
#    does not define yet left out), so each step rebuilds what its patch
#    touched; the walk ends at the series' head, the bench kernel, which
#    make disasm and the bench smoke run go on from.
#    SIGMOUSE_WALK=dirs (make test's first kernel): each prefix
#    compiles the folders of the C files its commit touches, not vmlinux
#    (a cold vmlinux walk costs make test about 12 minutes of its hour);
#    =no (make test): no walk;
#  - the series' head is the debug kernel's source: every file the
#    series adds or changes is the same in the debug kernel's tree, so
#    that kernel's whole-tree build (and every boot of it) is a build of
#    the last prefix, which make test keeps without the walk;
#  - make headers_install exports the UAPI header, and a program that
#    includes only it compiles with -Wall -Werror as C and as C++;
#  - the UAPI header's ioctl magic is in no line of the pristine
#    kernel's ioctl-number.rst, and the series' lists it for sigmouse;
#  - each .kunitconfig the series adds (fasync's, the driver's), and its
#    selftest's config, has lines
#    and every one is in the debug kernel's .config, so the suites they
#    name are the ones make test runs;
#  - the driver's KUnit option builds its suite into the driver, and
#    only into a built-in one: Kconfig (allnoconfig with a fragment)
#    drops the option when the driver is a module and keeps it when it
#    is built in, and the option is what includes sigmouse_kunit.c;
#  - the input book of the kernel's documentation builds (Sphinx) with
#    sigmouse's page and without a warning about it.
# Each check prints "ok" or "not ok" in KTAP, kept in
# build/<version>/series/ktap for run-tests.py's count; the script fails
# if any did not pass. Logs in build/<version>/series/logs.
# SIGMOUSE_SERIES_HEAD=commit (make mutants, for a mutant of the series'
# tree committed on top of its head): only the checks that read the
# head's tree (the UAPI header, its ioctl magic, the .kunitconfig files,
# the KUnit option), on that commit, in build/<version>/series/mutant;
# the series' repository and the bench tree are back at the series' head
# after.
set -eu
SIGMOUSE_FLAVOUR=bench
. "$(dirname "$0")/lib.sh"
# git am commits: a committer without the user's git configuration
export GIT_COMMITTER_NAME="sigmouse developers" GIT_COMMITTER_EMAIL=sigmouse@localhost

repo=$series_repo
out=$build/series/out
head=${SIGMOUSE_SERIES_HEAD:-}
results=$build/series${head:+/mutant}
logs=$results/logs
[ -d "$out" ] || die "no $out: run make series first"
rm -rf "$logs"
mkdir -p "$logs"
exported=$(ls "$out"/0*.patch | grep -v /0000-cover-letter.patch)
commits=$(git -C "$repo" rev-list --reverse pristine..sigmouse)
walk=${SIGMOUSE_WALK:-yes}
case $walk in
yes | dirs) ;;
no) walked= ;;
*) die "SIGMOUSE_WALK=$walk: yes, dirs or no" ;;
esac
# the checks of the head's tree (uapi, ioctl magic, .kunitconfig, KUnit
# option), and the others (git am, checkpatch, kernel-doc, head, htmldocs)
tree_checks=4
ktap=$results/ktap
failed=0 n=0
if [ -n "$head" ]; then
	echo "1..$tree_checks" | tee "$ktap"
else
	echo "1..$((tree_checks + 5 + $(echo ${walked-$commits} | wc -w)))" | tee "$ktap"
fi
# run-tests.py pins the plan from this script and the series: the walk
# adds a result per patch
echo "# walk: $walk" | tee -a "$ktap"

# result <name> <status> [<why>]
result() {
	n=$((n + 1))
	if [ "$2" -eq 0 ]; then
		line="ok $n $1"
	else
		line="not ok $n $1 # ${3:-see $logs}"
		failed=$((failed + 1))
	fi
	echo "$line" | tee -a "$ktap"
}

# the series as a whole: skipped for a mutant of its head
if [ -z "$head" ]; then

# git am onto pristine, then compare with what make series committed
status=0
git -C "$repo" checkout -q -f --detach pristine
git -C "$repo" am -q $exported >"$logs/git-am.log" 2>&1 || status=1
[ "$status" -ne 0 ] || git -C "$repo" diff --quiet sigmouse HEAD || status=1
git -C "$repo" am --abort 2>/dev/null || :
result "series.git_am_onto_pristine" "$status" "git am failed or differs: $logs/git-am.log"

# checkpatch, from the series' tree, each patch alone
git -C "$repo" checkout -q -f sigmouse
status=0
for p in $exported; do
	# Debian's python3 first: its spdxcheck.py needs python3-ply and
	# python3-git, which another python3 on the PATH may lack. The
	# repository is the tarball, without upstream's history: the ids of
	# the upstream commits a message cites cannot be looked up in it
	# (their "commit <id> ("<subject>")" form is still checked)
	(cd "$repo" && PATH=/usr/bin:$PATH scripts/checkpatch.pl --strict \
		--ignore UNKNOWN_COMMIT_ID "$p") \
		>"$logs/checkpatch-${p##*/}.log" 2>&1 || :
	grep -qx 'total: 0 errors, 0 warnings, 0 checks, [0-9]* lines checked' "$logs/checkpatch-${p##*/}.log" || {
		status=1
		say "checkpatch: ${p##*/}: $(grep '^total:' "$logs/checkpatch-${p##*/}.log")"
	}
done
result "series.checkpatch_strict" "$status"

# kernel-doc: warnings per file, the series' against pristine's
status=0
for f in $(git -C "$repo" diff --name-only --diff-filter=AM pristine sigmouse -- '*.c' '*.h'); do
	(cd "$repo" && scripts/kernel-doc -none "$f") 2>&1 |
		sed 's/:[0-9]*: /: /' | sort >"$logs/kernel-doc.new"
	git -C "$repo" cat-file -e "pristine:$f" 2>/dev/null &&
		git -C "$repo" show "pristine:$f" >"$logs/kernel-doc.file" ||
		: >"$logs/kernel-doc.file"
	(cd "$repo" && scripts/kernel-doc -none "$logs/kernel-doc.file") 2>&1 |
		sed -e 's/:[0-9]*: /: /' -e "s|$logs/kernel-doc.file|$f|" | sort >"$logs/kernel-doc.old"
	if comm -23 "$logs/kernel-doc.new" "$logs/kernel-doc.old" | grep .; then
		status=1
	fi
done >"$logs/kernel-doc.log"
# (the patches' own "+" lines: the whole diff shows moved context as new)
for symbol in $(cat $exported | sed -n 's/^+EXPORT_SYMBOL[A-Z_]*(\([a-z0-9_]*\));/\1/p'); do
	file=$(git -C "$repo" grep -l "^EXPORT_SYMBOL[A-Z_]*($symbol);" sigmouse -- '*.c' |
		sed 's/^sigmouse://')
	(cd "$repo" && scripts/kernel-doc -rst -function "$symbol" "$file") 2>/dev/null |
		grep -q . || { echo "$file: $symbol is exported without a kernel-doc comment"; status=1; }
done >>"$logs/kernel-doc.log"
result "series.kernel_doc" "$status" "$(head -n 1 "$logs/kernel-doc.log")"

# every prefix builds (or compiles what it touches), in the bench tree;
# without the walk the tree is checked out at the series' head for the
# UAPI check below
[ "$walk" = no ] && series_tree_at "$(git -C "$repo" rev-parse sigmouse)"
# (prefix 3's __rcu in fs.h changes no file's preprocessed text)
ccache_mode=preprocessor
i=0
for commit in ${walked-$commits}; do
	i=$((i + 1))
	subject=$(git -C "$repo" log -1 --format=%s "$commit")
	series_tree_at "$commit"
	check=builds targets=vmlinux
	if [ "$walk" = dirs ]; then
		check=compiles
		targets=$(git -C "$repo" diff-tree --no-commit-id --name-only -r "$commit" -- '*.c' |
			xargs -r -n 1 dirname | sort -u | sed 's|$|/|')
		# a commit without C files: nothing smaller than vmlinux shows it
		[ -n "$targets" ] || targets=vmlinux
		subject="$subject ($(echo $targets))"
	fi
	status=0
	# shellcheck disable=SC2086
	{
		configure_kernel lenient &&
		kernel_make -j"$(nproc)" $targets
	} >"$logs/prefix-$i.log" 2>&1 || status=$?
	result "series.prefix_${i}_$check # $subject" "$status" "$(tail -n 3 "$logs/prefix-$i.log" | tr '\n' ' ')"
done

# the series' head against the debug kernel's tree, file by file
status=0
for f in $(git -C "$repo" diff --name-only pristine sigmouse); do
	git -C "$repo" show "sigmouse:$f" | cmp -s - "$build/linux/$f" ||
		echo "$f differs between the series' head and $build/linux"
done >"$logs/head-is-test-tree.log"
[ -s "$logs/head-is-test-tree.log" ] && status=1
result "series.head_is_the_test_kernels_source" "$status" "$(head -n 1 "$logs/head-is-test-tree.log")"

else
	# a mutant's commit, in the repository and the bench tree, until the end
	git -C "$repo" checkout -q -f "$head"
	series_tree_at "$head"
	trap 'git -C "$repo" checkout -q -f sigmouse; series_tree_at "$(git -C "$repo" rev-parse sigmouse)"' EXIT
fi

# the UAPI header as user space gets it, from the whole series' tree
status=0
rm -rf "$build/series/headers"
kernel_make -j"$(nproc)" headers_install INSTALL_HDR_PATH="$build/series/headers" \
	>"$logs/headers.log" 2>&1 ||
	status=1
cat >"$logs/uapi-user.c" <<'EOF'
#include <linux/sigmouse.h>

static struct sigmouse_packet packet;
static struct sigmouse_info info;

int main(void)
{
	unsigned long request = SIGMOUSE_IOC_INFO;

	return (int)(packet.seq + packet.dx + (packet.flags & SIGMOUSE_PACKET_DROPPED) +
		     info.packets + (info.flags & SIGMOUSE_INFO_ABS) + request % 2);
}
EOF
for compiler in "gcc -x c -std=c99" "g++ -x c++"; do
	$compiler -Wall -Wextra -Werror -I"$build/series/headers/include" \
		-o "$logs/uapi-user" "$logs/uapi-user.c" >>"$logs/headers.log" 2>&1 || status=1
done
result "series.uapi_header_alone_c_and_cxx" "$status" "$(tail -n 3 "$logs/headers.log" | tr '\n' ' ')"

# the UAPI header's ioctl magic was free: the pristine kernel's registry
# of ioctl numbers has no line for it (as 0xB9 or as a character such as
# 'E'), and the series' adds sigmouse's
status=0
registry=Documentation/userspace-api/ioctl/ioctl-number.rst
magic=$(sed -n 's/^#define SIGMOUSE_IOC_MAGIC[[:space:]]*\(0x[0-9A-Fa-f][0-9A-Fa-f]\|'"'"'.'"'"'\).*/\1/p' \
	"$kernel_tree/include/uapi/linux/sigmouse.h")
# the registry's two spellings of a magic: 0x45 and 'E'
case $magic in
0x*) value=$((magic)) ;;
?*) value=$(printf %d "'$(echo "$magic" | cut -c2)") ;;
*) value=0 ;;
esac
magics=$(printf '0x%02X' "$value")
[ "$value" -gt 32 ] && [ "$value" -lt 127 ] && [ "$value" -ne 93 ] &&
	magics="$magics|'[$(printf "\\$(printf %03o "$value")")]'"
{
	if [ -z "$magic" ]; then
		echo "no SIGMOUSE_IOC_MAGIC of 0xNN or 'c' in the series' UAPI header"
		status=1
	fi
	git -C "$repo" show "pristine:$registry" | grep -iE "^($magics)[[:space:]]" &&
		{ echo "pristine's $registry already lists $magic"; status=1; }
	grep -iE "^($magics)[[:space:]].*sigmouse" "$kernel_tree/$registry" >/dev/null ||
		{ echo "the series' $registry does not list $magic for sigmouse"; status=1; }
} >"$logs/ioctl-magic.log"
result "series.ioctl_magic_free" "$status" "$(tail -n 1 "$logs/ioctl-magic.log")"

# each .kunitconfig the series adds, and its selftest's config, names
# what the debug kernel runs
status=0
kunitconfigs=$(series_kunitconfigs "${head:-sigmouse}" || :)
selftest_configs=$(git -C "$repo" diff --name-only --diff-filter=A pristine "${head:-sigmouse}" |
	grep '^tools/testing/selftests/[^/]*/config$' || :)
{
	[ -n "$kunitconfigs" ] || { echo "the series adds no .kunitconfig"; status=1; }
	[ -n "$selftest_configs" ] || { echo "the series adds no selftest config"; status=1; }
	for kunitconfig in $kunitconfigs $selftest_configs; do
		while read -r line; do
			grep -qxF "$line" "$build/linux/.config" ||
				{ echo "$kunitconfig: $line is not in the debug kernel's .config"; status=1; }
		done <"$kernel_tree/$kunitconfig"
		grep -q '^CONFIG_' "$kernel_tree/$kunitconfig" ||
			{ echo "$kunitconfig names no option"; status=1; }
	done
} >"$logs/kunitconfig.log"
result "series.kunitconfig_in_test_kernel" "$status" "$(head -n 1 "$logs/kunitconfig.log")"

# the driver's KUnit option, by Kconfig itself: allnoconfig in the
# series' clean repository (its own output folder) with the driver as a
# module, then built in; the option must fall away, then stay, and be
# what includes the suite
status=0
option=CONFIG_INPUT_SIGMOUSE_KUNIT_TEST
{
	for driver in m y; do
		printf '%s\n' CONFIG_MODULES=y CONFIG_KUNIT=y CONFIG_INPUT=y \
			"CONFIG_INPUT_SIGMOUSE=$driver" "$option=y" >"$logs/kunit-option.config"
		KCONFIG_ALLCONFIG="$logs/kunit-option.config" make -s -C "$repo" \
			O="$results/kunit-option" ARCH=x86 allnoconfig >/dev/null 2>&1 ||
			{ echo "allnoconfig failed"; status=1; }
		case $driver:$(grep -c "^$option=y\$" "$results/kunit-option/.config") in
		m:0 | y:1) ;;
		m:*) echo "$option stays with the driver a module"; status=1 ;;
		*) echo "$option falls away with the driver built in"; status=1 ;;
		esac
	done
	grep -q "^#if IS_ENABLED($option)\$" "$kernel_tree/drivers/input/sigmouse.c" ||
		{ echo "sigmouse.c does not include its suite under $option"; status=1; }
} >"$logs/kunit-option.log"
result "series.kunit_option_needs_builtin_driver" "$status" "$(head -n 1 "$logs/kunit-option.log")"

# the kernel's documentation build (Sphinx), the input book only, from
# an empty output folder so that the page checked is this run's
if [ -z "$head" ]; then
status=0
rm -rf "$build/series/htmldocs"
make -C "$repo" O="$build/series/htmldocs" SPHINXDIRS=input htmldocs >"$logs/htmldocs.log" 2>&1 ||
	status=1
grep -i 'sigmouse' "$logs/htmldocs.log" | grep -i 'warning\|error' >"$logs/htmldocs-sigmouse.log" &&
	status=1
[ -s "$build/series/htmldocs/Documentation/output/input/sigmouse.html" ] || {
	echo "no sigmouse.html in $build/series/htmldocs" >>"$logs/htmldocs-sigmouse.log"
	status=1
}
result "series.htmldocs_input" "$status" "$(head -n 1 "$logs/htmldocs-sigmouse.log")"
fi

[ "$failed" -eq 0 ] || die "$failed of $n series checks failed"
