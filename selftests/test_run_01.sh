#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# number_ios and io_size give exactly that many IOs and bytes, on every kind
# of device (null_blk, brd, loop), split over CPUs, for reads and writes.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 losetup

ktap_print_header
ktap_set_plan 8
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
bl_brd 65536
modprobe loop
tmp=$(mktemp -d)
truncate -s 64M "$tmp/loop.img"
# tmpfs has no O_DIRECT: a buffered loop device.
loopdev=$(losetup --find --show "$tmp/loop.img") || ktap_exit_fail_msg "losetup failed"
trap 'losetup -d "$loopdev"; rm -rf "$tmp"' EXIT

exact() {
	local dev=$1 rw=$2 n=$3 bs=$4 op=$5
	shift 5
	blkload -j run --dev "$dev" --rw "$rw" --number_ios "$n" --bs "$bs" --iodepth 8 \
		--cpus 0-1 "$@" |
		bl_json "d['jobs'][0]['$op']['total_ios'] == $n" \
			"d['jobs'][0]['$op']['io_bytes'] == $n * $bs" \
			"d['jobs'][0]['$op']['errors'] == 0" \
			"d['jobs'][0]['done_reason'] == 'limit'" \
			"d['jobs'][0]['$op']['lat_ns']['N'] == $n"
}

bl_check "null_blk randread: 10001 IOs of 4k exactly" exact /dev/nullb0 randread 10001 4096 read
bl_check "null_blk read: 777 IOs of 64k exactly" exact /dev/nullb0 read 777 65536 read
bl_check "brd randwrite: 1001 IOs of 4k exactly" \
	exact /dev/ram0 randwrite 1001 4096 write --allow-write
bl_check "brd read: 999 IOs of 512 B exactly" exact /dev/ram0 read 999 512 read
bl_check "loop randwrite: 501 IOs of 8k exactly" \
	exact "$loopdev" randwrite 501 8192 write --allow-write
bl_check "loop randread: 500 IOs of 4k exactly" exact "$loopdev" randread 500 4096 read

io_size() {
	blkload -j run --dev /dev/nullb0 --rw randread --io_size 4m --bs 16k --iodepth 4 |
		bl_json "d['jobs'][0]['read']['total_ios'] == 256" \
			"d['jobs'][0]['read']['io_bytes'] == 4 << 20"
}
bl_check "io_size=4m at bs=16k is 256 IOs" io_size

# With no limit at all, one pass over the region, like fio.
one_pass() {
	blkload -j run --dev /dev/ram0 --rw read --bs 1m --iodepth 2 |
		bl_json "d['jobs'][0]['read']['io_bytes'] == 64 << 20"
}
bl_check "no limit: one pass over the device" one_pass

bl_mark end
ktap_finished
