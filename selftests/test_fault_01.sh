#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Faults: a null_blk powered off under a running job ends the run with the
# error and leaves nothing; fail_make_request on the target fails exactly
# the bios it picks, and with continue_on_error the job counts each of them;
# allocation failures injected at every point of job creation (fail-nth)
# each give a clean error and leave nothing behind. The last two need a
# kernel with fault injection (the debug lane's); elsewhere they skip.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 5
bl_mark start
bl_unload
bl_load
tmp=$(mktemp -d)
cfs=/sys/kernel/config/nullb
trap 'rmdir $cfs/bl_pwr 2>/dev/null; rm -rf "$tmp"' EXIT

# --- null_blk powered off mid-run ----------------------------------------
modprobe -r null_blk 2>/dev/null
modprobe null_blk nr_devices=0
bl_configfs
mkdir $cfs/bl_pwr
echo 1024 >$cfs/bl_pwr/size
echo 2 >$cfs/bl_pwr/irqmode
echo 1000000 >$cfs/bl_pwr/completion_nsec
echo 1 >$cfs/bl_pwr/power
bl_wait 20 test -b /dev/bl_pwr
blkload -j run --dev /dev/bl_pwr --rw randread --iodepth 8 --cpus 0-1 --time_based --runtime 60 \
	>"$tmp/pwr.json" 2>"$tmp/pwr.err" &
pid=$!
sleep 1
echo 0 >$cfs/bl_pwr/power
t0=$(bl_ms)
wait $pid && rc=0 || rc=$?
t1=$(bl_ms)
sed 's/^/# /' "$tmp/pwr.err"
echo "# run exited $rc $((t1 - t0)) ms after the power-off"
bl_check "power-off: the run ends with the error, exit 1, in under $(bl_ms_scaled 5000) ms" \
	bash -c "test $rc = 1 -a $((t1 - t0)) -lt $(bl_ms_scaled 5000) &&
		python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))[\"jobs\"][0]
print(\"# reason\", j[\"done_reason\"], \"error\", j[\"error\"], \"ios\", j[\"read\"][\"total_ios\"])
assert j[\"done_reason\"] == \"error\" and j[\"error\"] == 5 and j[\"read\"][\"total_ios\"] > 0
' '$tmp/pwr.json'"
rmdir $cfs/bl_pwr
bl_check "nothing left after the power-off" bl_clean

# --- fail_make_request: exact errors ---------------------------------------
fmr=/sys/kernel/debug/fail_make_request
if [[ -d $fmr ]]; then
	bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
	exact_errors() {
		local r0 r1
		echo 0 >$fmr/verbose
		echo 100 >$fmr/probability
		echo 10 >$fmr/interval
		echo -1 >$fmr/times
		echo 0 >$fmr/space
		r0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
		echo 1 >/sys/block/nullb0/make-it-fail
		blkload -j run --dev /dev/nullb0 --rw randread --number_ios 1000 --iodepth 4 \
			--continue_on_error io >"$tmp/fmr.json"
		echo 0 >/sys/block/nullb0/make-it-fail
		echo 0 >$fmr/probability
		r1=$(awk '{ print $1 }' /sys/block/nullb0/stat)
		echo "# device completed $((r1 - r0)) reads"
		bl_json "d['jobs'][0]['read']['errors'] == 100" \
			"d['jobs'][0]['read']['total_ios'] == 1000" \
			"d['jobs'][0]['read']['io_bytes'] == 900 * 4096" \
			"d['jobs'][0]['done_reason'] == 'limit'" <"$tmp/fmr.json" &&
			test $((r1 - r0)) = 900
	}
	bl_check "fail_make_request, every 10th bio: 100 errors of 1000 counted, 900 reached the device" \
		exact_errors
else
	ktap_test_skip "fail_make_request: the kernel has no fault injection"
fi

# --- allocation failures during job creation -------------------------------
fs=/sys/kernel/debug/failslab
if [[ -d $fs && -e /proc/thread-self/fail-nth ]]; then
	bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
	for f in $fs /sys/kernel/debug/fail_page_alloc; do
		[[ -d $f ]] || continue
		echo N >$f/ignore-gfp-wait
		echo 0 >$f/verbose
		[[ -e $f/task-filter ]] && echo N >$f/task-filter
	done
	bl_check "fail-nth at every allocation of job creation: clean errors" \
		bl_nl failnth /dev/nullb0 --max 3000
	for f in $fs /sys/kernel/debug/fail_page_alloc; do
		[[ -d $f ]] && echo Y >$f/ignore-gfp-wait
	done
else
	ktap_test_skip "failslab: the kernel has no fault injection"
fi
bl_check "nothing left: no job, no pinned memory, no worker" \
	bash -c "blkload -j info | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d[\"nr_jobs\"] == 0 and d[\"mem_used\"] == 0 and d[\"nr_workers\"] == 0, d'"

bl_mark end
ktap_finished
