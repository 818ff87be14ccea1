#!/bin/sh
# make check: sparse on the driver and fs/fcntl.c, the host scripts'
# own tests (qemu-scripts/test_*.py) and the promise table
# (docs/promises.md, qemu-scripts/promises.py). Any warning fails. checkpatch runs
# on the exported series, patch by patch (make check-series).
set -eu
. "$(dirname "$0")/lib.sh"

[ -d "$kernel_tree/scripts" ] || die "no kernel tree: run make kernel"
command -v sparse >/dev/null || die "sparse missing: install sparse"

failed=0
report=$build/check.log
: >"$report"

# C=2 runs sparse on the named objects whether or not they are rebuilt;
# the stock code's own warnings of this kernel (sparse-stock-warnings.txt)
# are shown, not failed
stock_warnings=$(sed -n "s/^$linux | \(.*\) | .*/\1/p" "$top/qemu-scripts/sparse-stock-warnings.txt")
sparse_out=$(kernel_make C=2 drivers/input/sigmouse.o fs/fcntl.o 2>&1 |
	grep -E '(warning|error):' || true)
if [ -n "$stock_warnings" ]; then
	stock_seen=$(printf '%s\n' "$sparse_out" | grep -F -e "$stock_warnings" || true)
	sparse_out=$(printf '%s\n' "$sparse_out" | grep -v -F -e "$stock_warnings" || true)
	[ -z "$stock_seen" ] || say "stock $linux's own sparse warnings, not failed: $stock_seen"
fi
if [ -n "$sparse_out" ]; then
	printf '%s\n' "$sparse_out" | tee -a "$report"
	failed=1
fi

if ! out=$(cd "$top/qemu-scripts" && KERNEL_TREE=$kernel_tree python3 -m unittest -q test_*.py 2>&1); then
	printf '%s\n' "$out" | tee -a "$report"
	failed=1
fi

# every promise of the ABI document has its row, checks and mutants
if ! out=$(python3 "$top/qemu-scripts/promises.py" 2>&1); then
	printf '%s\n' "$out" | tee -a "$report"
	failed=1
fi

[ "$failed" -eq 0 ] || die "check failed; see $report"
say "sparse and the host scripts' tests: clean"
