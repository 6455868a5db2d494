#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Access distributions as the device sees them: the offsets of every bio
# (block_bio_queue) of a zipf or pareto run, ranked by hits, give the table
# fio-genzipf prints for the same parameter and block count, within 2
# percentage points; real fio with the same random_distribution on the same
# device agrees; the io_uring engine issues exactly the module's offsets; a
# sequential pattern with a distribution is refused. fio's zoned: each zone's
# share of the bios within 1 point of its percent, none past the zones, for
# the module, the io_uring engine and real fio alike.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 fio fio-genzipf

ktap_print_header
ktap_set_plan 9
bl_mark start
bl_load
bl_trace_require
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
tmp=$(mktemp -d)
old_kb=$(cat $T/buffer_size_kb)
cleanup() {
	bl_trace_teardown
	echo "$old_kb" >$T/buffer_size_kb
	rm -rf "$tmp"
}
trap cleanup EXIT
echo 16384 >$T/buffer_size_kb
bl_trace_dev nullb0

# 1 GiB in 16 KiB blocks: 65536, and as many IOs, as fio-genzipf counts.
N=65536
# The sectors of the bios "$@" queues on nullb0, one per line, into $tmp/$1;
# there must be $BIOS of them ($N by default).
sectors() {
	local out=$1
	shift
	bl_trace_on
	"$@" >"$tmp/$out.log" 2>&1 || { sed 's/^/# /' "$tmp/$out.log"; return 1; }
	bl_trace_off
	bl_trace_bios | awk '{ print $3 }' >"$tmp/$out"
	echo "# $out: $(wc -l <"$tmp/$out") bios traced"
	test "$(wc -l <"$tmp/$out")" = "${BIOS:-$N}"
}

# fio-genzipf's "Sum %" of the top 10, 20, 50% rows for $1 $2, against the
# same ranking of the traced sectors in $tmp/$3.
shares() {
	fio-genzipf -t "$1" -i "$2" -g 1 -b 16384 -o 10 >"$tmp/genzipf" 2>&1 || return 1
	python3 - "$tmp/genzipf" "$tmp/$3" "$1:$2" <<'PY'
import collections, re, sys
ref = {}
for line in open(sys.argv[1]):
    m = re.match(r'\s*(?:Top|\|->)\s+([\d.]+)%\s+([\d.]+)%\s+([\d.]+)%', line)
    if m:
        ref[round(float(m.group(1)))] = float(m.group(3))
hits = collections.Counter(int(x) * 512 // 16384 for x in open(sys.argv[2]))
total = sum(hits.values())
h = sorted(hits.values(), reverse=True)
step = (len(h) - 1) // 10 + 1
ok = True
for r in (10, 20, 50):
    got = 100.0 * sum(h[:r // 10 * step]) / total
    print("# %s top %d%%: %.2f%% of hits, fio-genzipf %.2f%%" % (sys.argv[3], r, got, ref[r]))
    ok &= abs(got - ref[r]) <= 2.0
sys.exit(0 if ok else 1)
PY
}

run_dist() {
	blkload run --dev /dev/nullb0 --rw randread --bs 16k --number_ios $N --iodepth 8 \
		--cpus 0 --random_distribution "$@"
}

zipf() {
	sectors zipf run_dist zipf:1.2 && shares zipf 1.2 zipf
}
bl_check "zipf:1.2: the device's hits per block match fio-genzipf's table within 2 pp" zipf

pareto() {
	sectors pareto run_dist pareto:0.3 && shares pareto 0.3 pareto
}
bl_check "pareto:0.3: the device's hits per block match fio-genzipf's table within 2 pp" pareto

fio_zipf() {
	sectors fio fio --name=z --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
		--rw=randread --bs=16k --number_ios=$N --size=1g --iodepth=8 \
		--random_distribution=zipf:1.2 --norandommap --randrepeat=0 &&
		shares zipf 1.2 fio
}
if ((BL_SCALE > 1)); then
	# It checks the test, not the kernel: the 6.1 lane runs it.
	ktap_test_skip "real fio zipf:1.2 gives the same table (debug lane: the 6.1 lane checks the test)"
else
	bl_check "real fio zipf:1.2 on the same device gives the same table (the test measures alike)" \
		fio_zipf
fi

same_offsets() {
	sectors uring blkload run --engine io_uring --dev /dev/nullb0 --rw randread --bs 16k \
		--number_ios $N --iodepth 8 --cpus 0 --random_distribution zipf:1.2 || return 1
	sort -n "$tmp/zipf" >"$tmp/a"
	sort -n "$tmp/uring" >"$tmp/b"
	cmp -s "$tmp/a" "$tmp/b"
}
bl_check "the io_uring engine issues exactly the module's zipf offsets" same_offsets

# The share of the traced bios in $tmp/$1 in each zone ending at the 16 KiB
# block in $2 (comma separated), against the percents in $3; none past.
zone_shares() {
	python3 - "$tmp/$1" "$2" "$3" <<'PY'
import sys
ends = [int(x) * 16384 for x in sys.argv[2].split(',')]
want = [float(x) for x in sys.argv[3].split(',')]
hits = [0] * (len(ends) + 1)
for line in open(sys.argv[1]):
    b = int(line) * 512
    hits[next((i for i, e in enumerate(ends) if b < e), len(ends))] += 1
n = sum(hits)
got = [100.0 * h / n for h in hits]
print('# %s: %s%% of %d bios, past the zones %d' % (sys.argv[1].split('/')[-1],
      ' '.join('%.2f' % g for g in got[:-1]), n, hits[-1]))
sys.exit(0 if hits[-1] == 0 and all(abs(g - w) <= 1.0 for g, w in zip(got, want)) else 1)
PY
}

# fio's HOWTO example with sizes adding up to 60: 60% of the IOs to the first
# 10% of the region, 30% to the next 20%, 10% to the next 30%, none after;
# the zones of 65536 blocks as fio rounds them: 6553, 13107 and 19660.
Z=zoned:60/10:30/20:10/30
zoned() {
	sectors zkern run_dist $Z && zone_shares zkern 6553,19660,39320 60,30,10 &&
		sectors zuring blkload run --engine io_uring --dev /dev/nullb0 --rw randread \
			--bs 16k --number_ios $N --iodepth 8 --cpus 0 --random_distribution $Z &&
		cmp -s <(sort -n "$tmp/zkern") <(sort -n "$tmp/zuring") &&
		sectors zfio fio --name=z --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
			--rw=randread --bs=16k --number_ios=$N --size=1g --iodepth=8 \
			--random_distribution=$Z --norandommap --randrepeat=0 &&
		zone_shares zfio 6553,19660,39320 60,30,10
}
bl_check "zoned $Z: the module's bios in the zones' shares within 1 point, none past; io_uring the same offsets; real fio the same shares" zoned

zoned_abs() {
	sectors zabs run_dist zoned_abs:70/64m:30/192m && zone_shares zabs 4096,16384 70,30
}
bl_check "zoned_abs:70/64m:30/192m: 70% of the bios in the first 64 MiB, 30% in the next 192, none past" \
	zoned_abs

# fio's random map (its default): one randread pass of 65536 blocks on two
# queues visits each block once, as real fio's does; the io_uring engine the
# same blocks; --norandommap draws uniformly (about 1 - 1/e distinct).
distinct() {
	sort -u "$tmp/$1" | wc -l
}
random_map() {
	local d
	sectors rmap blkload run --dev /dev/nullb0 --rw randread --bs 16k --iodepth 8 \
		--cpus 0-1 && d=$(distinct rmap) && echo "# module: $d distinct blocks" &&
		test "$d" = $N || return 1
	# Part of a pass: the blocks of one order (another order picks others).
	BIOS=20000 sectors rpart blkload run --dev /dev/nullb0 --rw randread --bs 16k --iodepth 8 \
		--cpus 0-1 --number_ios 20000 && test "$(distinct rpart)" = 20000 || return 1
	BIOS=20000 sectors rpartu blkload run --engine io_uring --dev /dev/nullb0 --rw randread --bs 16k \
		--iodepth 8 --cpus 0-1 --number_ios 20000 &&
		cmp -s <(sort -n "$tmp/rpart") <(sort -n "$tmp/rpartu") || return 1
	sectors rnomap blkload run --dev /dev/nullb0 --rw randread --bs 16k --iodepth 8 \
		--cpus 0-1 --norandommap && d=$(distinct rnomap) &&
		echo "# norandommap: $d distinct blocks" && ((d < N * 7 / 10)) || return 1
	sectors rfio fio --name=m --filename=/dev/nullb0 --ioengine=libaio --direct=1 \
		--rw=randread --bs=16k --size=1g --iodepth=8 &&
		d=$(distinct rfio) && echo "# fio: $d distinct blocks" && test "$d" = $N
}
bl_check "random map: a randread pass visits each of 65536 blocks once (module, io_uring, real fio); norandommap repeats" \
	random_map

bl_check "a sequential pattern with a distribution: refused" \
	bl_refused "for random patterns" blkload run --dev /dev/nullb0 --rw read \
	--random_distribution zipf:1.2 --number_ios 10
bl_check "nothing left" bl_clean
ktap_finished
