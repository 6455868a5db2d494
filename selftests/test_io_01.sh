#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# IO that compares with fio. With default options every counted IO reaches
# the device as its own request (the device's own counters say so), and is
# timed from its own submission (never under the device's service time);
# a batch lets bios merge in the plug, which the device's counters show.
# Writes carry O_DIRECT's REQ_SYNC | REQ_IDLE: with writeback throttling on,
# a random read/write mix runs as fast as fio's libaio on the same device in
# the same run (plain writes ran 14x slower).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 fio

ktap_print_header
ktap_set_plan 6
bl_mark start
bl_load
bl_nullb nr_devices=3 gb=1 irqmode=0 memory_backed=0
for d in nullb0 nullb1 nullb2; do echo none >/sys/block/$d/queue/scheduler; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# /sys/block/X/stat: reads, read merges, ..., writes (5), write merges (6).
dstat() {
	awk -v f="$2" '{ print $f }' "/sys/block/$1/stat"
}

one_request_each() {
	local rw=$1 f=$2 fm=$3 r0 m0 r1 m1
	shift 3
	r0=$(dstat nullb0 "$f") m0=$(dstat nullb0 "$fm")
	blkload -j run --dev /dev/nullb0 --rw "$rw" --number_ios 20000 --iodepth 8 --cpus 0-1 \
		"$@" >"$tmp/r.json" || return 1
	r1=$(dstat nullb0 "$f") m1=$(dstat nullb0 "$fm")
	echo "# $rw: $((r1 - r0)) requests, $((m1 - m0)) merges for 20000 IOs"
	test $((r1 - r0)) = 20000 -a $((m1 - m0)) = 0
}
bl_check "sequential reads, iodepth 8: 20000 IOs are 20000 device requests, no merge" \
	one_request_each read 1 2
bl_check "sequential writes, iodepth 8: 20000 IOs are 20000 device requests, no merge" \
	one_request_each write 5 6 --allow-write

batch_merges() {
	local r0 r1
	r0=$(dstat nullb0 1)
	blkload -j run --dev /dev/nullb0 --rw read --number_ios 16000 --iodepth 16 \
		--iodepth_batch_submit 16 >"$tmp/b.json" || return 1
	r1=$(dstat nullb0 1)
	echo "# batch 16: $((r1 - r0)) requests for 16000 sequential IOs"
	test $((r1 - r0)) -lt 16000
}
bl_check "a batch of 16 merges sequential bios in the plug (fewer requests)" batch_merges

# A 200 us device: no IO may be reported faster than that.
floor() {
	bl_nullb nr_devices=3 gb=1 irqmode=2 completion_nsec=200000
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 2000 --iodepth 4 |
		bl_json "d['jobs'][0]['read']['lat_ns']['min'] >= 200000" \
			"d['jobs'][0]['read']['lat_ns']['N'] == 2000"
}
bl_check "latency is never under the device's 200 us service time" floor

# Writeback throttling on, 2 ms completions: blkload and fio libaio side by side.
wbt() {
	local f b
	echo 2000 >/sys/block/nullb1/queue/wbt_lat_usec || return 1
	echo "# wbt_lat_usec=$(cat /sys/block/nullb1/queue/wbt_lat_usec)"
	f=$(fio --name=w --filename=/dev/nullb1 --ioengine=libaio --direct=1 --rw=randrw \
		--bs=4k --iodepth=32 --time_based --runtime=3 --cpus_allowed=0 \
		--output-format=json |
		python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(int(j["read"]["iops"] + j["write"]["iops"]))')
	b=$(blkload -j run --dev /dev/nullb1 --rw randrw --iodepth 32 --time_based --runtime 3 --cpus 0 \
		--allow-write |
		python3 -c 'import json,sys; j=json.load(sys.stdin)["jobs"][0]; print(int(j["read"]["iops"] + j["write"]["iops"]))')
	echo "# randrw iodepth 32 under wbt: fio libaio $f IOPS, blkload $b IOPS"
	test "$b" -ge $((f / 2))
}
bl_check "randrw under writeback throttling: blkload at least half of fio libaio" wbt
bl_check "nothing left" bl_clean

bl_mark end
ktap_finished
