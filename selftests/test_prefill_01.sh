#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload prefill: every block of the device is written (read back: each 4k
# block carries blkload's stamp with its own offset), the tail shorter than
# bs too; Ctrl-C stops it with exactly the prefix before --offset written,
# and a resume from there completes the device.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 5
bl_mark start
bl_load
tmp=$(mktemp -d)
cfs=/sys/kernel/config/nullb
cleanup() {
	[[ -d $cfs/bl_pf ]] && { echo 0 >$cfs/bl_pf/power; rmdir $cfs/bl_pf; }
	modprobe -r brd 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

# The device's page cache may hold what a read saw before blkload wrote.
fresh() {
	blockdev --flushbufs "$1" 2>/dev/null
	echo 3 >/proc/sys/vm/drop_caches
}

# 64 MiB + 4 KiB: the last 4 KiB are shorter than --bs 1m.
whole() {
	local n
	bl_brd 65540 || return 1
	blkload -j prefill --dev /dev/ram0 --bs 1m >"$tmp/p.json" 2>"$tmp/p.err" || return 1
	sed 's/^/# /' "$tmp/p.err"
	fresh /dev/ram0
	n=$(bl_stamped /dev/ram0 | wc -w)
	echo "# $n of 16385 blocks stamped"
	bl_json 'd["written"] == 65540 * 1024' 'd["complete"]' 'd["next_offset"] == 65540 * 1024' \
		<"$tmp/p.json" && test "$n" = 16385 &&
		grep -q "prefill: 100%" "$tmp/p.err"
}
bl_check "prefill writes every block, the tail shorter than bs too; progress to 100%" whole

# A slow device (10 ms per write): Ctrl-C after half a second.
bl_configfs
modprobe null_blk nr_devices=0 2>/dev/null
mkdir $cfs/bl_pf
echo 64 >$cfs/bl_pf/size
echo 1 >$cfs/bl_pf/memory_backed
echo 2 >$cfs/bl_pf/irqmode
echo 10000000 >$cfs/bl_pf/completion_nsec
echo 1 >$cfs/bl_pf/power
bl_wait 20 test -b /dev/bl_pf || ktap_exit_fail_msg "null_blk bl_pf"

next=
interrupted() {
	local pid rc blocks
	w0=$(awk '{ print $5 }' /sys/block/bl_pf/stat)
	blkload -j prefill --dev /dev/bl_pf --bs 64k --iodepth 8 >"$tmp/i.json" 2>"$tmp/i.err" &
	pid=$!
	# Once a few hundred writes went (a fixed sleep may be too short under emulation).
	went() {
		test $(($(awk '{ print $5 }' /sys/block/bl_pf/stat) - w0)) -ge 200
	}
	bl_wait $((100 * ${BL_SCALE:-1})) went
	kill -INT $pid
	wait $pid && rc=0 || rc=$?
	sed 's/^/# /' "$tmp/i.err"
	next=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["next_offset"])' <"$tmp/i.json")
	fresh /dev/bl_pf
	blocks=$(bl_stamped /dev/bl_pf)
	echo "# exit $rc, next_offset $next, $(echo "$blocks" | wc -w) blocks stamped"
	# Every block before next_offset; after it at most the last window (8 x 64k).
	test "$rc" = 1 -a "$next" -gt 0 -a "$next" -lt $((64 << 20)) &&
		python3 -c '
import sys
got = [int(x) for x in sys.argv[1].split()]
pre = list(range(0, int(sys.argv[2]), 4096))
sys.exit(0 if got[:len(pre)] == pre and len(got) - len(pre) <= 8 * 16 else 1)' "$blocks" "$next" &&
		grep -q "resume with --offset $next" "$tmp/i.err"
}
bl_check "Ctrl-C: exit 1, every block before next_offset written, the resume offset said" \
	interrupted

resume() {
	local n
	[[ -n $next ]] || return 1
	blkload -j prefill --dev /dev/bl_pf --bs 64k --iodepth 8 --offset "$next" \
		>"$tmp/r.json" 2>/dev/null || return 1
	fresh /dev/bl_pf
	n=$(bl_stamped /dev/bl_pf | wc -w)
	echo "# after the resume: $n of 16384 blocks stamped"
	bl_json "d['offset'] == $next" "d['written'] == (64 << 20) - $next" 'd["complete"]' \
		<"$tmp/r.json" && test "$n" = 16384
}
bl_check "--offset resumes: the rest written, the whole device stamped" resume

bl_check "a missing --dev and a bad --bs are refused" \
	bash -c '! blkload prefill 2>/dev/null && ! blkload prefill --dev /dev/bl_pf --bs x 2>/dev/null'
echo 0 >$cfs/bl_pf/power
rmdir $cfs/bl_pf
bl_check "nothing left" bl_clean
ktap_finished
