#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# rmmod with jobs in every state never hangs: it is refused at once while a
# job runs, stops or drains after a delete (their IO may still call into
# the module), and succeeds once none does, freeing the jobs that were only
# made or are done.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 dmsetup blockdev

ktap_print_header
ktap_set_plan 7
bl_mark start
bl_unload
bl_load
# nullb0 answers in 100 us, the slow device (dm-delay over nullb1) after
# 30 s (120 s on a debug kernel): the steps below take over 10 s on a slow
# machine under emulation, and the slow IO must still be out at the second
# refusal.
bl_nullb nr_devices=2 gb=1 irqmode=2 completion_nsec=100000
slow=$(bl_delay_dev bl_rmslow /dev/nullb1 $((30000 * BL_SCALE))) ||
	ktap_exit_fail_msg "dmsetup create failed"
trap 'bl_delay_dev_remove bl_rmslow' EXIT

made=$(bl_nl new /dev/nullb0 --detached)
running=$(blkload -j start --dev /dev/nullb0 --iodepth 2 --time_based --runtime 60 | bl_started_id)
done_id=$(blkload -j start --dev /dev/nullb0 --number_ios 100 | bl_started_id)
stopping=$(blkload -j start --dev "$slow" --iodepth 2 --time_based --runtime 60 | bl_started_id)
deleted=$(blkload -j start --dev "$slow" --iodepth 2 --time_based --runtime 60 | bl_started_id)
sleep 1
bl_nl stop "$stopping"
bl_nl del "$deleted"
states() {
	echo "$(bl_job_state "$made")/$(bl_job_state "$running")/$(bl_job_state "$done_id")/$(bl_job_state "$stopping")/$(bl_job_state "$deleted")"
}
now=$(states)
echo "# made/running/done/stopping/deleted: $now"
bl_check "five jobs: created, running, done, stopping, deleted and draining" \
	test "$now" = "created/running/done/stopping/stopping deleted"

refused() {
	local t0 t1 rc
	t0=$(bl_ms)
	rmmod blkload 2>/dev/null && rc=0 || rc=$?
	t1=$(bl_ms)
	echo "# rmmod: $rc after $((t1 - t0)) ms"
	test "$rc" -ne 0 -a $((t1 - t0)) -lt "$(bl_ms_scaled 2000)" && bl_loaded
}
bl_check "rmmod is refused at once with all five" refused
bl_nl stop "$running"
running_done() {
	test "$(bl_job_state "$running")" = done
}
bl_wait 50 running_done
bl_check "refused again while two still drain" refused
drained() {
	test "$(bl_job_state "$stopping")" = done -a -z "$(bl_job_state "$deleted")"
}
bl_check "the draining ones end: stopped one done, deleted one freed" \
	bl_wait $((300 * BL_SCALE)) drained
echo "# made/running/done/stopping/deleted: $(states)"
bl_check "then rmmod succeeds with jobs made or done still there" rmmod blkload
bl_load
bl_check "reloaded: no job is left" bl_clean
bl_check "the module unloads" rmmod blkload

bl_mark end
ktap_finished
