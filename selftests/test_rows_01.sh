#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Queue rows on any CPU count: a job-get reply carries the rows that fit in
# its 64 KiB stats nest and names the next one (queues-next); the CLI asks
# again from there. The module's max_queue_rows knob makes a two-CPU guest
# split as a 256-CPU host must: with one row a reply, every queue's row still
# arrives once, in order, and the rows add up to the job's totals; with the
# knob off, the rows still come whole.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 4
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
knob=/sys/module/blkload/parameters/max_queue_rows
tmp=$(mktemp -d)
trap 'echo 0 >$knob; rm -rf "$tmp"' EXIT

rows() {
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 4000 --iodepth 4 --cpus 0-1 \
		--per-cpu >"$tmp/r.json" || return 1
	bl_json "sorted(q['cpu'] for q in d['jobs'][0]['queues']) == [0, 1]" \
		"sum(q['read']['total_ios'] for q in d['jobs'][0]['queues']) == 4000" \
		"d['jobs'][0]['read']['total_ios'] == 4000" <"$tmp/r.json"
}
echo 1 >$knob || ktap_exit_fail_msg "cannot set max_queue_rows"
bl_check "one row a reply: both queues' rows, adding up to the totals" rows

# The split itself, on the wire: one row and queues-next 1, then from
# queue-first 1 the last row and no queues-next.
done_job() { [[ $(bl_job_state "$1") == done* ]]; }
wire() {
	local id out out2 out3
	id=$(python3 "$BL_DIR/blnl.py" new /dev/nullb0 --number-ios 100 --cpus 0,1 --detached) ||
		return 1
	python3 "$BL_DIR/blnl.py" start "$id" || return 1
	bl_wait 100 done_job "$id" || return 1
	out=$(python3 "$BL_DIR/blnl.py" rows "$id" 2>&1)
	out2=$(python3 "$BL_DIR/blnl.py" rows "$id" --first 1 2>&1)
	out3=$(python3 "$BL_DIR/blnl.py" rows "$id" --unpaged 2>&1)
	python3 "$BL_DIR/blnl.py" del "$id"
	echo "# first reply: $out; from queue-first 1: $out2; without queue-first: $out3"
	[[ $out == "rows 1 queues-next 1" && $out2 == "rows 1 queues-next 0" &&
		$out3 == "rows 2 queues-next 0" ]]
}
bl_check "on the wire: one row and queues-next 1, the last row from queue-first 1, all rows without it" wire
echo 0 >$knob
bl_check "knob off: the CLI gets both rows" rows
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
