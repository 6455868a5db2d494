#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Control never waits for IO: on a device that takes 6 s per read (dm-delay),
# stop and delete answer at once; generic netlink as a whole is not held up
# while a stop drains and a family registers (modprobe fou); a deleted job
# that still drains is listed as deleted and freed when drained; start
# refuses a job that was stopped; twelve stop+delete cycles against 1 s
# completions leave nothing behind (the double-unlink reproduction).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 dmsetup blockdev genl

ktap_print_header
ktap_set_plan 12
bl_mark start
bl_unload
bl_load
bl_nullb nr_devices=2 gb=1 irqmode=0 memory_backed=0
modprobe dm-delay || ktap_exit_fail_msg "no dm-delay"
# 6 s per read, longer on a debug kernel where the control steps around it
# take seconds themselves: the IO must still be out when the state is read.
delay=$(bl_ms_scaled 6000)
echo "0 $(blockdev --getsz /dev/nullb0) delay /dev/nullb0 0 $delay" |
	dmsetup create bl_slow --noudevsync || ktap_exit_fail_msg "dmsetup create failed"
trap 'dmsetup remove --noudevsync bl_slow 2>/dev/null' EXIT
slow=/dev/mapper/bl_slow
[[ -b $slow ]] || slow=/dev/$(dmsetup info -c --noheadings -o blkdevname bl_slow)

id=$(blkload -j start --dev "$slow" --rw randread --iodepth 4 --time_based --runtime 60 | bl_started_id)
sleep 1
# The request's own round trip (blnl.py --time), not the client's start:
# under emulation a Python start alone can take a second.
t0=$(bl_ms)
ms=$(bl_nl stop --time "$id")
t1=$(bl_ms)
echo "# job-stop answered in ${ms:-?} ms"
bl_check "job-stop answers at once while 4 IOs of $((delay / 1000)) s are out" \
	test "${ms:-99999}" -lt "$(bl_ms_scaled 1000)"
state=$(bl_job_state "$id")
echo "# state $((t1 - t0 + 1000)) ms into the IO: $state"
bl_check "the job is stopping meanwhile" test "$state" = stopping

# A CLI waiting for that drain, a family registering, and a genl dump.
blkload stop --drain-timeout 20000 "$id" >/dev/null 2>&1 &
spid=$!
sleep 0.3
modprobe fou 2>/dev/null &
mpid=$!
t0=$(bl_ms)
genl ctrl list >/dev/null
t1=$(bl_ms)
wait $mpid
echo "# genl ctrl list took $((t1 - t0)) ms during the drain"
bl_check "genl ctrl list is not held up by the drain (was 55 s)" \
	test $((t1 - t0)) -lt "$(bl_ms_scaled 2000)"
bl_check "the waiting CLI returns once the IO drained" wait $spid
modprobe -r fou 2>/dev/null

id=$(blkload -j start --dev "$slow" --rw randread --iodepth 2 --time_based --runtime 60 | bl_started_id)
sleep 1
ms=$(bl_nl del --time "$id")
bl_check "job-del answers at once (${ms:-?} ms); the job is listed stopping and deleted" \
	test "${ms:-99999}" -lt "$(bl_ms_scaled 1000)" -a "$(bl_job_state "$id")" = "stopping deleted"
bl_check "and freed once drained" bl_wait $((60 * BL_SCALE)) bl_has_jobs 0

restart() {
	local id out
	id=$(blkload -j start --dev /dev/nullb1 --rw randread --time_based --runtime 60 | bl_started_id)
	bl_nl stop "$id" || return 1
	out=$(bl_nl start "$id") && return 1
	echo "# $out"
	grep -q "errno 114: job already started, stopped or deleted" <<<"$out" &&
		blkload stop "$id" >/dev/null
}
bl_check "start refuses a stopped job (EALREADY)" restart

made_then_stopped() {
	local id out
	id=$(bl_nl new /dev/nullb1 --detached) || return 1
	bl_nl stop "$id" || return 1
	test "$(bl_job_state "$id")" = done || return 1
	out=$(bl_nl start "$id") && return 1
	echo "# $out"
	bl_nl del "$id" && bl_has_jobs 0
}
bl_check "a job stopped before its start is done and cannot start" made_then_stopped

twice() {
	local id out
	id=$(bl_nl new /dev/nullb1 --detached) || return 1
	out=$(bl_nl start "$id" "$id") && return 1
	echo "# $out"
	grep -q "errno 22: a job is named twice" <<<"$out" &&
		test "$(bl_job_state "$id")" = created && bl_nl del "$id" && bl_has_jobs 0
}
bl_check "job-start naming one job twice is refused" twice

# A done job gives back the device (its write claim) and its slots.
released() {
	local id mem
	id=$(blkload -j start --dev /dev/nullb1 --rw write --allow-write --iodepth 64 \
		--number_ios 1000 | bl_started_id) || return 1
	bl_wait 50 bash -c "blkload -j list | grep -q '\"job_id\":$id,.*\"state\":\"done\"'" ||
		return 1
	mem=$(bl_info mem_used)
	# Its queues' statistics (about 60 KiB each), not 64 slots of 4 KiB.
	echo "# a done job pins $mem bytes"
	blkload run --dev /dev/nullb1 --rw write --allow-write --number_ios 10 >/dev/null &&
		test "$mem" -lt $(($(nproc) * 98304)) && blkload stop "$id" >/dev/null
}
bl_check "a done job keeps its statistics, not its device or slots" released

# The double-unlink reproduction: a stop that does not wait, then a delete,
# while the IO completes.
dmsetup remove --noudevsync bl_slow || ktap_exit_fail_msg "bl_slow stays"
modprobe -r null_blk || ktap_exit_fail_msg "null_blk stays loaded"
modprobe null_blk nr_devices=1 gb=1 irqmode=2 completion_nsec=1000000000 ||
	ktap_exit_fail_msg "null_blk with 1 s completions"
bl_no_timeout nullb0
cycles() {
	local i id
	for i in $(seq 12); do
		id=$(blkload -j start --dev /dev/nullb0 --rw randread --iodepth 2 --time_based --runtime 60 |
			bl_started_id) || return 1
		sleep 0.$((RANDOM % 9 + 1))
		blkload stop --drain-timeout 0 "$id" >/dev/null 2>&1
	done
	bl_wait $((100 * BL_SCALE)) bl_has_jobs 0
}
bl_check "12 stop+delete cycles against 1 s completions: all freed" cycles
nothing_left() {
	bl_clean && test "$(bl_info nr_workers)" = 0
}
bl_check "nothing left: no job, no pinned memory, refcount 0, no worker" nothing_left

bl_mark end
ktap_finished
