# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash
# apt.sh: a private apt configuration under a build/ directory, for the
# scripts that fetch Debian packages without installing anything (kernel
# source, its upstream tarball, sparse's source, QEMU's plugin header).
# The system's own apt lists and caches are left alone; no archive host is
# named here: the URI is read from the system's apt sources.
# DEBIAN_KERNEL_SUITE: the suite with linux-source-7.3 for Debian 12
# (ksource.sh, korig.sh).
#
#   apt_private DIR TYPE SUITE   TYPE deb or deb-src; SUITE a suite name
#                                (e.g. trixie-backports) of the archive the
#                                system uses, or "system" for the system's
#                                own sources (their suites, components and
#                                keyrings) turned into TYPE.
# Sets APT_OPTS (the apt-get/apt-cache options) and runs apt-get update.
# Returns non-zero, with a message, when there is no source or no update.
# shellcheck disable=SC2034	# read by the scripts that source this file
DEBIAN_KERNEL_SUITE=trixie-backports

# The first archive URI of the system's apt sources (deb822 first).
apt_archive_uri() {
	local uri
	uri=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
	[ -n "$uri" ] || uri=$(awk '$1 == "deb" {for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) {print $i; exit}}' \
		/etc/apt/sources.list 2>/dev/null || true)
	[ -n "$uri" ] || { echo "apt: no archive URI in the system's apt sources" >&2; return 1; }
	echo "$uri"
}

apt_private() {
	local dir=$1 type=$2 suite=$3 uri f n=0
	rm -rf "$dir/sources.list.d"
	mkdir -p "$dir/sources.list.d" "$dir/lists/partial" "$dir/cache/archives/partial"
	if [ "$suite" = system ]; then
		for f in /etc/apt/sources.list.d/*.sources; do
			[ -f "$f" ] || continue
			sed "s/^Types:.*/Types: $type/" "$f" > "$dir/sources.list.d/${f##*/}"
			n=$((n + 1))
		done
		: > "$dir/sources.list"
		if [ -f /etc/apt/sources.list ]; then
			sed -n "s/^[[:space:]]*deb[[:space:]]/$type /p" /etc/apt/sources.list > "$dir/sources.list"
			[ -s "$dir/sources.list" ] && n=$((n + 1))
		fi
		[ "$n" -gt 0 ] || { echo "apt: no apt sources found under /etc/apt" >&2; return 1; }
	else
		uri=$(apt_archive_uri) || return 1
		echo "$type [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri $suite main" \
			> "$dir/sources.list"
	fi
	APT_OPTS=(-o "Dir::Etc::SourceList=$dir/sources.list" -o "Dir::Etc::SourceParts=$dir/sources.list.d"
		  -o "Dir::State::Lists=$dir/lists" -o "Dir::Cache=$dir/cache"
		  -o APT::Sandbox::User=root -o Debug::NoLocking=1)
	apt-get "${APT_OPTS[@]}" -qq update >&2 ||
		{ echo "apt: apt-get update ($type $suite) failed" >&2; return 1; }
}
