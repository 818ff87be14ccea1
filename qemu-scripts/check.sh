#!/bin/sh
# make check, in two parts. "host" (make check-host): the host scripts'
# own tests (qemu-scripts/test_*.py; test_lava_jobs.py with Debian's
# python3, which has lava-common) and the promise table
# (docs/promises.md, qemu-scripts/promises.py); no kernel build.
# "kernel" (make check-kernel): sparse on the driver and fs/fcntl.c, and
# the tests that read the debug kernel's tree: the KCSAN filter's (the
# project's functions) and the results' (the kernel's KTAP parser). Any warning fails. checkpatch runs on the
# exported series, patch by patch (make check-series).
set -eu
. "$(dirname "$0")/lib.sh"

part=${1:-}
case $part in
host)
	command -v python3 >/dev/null || die "python3 missing: make deps installs it"
	/usr/bin/python3 -c 'import lava_common' 2>/dev/null ||
		die "Debian's lava-common missing: make deps installs it"
	;;
kernel)
	[ -d "$kernel_tree/scripts" ] || die "no kernel tree: run make kernel"
	command -v sparse >/dev/null || die "sparse missing: install sparse"
	;;
*) die "usage: check.sh host|kernel" ;;
esac

failed=0
report=$build/check-$part.log
mkdir -p "$build"
: >"$report"

# the tests that read the debug kernel's tree
kernel_tests="test_kcsan_filter.py test_results.py"
# the tests that need a Debian Python package (lava-common), run with
# Debian's python3: another python3 on the PATH lacks it
debian_tests="test_lava_jobs.py"

if [ "$part" = host ]; then
	tests=
	for t in "$top"/qemu-scripts/test_*.py; do
		t=${t##*/}
		case " $kernel_tests $debian_tests " in
		*" $t "*) ;;
		*) tests="$tests $t" ;;
		esac
	done
	# shellcheck disable=SC2086
	if ! out=$(cd "$top/qemu-scripts" && python3 -m unittest -q $tests 2>&1); then
		printf '%s\n' "$out" | tee -a "$report"
		failed=1
	fi
	# shellcheck disable=SC2086
	if ! out=$(cd "$top/qemu-scripts" && /usr/bin/python3 -m unittest -q $debian_tests 2>&1); then
		printf '%s\n' "$out" | tee -a "$report"
		failed=1
	fi
	# every promise of the ABI document has its row, checks and mutants
	if ! out=$(python3 "$top/qemu-scripts/promises.py" 2>&1); then
		printf '%s\n' "$out" | tee -a "$report"
		failed=1
	fi
	[ "$failed" -eq 0 ] || die "check-host failed; see $report"
	say "the host scripts' tests and the promise table: clean"
	exit 0
fi

# C=2 runs sparse on the named objects whether or not they are rebuilt;
# the stock code's own warnings of this kernel (sparse-stock-warnings.txt)
# are shown, not failed
stock_warnings=$(sed -n "s/^$version | \(.*\) | .*/\1/p" "$top/qemu-scripts/sparse-stock-warnings.txt")
sparse_out=$(kernel_make C=2 drivers/input/sigmouse.o fs/fcntl.o 2>&1 |
	grep -E '(warning|error):' || true)
if [ -n "$stock_warnings" ]; then
	stock_seen=$(printf '%s\n' "$sparse_out" | grep -F -e "$stock_warnings" || true)
	sparse_out=$(printf '%s\n' "$sparse_out" | grep -v -F -e "$stock_warnings" || true)
	[ -z "$stock_seen" ] || say "stock $version's own sparse warnings, not failed: $stock_seen"
fi
if [ -n "$sparse_out" ]; then
	printf '%s\n' "$sparse_out" | tee -a "$report"
	failed=1
fi

# shellcheck disable=SC2086
if ! out=$(cd "$top/qemu-scripts" && KERNEL_TREE=$kernel_tree python3 -m unittest -q $kernel_tests 2>&1); then
	printf '%s\n' "$out" | tee -a "$report"
	failed=1
fi

[ "$failed" -eq 0 ] || die "check-kernel failed; see $report"
say "sparse and the tests that read the kernel tree: clean"
