#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Bad input: each case fails with its own error, printed from the kernel's
# extack, and leaves nothing behind (no job, no pinned memory, no device
# claim, module refcount 0).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 setpriv mkfs.ext2 mount wipefs

cases=(
	"bs 0: the option, its value and the allowed range|--bs 0: integer out of range (allowed 512..4194304)|--dev /dev/nullb0 --bs 0"
	"bs not a multiple of the logical block size|not a multiple of the device's logical block size|--dev /dev/nullb0 --bs 2k"
	"bs over 4 MiB|--bs 8388608: integer out of range (allowed 512..4194304)|--dev /dev/nullb0 --bs 8m"
	"iodepth 0|--iodepth 0: integer out of range (allowed 1..65536)|--dev /dev/nullb0 --iodepth 0"
	"iodepth over the limit|over the module's limit|--dev /dev/nullb0 --iodepth 2000"
	"nonexistent CPU|offline or does not exist|--dev /dev/nullb0 --cpus 64"
	"offline CPU|offline or does not exist|--dev /dev/nullb0 --cpus 1"
	"missing path|does not exist|--dev /dev/nosuchdevice"
	"character device|not a block device|--dev /dev/null"
	"regular file|not a block device|--dev /etc/hostname"
	"offset past the end|past the end of the device|--dev /dev/nullb0 --offset 8g"
	"region smaller than a block|the region holds fewer blocks than needed|--dev /dev/nullb0 --size 4k --bs 8k"
	"write without allow-write|allow-write is required|--dev /dev/nullb0 --rw randwrite"
	"write to a mounted device|not writing: it is mounted on|--dev /dev/ram0 --rw write --allow-write"
	"memory over budget|this job would pin 4.00 GiB of data pages|--dev /dev/nullb0 --iodepth 1024 --bs 4m --cpus 0"
	"runtime over 365 days|--runtime 31539600000000000 ns: integer out of range (allowed 0..31536000000000000 ns)|--dev /dev/nullb0 --runtime 8761h"
	"ramp_time over 365 days|--ramp_time 31539600000000000 ns: integer out of range (allowed 0..31536000000000000 ns)|--dev /dev/nullb0 --ramp_time 8761h"
	"continue_on_error verify|verify failures never stop a job|--dev /dev/nullb0 --continue_on_error verify"
)

ktap_print_header
ktap_set_plan $((${#cases[@]} + 5))
bl_mark start
bl_unload
bl_load
# 4k logical blocks, 4 GiB.
bl_nullb nr_devices=1 gb=4 bs=4096 irqmode=0 memory_backed=0
bl_brd 16384
mkfs.ext2 -q /dev/ram0
mnt=$(mktemp -d)
mount /dev/ram0 "$mnt"
trap 'umount "$mnt" 2>/dev/null; rmdir "$mnt"; echo 1 >/sys/devices/system/cpu/cpu1/online' EXIT
echo 0 >/sys/devices/system/cpu/cpu1/online

for c in "${cases[@]}"; do
	IFS='|' read -r name want args <<<"$c"
	# shellcheck disable=SC2086
	out=$(blkload run --number_ios 10 $args 2>&1) && rc=0 || rc=$?
	if ((rc != 0)) && grep -qF -- "$want" <<<"$out"; then
		echo "# $out" | head -2
		ktap_test_pass "$name"
	else
		echo "# exit $rc, expected an error with '$want'; got:"
		sed 's/^/#   /' <<<"$out"
		ktap_test_fail "$name"
	fi
done
echo 1 >/sys/devices/system/cpu/cpu1/online

unpriv() {
	local out
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
		blkload run --dev /dev/nullb0 --number_ios 10 2>&1) && return 1
	echo "# $out"
	grep -q "Operation not permitted" <<<"$out"
}
bl_check "unprivileged caller: EPERM" unpriv

bl_check "force writes to the mounted device anyway" \
	blkload run --dev /dev/ram0 --rw write --allow-write --force --number_ios 1 --offset 8m
umount "$mnt"
# The filesystem's signature would refuse the write below (test_safe_01).
wipefs -q -a /dev/ram0
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean
bl_check "no claim left: an exclusive writer opens the device" \
	blkload run --dev /dev/ram0 --rw write --allow-write --number_ios 10
bl_check "the module unloads" rmmod blkload

bl_mark end
ktap_finished
