#!/bin/bash
# Install the Debian packages the build, the lint and the tests need (as
# root), or name the missing ones and stop.  The kernel source itself
# (linux-source-7.3, from a suite the system's apt sources may not list) is
# fetched by ksource.sh into build/, not installed.
set -u
need=(qemu-system-x86 fio sg3-utils numactl gcc make bc bison flex libelf-dev
      libssl-dev cpio kmod xz-utils python3 rsync ccache util-linux sparse
      shellcheck pyflakes3 gnuplot-nox dpkg-dev python3-ply python3-git)
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
