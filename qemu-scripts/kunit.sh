#!/bin/sh
# make kunit: the series' KUnit suites as kernel developers run them,
# tools/testing/kunit/kunit.py run in make series' repository (the
# exported series as git am applied it, the driver's files included),
# x86_64 under QEMU, one kernel for every .kunitconfig the series adds
# (fasync's fs/.kunitconfig, the driver's drivers/input/.kunitconfig).
# The kernel is kunit.py's own configuration, built with ccache in
# build/<version>/kunit; the debug kernel make test boots runs the same
# suites at boot.
set -eu
. "$(dirname "$0")/lib.sh"

[ -d "$series_repo/.git" ] || die "no $series_repo: run make series first"
command -v qemu-system-x86_64 >/dev/null ||
	die "qemu-system-x86_64 missing: install qemu-system-x86"

set --
for kunitconfig in $(series_kunitconfigs); do
	set -- "$@" --kunitconfig="$(dirname "$kunitconfig")"
done
[ $# -gt 0 ] || die "the series adds no .kunitconfig"
say "kunit.py run $* (x86_64 under QEMU; its build in $build/kunit)"
cd "$series_repo"
python3 tools/testing/kunit/kunit.py run --arch=x86_64 --build_dir="$build/kunit" \
	--jobs="$(nproc)" --make_options="CC=$(kernel_cc)" --timeout=600 "$@"
