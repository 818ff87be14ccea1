#!/usr/bin/env python3
"""Show that kill_fasync()'s default path is stock apart from NOPs.

Given two object files, stock 6.1's fs/fcntl.o and the patched one,
compiled with the same configuration, print each one's kill_fasync()
disassembly, then walk the path a call on an empty list takes in each:
from the entry, through every NOP (static keys and tracepoints with
CONFIG_JUMP_LABEL, default off, fall through), __fentry__ (a NOP at run
time unless ftrace is on), unconditional jumps (followed, and counted as
instructions), and the one test of the list head (taken as NULL), to
the return. The two paths, NOPs left out, must be the same
instructions. Exit 0 if they are, 1 if not.
"""

import re
import subprocess
import sys

INSN = re.compile(r"^\s*([0-9a-f]+):\s+(\S+)\s*(.*?)\s*$")
RELOC = re.compile(r"^\s*([0-9a-f]+): R_X86_64_\S+\s+(\S+)")
TARGET = re.compile(r"^([0-9a-f]+) <")
RETURNS = ("__x86_return_thunk", "__x86_return_thunk-0x4")


def disassemble(obj, function):
    """[(address, mnemonic, operands, relocation symbol or None)]"""
    out = subprocess.run(
        ["objdump", "-d", "-r", "--no-show-raw-insn", f"--disassemble={function}", obj],
        check=True, capture_output=True, text=True).stdout
    insns = []
    for line in out.splitlines():
        reloc = RELOC.match(line)
        if reloc and insns:
            address, mnemonic, operands, _ = insns[-1]
            insns[-1] = (address, mnemonic, operands, reloc.group(2))
            continue
        insn = INSN.match(line)
        if insn and not line.rstrip().endswith(">:"):
            insns.append((int(insn.group(1), 16), insn.group(2), insn.group(3), None))
    if not insns:
        sys.exit(f"kill_fasync_path: no {function} in {obj}")
    return insns, out


def is_nop(mnemonic, operands):
    return "nop" in mnemonic or "nop" in operands or (mnemonic == "xchg" and operands == "%ax,%ax")


def empty_list_path(insns):
    """The instructions a call with an empty list runs, NOPs marked."""
    at = {address: i for i, (address, *_rest) in enumerate(insns)}
    i, path, tested, seen = 0, [], False, set()
    while True:
        if i in seen or i >= len(insns):
            raise ValueError("the path loops or runs off the function")
        seen.add(i)
        address, mnemonic, operands, reloc = insns[i]
        target = TARGET.match(operands)
        if is_nop(mnemonic, operands) or (mnemonic == "call" and reloc and "__fentry__" in reloc):
            path.append(("nop", address, mnemonic, operands))
            i += 1
        elif mnemonic.startswith("ret") or (mnemonic == "jmp" and reloc in RETURNS):
            path.append(("insn", address, "ret", ""))
            return path
        elif mnemonic == "jmp" and target:
            path.append(("insn", address, mnemonic, "<on the path>"))
            i = at[int(target.group(1), 16)]
        elif mnemonic.startswith("j") and target:
            if tested:
                raise ValueError(f"a second branch on the path: {address:x}: {mnemonic} {operands}")
            tested = True
            path.append(("insn", address, mnemonic, "<empty list>"))
            # the head was tested against itself: NULL sets ZF
            taken = mnemonic in ("je", "jz", "jle", "jbe")
            i = at[int(target.group(1), 16)] if taken else i + 1
        else:
            path.append(("insn", address, mnemonic, operands))
            i += 1


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: kill_fasync_path.py STOCK.o PATCHED.o")
    paths = {}
    for name, obj in (("stock", sys.argv[1]), ("patched", sys.argv[2])):
        insns, listing = disassemble(obj, "kill_fasync")
        print(f"==== {name}: {obj}\n{listing.split('<kill_fasync>:', 1)[-1].strip()}\n")
        paths[name] = empty_list_path(insns)

    print("==== the empty-list path, as run (NOPs in brackets)")
    for name, path in paths.items():
        print(f"-- {name}: {sum(kind == 'insn' for kind, *_ in path)} instructions, "
              f"{sum(kind == 'nop' for kind, *_ in path)} NOPs")
        for kind, address, mnemonic, operands in path:
            text = f"{mnemonic} {operands}".strip()
            print(f"   {address:4x}  {'[' + text + ']' if kind == 'nop' else text}")

    def real(path):
        return [(m, o) for kind, _, m, o in path if kind == "insn"]
    same = real(paths["stock"]) == real(paths["patched"])
    print(f"\nkill_fasync_path: the default empty-list path "
          f"{'matches stock apart from NOPs' if same else 'DIFFERS from stock'}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
