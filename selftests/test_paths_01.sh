#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One queue machine for every path: the module (kernel) and the io_uring
# and libaio engines run the same job the same way. The same IO sequence
# (operation, sector, size of every bio, as block_bio_queue records it) for
# a mixed, split-size, seeded job on one queue; and the same count, IO for
# IO, under every limit (number_ios split over two CPUs, io_size, loops, one
# pass over the region, a rate, thinktime, a ramp), as the report says and as
# the device counted.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "the userspace engines"
bl_require_cmd blkload python3
bl_trace_require

paths=(kernel io_uring libaio)
ktap_print_header
ktap_set_plan 9
bl_mark start
bl_load
tmp=$(mktemp -d)
trap 'bl_trace_teardown; rm -rf "$tmp"' EXIT
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
bl_trace_dev nullb0

# Each path's bios of one seeded job: "rwbs sector sectors", in order.
sequences() {
	local p
	for p in "${paths[@]}"; do
		bl_trace_on
		blkload -j run --engine "$p" --dev /dev/nullb0 --rw randrw --rwmixread 70 \
			--bssplit 4k/50:16k/30:64k/20 --randseed 7 --number_ios 600 --iodepth 1 \
			--cpus 0 --allow-write --force >"$tmp/seq.json" || return 1
		bl_trace_off
		bl_trace_bios | awk '{ print $2, $3, $4 }' >"$tmp/seq.$p"
		echo "# $p: $(wc -l <"$tmp/seq.$p") bios, first $(head -1 "$tmp/seq.$p")"
	done
	[[ $(wc -l <"$tmp/seq.kernel") == 600 ]] &&
		cmp -s "$tmp/seq.kernel" "$tmp/seq.io_uring" && cmp -s "$tmp/seq.kernel" "$tmp/seq.libaio"
}
bl_check "one seed, randrw 70% and a block size split: the module, io_uring and libaio send the same 600 bios in the same order" \
	sequences

# IOs of the job as reported and as the device's counters moved (reads, writes).
count() {
	local want=$1 r0 w0 r1 w1
	shift
	r0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	w0=$(awk '{ print $5 }' /sys/block/nullb0/stat)
	"$@" >"$tmp/c.json" || return 1
	r1=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	w1=$(awk '{ print $5 }' /sys/block/nullb0/stat)
	python3 - "$tmp/c.json" "$want" "$((r1 - r0 + w1 - w0))" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
want, dev = int(sys.argv[2]), int(sys.argv[3])
ios = j["read"]["total_ios"] + j["write"]["total_ios"]
print("#   %d IOs reported, the device %d, want %d" % (ios, dev, want))
sys.exit(0 if ios == want and j["error"] == 0 else 1)
PY
}

# Every path under limit $1 (a name), $2 the count wanted, the run's options after.
limits() {
	local name=$1 want=$2 p
	shift 2
	for p in "${paths[@]}"; do
		echo "# $name, $p:"
		count "$want" blkload -j run --engine "$p" --dev /dev/nullb0 "$@" || return 1
	done
}
bl_check "number_ios 1001 on 2 CPUs: 1001 IOs on every path" \
	limits number_ios 1001 --rw randread --number_ios 1001 --iodepth 8 --cpus 0-1
bl_check "io_size 4 MiB of 4k: 1024 IOs on every path" \
	limits io_size 1024 --rw randread --io_size 4m --iodepth 8 --cpus 0
bl_check "loops 3 of number_ios 100 on 2 CPUs: 300 IOs on every path" \
	limits loops 300 --rw read --number_ios 100 --loops 3 --iodepth 4 --cpus 0-1
bl_check "no limit: one pass over an 8 MiB region, 2048 IOs on every path" \
	limits pass 2048 --rw randwrite --size 8m --iodepth 16 --cpus 0-1 --allow-write --force
bl_check "rate_iops 2000, number_ios 500: 500 IOs on every path" \
	limits rate 500 --rw randread --rate_iops 2000 --number_ios 500 --iodepth 4 --cpus 0
bl_check "thinktime 1 ms every 16 IOs, number_ios 400: 400 IOs on every path" \
	limits think 400 --rw randread --thinktime 1000 --thinktime_blocks 16 --number_ios 400 \
	--iodepth 4 --cpus 0

# A ramp's IOs reach the device but are not counted: the count after it is exact.
ramp() {
	local p r0 r1
	for p in "${paths[@]}"; do
		r0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
		blkload -j run --engine "$p" --dev /dev/nullb0 --rw randread --ramp_time 1 \
			--number_ios 700 --iodepth 8 --cpus 0-1 >"$tmp/r.json" || return 1
		r1=$(awk '{ print $1 }' /sys/block/nullb0/stat)
		echo "# ramp, $p: the device did $((r1 - r0)) reads"
		bl_json "d['jobs'][0]['read']['total_ios'] == 700" <"$tmp/r.json" || return 1
		((r1 - r0 > 700)) || return 1
	done
}
bl_check "ramp 1 s, number_ios 700: 700 counted on every path, more on the device" ramp
bl_check "nothing left of blkload" bl_clean

bl_mark end
ktap_finished
