#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# kdir.sh: the kernel build tree blkload builds against by default, found
# when it is asked for (never once, before "make deps" installed it).
#
#   kdir.sh            KDIR: the running kernel's tree, else the newest under
#                      /lib/modules that has a /boot/vmlinuz too (the test
#                      guest boots it; headers alone, such as the build
#                      matrix's rt ones, are not picked), else the newest
#                      headers alone (containers)
#   kdir.sh --kver [KDIR]
#                      KVER: the release modules of KDIR install under, its
#                      UTS_RELEASE (Debian's headers say "6.1.192" in
#                      kernel.release for 6.1.0-57-amd64), else kernel.release
#   kdir.sh --image [KDIR]
#                      the /boot image of KDIR's kernel, if it has one
#
# Prints nothing and exits 1 when there is no tree: callers say what to do.
set -euo pipefail

find_kdir() {
	local b v best=
	b=/lib/modules/$(uname -r)/build
	if [[ -f $b/Makefile ]]; then
		echo "$b"
		return 0
	fi
	# if, not &&: the loop must not fail on headers without an image (pipefail)
	best=$(for b in /lib/modules/*/build; do
		v=${b#/lib/modules/}
		v=${v%/build}
		if [[ -f $b/Makefile && -f /boot/vmlinuz-$v ]]; then
			echo "$b"
		fi
	done | sort -V | tail -1)
	if [[ -z $best ]]; then
		best=$(for b in /lib/modules/*/build; do
			if [[ -f $b/Makefile ]]; then
				echo "$b"
			fi
		done | sort -V | tail -1)
	fi
	[[ -n $best ]] || return 1
	echo "$best"
}

kver_of() {
	local k=$1 v
	v=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' "$k/include/generated/utsrelease.h" 2>/dev/null || true)
	[[ -n $v ]] || v=$(cat "$k/include/config/kernel.release" 2>/dev/null || true)
	[[ -n $v ]] || return 1
	echo "$v"
}

case ${1:-} in
"") find_kdir ;;
--kver)
	k=${2:-}
	[[ -n $k ]] || k=$(find_kdir) || exit 1
	kver_of "$k"
	;;
--image)
	k=${2:-}
	[[ -n $k ]] || k=$(find_kdir) || exit 1
	v=$(kver_of "$k") || exit 1
	[[ -f /boot/vmlinuz-$v ]] || exit 1
	echo "/boot/vmlinuz-$v"
	;;
*) echo "usage: kdir.sh [--kver|--image [KDIR]]" >&2; exit 2 ;;
esac
