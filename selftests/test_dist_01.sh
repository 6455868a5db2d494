#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Access distributions as the device sees them: the offsets of every bio
# (block_bio_queue) of a zipf or pareto run, ranked by hits, give the table
# fio-genzipf prints for the same parameter and block count, within 2
# percentage points; real fio with the same random_distribution on the same
# device agrees; the io_uring engine issues exactly the module's offsets; a
# sequential pattern with a distribution is refused.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 fio fio-genzipf

ktap_print_header
ktap_set_plan 6
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
# The sectors of the bios "$@" queues on nullb0, one per line, into $tmp/$1.
sectors() {
	local out=$1
	shift
	bl_trace_on
	"$@" >"$tmp/$out.log" 2>&1 || { sed 's/^/# /' "$tmp/$out.log"; return 1; }
	bl_trace_off
	bl_trace_bios | awk '{ print $3 }' >"$tmp/$out"
	echo "# $out: $(wc -l <"$tmp/$out") bios traced"
	test "$(wc -l <"$tmp/$out")" = $N
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

bl_check "a sequential pattern with a distribution: refused" \
	bl_refused "for random patterns" blkload run --dev /dev/nullb0 --rw read \
	--random_distribution zipf:1.2 --number_ios 10
bl_check "nothing left" bl_clean
ktap_finished
