#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Polled IO never blocks its own poller. null_blk's poll queues complete a
# request only when polled, and its request timeout (30 s) is the only other
# way out; a polled bio that sleeps for a tag held by polled bios of the
# same worker waits for it. Here: two jobs on one CPU sharing one poll
# queue of 2 tags, and one CPU with an iodepth far above the tags, each run
# to its exact count with no request timed out; a polled job and a plain one
# on one CPU and one device while the queue freezes again and again (a
# scheduler switch: a bio that blocked there would wait for the polled bios
# only its own worker polls), no timeout. --hipri with --preflush (the
# flush request carries no poll cookie), --hipri with bios the device
# must split (a split bio is not polled) and --hipri with trims (sent
# blocking) are refused, saying why, and so is a plain job whose bios go
# blocking on the CPU and device of a polled one, directly or through a
# dm-linear stacked on it.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 9
bl_mark start
bl_load
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# No request timed out since the mark $1 ("timeout error, dev nullb0": the
# block layer's word when null_blk's timeout handler ends a request).
no_timeouts() {
	local t
	t=$(dmesg | awk -v m="$1" 'index($0, m) { on = 1; next } on' |
		grep -i -E 'timeout error|timed out' | head -3)
	[[ -z $t ]] || { sed 's/^/# /' <<<"$t"; return 1; }
}

bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=1 poll_queues=1 hw_queue_depth=2 \
	irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
echo "# nullb0 io_poll $(cat /sys/block/nullb0/queue/io_poll), tags $(cat /sys/block/nullb0/queue/nr_requests)"

shared() {
	local m="blkload-test poll-shared $$"
	echo "$m" >/dev/kmsg
	timeout 240 blkload -j run --dev /dev/nullb0 --rw randread --number_ios 3000 --iodepth 4 \
		--cpus 0 --hipri >"$tmp/a.json" &
	local a=$!
	timeout 240 blkload -j run --dev /dev/nullb0 --rw randread --number_ios 3000 --iodepth 4 \
		--cpus 0 --hipri >"$tmp/b.json"
	local rb=$?
	wait $a
	local ra=$?
	echo "# exits $ra and $rb"
	no_timeouts "$m" || return 1
	bl_json 'd["jobs"][0]["read"]["total_ios"] == 3000' 'd["jobs"][0]["error"] == 0' <"$tmp/a.json" &&
		bl_json 'd["jobs"][0]["read"]["total_ios"] == 3000' 'd["jobs"][0]["error"] == 0' <"$tmp/b.json"
}
bl_check "two polled jobs on one CPU share a 2-tag poll queue: both end, no timeout" shared

deep() {
	local m="blkload-test poll-deep $$"
	echo "$m" >/dev/kmsg
	timeout 240 blkload -j run --dev /dev/nullb0 --rw randread --number_ios 20000 --iodepth 64 \
		--cpus 0-1 --hipri | bl_json 'd["jobs"][0]["read"]["total_ios"] == 20000' &&
		no_timeouts "$m"
}
bl_check "iodepth 64 on 2 CPUs over a 2-tag poll queue: 20000 reads, no timeout" deep

# The queue frozen under a polled job and a plain one on the same worker:
# the plain job's bio refused with nothing of its own in flight must not go
# blocking (it would sleep until the freeze ends, which waits for the polled
# bios this worker no longer polls: null_blk's 30 s timeout).
bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=1 poll_queues=1 irqmode=0 \
	memory_backed=0
modprobe -q mq-deadline 2>/dev/null
sched=$(tr -d '[]' </sys/block/nullb0/queue/scheduler | tr ' ' '\n' | grep -v -x -e none -e '' | head -1)
frozen() {
	local m="blkload-test poll-freeze $$" n=0 a ra rb still=0
	echo "$m" >/dev/kmsg
	timeout 240 blkload -j run --dev /dev/nullb0 --rw randread --iodepth 8 --cpus 0 --hipri \
		--time_based --runtime "$((12 * BL_SCALE))" >"$tmp/p.json" 2>"$tmp/p.err" &
	a=$!
	timeout 240 blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0 \
		--time_based --runtime "$((12 * BL_SCALE))" >"$tmp/q.json" 2>"$tmp/q.err" &
	rb=$!
	bl_wait 100 bl_has_jobs 2
	for _ in 1 2 3 4 5 6; do
		echo "$sched" >/sys/block/nullb0/queue/scheduler && n=$((n + 1))
		sleep 0.2
		echo none >/sys/block/nullb0/queue/scheduler && n=$((n + 1))
		sleep 0.2
	done
	# Every switch came while both jobs ran (12 switches took over 4 s
	# once in CI: the jobs run 12 s, scaled).
	bl_has_jobs 2 && still=1
	wait $a
	ra=$?
	wait $rb
	rb=$?
	echo "# $n scheduler switches ($sched, none), the jobs running to the last: $still; exits $ra and $rb"
	sed 's/^/# polled: /' "$tmp/p.err"
	sed 's/^/# plain: /' "$tmp/q.err"
	((n == 12 && still && ra == 0 && rb == 0)) || return 1
	no_timeouts "$m" || return 1
	bl_json 'd["jobs"][0]["read"]["total_ios"] > 0' 'd["jobs"][0]["error"] == 0' <"$tmp/p.json" &&
		bl_json 'd["jobs"][0]["read"]["total_ios"] > 0' 'd["jobs"][0]["error"] == 0' <"$tmp/q.json"
}
if [[ -n $sched ]]; then
	bl_check "a polled and a plain job on one CPU while the queue freezes 12 times: no timeout" frozen
else
	ktap_test_skip "the queue freezing under a polled job: nullb0 has no scheduler but none"
fi

# A volatile write cache, so that preflush is not stripped.
bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=1 poll_queues=1 irqmode=0 \
	memory_backed=1 cache_size=64
echo "# nullb0 write_cache $(cat /sys/block/nullb0/queue/write_cache)"
bl_check "--hipri with --preflush: refused, saying why" \
	bl_refused "not polled by the kernel" timeout 120 blkload run --dev /dev/nullb0 \
	--rw randwrite --allow-write --hipri --preflush --number_ios 4 --iodepth 1 --cpus 0 --time_based --runtime 20

bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=1 poll_queues=1 irqmode=0 \
	memory_backed=0 max_sectors=8
echo "# nullb0 max_sectors_kb $(cat /sys/block/nullb0/queue/max_sectors_kb)"
bl_check "--hipri with bios the device splits: refused, saying why" \
	bl_refused "a split bio is not polled" timeout 120 blkload run --dev /dev/nullb0 \
	--rw randread --bs 64k --hipri --number_ios 100 --cpus 0 --time_based --runtime 20
# A plain job whose bios go blocking (here: split) next to a polled one on
# the same CPU and device: refused at its start; on another CPU it runs.
clash() {
	local a rc=0
	timeout 120 blkload -j run --dev /dev/nullb0 --rw randread --hipri --cpus 0 \
		--time_based --runtime "$((6 * BL_SCALE))" >"$tmp/h.json" &
	a=$!
	bl_wait 100 bl_has_jobs 1 || rc=1
	bl_refused "a hipri job and one that submits blocking" timeout 60 blkload run \
		--dev /dev/nullb0 --rw randread --bs 64k --number_ios 10 --cpus 0 || rc=1
	timeout 60 blkload -j run --dev /dev/nullb0 --rw randread --bs 64k --number_ios 10 \
		--cpus 1 | bl_json 'd["jobs"][0]["read"]["total_ios"] == 10' || rc=1
	bl_has_jobs 1 || { echo "# the polled job ended before the checks did"; rc=1; }
	wait $a || rc=1
	bl_json 'd["jobs"][0]["read"]["total_ios"] > 0' 'd["jobs"][0]["error"] == 0' <"$tmp/h.json" ||
		rc=1
	return $rc
}
bl_check "a split (blocking) job next to a polled one on its CPU and device: refused; on another CPU: runs" \
	clash
# The same through a stack: a blocking job on a dm-linear over the polled
# job's device sends its bios down to that device's queue (a polled job on
# a dm device polls the queue under it): refused too, on another CPU it runs.
stacked() {
	local a rc=0 dm=blkload-poll-lin p
	modprobe dm-mod 2>/dev/null
	echo "0 $(blockdev --getsz /dev/nullb0) linear /dev/nullb0 0" |
		dmsetup create "$dm" --noudevsync || return 1
	p=/dev/mapper/$dm
	[[ -b $p ]] || p=/dev/$(dmsetup info -c --noheadings -o blkdevname "$dm")
	timeout 120 blkload -j run --dev /dev/nullb0 --rw randread --hipri --cpus 0 \
		--time_based --runtime "$((6 * BL_SCALE))" >"$tmp/h.json" &
	a=$!
	bl_wait 100 bl_has_jobs 1 || rc=1
	bl_refused "a device-mapper/MD device that may sit on it" timeout 60 blkload run \
		--dev "$p" --rw randread --bs 64k --number_ios 10 --cpus 0 || rc=1
	timeout 60 blkload -j run --dev "$p" --rw randread --bs 64k --number_ios 10 \
		--cpus 1 | bl_json 'd["jobs"][0]["read"]["total_ios"] == 10' || rc=1
	bl_has_jobs 1 || { echo "# the polled job ended before the checks did"; rc=1; }
	wait $a || rc=1
	bl_json 'd["jobs"][0]["read"]["total_ios"] > 0' 'd["jobs"][0]["error"] == 0' <"$tmp/h.json" ||
		rc=1
	dmsetup remove --noudevsync "$dm" || rc=1
	return $rc
}
bl_check "a blocking job on a dm-linear over a polled job's device, same CPU: refused; on another CPU: runs" \
	stacked
bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=1 poll_queues=1 irqmode=0 \
	memory_backed=1 discard=1
bl_check "--hipri with reads and trims mixed: refused, saying why" \
	bl_refused "hipri with trims or write-zeroes" timeout 120 blkload run --dev /dev/nullb0 \
	--rw randread --rwmixtrim 30 --allow-write --hipri --number_ios 10 --cpus 0 --time_based --runtime 20
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
