#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Block size splits (fio's bssplit and bsrange) as the device sees them:
# every bio's size and offset from block_bio_queue. The sizes come in their
# percentages (within 2 points), every offset is aligned to the smallest
# size and inside the region, the bytes reported are the bytes the device
# moved; reads and writes take their own tables; a sequential write covers
# the region with correctly stamped blocks; the io_uring engine issues
# exactly the module's IOs; what cannot work is refused.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 11
bl_mark start
bl_load
bl_trace_require
bl_nullb nr_devices=1 gb=4 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
tmp=$(mktemp -d)
old_kb=$(cat $T/buffer_size_kb)
cleanup() {
	bl_trace_teardown
	echo "$old_kb" >$T/buffer_size_kb
	modprobe -r brd 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
echo 8192 >$T/buffer_size_kb

# "rwbs sector sectors" of every bio "${@:3}" queues on device $2, into $tmp/$1.
bios() {
	local out=$1 dev=$2
	shift 2
	bl_trace_dev "$dev"
	bl_trace_on
	"$@" >"$tmp/$out.json" 2>"$tmp/$out.err" || { sed 's/^/# /' "$tmp/$out.err"; return 1; }
	bl_trace_off
	bl_trace_bios | awk '{ print $2, $3, $4 }' >"$tmp/$out"
	echo "# $out: $(wc -l <"$tmp/$out") bios"
}

# Checks $tmp/$1: N bios, sizes in the given KiB/percent shares, 4k-aligned,
# inside 4 GiB, and the report's bytes equal to the bios'.
shares() {
	python3 - "$tmp/$1" "$tmp/$1.json" "$2" "$3" <<'PY'
import collections, json, sys
rows = [l.split() for l in open(sys.argv[1])]
n = int(sys.argv[3])
want = dict((int(k), float(v)) for k, v in (x.split("/") for x in sys.argv[4].split(":")))
sizes = collections.Counter(int(r[2]) * 512 // 1024 for r in rows)
ok = len(rows) == n
for kib, pct in sorted(want.items()):
    got = 100.0 * sizes[kib] / len(rows)
    print("# %d KiB: %.2f%% (want %.2f%%)" % (kib, got, pct))
    ok &= abs(got - pct) <= 2.0
ok &= set(sizes) <= set(want)
ok &= all(int(r[1]) % 8 == 0 and (int(r[1]) + int(r[2])) * 512 <= 4 << 30 for r in rows)
j = json.load(open(sys.argv[2]))["jobs"][0]
moved = sum(int(r[2]) * 512 for r in rows)
print("# bytes: report %d, bios %d" % (j["read"]["io_bytes"] + j["write"]["io_bytes"], moved))
ok &= j["read"]["io_bytes"] + j["write"]["io_bytes"] == moved
sys.exit(0 if ok else 1)
PY
}

split=4k/50:64k/40:1m/10
bssplit() {
	bios split nullb0 blkload -j run --dev /dev/nullb0 --rw randread --bssplit $split \
		--number_ios 20000 --iodepth 8 --cpus 0 &&
		shares split 20000 4/50:64/40:1024/10
}
bl_check "--bssplit $split: sizes in their shares, 4k-aligned, bytes as the device's" bssplit

bsrange() {
	local want
	want=$(python3 -c 'print(":".join("%d/6.25" % k for k in range(4, 68, 4)))')
	bios range nullb0 blkload -j run --dev /dev/nullb0 --rw randread --bsrange 4k-64k \
		--number_ios 32000 --iodepth 8 --cpus 0-1 &&
		shares range 32000 "$want"
}
bl_check "--bsrange 4k-64k: the 16 multiples of 4k, each ~6.25%" bsrange

directions() {
	# --force: the write guard's probe (test_safe_01) would be traced too.
	bios dirs nullb0 blkload -j run --dev /dev/nullb0 --rw randrw --bssplit 4k/100,64k/100 \
		--number_ios 4000 --iodepth 4 --allow-write --force || return 1
	python3 - "$tmp/dirs" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
bad = [r for r in rows if int(r[2]) != (8 if r[0].startswith("R") else 128)]
print("# %d bios, %d of the wrong size for their direction" % (len(rows), len(bad)))
sys.exit(0 if len(rows) == 4000 and not bad else 1)
PY
}
bl_check "--bssplit READS,WRITES: reads 4k, writes 64k" directions

sequential() {
	local n
	bl_brd 65536 || return 1
	blkload -j run --dev /dev/ram0 --rw write --bssplit $split --number_ios 3000 \
		--iodepth 4 --allow-write >"$tmp/seq.json" || return 1
	blockdev --flushbufs /dev/ram0 2>/dev/null
	n=$(bl_stamped /dev/ram0 | wc -w) || return 1
	echo "# $n of 16384 blocks stamped, each with its own offset"
	# All but what a wrap left short of the end (under the largest size).
	test "$n" -ge $((16384 - 256))
}
bl_check "sequential write with --bssplit: the region written, every stamp its own offset" \
	sequential

# Sizes a direct IO from userspace sends as one bio (a 1 MiB one may go as two).
small=4k/60:16k/30:64k/10
same_ios() {
	bios kern nullb0 blkload -j run --dev /dev/nullb0 --rw randread --bssplit $small \
		--number_ios 20000 --iodepth 8 --cpus 0 &&
		bios uring nullb0 blkload -j run --engine io_uring --dev /dev/nullb0 --rw randread \
			--bssplit $small --number_ios 20000 --iodepth 8 --cpus 0 || return 1
	cmp -s <(awk '{ print $2, $3 }' "$tmp/kern" | sort) \
		<(awk '{ print $2, $3 }' "$tmp/uring" | sort)
}
bl_check "the io_uring engine issues exactly the module's offsets and sizes" same_ios

# JEDEC's JESD219 client workload as fio's example writes it: 512 B to 64 KiB
# sizes, every IO starting at a 4 KiB boundary (blockalign), 50/30/20% of the
# IOs to 5/15/80% of the region (zoned); the module, io_uring (the same bios)
# and real fio: every bio 4k-aligned, 512-byte IOs among them, the zones'
# shares within 2 points.
JESD="--rw=randrw --rwmixread=40 --bssplit=512/4:1024/1:1536/1:2048/1:2560/1:3072/1:3584/1:4k/67:8k/10:16k/7:32k/3:64k/3 --blockalign=4k --random_distribution=zoned:50/5:30/15:20/80 --iodepth=16"
jesd_check() {
	python3 - "$tmp/$1" <<'PY'
import sys
rows = [l.split() for l in open(sys.argv[1])]
region = 4 << 30
zones = [0, 0, 0]
for r in rows:
    b = int(r[1]) * 512
    zones[0 if b < region * 5 // 100 else 1 if b < region * 20 // 100 else 2] += 1
n = len(rows)
small = sum(1 for r in rows if int(r[2]) == 1)
aligned = all(int(r[1]) % 8 == 0 for r in rows)
got = [100.0 * z / n for z in zones]
print("# %d bios, 4k-aligned %s, 512 B %.1f%%, zones %.1f/%.1f/%.1f%%" % (
    n, aligned, 100.0 * small / n, got[0], got[1], got[2]))
sys.exit(0 if n >= 20000 and aligned and small > n * 0.02 and
         all(abs(g - w) <= 2 for g, w in zip(got, (50, 30, 20))) else 1)
PY
}
jesd219() {
	bios jkern nullb0 blkload -j run --dev /dev/nullb0 $JESD --number_ios=20000 --cpus 0 \
		--allow-write && jesd_check jkern || return 1
	bios juring nullb0 blkload -j run --engine io_uring --dev /dev/nullb0 $JESD \
		--number_ios=20000 --cpus 0 --allow-write &&
		cmp -s <(awk '{ print $2, $3 }' "$tmp/jkern" | sort) \
			<(awk '{ print $2, $3 }' "$tmp/juring" | sort) || return 1
	bios jfio nullb0 fio --name=jesd219 --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
		$JESD --number_ios=20000 --norandommap --randrepeat=0 && jesd_check jfio
}
bl_check "JESD219 (fio's example): 4k-aligned starts of 512 B-64 KiB IOs, zones 50/30/20 (module, io_uring alike, real fio)" \
	jesd219

# fio's rw=read:-8k (its backwards-read example) and rw=write:4k: the same
# offsets in the same order as real fio's, one pass of the 1 MiB region
# (256 reads backwards; 128 writes, the pass ending where the offset passes
# the region's end).
# (The write guard's blkid probe reads; only the job's own op is compared.)
holes() {
	local rw op n
	for rw in read:-8k:256 write:4k:128; do
		n=${rw##*:}
		rw=${rw%:*}
		op=${rw:0:1}
		op=${op^^}
		bios "h$rw" nullb0 blkload -j run --dev /dev/nullb0 --rw=$rw --bs=4k --size=1m \
			--cpus 0 --allow-write || return 1
		bios "f$rw" nullb0 fio --name=h --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
			--rw=$rw --bs=4k --size=1m || return 1
		awk -v op=$op '$1 ~ op { print $2, $3 }' "$tmp/h$rw" >"$tmp/h$op"
		awk -v op=$op '$1 ~ op { print $2, $3 }' "$tmp/f$rw" >"$tmp/f$op"
		echo "# $rw: blkload $(cut -d' ' -f1 "$tmp/h$op" | head -4 | xargs), fio $(cut -d' ' -f1 "$tmp/f$op" | head -4 | xargs)"
		test "$(wc -l <"$tmp/h$op")" = $n && cmp -s "$tmp/h$op" "$tmp/f$op" || return 1
	done
}
bl_check "rw=read:-8k and rw=write:4k: fio's offsets in fio's order, fio's count (256, 128)" holes

# fio's zonemode=strided (its disk-zone-profile example, smaller): 256k of
# each 1 MiB (zonesize 256k, zoneskip 768k), 4 MiB of IO in all: sequential
# reads at fio's offsets in fio's order (zones past size, as fio's move on
# to the device's end), random ones 4 to a zone, inside it, as fio's.
strided() {
	local rw
	for rw in read randread; do
		bios "z$rw" nullb0 blkload -j run --dev /dev/nullb0 --rw=$rw --bs=64k --size=4m \
			--zonemode=strided --zonesize=256k --zoneskip=768k --cpus 0 || return 1
		bios "f$rw" nullb0 fio --name=z --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
			--rw=$rw --bs=64k --size=4m --zonemode=strided --zonesize=256k \
			--zoneskip=768k || return 1
	done
	awk '$1 ~ /R/ { print $2, $3 }' "$tmp/zread" >"$tmp/zR"
	awk '$1 ~ /R/ { print $2, $3 }' "$tmp/fread" >"$tmp/fR"
	echo "# read: blkload $(cut -d' ' -f1 "$tmp/zR" | sed -n '1p;5p;9p' | xargs), fio $(cut -d' ' -f1 "$tmp/fR" | sed -n '1p;5p;9p' | xargs)"
	test "$(wc -l <"$tmp/zR")" = 64 && cmp -s "$tmp/zR" "$tmp/fR" || return 1
	python3 - "$tmp/zrandread" "$tmp/frandread" <<'PY'
import collections, sys
def zones(path):
    c = collections.Counter()
    for line in open(path):
        op, sector, n = line.split()[:3]
        if "R" not in op:
            continue
        off = int(sector) * 512
        z = off >> 20
        if off - (z << 20) + int(n) * 512 > 256 << 10:
            return None
        c[z] += 1
    return c
b, f = zones(sys.argv[1]), zones(sys.argv[2])
print("# randread per 1 MiB zone: blkload %s, fio %s" % (b and sorted(b.items())[:4], f and sorted(f.items())[:4]))
sys.exit(0 if b and b == f and set(b.values()) == {4} and len(b) == 16 else 1)
PY
}
bl_check "zonemode=strided: fio's sequential offsets and order, its random zones (64 IOs of 64k, 256k a MiB)" \
	strided

# fio's split of sizes that are not multiples of the smallest (4k/50:6k/50):
# fio rounds 6k down to 4k (all 4k reads), and so does blkload; with
# bs_unaligned both issue 4 and 6 KiB halves, every start 4k-aligned (fio's
# default blockalign, the smallest size).
odd_split() {
	local f u
	for u in "" --bs_unaligned; do
		bios "okern$u" nullb0 blkload -j run --dev /dev/nullb0 --rw randread \
			--bssplit 4k/50:6k/50 --number_ios 20000 --iodepth 8 --cpus 0 $u || return 1
		bios "ofio$u" nullb0 fio --name=o --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
			--rw=randread --bssplit=4k/50:6k/50 --number_ios=20000 --iodepth=8 \
			--norandommap --randrepeat=0 $u || return 1
		for f in "okern$u" "ofio$u"; do
			python3 - "$tmp/$f" "${u:+50}" <<'PY' || return 1
import collections, sys
rows = [l.split() for l in open(sys.argv[1]) if 'R' in l.split()[0]]
sizes = collections.Counter(int(r[2]) for r in rows)
n = len(rows)
want = float(sys.argv[2] or 100)
print("# %s: %d reads, 4k %.1f%% 6k %.1f%%, 4k-aligned %s" % (sys.argv[1].split('/')[-1], n,
      100.0 * sizes[8] / n, 100.0 * sizes[12] / n, all(int(r[1]) % 8 == 0 for r in rows)))
sys.exit(0 if n == 20000 and set(sizes) <= {8, 12} and abs(100.0 * sizes[8] / n - want) < 2 and
         all(int(r[1]) % 8 == 0 for r in rows) else 1)
PY
		done
	done
}
bl_check "bssplit=4k/50:6k/50: rounded to 4k as fio does; with bs_unaligned 4k/6k halves at 4k-aligned starts, as fio" \
	odd_split

# fio's pass is the region's bytes; blkload's the IOs of the split's mean size (8k here).
split_pass() {
	blkload -j run --dev /dev/nullb0 --rw randread --bssplit 4k/50:12k/50 --size 4m |
		bl_json "d['jobs'][0]['read']['total_ios'] == 512" \
			"abs(d['jobs'][0]['read']['io_bytes'] - (4 << 20)) < 512 << 10" &&
		bl_refused 'does not fit the region' blkload run --dev /dev/nullb0 \
			--bssplit 4k/50:1m/50 --size 512k --number_ios 10
}
bl_check "without runtime or number_ios: one pass of the split's mean size; larger than the region: refused" split_pass
bl_check "nothing left" bl_clean
ktap_finished
