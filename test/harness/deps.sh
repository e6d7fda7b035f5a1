#!/bin/bash
# Install the Debian packages the build and the tests need (as root), or
# name the missing ones and stop.
set -u
need=(qemu-system-x86 fio sg3-utils numactl linux-source-6.12 gcc make bc bison
      flex libelf-dev libssl-dev cpio kmod xz-utils python3 rsync ccache util-linux)
missing=()
for p in "${need[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} = 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	echo "deps: as root: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
	{ echo "deps: apt-get install ${missing[*]} failed" >&2; exit 1; }
