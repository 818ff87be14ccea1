#!/bin/sh
# make disasm: kill_fasync() of the stock kernel next to the patched one.
#
# Both are compiled in the bench tree (the non-debug configuration: -O2,
# CONFIG_JUMP_LABEL) with the exact command kbuild used for fs/fcntl.o,
# objtool included; the stock one from the pristine tarball's
# fs/fcntl.c and include/linux/fs.h, which shadows the patched header.
# kill_fasync_path.py prints both and checks that the empty-list path
# is the same instructions apart from NOPs; its report is saved in
# build/disasm/kill_fasync.txt.
set -eu
. "$(dirname "$0")/lib.sh"

[ "$flavour" = bench ] || die "make disasm compiles in the bench tree: SIGMOUSE_FLAVOUR=bench"
cmd_file=$kernel_tree/fs/.fcntl.o.cmd
[ -r "$cmd_file" ] || die "no $cmd_file: build fs/fcntl.o in the bench tree first"

out=$build/disasm
rm -rf "$out"
mkdir -p "$out/stock/fs" "$out/stock/include/linux"
tar -xJf "$source_tarball" -C "$out/stock" --strip-components=1 \
	"$source_package/fs/fcntl.c" "$source_package/include/linux/fs.h"

cmd=$(sed -n 's/^cmd_fs\/fcntl\.o := //p' "$cmd_file")
[ -n "$cmd" ] || die "no compile command in $cmd_file"

# compile $1 (a fcntl.c) into $2, headers first from $3 if given
compile() {
	overlay=${3:+-I$3}
	c=$(printf '%s\n' "$cmd" | sed \
		-e "s|-nostdinc|-nostdinc $overlay|" \
		-e "s|fs/\.fcntl\.o\.d|$2.d|g" \
		-e "s|fs/fcntl\.o|$2|g" \
		-e "s|fs/fcntl\.c|$1|g")
	(cd "$kernel_tree" && sh -c "$c") || die "compiling $1 failed"
}

compile "$out/stock/fs/fcntl.c" "$out/fcntl-stock.o" "$out/stock/include"
compile fs/fcntl.c "$out/fcntl-patched.o"
status=0
"${PYTHON:-python3}" "$(dirname "$0")/kill_fasync_path.py" \
	"$out/fcntl-stock.o" "$out/fcntl-patched.o" >"$out/kill_fasync.txt" || status=$?
cat "$out/kill_fasync.txt"
exit "$status"
