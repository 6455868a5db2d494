#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Queue rows on any CPU count: a job-get reply carries the rows that fit in
# its 64 KiB stats nest and names the next one (queues-next); the CLI asks
# again from there. Two test knobs make a two-CPU guest split as a 256-CPU
# host must (a 240-vCPU guest had not finished booting after 850 s under TCG):
# max_stats_bytes lowers the nest's byte budget, so the byte test that splits
# a 256-CPU reply is the one that splits here (at the byte where a second
# row just fits, and one below); max_queue_rows caps the rows by count; with
# histograms the totals leave room for one row in the first reply. Either
# way every queue's row arrives once, in order, and the rows add up to the
# job's totals; with both off, the rows come whole.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 10
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
params=/sys/module/blkload/parameters
tmp=$(mktemp -d)
trap 'echo 0 >$params/max_queue_rows; echo 0 >$params/max_stats_bytes; rm -rf "$tmp"' EXIT

rows() {
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 4000 --iodepth 4 --cpus 0-1 \
		--per-cpu >"$tmp/r.json" || return 1
	bl_json "sorted(q['cpu'] for q in d['jobs'][0]['queues']) == [0, 1]" \
		"sum(q['read']['total_ios'] for q in d['jobs'][0]['queues']) == 4000" \
		"d['jobs'][0]['read']['total_ios'] == 4000" <"$tmp/r.json"
}

# The split on the wire: the first reply (queue-first 0, with any extra
# arguments: --hist) as expected; from queue-first 1 the last row and no
# queues-next; without queue-first (an older client) all rows in one reply,
# whatever the knobs.
done_job() { [[ $(bl_job_state "$1") == done* ]]; }
wire() {
	local first=$1 id out out2 out3
	shift
	id=$(python3 "$BL_DIR/blnl.py" new /dev/nullb0 --number-ios 100 --cpus 0,1 --detached) ||
		return 1
	python3 "$BL_DIR/blnl.py" start "$id" || return 1
	bl_wait 100 done_job "$id" || return 1
	out=$(python3 "$BL_DIR/blnl.py" rows "$id" "$@" 2>&1)
	out2=$(python3 "$BL_DIR/blnl.py" rows "$id" --first 1 2>&1)
	out3=$(python3 "$BL_DIR/blnl.py" rows "$id" --unpaged 2>&1)
	python3 "$BL_DIR/blnl.py" del "$id"
	echo "# first reply: $out; from queue-first 1: $out2; without queue-first: $out3"
	[[ $out == "$first" && $out2 == "rows 1 queues-next 0" &&
		$out3 == "rows 2 queues-next 0" ]]
}

# A reply adds a row while the nest, with 1 KiB for that row and 8 KiB for
# the totals, stays within the budget. The bytes after the first row, as
# sent (some 270): the budget where the second row just fits, and one byte
# less, where it does not.
id=$(python3 "$BL_DIR/blnl.py" new /dev/nullb0 --number-ios 100 --cpus 0,1 --detached) &&
	python3 "$BL_DIR/blnl.py" start "$id" && bl_wait 100 done_job "$id" &&
	used=$(python3 "$BL_DIR/blnl.py" rows "$id" --row-bytes)
python3 "$BL_DIR/blnl.py" del "$id" >/dev/null 2>&1
[[ ${used:-} =~ ^[0-9]+$ ]] || ktap_exit_fail_msg "cannot measure a queue row: ${used:-nothing}"
echo "# the stats nest holds $used bytes after its first row"
bl_check "a queue row (with the nest's header: $used bytes) is within the 1 KiB a reply keeps for it" \
	test "$used" -le 1024
fit=$((used + 1024 + 8192))
echo "$fit" >$params/max_stats_bytes || ktap_exit_fail_msg "cannot set max_stats_bytes"
bl_check "byte budget $fit (the second row just fits): both rows in the first reply" \
	wire "rows 2 queues-next 0"
echo $((fit - 1)) >$params/max_stats_bytes
bl_check "byte budget $((fit - 1)), on the wire: one row and queues-next 1, the last row from queue-first 1" \
	wire "rows 1 queues-next 1"
bl_check "byte budget $((fit - 1)): the CLI gets both queues' rows, adding up to the totals" rows
echo 0 >$params/max_stats_bytes
bl_check "byte budget 64 KiB: both rows in the first reply" wire "rows 2 queues-next 0"
# The totals' four histograms (some 59 KiB) leave the room of no second row.
bl_check "byte budget 64 KiB with histograms: one row, then the last from queue-first 1" \
	wire "rows 1 queues-next 1" --hist

echo 1 >$params/max_queue_rows || ktap_exit_fail_msg "cannot set max_queue_rows"
bl_check "one row a reply, on the wire: one row and queues-next 1, the last row from queue-first 1" \
	wire "rows 1 queues-next 1"
bl_check "one row a reply: both queues' rows, adding up to the totals" rows
echo 0 >$params/max_queue_rows
bl_check "knobs off: the CLI gets both rows" rows
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
