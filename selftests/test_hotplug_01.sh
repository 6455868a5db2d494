#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# CPU hotplug: a CPU taken offline under a running job ends the job with
# reason cpu-offline (never a silent move of its queue to another CPU); the
# run says so and exits 1; its worker goes; once the CPU is back a new job
# on it gets a new worker and runs normally. A job made while the CPU was
# online and started after it went offline is refused.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

online=/sys/devices/system/cpu/cpu1/online
if [[ ! -w $online ]]; then
	ktap_skip_all "CPU 1 cannot go offline here"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 5
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=100000
tmp=$(mktemp -d)
trap 'echo 1 >$online; rm -rf "$tmp"' EXIT

blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0-1 --time_based --runtime 60 --per-cpu \
	>"$tmp/run.json" 2>"$tmp/run.err" &
pid=$!
sleep 1
echo 0 >$online
t0=$(bl_ms)
wait $pid && rc=0 || rc=$?
t1=$(bl_ms)
echo 1 >$online
echo "# the run exited $rc $((t1 - t0)) ms after CPU 1 went offline"
bl_check "the run ends in under $(bl_ms_scaled 3000) ms with exit 1" \
	test "$rc" = 1 -a $((t1 - t0)) -lt "$(bl_ms_scaled 3000)"
bl_check "reason cpu-offline; both queues counted IO on their own CPU" \
	bl_json "d['jobs'][0]['done_reason'] == 'cpu-offline'" \
		"sorted(q['cpu'] for q in d['jobs'][0]['queues']) == [0, 1]" \
		"all(q['read']['total_ios'] > 0 for q in d['jobs'][0]['queues'])" <"$tmp/run.json"
bl_check "its workers are gone" bl_wait $((30 * BL_SCALE)) \
	bl_no_workers

again() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 1 --number_ios 3000 |
		bl_json "d['jobs'][0]['read']['total_ios'] == 3000" \
			"d['jobs'][0]['done_reason'] == 'limit'"
}
bl_check "CPU 1 back: a new job on it runs normally" again

made_before() {
	local id out
	id=$(bl_nl new /dev/nullb0 --cpus 0,1 --detached) || return 1
	echo 0 >$online
	out=$(bl_nl start "$id") && { echo 1 >$online; return 1; }
	echo 1 >$online
	echo "# $out"
	grep -q "went offline since it was made" <<<"$out" && bl_nl del "$id" && bl_clean
}
bl_check "a job whose CPU went offline before its start is refused" made_before

bl_mark end
ktap_finished
