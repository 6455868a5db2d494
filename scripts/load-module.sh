#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# load-module.sh [KO] [PARAM=VALUE ...]: load blkload as built in this tree
# (module/blkload.ko by default), its dependencies first, as modprobe does
# for an installed module. A bare insmod fails with "Unknown symbol in
# module" (dmesg: "Unknown symbol crc32c") unless libcrc32c happens to be
# loaded already. For an installed module (make install, DKMS, the Debian
# package) use "modprobe blkload".
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
ko=$top/module/blkload.ko
if [[ ${1:-} == *.ko ]]; then
	ko=$1
	shift
fi
die() { echo "load-module: $*" >&2; exit 1; }

[[ -f $ko ]] || die "$ko is not built; run 'make'"
[[ ! -d /sys/module/blkload ]] || die "blkload is loaded already (rmmod blkload first)"
# A module built for another kernel: say so, not "Invalid module format".
built=$(modinfo -F vermagic "$ko" | awk '{ print $1 }')
[[ $built == "$(uname -r)" ]] ||
	die "$ko was built for $built, this kernel is $(uname -r): make KDIR=/lib/modules/$(uname -r)/build"
IFS=, read -ra deps <<<"$(modinfo -F depends "$ko")"
for d in "${deps[@]}"; do
	if [[ -n $d ]]; then
		modprobe "$d" || die "cannot load $d, which blkload needs"
	fi
done
insmod "$ko" "$@"
