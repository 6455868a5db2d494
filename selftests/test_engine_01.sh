#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Userspace engines (io_uring, libaio): the same options and report as the
# module. Exact IO counts, and counted IOs equal to the device's requests;
# the same seed writes the same blocks, stamped the same way, through the
# kernel path and through each engine; latency never under the device's
# service time; Ctrl-C stops a run and still reports; valgrind-clean.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "the userspace engines"
bl_require_cmd blkload python3 valgrind

ktap_print_header
ktap_set_plan 8
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exact() {
	local engine=$1 r0 r1
	r0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	blkload --output-format=json+ run --engine "$engine" --dev /dev/nullb0 --rw randread \
		--number_ios 10001 --iodepth 8 --cpus 0-1 >"$tmp/$engine.json" || return 1
	r1=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	echo "# $engine: $((r1 - r0)) device reads"
	bl_json "d['jobs'][0]['read']['total_ios'] == 10001" \
		"d['jobs'][0]['read']['errors'] == 0" \
		"d['jobs'][0]['done_reason'] == 'limit'" \
		"sum(d['jobs'][0]['read']['lat_ns']['bins'].values()) == 10001" \
		"$((r1 - r0)) == 10001" <"$tmp/$engine.json"
}
bl_check "io_uring: 10001 random reads on 2 CPUs exactly, each a device request" exact io_uring
bl_check "libaio: 10001 random reads on 2 CPUs exactly, each a device request" exact libaio

same_sequence() {
	local engine
	for engine in kernel io_uring libaio; do
		bl_brd 16384
		blkload run --engine "$engine" --dev /dev/ram0 --rw randwrite --allow-write \
			--number_ios 300 --iodepth 4 --cpus 0-1 --randseed 77 >/dev/null || return 1
		bl_stamped /dev/ram0 >"$tmp/$engine.blocks" || return 1
	done
	echo "# kernel wrote $(wc -w <"$tmp/kernel.blocks") distinct blocks"
	test "$(wc -w <"$tmp/kernel.blocks")" -gt 250 &&
		cmp -s "$tmp/kernel.blocks" "$tmp/io_uring.blocks" &&
		cmp -s "$tmp/kernel.blocks" "$tmp/libaio.blocks"
}
bl_check "one seed: kernel, io_uring and libaio write the same blocks, stamped alike" same_sequence

floor() {
	local engine=$1
	bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=200000
	blkload -j run --engine "$engine" --dev /dev/nullb0 --rw randread --number_ios 2000 \
		--iodepth 4 | bl_json "d['jobs'][0]['read']['lat_ns']['min'] >= 200000" \
			"d['jobs'][0]['read']['total_ios'] == 2000"
}
bl_check "io_uring: latency never under the device's 200 us" floor io_uring
bl_check "libaio: latency never under the device's 200 us" floor libaio

ctrl_c() {
	local pid rc
	blkload -j run --engine io_uring --dev /dev/nullb0 --rw randread --iodepth 4 \
		--time_based --runtime 60 >"$tmp/c.json" &
	pid=$!
	sleep 2
	kill -INT $pid
	wait $pid && rc=0 || rc=$?
	echo "# exit $rc"
	bl_json "d['jobs'][0]['done_reason'] == 'stopped'" \
		"d['jobs'][0]['read']['total_ios'] > 0" <"$tmp/c.json"
}
bl_check "Ctrl-C stops an engine run, which still reports" ctrl_c

vg() {
	local engine=$1
	bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
	valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
		--log-file="$tmp/vg" blkload run --engine "$engine" --dev /dev/nullb0 --rw randrw \
		--allow-write --number_ios 2000 --iodepth 8 --cpus 0-1 --per-cpu >/dev/null 2>&1
	local rc=$?
	sed 's/^/# /' "$tmp/vg"
	test $rc = 0 -a ! -s "$tmp/vg"
}
bl_check "io_uring run under valgrind: clean" vg io_uring
bl_check "libaio run under valgrind: clean" vg libaio

bl_mark end
ktap_finished
