#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What blkload writes is where it says: every written 512-byte sector starts
# with a magic and its own byte offset, read back with dd. Sequential streams
# cover disjoint sub-regions; random offsets are aligned, inside the region,
# and spread over it; the same seed writes the same blocks.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 dd

ktap_print_header
ktap_set_plan 5
bl_mark start
bl_load
modprobe -r brd 2>/dev/null
modprobe brd rd_nr=2 rd_size=8192	# two 8 MiB disks
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Prints "written-block-indexes" of a dump (blocks of $2 bytes) and checks
# every sector header names its own offset plus $3.
scan() {
	python3 - "$1" "$2" "${3:-0}" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
bs, base = int(sys.argv[2]), int(sys.argv[3])
magic = 0x44414f4c4b4c42
written = []
for blk in range(len(data) // bs):
    heads = [struct.unpack_from("<QQ", data, blk * bs + s)
             for s in range(0, bs, 512)]
    if heads[0][0] != magic:
        continue
    for i, (m, off) in enumerate(heads):
        want = base + blk * bs + i * 512
        if m != magic or off != want:
            print("# block %d sector %d: magic %x offset %d, want %d" % (blk, i, m, off, want))
            sys.exit(1)
    written.append(blk)
print(" ".join(map(str, written)))
PY
}

seq_full() {
	blkload run --dev /dev/ram0 --rw write --bs 64k --iodepth 4 --cpus 0-1 --allow-write \
		>/dev/null || return 1
	dd if=/dev/ram0 of="$tmp/d" bs=1M status=none iflag=direct
	w=$(scan "$tmp/d" 65536) || return 1
	test "$(wc -w <<<"$w")" = 128
}
bl_check "sequential write over the whole device: all 128 blocks, every sector's header right" seq_full

bl_brd_reset() { modprobe -r brd && modprobe brd rd_nr=2 rd_size=8192; }

seq_streams() {
	bl_brd_reset
	# 2 CPUs, 16 blocks of 64k from 1 MiB: each stream its half, 5 IOs each.
	blkload run --dev /dev/ram0 --rw write --bs 64k --offset 1m --size 1m --iodepth 1 \
		--cpus 0-1 --number_ios 10 --allow-write >/dev/null || return 1
	dd if=/dev/ram0 of="$tmp/d" bs=1M status=none iflag=direct
	w=$(scan "$tmp/d" 65536) || return 1
	echo "# written blocks: $w"
	test "$w" = "16 17 18 19 20 24 25 26 27 28"
}
bl_check "sequential streams: disjoint halves of the region, in order from each half's start" seq_streams

rand_spread() {
	bl_brd_reset
	blkload run --dev /dev/ram0 --rw randwrite --bs 4k --offset 4m --size 2m --iodepth 8 \
		--number_ios 200 --randseed 7 --allow-write >/dev/null || return 1
	dd if=/dev/ram0 of="$tmp/d" bs=1M status=none iflag=direct
	w=$(scan "$tmp/d" 4096) || return 1
	python3 - "$w" <<'PY'
import sys
b = [int(x) for x in sys.argv[1].split()]
# 200 draws over 512 blocks: ~165 distinct, all within blocks 1024..1535.
assert all(1024 <= x < 1536 for x in b), b
assert 130 < len(b) <= 200, len(b)
# Spread: both quarters at the ends of the region are hit.
assert min(b) < 1024 + 128 and max(b) >= 1536 - 128, (min(b), max(b))
PY
}
bl_check "random offsets: aligned, inside the region, spread over it" rand_spread

same_seed() {
	bl_brd_reset
	for dev in /dev/ram0 /dev/ram1; do
		blkload run --dev "$dev" --rw randwrite --bs 4k --iodepth 16 --cpus 0-1 \
			--number_ios 300 --randseed 1234 --allow-write >/dev/null || return 1
	done
	cmp -s /dev/ram0 /dev/ram1
}
bl_check "same seed, same blocks written (two devices compared)" same_seed

other_seed() {
	blkload run --dev /dev/ram1 --rw randwrite --bs 4k --iodepth 16 --cpus 0-1 \
		--number_ios 300 --randseed 99 --allow-write >/dev/null || return 1
	! cmp -s /dev/ram0 /dev/ram1
}
bl_check "another seed, other blocks" other_seed

bl_mark end
ktap_finished
