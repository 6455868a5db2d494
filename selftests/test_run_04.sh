#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The requested depth is really reached: on a null_blk that takes 100 ms per
# IO, a detached job with iodepth 16 on 2 CPUs has 32 IOs in flight, and
# stop drains them.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 4
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=100000000 hw_queue_depth=256 \
	submit_queues=2

id=$(blkload -j start --dev /dev/nullb0 --rw randread --iodepth 16 --cpus 0-1 --time_based --runtime 60 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
echo "# job $id"
inflight32() {
	blkload -j stats --per-cpu "$id" |
		bl_json "d['jobs'][0]['inflight'] == 32" \
			"[q['inflight'] for q in d['jobs'][0]['queues']] == [16, 16]" \
			"[q['cpu'] for q in d['jobs'][0]['queues']] == [0, 1]"
}
bl_check "32 IOs in flight (16 per CPU queue)" bl_wait 50 inflight32
min_lat() {
	blkload -j stats "$id" | bl_json "d['jobs'][0]['read']['lat_ns']['min'] >= 100e6"
}
bl_check "no latency below the device's 100 ms service time" bl_wait 30 min_lat
bl_check "stop drains and deletes" blkload stop "$id"
bl_check "nothing left" bl_clean

bl_mark end
ktap_finished
