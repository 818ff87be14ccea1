#!/bin/sh
# Install the Debian packages the build, the guest and the checks need.
# As root it runs apt-get itself; otherwise it prints the exact line.
set -eu
. "$(dirname "$0")/lib.sh"

packages="linux-source-6.1 linux-source-6.12 qemu-system-x86 qemu-user gcc g++ git make patch xz-utils bc flex bison
libelf-dev libssl-dev ccache sparse busybox-static libevdev-dev pkg-config
cpio python3 gnuplot-nox gcc-multilib stress-ng
qemu-system-gui xvfb xdotool x11-apps python3-sphinx
python3-ply python3-git rsync spin lava-common"

missing=
for p in $packages; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
	die "missing packages; as root, run:
apt-get update && apt-get install -y --no-install-recommends$missing"
fi
say "installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
