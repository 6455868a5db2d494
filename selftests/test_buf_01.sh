#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# What writes carry (include/blkload/fill.h), read back from a RAM disk:
# random data by default, each sector stamped, incompressible (gzip); with
# buffer_compress_percentage the data gzips to that much less (within 5
# points); with dedupe_percentage that share of the blocks are one block's
# copies and the rest all differ; zero_buffers writes zeros; the module and
# the io_uring engine write the same bytes for one seed; what contradicts
# itself is refused with the module's reason (and the engines').
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 gzip

ktap_print_header
ktap_set_plan 10
bl_mark start
bl_load
# 32 MiB of RAM disk; every test writes all of it, sequentially.
bl_brd 32768
dev=/dev/ram0
tmp=$(mktemp -d)
trap 'modprobe -r brd 2>/dev/null; rm -rf "$tmp"' EXIT

# Writes the whole device at bs $1 with "${@:2}" (blkload run options), seed 11.
fill() {
	local bs=$1
	shift
	blkload -j run --dev $dev --rw write --bs "$bs" --iodepth 4 --allow-write --cpus 0 \
		--randseed 11 "$@" >"$tmp/run.json" 2>"$tmp/run.err" ||
		{ sed 's/^/# /' "$tmp/run.err"; return 1; }
	bl_json <"$tmp/run.json" 'd["jobs"][0]["write"]["io_bytes"] == 32 << 20'
}

# Percent that gzip saves on the device's contents.
saved() {
	local z
	z=$(gzip -c <$dev | wc -c)
	echo $(((100 * ((32 << 20) - z) + (16 << 20)) / (32 << 20)))
}

# Random by default: gzip saves (almost) nothing, and every block is stamped.
# At 4k, eight blocks fit gzip's 32 KiB window: blocks that started at one
# place in the pool would compress.
random_data() {
	local s n
	fill 4k || return 1
	s=$(saved)
	n=$(bl_stamped $dev | wc -w)
	echo "# default: gzip saves $s%; $n of 8192 blocks stamped"
	((s <= 5 && n == 8192))
}
bl_check "default: random data, gzip saves <= 5%, every 4k block stamped" random_data

# buffer_compress_percentage P: gzip saves P% within 5 points.
compress() {
	local p s ok=0 pcts="25 50 80"
	# The debug lane keeps its time for the kernel: one ratio there.
	((BL_SCALE > 1)) && pcts=50
	for p in $pcts; do
		fill 64k --buffer_compress_percentage "$p" || return 1
		s=$(saved)
		echo "# buffer_compress_percentage=$p: gzip saves $s%"
		((s >= p - 5 && s <= p + 5)) || ok=1
	done
	return $ok
}
bl_check "buffer_compress_percentage 25/50/80: gzip saves that much, within 5 points" compress

# dedupe_percentage 40 at bs 4k: the most common block is 40% of them
# (within 3 points) and every other block is unique.
dedupe() {
	blkload -j run --dev $dev --rw write --bs 4k --iodepth 8 --allow-write --cpus 0 \
		--randseed 11 --dedupe_percentage 40 >"$tmp/run.json" 2>"$tmp/run.err" ||
		{ sed 's/^/# /' "$tmp/run.err"; return 1; }
	python3 - $dev <<'PY'
import collections, hashlib, sys
data = open(sys.argv[1], 'rb').read()
c = collections.Counter(hashlib.sha1(data[o:o + 4096]).digest() for o in range(0, len(data), 4096))
(top, n), = c.most_common(1)
others = sum(1 for k, v in c.items() if k != top and v > 1)
share = 100.0 * n / 8192
print("# dedupe_percentage=40: %d of 8192 blocks alike (%.2f%%); %d other blocks repeat" % (n, share, others))
sys.exit(0 if abs(share - 40) <= 3 and others == 0 else 1)
PY
}
bl_check "dedupe_percentage 40: 40% of the blocks are copies of one (within 3 points), the rest unique" dedupe

# zero_buffers: over random data, zeros.
zeros() {
	dd if=/dev/urandom of=$dev bs=1M count=32 oflag=direct status=none || return 1
	fill 64k --zero_buffers || return 1
	cmp -s -n $((32 << 20)) $dev /dev/zero
}
bl_check "zero_buffers: the device reads back as zeros" zeros

# zero_buffers in randrw: reads share the slots, writes still carry zeros.
# Over random data, every block is either untouched or all zeros.
zeros_mixed() {
	dd if=/dev/urandom of=$dev bs=1M count=32 oflag=direct status=none || return 1
	dd if=$dev of="$tmp/orig" bs=1M iflag=direct status=none || return 1
	blkload -j run --dev $dev --rw randrw --bs 4k --iodepth 8 --allow-write --cpus 0 \
		--number_ios 6000 --zero_buffers >"$tmp/run.json" 2>"$tmp/run.err" ||
		{ sed 's/^/# /' "$tmp/run.err"; return 1; }
	python3 - $dev "$tmp/orig" <<'PY'
import sys
a = open(sys.argv[1], 'rb').read()
b = open(sys.argv[2], 'rb').read()
zero, bad = bytes(4096), 0
written = 0
for o in range(0, len(a), 4096):
    if a[o:o + 4096] != b[o:o + 4096]:
        written += 1
        bad += a[o:o + 4096] != zero
print("# randrw zero_buffers: %d blocks written, %d of them not zeros" % (written, bad))
sys.exit(0 if written > 1000 and bad == 0 else 1)
PY
}
bl_check "zero_buffers in randrw: every block written is zeros, though reads share the buffers" zeros_mixed

# One seed, the same bytes: the module, then io_uring over random data.
same() {
	local a b
	fill 64k --buffer_compress_percentage 30 --dedupe_percentage 10 || return 1
	a=$(sha256sum <$dev)
	dd if=/dev/urandom of=$dev bs=1M count=32 oflag=direct status=none || return 1
	fill 64k --buffer_compress_percentage 30 --dedupe_percentage 10 --engine io_uring || return 1
	b=$(sha256sum <$dev)
	echo "# module ${a:0:16}, io_uring ${b:0:16}"
	[[ $a == "$b" ]]
}
bl_check "one seed: the module and io_uring write the same 32 MiB, byte for byte" same

# fio's dedupe_mode=working_set (dedupe_working_set_percentage 10: the
# region's first 819 blocks): the 40% of copies are spread over the set,
# each a copy of a set block written as a unique write (the copies dedupe
# against the blocks written there), so 40% of the blocks are redundant
# (within 3 points), no content is more than 1% of them, and every
# repeated content is a set block's (99%); the module and io_uring write the same bytes. Real fio on
# the same device, for comparison (its share printed, converging as its
# documentation says). dedupe_global: two jobs on the two halves, the
# second's copies are the first's set blocks.
working_set() {
	local a b
	fill 4k --dedupe_percentage 40 --dedupe_mode working_set \
		--dedupe_working_set_percentage 10 || return 1
	a=$(sha256sum <$dev)
	python3 - $dev 0 819 <<'PY' || return 1
import collections, hashlib, sys
data = open(sys.argv[1], 'rb').read()
lo, n = int(sys.argv[2]), int(sys.argv[3])
h = [hashlib.sha1(data[o:o + 4096]).digest() for o in range(0, len(data), 4096)]
c = collections.Counter(h)
redundant = len(h) - len(c)
rep = [k for k, v in c.items() if v > 1]
inset = set(h[lo:lo + n])
share = 100.0 * redundant / len(h)
top = 100.0 * c.most_common(1)[0][1] / len(h)
found = 100.0 * sum(1 for k in rep if k in inset) / max(len(rep), 1)
print("# working set: %.1f%% of the blocks redundant, top content %.2f%%, %d repeated contents, %.1f%% of them in the set" % (share, top, len(rep), found))
sys.exit(0 if 37 <= share <= 43 and top < 1 and len(rep) <= n and found >= 99 else 1)
PY
	dd if=/dev/urandom of=$dev bs=1M count=32 oflag=direct status=none || return 1
	fill 4k --dedupe_percentage 40 --dedupe_mode working_set \
		--dedupe_working_set_percentage 10 --engine io_uring || return 1
	b=$(sha256sum <$dev)
	echo "# module ${a:0:16}, io_uring ${b:0:16}"
	[[ $a == "$b" ]] || return 1
	fio --name=f --filename=$dev --rw=write --bs=4k --direct=1 --ioengine=libaio \
		--iodepth=4 --dedupe_percentage=40 --dedupe_mode=working_set \
		--dedupe_working_set_percentage=10 --size=32m --output-format=json >/dev/null || return 1
	python3 - $dev <<'PY'
import collections, hashlib, sys
data = open(sys.argv[1], 'rb').read()
h = [hashlib.sha1(data[o:o + 4096]).digest() for o in range(0, len(data), 4096)]
print("# fio, the same options: %.1f%% of the blocks redundant" % (100.0 * (len(h) - len(set(h))) / len(h)))
PY
	blkload -j run --allow-write --randseed 11 --rw write --bs 4k --dedupe_percentage 40 \
		--dedupe_mode working_set --dedupe_working_set_percentage 10 --dedupe_global \
		--name a --dev $dev --size 16m --name b --dev $dev --offset 16m --size 16m \
		>"$tmp/run.json" 2>"$tmp/run.err" || { sed 's/^/# /' "$tmp/run.err"; return 1; }
	python3 - $dev <<'PY'
import hashlib, sys
data = open(sys.argv[1], 'rb').read()
h = [hashlib.sha1(data[o:o + 4096]).digest() for o in range(0, len(data), 4096)]
aset = set(h[:409])
second = h[4096:]
hits = sum(1 for k in second if k in aset)
print("# dedupe_global: %d of the second job's 4096 blocks are the first job's set blocks" % hits)
sys.exit(0 if 0.40 * 4096 * 0.5 <= hits <= 0.40 * 4096 * 1.1 else 1)
PY
}
bl_check "dedupe_mode=working_set: ~40% redundant over the set's blocks, module = io_uring; dedupe_global shares the set" \
	working_set

# The same with a 1k unit (dedupe units smaller than a page, IOs of many
# units) in random writes over zeros.
same_split() {
	local a b e
	for e in kernel io_uring; do
		dd if=/dev/zero of=$dev bs=1M count=32 oflag=direct status=none || return 1
		blkload -j run --engine $e --dev $dev --rw randwrite --bssplit 1k/40:8k/30:64k/30 \
			--iodepth 1 --allow-write --cpus 0 --randseed 3 --number_ios 3000 \
			--dedupe_percentage 30 >"$tmp/run.json" 2>"$tmp/run.err" ||
			{ sed 's/^/# /' "$tmp/run.err"; return 1; }
		b=$(sha256sum <$dev)
		echo "# $e: ${b:0:16}"
		[[ $e == kernel ]] && a=$b
	done
	[[ $a == "$b" && $a != "$(head -c $((32 << 20)) /dev/zero | sha256sum)" ]]
}
bl_check "bssplit 1k/8k/64k with dedupe 30%: the module and io_uring write the same bytes" same_split

refusals() {
	bl_refused "zero-buffers writes zeros" blkload run --dev $dev --rw write --allow-write \
		--zero_buffers --buffer_compress_percentage 50 --number_ios 1 &&
		bl_refused "zero-buffers writes zeros" blkload run --dev $dev --rw write \
			--allow-write --zero_buffers --dedupe_percentage 5 --number_ios 1 &&
		bl_refused "zero-buffers writes zeros" blkload run --engine io_uring --dev $dev \
			--rw write --allow-write --zero_buffers --dedupe_percentage 5 --number_ios 1
}
bl_check "zero_buffers with compress or dedupe: refused, with the module's reason, and by io_uring" refusals

bl_check "nothing left of blkload" bl_clean
bl_mark end
ktap_finished
