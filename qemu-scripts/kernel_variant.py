"""A kit kernel with one patch on it: what make mutants (a bug each) and
make bench-ablations (a variant of the driver each) share.

The patch is applied to the flavour's tree as written (patch()), the
tree built incrementally without ccache (build_variant(): only the
files the patch touches recompile, and each of their objects must then
differ from the kit's), its bzImage taken aside and the patch reverted;
after the last variant the kit's kernel is rebuilt, and its objects
must be the kit's again.
"""

import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
LIB = os.path.join(HERE, "lib.sh")
# GNU patch's words for a hunk that did not apply where the patch says
OFFSET = re.compile(r"\(offset -?\d+ lines?\)")


def patch(tree, path, exact, reverse=False, dry_run=False, who="run-mutants"):
    """Apply (or revert) a patch as written, or stop the run: never with
    fuzz, and where exact, never at an offset either (the patch is
    stale: its hunks no longer say where they go). GNU patch is tried
    first (--dry-run), so a patch that stops the run changed nothing;
    with dry_run, that trial is all."""
    cmd = ["patch", "-d", tree, "-p1", "--forward", "--fuzz=0", "--no-backup-if-mismatch",
           "--reject-file=-", "-i", path] + (["-R"] if reverse else [])
    trial = subprocess.run(cmd + ["--dry-run"], capture_output=True, text=True)
    offset = OFFSET.search(trial.stdout)
    if trial.returncode or (offset and exact):
        sys.exit(f"{who}: {os.path.basename(path)} does not "
                 f"{'revert' if reverse else 'apply'} exactly to {tree}: "
                 f"it is stale, port it\n{trial.stdout}{trial.stderr}")
    if dry_run:
        return
    if offset and not reverse:
        print(f"# {who}: {os.path.basename(path)}: at an offset in {tree}: "
              + "; ".join(OFFSET.findall(trial.stdout)), flush=True)
    subprocess.run(cmd + ["--quiet"], check=True)


def build(version, flavour, log, **env):
    """The kernel's bzImage, incrementally, with the kit's compiler settings
    but without build-kernel.sh, whose driver sync would undo a variant;
    lib.sh finds its tree as build-kernel.sh would."""
    with open(log, "a") as out:
        subprocess.run(["sh", "-c", '. "$0" && kernel_make -j"$(nproc)" bzImage', LIB],
                       check=True, stdout=out, stderr=subprocess.STDOUT,
                       env=dict(os.environ, SIGMOUSE_FLAVOUR=flavour, SIGMOUSE_VERSION=version,
                                **env))


def patched_objects(tree, path):
    """The objects of the C files a patch changes, in tree."""
    with open(path) as f:
        sources = re.findall(r"^\+\+\+ b/(\S+\.c)$", f.read(), re.M)
    return [os.path.join(tree, source[:-len(".c")] + ".o") for source in sources]


def digests(paths):
    result = {}
    for path in paths:
        with open(path, "rb") as f:
            result[path] = hashlib.sha256(f.read()).hexdigest()
    return result


def build_variant(version, flavour, name, tree, path, log, kit, who="run-mutants"):
    """Build the applied patch without ccache (kbuild compiles only the
    files the patch touched; the rebuild after the last variant does
    the same): a make test once booted mutant 17 unmutated, and the
    kit's kernel rebuilt after it kept mutant 17's fs/fcntl.o, with
    ccache's depend mode on. Every object of a file
    it patches must then differ from the kit's (kit: object -> digest,
    taken before the first variant), or the run stops: the kernel booted
    would not be the variant's."""
    objects = patched_objects(tree, path)
    build(version, flavour, log, CCACHE_DISABLE="1")
    unchanged = [os.path.relpath(o, tree) for o, d in digests(objects).items() if d == kit[o]]
    if unchanged:
        sys.exit(f"{who}: {name}: {', '.join(unchanged)} came out as the kit's: the "
                 "kernel would not be the variant's")
