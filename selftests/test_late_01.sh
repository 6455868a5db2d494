#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A completion that runs late against the module's text: past its wakeup,
# bl_end_io() holds nothing (no reference, no RCU read side), so its job
# may end, be freed and the module be unloaded while it is still on its way
# out. One in interrupt or softirq context is inside the grace period the
# run's end waits for (by reading: on PREEMPT_RT too, whose bottom halves
# and forced-threaded handlers hold the RCU read side); one in a task is
# not: a kworker's, on any kernel (dm-crypt's reads, krbd's messenger),
# which may also be preempted there. The module's
# late_end_io_ms test knob makes the next completion off its worker spin in
# the module's text past its wakeup; dm-crypt over null_blk, its kcryptd
# kworkers pinned to CPU 1, completes the job's one read there in a task
# while the job runs on CPU 0. The job ends, the CLI exits and rmmod runs
# while that completion spins: unload must wait until it has returned
# (synchronize_rcu_tasks() at exit), else it returns into freed text (an
# Oops: the guest log fails the run).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload dmsetup blockdev rmmod
if [[ $(cat /sys/devices/system/cpu/cpu1/online 2>/dev/null) != 1 ]]; then
	ktap_skip_all "no CPU 1 online: the completion must run beside the job's worker on CPU 0"
	exit "$BL_SKIP"
fi
wqmask=/sys/devices/virtual/workqueue/cpumask
if [[ ! -w $wqmask ]]; then
	ktap_skip_all "no $wqmask: dm-crypt's kcryptd kworkers cannot be pinned"
	exit "$BL_SKIP"
fi
# A SKIP, not a failure of the test, on a kernel without dm-crypt (a lane
# other than main fails its skips: check.sh).
if ! modprobe dm-crypt 2>/dev/null && [[ ! -d /sys/module/dm_crypt ]]; then
	ktap_skip_all "no dm-crypt in this kernel: no kworker completion to make late"
	exit "$BL_SKIP"
fi

bl_load
if ! grep -qw late_end_io /sys/module/blkload/parameters/features; then
	ktap_skip_all "no Tasks RCU or no preempt count here: late_end_io_ms does not spin"
	exit "$BL_SKIP"
fi
ktap_print_header
ktap_set_plan 4
bl_mark start
knob=/sys/module/blkload/parameters/late_end_io_ms
oldmask=$(cat $wqmask)
crypt=
cleanup() {
	[[ -e $knob ]] && echo 0 >$knob
	echo "$oldmask" >$wqmask
	[[ -n $crypt ]] && dmsetup remove --noudevsync "$crypt"
}
trap cleanup EXIT
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
# Set before the target is made: its kcryptd workqueue is unbound. This pins
# blkload's own done work to CPU 1 too: the spin lets it run there by
# cond_resched() (bl_end_io_late(), on a kernel with Tasks RCU; without it
# the run could only end once the spin has).
echo 2 >$wqmask || ktap_exit_fail_msg "cannot pin unbound kworkers to CPU 1"
sectors=$(blockdev --getsz /dev/nullb0)
key=000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f
echo "0 $sectors crypt aes-xts-plain64 $key 0 /dev/nullb0 0" | dmsetup create bl_late --noudevsync ||
	ktap_exit_fail_msg "dmsetup create (dm-crypt) failed"
crypt=bl_late
dev=/dev/mapper/bl_late
[[ -b $dev ]] || dev=/dev/$(dmsetup info -c --noheadings -o blkdevname bl_late)

# The kernel log since this test's start mark.
since() { dmesg | awk '/blkload selftest: test_late_01.sh: start/ { b = "" } { b = b $0 "\n" } END { printf "%s", b }'; }
# Which of the knob's lines and the unload's two lines (its start and its
# end) are logged, in order.
order() { since | grep -oE 'late completion: (spinning|returns)|blkload: unload(ing|ed)' | awk '{ print $NF }' | paste -sd,; }
# Long enough for the CLI's exit and rmmod under emulation (more on a debug kernel).
ms=$((4000 * BL_SCALE))
((ms > 10000)) && ms=10000

echo "$ms" >$knob || ktap_exit_fail_msg "cannot set late_end_io_ms"
t0=$(bl_ms)
out=$(blkload -j run --dev "$dev" --rw randread --number_ios 1 --iodepth 1 --cpus 0)
rc=$?
t1=$(bl_ms)
seen_run=$(order)
# rmmod at once: refused (in use) only until the run's done work let go.
unload() { rmmod blkload 2>/dev/null; }
bl_wait $((30 * BL_SCALE)) unload
t2=$(bl_ms)
seen=$(order)
since | grep "late completion" | sed "s/^/# /"
echo "# run: exit $rc after $((t1 - t0)) ms, logged then: $seen_run; rmmod done $((t2 - t1)) ms later, logged: $seen"
ran() {
	[[ $rc == 0 && $seen_run == spinning ]] && since | grep -q "CPU 1, task" &&
		bl_json "d['jobs'][0]['read']['total_ios'] == 1" <<<"$out"
}
bl_check "a kworker completion (dm-crypt) on CPU 1: the one-read run ended and its CLI exited while it still spun past its wakeup" ran
gone() { ! grep -q '^blkload ' /proc/modules; }
bl_check "rmmod succeeded" gone
# Unloading began while it still spun (else this proves nothing) and ended
# after it returned.
bl_check "unload began while the late completion spun and waited for it: it returned before the module was freed" \
	test "$seen" = "spinning,unloading,returns,unloaded"
bl_load
bl_check "loaded again, nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
