#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Every job ends, with exactly its count: a sweep of ramp_time x number_ios
# x CPUs x an iodepth one above and four times the device's tags, on a null_blk whose
# timer completions keep the tags full, so that bios are refused
# (REQ_NOWAIT) and wait on the retry list through the ramp's end and the
# limit. A job that does not end within its bound is a failure.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

combos=()
for ramp in 0 1s; do
	for n in 1 7 500; do
		for cpus in 0 0-1; do
			for qd in 9 32; do
				combos+=("$ramp $n $cpus $qd")
			done
		done
	done
done

ktap_print_header
ktap_set_plan $((${#combos[@]} + 1))
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=1 hw_queue_depth=8 irqmode=2 \
	completion_nsec=200000 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler

one() {
	local ramp=$1 n=$2 cpus=$3 qd=$4 out rc
	out=$(timeout 60 blkload -j run --dev /dev/nullb0 --rw randread --iodepth "$qd" \
		--ramp_time "$ramp" --number_ios "$n" --cpus "$cpus") && rc=0 || rc=$?
	((rc == 0)) || { echo "# exit $rc (124: still running after 60 s)"; return 1; }
	bl_json "d['jobs'][0]['read']['total_ios'] == $n" <<<"$out"
}
for c in "${combos[@]}"; do
	# shellcheck disable=SC2086
	set -- $c
	bl_check "ramp $1, number_ios $2, cpus $3, iodepth $4 over 8 tags: ends with $2 IOs" one "$@"
done
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
