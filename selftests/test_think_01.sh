#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Pacing and repetition, from the bios' own time stamps (block_bio_queue):
# --thinktime stalls a queue after every --thinktime_blocks IOs (groups of
# at most that many bios between gaps of at least the think time), in the
# module and the io_uring engine; --startdelay holds the first bio back and
# is not counted in the job's elapsed time; --loops repeats the IO count
# (the device's own counters say so).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 6
bl_mark start
bl_load
bl_trace_require
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
tmp=$(mktemp -d)
cleanup() {
	bl_trace_teardown
	rm -rf "$tmp"
}
trap cleanup EXIT
bl_trace_dev nullb0

# The time stamps (s) of the bios "$@" queues on nullb0, into $tmp/times.
times() {
	[[ ${keep:-} ]] || bl_trace_on
	"$@" >"$tmp/out.json" 2>"$tmp/out.err" || { sed 's/^/# /' "$tmp/out.err"; return 1; }
	bl_trace_off
	bl_trace_bios | awk '{ print $1 }' >"$tmp/times"
}

# 100 IOs, a 10 ms stall after every 4: at least 24 gaps of 10 ms, and no
# group between them of more than 4 bios.
groups() {
	times "$@" --rw randread --iodepth 4 --number_ios 100 --thinktime 10ms \
		--thinktime_blocks 4 --cpus 0 || return 1
	python3 - "$tmp/times" <<'PY'
import sys
t = [float(x) for x in open(sys.argv[1])]
groups, n = [], 1
for a, b in zip(t, t[1:]):
    if b - a >= 0.0095:
        groups.append(n)
        n = 1
    else:
        n += 1
groups.append(n)
print("# %d bios, %d gaps of 10 ms, group sizes %s" % (len(t), len(groups) - 1,
      sorted(set(groups))))
sys.exit(0 if len(t) == 100 and len(groups) - 1 >= 24 and max(groups) <= 4 else 1)
PY
}
bl_check "--thinktime 10ms --thinktime_blocks 4: groups of <= 4 bios, >= 24 stalls of 10 ms" \
	groups blkload -j run --dev /dev/nullb0
bl_check "the io_uring engine thinks the same way" \
	groups blkload -j run --engine io_uring --dev /dev/nullb0

# The start, marked in the trace itself (one clock), then the first bio.
delay() {
	local t0
	bl_trace_on
	echo blkload-start >$T/trace_marker
	t0=$(awk '/blkload-start/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		sub(":", "", $i); print $i; exit } }' $T/trace)
	keep=1 times blkload -j run --dev /dev/nullb0 --rw randread --number_ios 100 \
		--startdelay 1 || return 1
	python3 - "$t0" "$tmp/times" "$tmp/out.json" <<'PY'
import json, sys
t0 = float(sys.argv[1])
first = float(open(sys.argv[2]).readline())
el = json.load(open(sys.argv[3]))["jobs"][0]["elapsed_ns"]
print("# first bio %.3f s after the command; elapsed %.3f s" % (first - t0, el / 1e9))
sys.exit(0 if first - t0 >= 0.99 and el < 1e9 else 1)
PY
}
bl_check "--startdelay 1: no bio for a second, and the delay not in elapsed" delay

# 257 blocks over 2 queues (129 and 128): each block read exactly 3 times.
loops() {
	local r0 r1
	r0=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	bl_trace_on
	blkload -j run --dev /dev/nullb0 --rw read --size 1028k --loops 3 --cpus 0-1 \
		>"$tmp/l.json" || return 1
	bl_trace_off
	r1=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	echo "# --loops 3 over 257 blocks on 2 queues: $((r1 - r0)) device reads"
	bl_json 'd["jobs"][0]["read"]["total_ios"] == 771' 'd["jobs"][0]["loops"] == 3' \
		<"$tmp/l.json" && test $((r1 - r0)) = 771 &&
		bl_trace_bios | awk '{ print $3 }' | sort -n | uniq -c | awk '$1 != 3 { bad++ } END { print "# blocks not read 3 times:", bad + 0, "of", NR; exit !(NR == 257 && !bad) }'
}
bl_check "--loops 3 on 2 queues: every one of 257 blocks read exactly 3 times" loops

# A rate limit and a think stall: the worker sleeps through the stall.
think_rate() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 1 --rate_iops 100 \
		--thinktime 500ms --thinktime_blocks 5 --number_ios 10 --cpus 0 >"$tmp/tr.json" ||
		return 1
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("# 10 IOs at 100/s with a 500 ms stall after 5: %.2f s, worker CPU %.1f ms" % (
    j["elapsed_ns"] / 1e9, j["cpu_ns"] / 1e6))
sys.exit(0 if j["read"]["total_ios"] == 10 and j["cpu_ns"] < 150e6 else 1)' "$tmp/tr.json"
}
bl_check "--rate_iops with --thinktime: the worker sleeps through the stall (CPU < 150 ms)" \
	think_rate
bl_check "nothing left" bl_clean
ktap_finished
