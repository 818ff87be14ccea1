#!/usr/bin/env python3
"""kill_fasync()'s empty-list path, read from the disassembly.

make disasm: given two object files, stock 6.1's fs/fcntl.o and the patched one,
compiled with the same configuration, print each one's kill_fasync()
disassembly, then walk the path a call on an empty list takes in each:
from the entry, through every NOP (static keys and tracepoints with
CONFIG_JUMP_LABEL, default off, fall through), __fentry__ (a NOP at run
time unless ftrace is on), unconditional jumps (followed, and counted as
instructions), and the one test of the list head (taken as NULL), to
the return. The two paths, NOPs left out, must be the same
instructions. Exit 0 if they are, 1 if not.

make bench: given a whole kernel (--vmlinux) and a design, the path as
that kernel runs it, callees and every NOP included, for the count the
TCG plugin makes (executed_path()).
"""

import argparse
import bisect
import re
import struct
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


# Calls and jumps that an empty list, an uncontended lock and a quiet
# kernel never take: slow paths, the per-entry work, warnings, and the
# compiler's cold blocks. A branch whose every way on reaches one is not
# taken.
NEVER = re.compile(r"slowpath|preempt_schedule|rcu_read_unlock_special|send_sigio|"
                   r"fasync_send|kill_fasync_rcu>|kill_fasync_walk|__warn|\.cold|"
                   r"__SCT__tp_func|__stack_chk_fail|ubsan")
# the list head's value: loaded from (%reg holding fp) into a register
LOAD_HEAD = re.compile(r"^\((?P<base>%r\w+)\),(?P<dst>%r\w+)$")
# what a call may leave changed (the x86-64 calling convention)
CALLER_SAVED = {"%rax", "%rcx", "%rdx", "%rsi", "%rdi", "%r8", "%r9", "%r10", "%r11"}
JUMP_ENTRY = struct.Struct("<iiq")


class Kernel:
    """A vmlinux: its symbols, its code on demand, its jump labels and
    the initial value of any word of its data."""

    def __init__(self, vmlinux):
        self.vmlinux = vmlinux
        out = subprocess.run(["nm", "-n", "--defined-only", vmlinux], check=True,
                             capture_output=True, text=True).stdout
        self.symbols = {}
        starts = []
        for line in out.splitlines():
            address, kind, name = line.split()[:3]
            self.symbols[name] = int(address, 16)
            if kind in "tTwW":
                starts.append((int(address, 16), name))
        starts.sort()
        self.starts = [a for a, _ in starts]
        self.names = [n for _, n in starts]
        self.code = {}  # address -> (mnemonic, operands, next address)
        with open(vmlinux, "rb") as f:
            self.elf = f.read()
        self.sections = self._sections()
        self.jumps = self._jump_table()

    def _sections(self):
        shoff, = struct.unpack_from("<Q", self.elf, 0x28)
        shentsize, shnum = struct.unpack_from("<HH", self.elf, 0x3a)
        sections = []
        for i in range(shnum):
            _, kind, _, address, offset, size = struct.unpack_from(
                "<IIQQQQ", self.elf, shoff + i * shentsize)
            if address:
                sections.append((address, size, offset, kind))
        return sections

    def read(self, address, size):
        """The bytes at address as the image holds them (zeros in .bss)."""
        for start, length, offset, kind in self.sections:
            if start <= address < start + length:
                if kind == 8:  # SHT_NOBITS
                    return bytes(size)
                return self.elf[offset + address - start:offset + address - start + size]
        raise ValueError(f"no section holds {address:#x}")

    def _jump_table(self):
        """site -> (target, key, branch): a jump label's site jumps to
        target when the key's state differs from branch (the kernel's
        jump_label_type(): enabled ^ branch)."""
        start, stop = self.symbols["__start___jump_table"], self.symbols["__stop___jump_table"]
        table = self.read(start, stop - start)
        jumps = {}
        for i in range(0, len(table), JUMP_ENTRY.size):
            code, target, key = JUMP_ENTRY.unpack_from(table, i)
            entry = start + i
            key_field = entry + 8 + key
            jumps[entry + code] = (entry + 4 + target, key_field & ~3, key_field & 1)
        return jumps

    def key_enabled(self, key):
        return struct.unpack("<i", self.read(key, 4))[0] > 0

    def function_of(self, address):
        i = bisect.bisect_right(self.starts, address) - 1
        return self.names[i], self.starts[i], (self.starts[i + 1] if i + 1 < len(self.starts)
                                                else address + 4096)

    def insn(self, address):
        """(mnemonic, operands, next address) of the instruction at address."""
        if address not in self.code:
            _, start, end = self.function_of(address)
            out = subprocess.run(
                ["objdump", "-d", "--no-show-raw-insn", f"--start-address={start:#x}",
                 f"--stop-address={end:#x}", self.vmlinux],
                check=True, capture_output=True, text=True).stdout
            listing = [INSN.match(line) for line in out.splitlines()
                       if not line.rstrip().endswith(">:")]
            listing = [(int(m.group(1), 16), m.group(2), m.group(3)) for m in listing if m]
            for (a, mnemonic, operands), following in zip(listing, listing[1:] + [(end,)]):
                self.code[a] = (mnemonic, operands, following[0])
        if address not in self.code:
            raise ValueError(f"{address:#x} is no instruction's start")
        return self.code[address]

    def name(self, address):
        function, start, _ = self.function_of(address)
        return f"{function}+{address - start:#x}"


def target_of(operands):
    m = TARGET.match(operands)
    return int(m.group(1), 16) if m else None


def never_taken(kernel, address, budget=48):
    """Whether every way on from address, within its function and budget
    instructions, reaches a call or jump NEVER names, a cold block or a
    trap before a return."""
    seen, todo = set(), [address]
    _, start, end = kernel.function_of(address)
    while todo:
        a = todo.pop()
        if a in seen:
            continue  # a loop back: judged on its other ways
        seen.add(a)
        if len(seen) > budget or not start <= a < end:
            return False
        mnemonic, operands, following = kernel.insn(a)
        target = target_of(operands)
        outside = target is not None and not start <= target < end
        if mnemonic in ("ud2", "int3") or (mnemonic in ("call", "jmp") and NEVER.search(operands)):
            continue
        if mnemonic.startswith("ret") or (mnemonic == "jmp" and outside):
            return False
        if mnemonic == "jmp" and target is not None:
            todo.append(target)
        elif mnemonic.startswith("j") and target is not None:
            todo += [target, following]
        else:
            todo.append(following)
    return True


def executed_path(kernel, keys_on=(), function="kill_fasync"):
    """The instructions a call of function with an empty list runs, in
    order, with its callees and every NOP: [(address, text)].

    Jump labels jump as the kernel patches them with keys_on enabled (and
    every other key as the image holds it); __fentry__ calls are the NOPs
    ftrace makes them at boot. The list head is followed from %rdi
    through moves and loads, so the tests of it take the empty-list way;
    any other branch takes the way that avoids what NEVER names, and a
    branch it cannot decide is an error."""
    enabled = {kernel.symbols[k] for k in keys_on}
    address, frames, path = kernel.symbols[function], [], []
    head_ptr, head = {"%rdi"}, set()  # registers holding fp, and *fp (NULL)
    zero = None  # whether the last test found the head NULL
    while True:
        if len(path) > 2000:
            raise ValueError(f"the path runs on at {kernel.name(address)}")
        mnemonic, operands, following = kernel.insn(address)
        text = f"{mnemonic} {operands}".strip()
        target = target_of(operands)
        path.append((address, text))
        if address in kernel.jumps:
            site_target, key, branch = kernel.jumps[address]
            jumps = (key in enabled or kernel.key_enabled(key)) != bool(branch)
            path[-1] = (address, f"jmp <{kernel.name(site_target)}> (jump label)" if jumps
                        else f"{text} (jump label)")
            address = site_target if jumps else following
        elif mnemonic == "call" and "__fentry__" in operands:
            path[-1] = (address, "nop (__fentry__)")
            address = following
        elif mnemonic == "call" and target is not None:
            frames.append(following)
            head_ptr -= CALLER_SAVED
            head -= CALLER_SAVED
            address = target
        elif mnemonic.startswith("ret"):
            if not frames:
                return path
            address = frames.pop()
        elif mnemonic == "jmp" and target is not None:
            address = target
        elif mnemonic.startswith("j") and target is not None:
            if zero is not None:
                taken = zero == (mnemonic in ("je", "jz"))
                zero = None
            else:
                to_target, to_next = never_taken(kernel, target), never_taken(kernel, following)
                if to_target == to_next:
                    raise ValueError(f"cannot tell the way of {text} at {kernel.name(address)}")
                taken = to_next
            address = target if taken else following
        elif mnemonic in ("call", "jmp"):
            raise ValueError(f"an indirect {text} at {kernel.name(address)}")
        else:
            zero = head_test(mnemonic, operands, head_ptr, head)
            address = following


def head_test(mnemonic, operands, head_ptr, head):
    """Follow fp and *fp through one instruction: True when it tests the
    empty head (its zero flag set), None when it tests nothing known."""
    args = operands.split(",")
    dst = args[-1] if len(args) > 1 else None
    if mnemonic == "cmpq" and args[0] == "$0x0" and args[1].strip("()") in head_ptr:
        return True
    if mnemonic == "test" and len(args) == 2 and args[0] == args[1] and args[0] in head:
        return True
    if mnemonic == "mov" and dst:
        load = LOAD_HEAD.match(operands)
        copies_ptr, copies_head = args[0] in head_ptr, args[0] in head or bool(
            load and load.group("base") in head_ptr)
        head_ptr.discard(dst)
        head.discard(dst)
        if copies_ptr:
            head_ptr.add(dst)
        elif copies_head:
            head.add(dst)
    elif dst:
        head_ptr.discard(dst)
        head.discard(dst)
    return None


def compare_objects(stock, patched):
    paths = {}
    for name, obj in (("stock", stock), ("patched", patched)):
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


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("objects", nargs="*", metavar="STOCK.o PATCHED.o")
    parser.add_argument("--vmlinux", help="print the empty-list path of this kernel")
    parser.add_argument("--key", action="append", default=[],
                        help="with --vmlinux: a static key the design enables")
    args = parser.parse_args()
    if args.vmlinux:
        path = executed_path(Kernel(args.vmlinux), args.key)
        for address, text in path:
            print(f"{address:x}  {text}")
        print(f"kill_fasync_path: {len(path)} instructions executed, NOPs included")
        return 0
    if len(args.objects) != 2:
        parser.error("give STOCK.o and PATCHED.o, or --vmlinux")
    return compare_objects(*args.objects)


if __name__ == "__main__":
    sys.exit(main())
