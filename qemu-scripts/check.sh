#!/bin/sh
# make check: checkpatch --strict on every patch and driver file, sparse
# on the driver and fs/fcntl.c, and the host scripts' own tests
# (qemu-scripts/test_*.py). Any warning fails.
set -eu
. "$(dirname "$0")/lib.sh"

[ -x "$kernel_tree/scripts/checkpatch.pl" ] || die "no kernel tree: run make kernel"
command -v sparse >/dev/null || die "sparse missing: install sparse"

checkpatch() {
	"$kernel_tree/scripts/checkpatch.pl" --strict --terse --no-summary \
		--show-types "$@"
}

failed=0
report=$build/check.log
: >"$report"

for p in $(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$top/patches/series"); do
	if ! out=$(cd "$kernel_tree" && checkpatch "$top/patches/$p" 2>&1) || [ -n "$out" ]; then
		printf '%s\n' "$out" | tee -a "$report"
		failed=1
	fi
done

for f in "$top"/driver/*.c "$top"/driver/Kconfig "$top"/driver/include/uapi/linux/*.h; do
	if ! out=$(cd "$kernel_tree" && checkpatch -f "$f" 2>&1) || [ -n "$out" ]; then
		printf '%s\n' "$out" | tee -a "$report"
		failed=1
	fi
done

# C=2 runs sparse on the named objects whether or not they are rebuilt
sparse_out=$(kernel_make C=2 drivers/input/sigmouse/ fs/fcntl.o 2>&1 |
	grep -E '(warning|error):' || true)
if [ -n "$sparse_out" ]; then
	printf '%s\n' "$sparse_out" | tee -a "$report"
	failed=1
fi

if ! out=$(cd "$top/qemu-scripts" && BUILD_DIR=$build python3 -m unittest -q test_*.py 2>&1); then
	printf '%s\n' "$out" | tee -a "$report"
	failed=1
fi

[ "$failed" -eq 0 ] || die "check failed; see $report"
say "checkpatch --strict, sparse and the host scripts' tests: clean"
