#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Request flavours and trims: what the bios carry is read back from the
# block layer's own tracepoint (block_bio_queue's rwbs) and the device's own
# counters, and what they did from the device's data. FUA and preflush on a
# null_blk with a volatile cache (without one the block layer strips both),
# the same through io_uring's RWF_DSYNC; trims on a null_blk with discard
# (counted by the device, the region reads back as zeroes); write-zeroes on
# a loop device; polled IO on a null_blk with poll queues, where a polled
# request completes only when polled; each refused, with the module's
# message, where the device cannot take it.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 losetup fio

ktap_print_header
ktap_set_plan 15
bl_mark start
bl_load
tmp=$(mktemp -d)
cfs=/sys/kernel/config/nullb
loopdev=
cleanup() {
	bl_trace_teardown
	[[ -n $loopdev ]] && losetup -d "$loopdev"
	for d in bl_wc bl_trim; do
		[[ -d $cfs/$d ]] && { echo 0 >$cfs/$d/power; rmdir $cfs/$d; }
	done
	rm -rf "$tmp"
}
bl_trace_require
trap cleanup EXIT

modprobe -r null_blk 2>/dev/null
modprobe null_blk nr_devices=0
bl_configfs
# A memory-backed null_blk; "$@": more of its configfs attributes as name=value.
nullb_make() {
	local d=$1 kv
	shift
	mkdir "$cfs/$d" || return 1
	echo 256 >"$cfs/$d/size"
	echo 1 >"$cfs/$d/memory_backed"
	for kv in "$@"; do
		echo "${kv#*=}" >"$cfs/$d/${kv%%=*}" || return 1
	done
	echo 1 >"$cfs/$d/power"
	bl_wait 20 test -b "/dev/$d"
}
nullb_make bl_wc cache_size=64 || ktap_exit_fail_msg "null_blk with a cache"
nullb_make bl_trim discard=1 || ktap_exit_fail_msg "null_blk with discard"
echo "# bl_wc: write_cache $(cat /sys/block/bl_wc/queue/write_cache)," \
	"fua $(cat /sys/block/bl_wc/queue/fua 2>/dev/null)"

# Counts the bios block_bio_queue saw for device $1 whose rwbs matches the
# regex $2, while "${@:3}" runs.
traced() {
	local dev=$1 re=$2 rc
	shift 2
	bl_trace_dev "$dev"
	bl_trace_on
	"$@" >"$tmp/out" 2>&1
	rc=$?
	bl_trace_off
	[[ $rc == 0 ]] || { sed 's/^/# /' "$tmp/out"; echo -1; return; }
	bl_trace_bios | awk -v re="^$re\$" '$2 ~ re { n++ } END { print n + 0 }'
}

fua() {
	local n p
	n=$(traced bl_wc 'WFS' blkload run --dev /dev/bl_wc --rw randwrite --number_ios 500 \
		--iodepth 4 --fua --allow-write)
	p=$(traced bl_wc 'WFS' blkload run --dev /dev/bl_wc --rw randwrite --number_ios 500 \
		--iodepth 4 --allow-write)
	echo "# --fua: $n of 500 write bios carry FUA; without it: $p"
	test "$n" = 500 -a "$p" = 0
}
bl_check "--fua: every write bio carries REQ_FUA (block_bio_queue rwbs WFS), none without" fua

preflush() {
	local n w
	n=$(traced bl_wc 'FWS' blkload run --dev /dev/bl_wc --rw write --number_ios 300 \
		--preflush --allow-write)
	echo "# --preflush: $n of 300 write bios carry PREFLUSH"
	test "$n" = 300
}
bl_check "--preflush: every write bio carries REQ_PREFLUSH (rwbs FWS)" preflush

uring_fua() {
	local n w
	n=$(traced bl_wc 'WFS' blkload run --engine io_uring --dev /dev/bl_wc --rw randwrite \
		--number_ios 400 --iodepth 4 --fua --allow-write)
	echo "# io_uring --fua (RWF_DSYNC): $n of 400 write bios carry FUA"
	test "$n" = 400
}
bl_check "io_uring --fua: RWF_DSYNC writes carry REQ_FUA too" uring_fua

# The first $2 MiB of device $1 read (O_DIRECT, past the page cache) as zeroes.
zeroes() {
	python3 - "$1" "$2" <<'PY'
import mmap, os, sys
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECT)
buf = mmap.mmap(-1, int(sys.argv[2]) << 20)
n = os.readv(fd, [buf])
z = buf[:].count(0)
print('# %d bytes read, %d zero' % (n, z))
sys.exit(0 if n == len(buf) and z == n else 1)
PY
}

# /sys/block/X/stat field 12: discards completed.
discards() {
	awk '{ print $12 }' "/sys/block/$1/stat"
}

trim_zeroes() {
	local d0 d1 n
	blkload run --dev /dev/bl_trim --rw write --bs 64k --size 4M --allow-write >/dev/null ||
		return 1
	n=$(bl_stamped /dev/bl_trim | wc -w)
	d0=$(discards bl_trim)
	blkload -j run --dev /dev/bl_trim --rw trim --bs 64k --size 4M --allow-write \
		>"$tmp/t.json" || return 1
	d1=$(discards bl_trim)
	echo "# $n stamped 4k blocks before; $((d1 - d0)) discards by the device"
	bl_json 'd["jobs"][0]["trim"]["total_ios"] == 64' 'd["jobs"][0]["write"]["total_ios"] == 0' \
		'd["jobs"][0]["trim"]["io_bytes"] == 4 << 20' <"$tmp/t.json" &&
		test "$n" -ge 1024 -a $((d1 - d0)) = 64 && zeroes /dev/bl_trim 4
}
bl_check "--rw trim: 64 trims, 64 device discards, the 4 MiB region reads back as zeroes" \
	trim_zeroes

mix_trim() {
	local d0 d1
	d0=$(discards bl_trim)
	blkload -j run --dev /dev/bl_trim --rw randrw --rwmixtrim 20 --number_ios 5000 \
		--iodepth 8 --cpus 0-1 --allow-write >"$tmp/m.json" || return 1
	d1=$(discards bl_trim)
	echo "# randrw rwmixtrim=20: device discards $((d1 - d0))"
	bl_json 'sum(d["jobs"][0][k]["total_ios"] for k in ("read", "write", "trim")) == 5000' \
		'850 <= d["jobs"][0]["trim"]["total_ios"] <= 1150' \
		"d['jobs'][0]['trim']['total_ios'] == $((d1 - d0))" \
		'1700 <= d["jobs"][0]["read"]["total_ios"] <= 2300' <"$tmp/m.json"
}
bl_check "--rwmixtrim 20 in randrw: ~20% trims, each one a device discard" mix_trim

bl_check "trim on a device without discard: refused, with the module's reason" \
	bl_refused "does not support discard" blkload run --dev /dev/bl_wc --rw randtrim --number_ios 10 \
	--allow-write
bl_check "--fua on a read workload: refused" \
	bl_refused "need writes" blkload run --dev /dev/bl_wc --rw randread --fua
bl_check "--fua on a device without a volatile cache (it would be stripped): refused" \
	bl_refused "no volatile write cache" blkload run --dev /dev/bl_trim --rw write --number_ios 10 --fua \
	--allow-write

# Write-zeroes: a loop device over a tmpfs file (punches holes).
modprobe loop
truncate -s 64M "$tmp/loop.img"
loopdev=$(losetup --find --show "$tmp/loop.img") || ktap_exit_fail_msg "losetup failed"
wzero() {
	local n w
	blkload run --dev "$loopdev" --rw write --bs 64k --size 2M --allow-write >/dev/null ||
		return 1
	sync
	n=$(bl_stamped "$loopdev" | wc -w)
	blkload -j run --dev "$loopdev" --rw write --bs 64k --size 2M --write_zeroes \
		--allow-write >"$tmp/z.json" || return 1
	echo "# $n stamped blocks before write-zeroes"
	bl_json 'd["jobs"][0]["write"]["total_ios"] == 32' 'd["jobs"][0]["req"] == ["write_zeroes"]' \
		<"$tmp/z.json" && test "$n" -ge 512 && zeroes "$loopdev" 2 || return 1
	# The bios themselves: write-zeroes (rwbs N), not writes of zeroed pages.
	n=$(traced "${loopdev#/dev/}" 'N' blkload run --dev "$loopdev" --rw write --bs 64k \
		--size 2M --write_zeroes --allow-write)
	w=$(traced "${loopdev#/dev/}" 'W.*' blkload run --dev "$loopdev" --rw write --bs 64k \
		--size 2M --write_zeroes --allow-write)
	echo "# write-zeroes bios: $n; plain writes: $w"
	test "$n" = 32 -a "$w" = 0
}
bl_check "--write_zeroes on loop: 32 write-zeroes, the 2 MiB region reads back as zeroes" wzero
bl_check "--write_zeroes on a device without it: refused" \
	bl_refused "does not support write-zeroes" blkload run --dev /dev/bl_trim --rw write --number_ios 10 \
	--write_zeroes --allow-write

for d in bl_wc bl_trim; do
	echo 0 >$cfs/$d/power
	rmdir $cfs/$d
done

# Polled IO: null_blk's poll queues complete a request only when polled; its
# other queues here take a second a request, so unpolled IO would not finish.
hipri() {
	local r0 r1
	bl_nullb nr_devices=1 gb=1 queue_mode=2 submit_queues=2 poll_queues=2 irqmode=2 \
		completion_nsec=1000000000 memory_backed=0 || return 1
	bl_no_timeout nullb0
	echo "# nullb0 io_poll $(cat /sys/block/nullb0/queue/io_poll)"
	r0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 20000 --iodepth 16 \
		--cpus 0-1 --hipri --time_based --runtime 30 >"$tmp/h.json" || return 1
	r1=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	echo "# --hipri: $((r1 - r0)) device reads"
	bl_json 'd["jobs"][0]["read"]["total_ios"] == 20000' 'd["jobs"][0]["req"] == ["hipri"]' \
		<"$tmp/h.json" && test $((r1 - r0)) = 20000
}
bl_check "--hipri on null_blk with poll queues: 20000 polled reads complete" hipri
uring_hipri() {
	blkload -j run --engine io_uring --dev /dev/nullb0 --rw randread --number_ios 5000 \
		--iodepth 8 --hipri --time_based --runtime 30 | bl_json 'd["jobs"][0]["read"]["total_ios"] == 5000'
}
bl_check "io_uring --hipri (IOPOLL) on the same device" uring_hipri
nopoll() {
	bl_nullb nr_devices=1 gb=1 poll_queues=0 irqmode=0 memory_backed=0 || return 1
	bl_refused "no poll queues" blkload run --dev /dev/nullb0 --rw randread --number_ios 10 --hipri &&
		bl_refused "has no --hipri" blkload run --engine libaio --dev /dev/nullb0 --rw randread \
			--number_ios 10 --hipri
}
bl_check "--hipri without poll queues, and on libaio: refused" nopoll

# Two tags, 16 IOs wanted: with --nowait the device's refusals are EAGAIN
# errors (kept by continue_on_error); without it the module sends them again.
nowait() {
	bl_nullb nr_devices=1 gb=1 hw_queue_depth=2 irqmode=2 completion_nsec=1000000 \
		memory_backed=0 || return 1
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 2000 --iodepth 16 --nowait \
		--continue_on_error read >"$tmp/n.json" || true
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 2000 --iodepth 16 \
		>"$tmp/n0.json" || return 1
	python3 - "$tmp/n.json" "$tmp/n0.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))["jobs"][0]
b = json.load(open(sys.argv[2]))["jobs"][0]
print("# --nowait: %d errors (error %d) of %d; without: %d errors" % (
    a["read"]["errors"], a["error"], a["read"]["total_ios"], b["read"]["errors"]))
sys.exit(0 if a["read"]["errors"] > 0 and a["error"] == 11 and a["req"] == ["nowait"]
         and b["read"]["errors"] == 0 and b["read"]["total_ios"] == 2000 else 1)
PY
}
bl_check "--nowait: a device out of tags fails IOs with EAGAIN; without it none fail" nowait
modprobe -r null_blk
bl_check "nothing left" bl_clean
ktap_finished
