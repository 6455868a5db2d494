#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Mixes, ramps and sums: rwmixread holds on a large sample, the ramp resets
# the statistics, several devices report apart and summed.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 5
bl_mark start
bl_load
bl_nullb nr_devices=2 gb=1 irqmode=0 memory_backed=0

mix() {
	blkload -j run --dev /dev/nullb0 --rw randrw --rwmixread 30 --number_ios 40000 \
		--iodepth 16 --cpus 0-1 --allow-write |
		bl_json "abs(d['jobs'][0]['read']['total_ios'] / 40000 - 0.30) < 0.015" \
			"d['jobs'][0]['read']['total_ios'] + d['jobs'][0]['write']['total_ios'] == 40000"
}
bl_check "randrw rwmixread=30: 30% +- 1.5 of 40000 IOs are reads" mix

mixw() {
	blkload -j run --dev /dev/nullb0 --rw rw --rwmixwrite 80 --number_ios 20000 \
		--iodepth 4 --allow-write |
		bl_json "abs(d['jobs'][0]['write']['total_ios'] / 20000 - 0.80) < 0.02"
}
bl_check "rw rwmixwrite=80: 80% +- 2 writes" mixw

ramp() {
	local before after
	before=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	blkload -j run --dev /dev/nullb0 --rw randread --ramp_time 1 --number_ios 500 \
		--iodepth 4 >"$TMPDIR/ramp.json" || return 1
	after=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	echo "# device reads during the run: $((after - before))"
	bl_json "d['jobs'][0]['read']['total_ios'] == 500" \
		"d['jobs'][0]['elapsed_ns'] < 1e9" <"$TMPDIR/ramp.json" &&
		# The ramp issued IOs that the statistics do not count.
		((after - before > 1000))
}
TMPDIR=$(mktemp -d)
bl_check "ramp: IOs during the ramp are not counted; elapsed starts after it" ramp

ramp_runtime() {
	blkload -j run --dev /dev/nullb0 --rw randread --ramp_time 1 --time_based --runtime 1 --iodepth 4 |
		bl_json "0.9e9 < d['jobs'][0]['elapsed_ns'] < 1.6e9" \
			"d['jobs'][0]['done_reason'] == 'runtime'"
}
bl_check "ramp 1 s + runtime 1 s: elapsed is the runtime" ramp_runtime

sums() {
	blkload -j --output-format=json+ run --dev /dev/nullb0 --dev /dev/nullb1 --rw randread \
		--number_ios 3000 --iodepth 8 --cpus 0-1 |
		bl_json "len(d['jobs']) == 2" \
			"[j['device'] for j in d['jobs']] == ['/dev/nullb0', '/dev/nullb1']" \
			"all(j['read']['total_ios'] == 3000 for j in d['jobs'])" \
			"d['all_jobs']['read']['total_ios'] == 6000" \
			"d['all_jobs']['read']['io_bytes'] == 6000 * 4096" \
			"sum(d['all_jobs']['read']['lat_ns']['bins'].values()) == 6000" \
			"d['all_jobs']['elapsed_ns'] == max(j['elapsed_ns'] for j in d['jobs'])" \
			"abs(d['all_jobs']['read']['iops'] - 6000e9 / d['all_jobs']['elapsed_ns']) < 1" \
			"d['all_jobs']['read']['lat_ns']['min'] == min(j['read']['lat_ns']['min'] for j in d['jobs'])"
}
bl_check "two devices: per device and summed (IOs, bytes, histogram)" sums

rm -rf "$TMPDIR"
bl_mark end
ktap_finished
