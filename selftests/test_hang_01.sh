#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A device that does not answer never hangs the CLI or rmmod: on a device
# that takes 15 s per IO (dm-delay; 60 s on the debug kernel, where the checks
# between submission and rmmod alone can take 15 s), stop returns after its drain timeout and says what
# is in flight, rmmod fails at once while that IO is out, and everything is
# freed (and the module unloads) once the device completes it. Ctrl-C on a
# run there returns after the drain timeout, naming what is in flight; a
# second Ctrl-C detaches the job at once and says how to stop it.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 dmsetup blockdev

ktap_print_header
ktap_set_plan 11
bl_mark start
bl_unload
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0
slow=$(bl_delay_dev bl_hang /dev/nullb0 $((15000 * BL_SCALE))) || ktap_exit_fail_msg "dmsetup create failed"
tmp=$(mktemp -d)
trap 'bl_delay_dev_remove bl_hang; rm -rf "$tmp"' EXIT

id=$(blkload -j start --dev "$slow" --rw randread --iodepth 4 --time_based --runtime 60 | bl_started_id)
bl_check "a job started on the slow device (id '$id')" test -n "$id"
sleep 1
t0=$(bl_ms)
out=$(blkload stop --drain-timeout 300 "$id" 2>&1) && rc=0 || rc=$?
t1=$(bl_ms)
echo "$out" | grep blkload: | sed 's/^/# /'
echo "# stop returned $rc after $((t1 - t0)) ms"
bl_check "stop fails after its drain timeout, in under $(bl_ms_scaled 3000) ms" \
	test "$rc" -ne 0 -a $((t1 - t0)) -lt "$(bl_ms_scaled 3000)"
bl_check "and says what is still in flight" \
	grep -q "job $id: 4 IOs still in flight on $slow after 300 ms; the module frees the job" <<<"$out"
bl_check "the job is listed as stopping and deleted" \
	test "$(bl_job_state "$id")" = "stopping deleted"

t0=$(bl_ms)
rmmod blkload 2>/dev/null && rc=0 || rc=$?
t1=$(bl_ms)
echo "# rmmod returned $rc after $((t1 - t0)) ms"
bl_check "rmmod refuses at once while IO is out" \
	test "$rc" -ne 0 -a $((t1 - t0)) -lt "$(bl_ms_scaled 3000)"
# Had it unloaded, the checks below would wait on a module that is gone.
bl_load
bl_check "the job is freed once the device completes" \
	bl_wait $((300 * BL_SCALE)) bl_has_jobs 0
bl_check "then the module unloads" bl_wait 50 rmmod blkload

bl_load
ctrl_c() {
	local pid rc t0 t1
	blkload run --dev "$slow" --iodepth 2 --time_based --runtime 60 --drain-timeout 500 \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	bl_wait 50 bl_has_jobs 1
	sleep 1
	kill -INT $pid
	t0=$(bl_ms)
	wait $pid && rc=0 || rc=$?
	t1=$(bl_ms)
	sed 's/^/# /' "$tmp/err"
	echo "# run exited $rc $((t1 - t0)) ms after Ctrl-C"
	test "$rc" = 1 -a $((t1 - t0)) -lt "$(bl_ms_scaled 3000)" &&
		grep -q "job [0-9]*: 2 IOs still in flight on $slow after 500 ms" "$tmp/err"
}
bl_check "Ctrl-C on a hung device: the run returns after its drain timeout" ctrl_c
bl_check "and the module frees that job once the device answers" \
	bl_wait $((300 * BL_SCALE)) bl_has_jobs 0

ctrl_c_twice() {
	local pid rc t0 t1 id
	blkload run --dev "$slow" --iodepth 2 --time_based --runtime 60 --drain-timeout 60000 \
		>"$tmp/out" 2>"$tmp/err" &
	pid=$!
	bl_wait 50 bl_has_jobs 1
	sleep 1
	kill -INT $pid
	sleep 0.5
	kill -INT $pid
	t0=$(bl_ms)
	wait $pid && rc=0 || rc=$?
	t1=$(bl_ms)
	sed 's/^/# /' "$tmp/err"
	echo "# run exited $rc $((t1 - t0)) ms after the second Ctrl-C"
	id=$(sed -n "s|^blkload: job \([0-9]*\) on $slow detached.*'blkload stop \([0-9]*\)' ends.*|\1|p" \
		"$tmp/err")
	test "$rc" = 1 -a $((t1 - t0)) -lt "$(bl_ms_scaled 2000)" -a -n "$id" &&
		test "$(bl_job_state "$id")" = stopping &&
		blkload -j list | grep -q "\"job_id\":$id,.*\"detached\":true"
}
bl_check "a second Ctrl-C detaches at once, naming the job and how to stop it" ctrl_c_twice
detached_stop() {
	local id
	id=$(blkload -j list | python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
	blkload stop --drain-timeout $((30000 * BL_SCALE)) "$id" >/dev/null && bl_clean
}
bl_check "that job then stops on request, and nothing is left" detached_stop

bl_mark end
ktap_finished
