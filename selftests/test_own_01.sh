#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A job belongs to the netlink socket that made it: kill -9 of the CLI removes
# its jobs within a second; a detached job outlives its CLI and stops on
# request; rmmod is refused while a job runs and unloads once it is stopped.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 8
bl_mark start
bl_unload
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=2000000

blkload run --dev /dev/nullb0 --rw randread --iodepth 8 --cpus 0-1 --time_based --runtime 60 >/dev/null &
pid=$!
running_one() {
	bl_has_jobs 1 && blkload -j list | grep -q '"state":"running"'
}
bl_check "the CLI's job is running" bl_wait 50 running_one
# The job's end drops its hold on the module: polled with builtins every
# 20 ms, since one CLI call (or one exec of sleep) takes a second or more on
# the debug kernel and would be what this measures.
tmp=$(mktemp -d)
mkfifo "$tmp/never"
exec {never}<>"$tmp/never"
unheld() {
	local i
	for ((i = 0; i < $1 / 20; i++)); do
		[[ $(</sys/module/blkload/refcnt) == 0 ]] && return 0
		read -rt 0.02 -u "$never" || :
	done
	return 1
}
t0=$(bl_ms)
kill -9 $pid
wait $pid 2>/dev/null
unheld 10000
t1=$(bl_ms)
exec {never}>&-
rm -rf "$tmp"
echo "# jobs gone $((t1 - t0)) ms after kill -9"
bl_check "kill -9: its jobs are gone within $(bl_ms_scaled 1000) ms" \
	test $((t1 - t0)) -le "$(bl_ms_scaled 1000)" -a "$(bl_njobs)" = 0

id=$(blkload -j start --dev /dev/nullb0 --rw randread --iodepth 4 --time_based --runtime 60 | bl_started_id)
bl_check "start made job '$id'" test -n "$id"
sleep 1
bl_check "a detached job survives its CLI" test "$(bl_job_state "$id")" = running
bl_check "rmmod is refused while it runs" bash -c '! rmmod blkload 2>/dev/null'
bl_check "and stops on request" blkload stop "$id"
bl_check "nothing left" bl_clean
bl_check "then the module unloads" rmmod blkload

bl_mark end
ktap_finished
