#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One worker thread per CPU in use, serving every job on that CPU: eight
# jobs on two CPUs run on two threads, each job keeps its own exact count,
# and the threads go when the last job does. A device with 2 tags does not
# hold up another job on the same worker: its bios are submitted without
# waiting (REQ_NOWAIT), refused ones go again uncounted, and its counts
# still match the device's.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 8
bl_mark start
bl_unload
bl_load
bl_nullb nr_devices=4 gb=1 irqmode=2 completion_nsec=1000000
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args=()
for d in 0 1 2 3; do args+=(--dev "/dev/nullb$d" --dev "/dev/nullb$d"); done
blkload -j run "${args[@]}" --rw randread --iodepth 4 --cpus 0-1 --number_ios 20000 \
	>"$tmp/run.json" &
pid=$!
bl_wait 50 bl_has_jobs 8
sleep 0.5
w=$(bl_info nr_workers) t=$(bl_worker_threads)
echo "# 8 jobs on CPUs 0-1: $w workers, $t blkload/N threads"
bl_check "8 jobs on 2 CPUs run on 2 worker threads" test "$w" = 2 -a "$t" = 2
wait $pid && rc=0 || rc=$?
bl_check "each job did its own 20000 IOs" \
	bl_json "len(d['jobs']) == 8" "all(j['read']['total_ios'] == 20000 for j in d['jobs'])" \
		"d['all_jobs']['read']['total_ios'] == 160000" "$rc == 0" <"$tmp/run.json"
bl_check "no worker left once the jobs are gone" \
	bl_wait 30 bl_no_workers

# One job per CPU, each on its own; counted while both run (a CLI's start
# takes seconds on a debug kernel: a fixed sleep saw one of them).
blkload run --dev /dev/nullb0 --cpus 0 --time_based --runtime $((2 * BL_SCALE)) >/dev/null &
a=$!
blkload run --dev /dev/nullb1 --cpus 1 --time_based --runtime $((2 * BL_SCALE)) >/dev/null &
b=$!
# (A job is counted before its worker is made: waited for together.)
bl_check "a job on CPU 0 and one on CPU 1: 2 workers" \
	bl_wait $((10 * BL_SCALE)) eval 'bl_has_jobs 2 && [[ $(bl_info nr_workers) == 2 ]]'
wait $a $b
bl_check "both ended" bl_wait 50 bl_has_jobs 0

# bl_fast answers at once; bl_tiny has 2 tags and takes 2 ms per IO.
bl_configfs
cfs=/sys/kernel/config/nullb
mkdir $cfs/bl_fast $cfs/bl_tiny
trap 'for d in bl_fast bl_tiny; do echo 0 >$cfs/$d/power; rmdir $cfs/$d; done 2>/dev/null; rm -rf "$tmp"' EXIT
for d in bl_fast bl_tiny; do echo 1024 >$cfs/$d/size; done
echo 0 >$cfs/bl_fast/irqmode
echo 0 >$cfs/bl_fast/memory_backed
echo 2 >$cfs/bl_tiny/irqmode
echo 2000000 >$cfs/bl_tiny/completion_nsec
echo 2 >$cfs/bl_tiny/hw_queue_depth
echo 1 >$cfs/bl_fast/power
echo 1 >$cfs/bl_tiny/power
bl_wait 20 test -b /dev/bl_tiny
bl_no_timeout bl_tiny
iops() {
	python3 -c "import json,sys; d=json.load(open(sys.argv[1]));
print(int([j for j in d['jobs'] if j['device'] == sys.argv[2]][0]['read']['iops']))" "$@"
}
blkload -j run --dev /dev/bl_fast --iodepth 32 --cpus 0 --rw randread --time_based --runtime 3 \
	>"$tmp/alone.json"
r0=$(awk '{ print $1 }' /sys/block/bl_tiny/stat)
blkload -j run --dev /dev/bl_fast --dev /dev/bl_tiny --iodepth 32 --cpus 0 --rw randread \
	--time_based --runtime 3 >"$tmp/both.json"
r1=$(awk '{ print $1 }' /sys/block/bl_tiny/stat)
alone=$(iops "$tmp/alone.json" /dev/bl_fast)
both=$(iops "$tmp/both.json" /dev/bl_fast)
echo "# bl_fast alone $alone IOPS, beside the 2-tag device on the same worker $both IOPS"
bl_check "a 2-tag device beside it keeps a job at >= 40% of its IOPS" \
	test "$both" -ge $((alone * 4 / 10))
tiny() {
	bl_json "print('# bl_tiny', d['jobs'][1]['read']['total_ios'], 'IOs,', $r1 - $r0,
	                'device requests') or True" \
		"d['jobs'][1]['read']['errors'] == 0" "d['jobs'][1]['read']['total_ios'] > 0" \
		"d['jobs'][1]['read']['total_ios'] == $r1 - $r0" <"$tmp/both.json"
}
bl_check "the 2-tag device: no error, its counted IOs are its requests" tiny
bl_check "nothing left" bl_clean

bl_mark end
ktap_finished
