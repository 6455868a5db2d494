#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rate limits: --rate_iops holds its target within 5% (the device's own
# counters agree), spread over the job's queues; linear pacing is smooth
# (per-interval counts hardly vary) and poisson pacing varies as a Poisson
# process does (variance about the mean); on a device slower than the rate,
# the latency from each IO's scheduled time carries the queueing the
# submission latency does not; the userspace engines pace the same way.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 9
bl_mark start
bl_load
bl_nullb nr_devices=2 gb=1 irqmode=0 memory_backed=0
for d in nullb0 nullb1; do echo none >/sys/block/$d/queue/scheduler; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

reads() {
	awk '{ print $1 }' "/sys/block/$1/stat"
}

# The per-sample read counts of a report: their mean and variance/mean.
dispersion() {
	python3 -c '
import json, statistics, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
c = [s["read"]["ios"] for s in j["time_series"]["samples"][1:-1]]
m = statistics.mean(c)
print("%.1f %.3f %d" % (m, statistics.pvariance(c) / m, len(c)))' "$1"
}

# The per-interval counts: 50 ms intervals (100 reads each), longer on a
# debug kernel, whose timer jitter of a few ms moves reads between short
# intervals (var/mean 0.39 at 50 ms there); as many intervals either way.
iv=$((50 * BL_SCALE))
rt=$((4 * BL_SCALE))

linear() {
	local r0 r1 d
	r0=$(reads nullb0)
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 8 --cpus 0-1 --rate_iops 2000 \
		--time_based --runtime "$rt" --sample-interval "${iv}ms" >"$tmp/l.json" || return 1
	r1=$(reads nullb0)
	d=$(dispersion "$tmp/l.json")
	echo "# linear 2000/s: device reads $((r1 - r0)); per $iv ms: mean, var/mean, n = $d"
	bl_json 'abs(d["jobs"][0]["read"]["iops"] - 2000) <= 100' \
		"d['jobs'][0]['read']['total_ios'] == $((r1 - r0))" \
		'd["jobs"][0]["rate_iops"] == 2000' \
		'd["jobs"][0]["read"]["sched_lat_ns"]["N"] == d["jobs"][0]["read"]["total_ios"]' \
		<"$tmp/l.json" &&
		python3 -c 'import sys; m, v, n, iv = sys.argv[1:]; e = 2 * int(iv); sys.exit(0 if abs(float(m) - e) <= e / 10 and int(n) >= 60 and float(v) < 0.3 else 1)' $d "$iv"
}
bl_check "--rate_iops 2000 on 2 CPUs: within 5%, as the device counts, smooth (var/mean < 0.3)" \
	linear

poisson() {
	local d
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 8 --cpus 0-1 --rate_iops 2000 \
		--rate_process poisson --time_based --runtime "$rt" --sample-interval "${iv}ms" >"$tmp/p.json" || return 1
	d=$(dispersion "$tmp/p.json")
	echo "# poisson 2000/s: per $iv ms: mean, var/mean, n = $d"
	bl_json 'abs(d["jobs"][0]["read"]["iops"] - 2000) <= 100' \
		'd["jobs"][0]["rate_process"] == "poisson"' <"$tmp/p.json" &&
		python3 -c 'import sys; m, v, n, iv = sys.argv[1:]; e = 2 * int(iv); sys.exit(0 if abs(float(m) - e) <= e / 10 and int(n) >= 60 and 0.6 <= float(v) <= 1.6 else 1)' $d "$iv"
}
bl_check "--rate_process poisson: within 5%, counts vary as a Poisson process (var/mean 0.6-1.6)" \
	poisson

# 2 ms a read at iodepth 1 is 500 reads a second: a 1000/s schedule falls behind.
behind() {
	bl_nullb nr_devices=2 gb=1 irqmode=2 completion_nsec=2000000 memory_backed=0 || return 1
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 1 --rate_iops 1000 --time_based --runtime 2 \
		>"$tmp/b.json" || return 1
	python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
print("# behind: %.0f IOPS, lat mean %.0f us, sched lat mean %.0f us" % (
    r["iops"], r["lat_ns"]["mean"] / 1e3, r["sched_lat_ns"]["mean"] / 1e3))
sys.exit(0 if r["iops"] < 600 and r["sched_lat_ns"]["mean"] > 5 * r["lat_ns"]["mean"] else 1)' \
		"$tmp/b.json"
}
bl_check "a device slower than the rate: IOPS the device's, scheduled latency > 5x lat (queueing)" \
	behind

# Its limit reached with IO in flight and slots free: the worker sleeps
# until a completion (it spun on the past due time before).
idle_at_limit() {
	bl_nullb nr_devices=2 gb=1 irqmode=2 completion_nsec=500000000 memory_backed=0 ||
		return 1
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 8 --rate_iops 1000 \
		--number_ios 4 --cpus 0 >"$tmp/i.json" || return 1
	python3 -c '
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
print("# 4 IOs of 500 ms at 1000/s: worker CPU %.1f ms, ctx %d" % (j["cpu_ns"] / 1e6, j["ctx"]))
sys.exit(0 if j["read"]["total_ios"] == 4 and j["cpu_ns"] < 100e6 else 1)' "$tmp/i.json"
}
bl_check "at its limit with IO in flight, a rate-limited worker sleeps (CPU < 100 ms in 500 ms)" \
	idle_at_limit

bl_nullb nr_devices=2 gb=1 irqmode=0 memory_backed=0
# A batch larger than what is due: the plug is finished every time.
batched() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 8 --iodepth_batch_submit 4 \
		--rate_iops 2000 --time_based --runtime 2 | bl_json 'abs(d["jobs"][0]["read"]["iops"] - 2000) <= 100'
}
bl_check "--rate_iops with --iodepth_batch_submit 4: within 5%" batched

# The debug lane's emulated kernel cannot carry an engine's thread to 1000
# IOs a second (839 seen): the rate there is a quarter, held to the same 5%.
engines() {
	local e rate=$((1000 / BL_SCALE))
	for e in io_uring libaio; do
		blkload -j run --engine $e --dev /dev/nullb1 --rw randread --iodepth 8 \
			--rate_iops $rate --time_based --runtime 3 >"$tmp/e.json" || return 1
		python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))["jobs"][0]["read"]
rate = int(sys.argv[3])
print("# %s: %.0f IOPS of %d, sched lat N %d" % (sys.argv[2], r["iops"], rate, r["sched_lat_ns"]["N"]))
sys.exit(0 if abs(r["iops"] - rate) <= rate / 20 and r["sched_lat_ns"]["N"] == r["total_ios"] else 1)' \
			"$tmp/e.json" $e $rate || return 1
	done
}
bl_check "io_uring and libaio engines: --rate_iops within 5% (1000; 250 on the debug kernel)" engines

rate_refused() {
	bl_refused 'below one IO a second per CPU queue' blkload run --dev /dev/nullb0 \
		--rate_iops 1 --cpus 0-1 --time_based --runtime 1 &&
		bl_refused 'without rate-iops' blkload run --dev /dev/nullb0 \
			--rate_process poisson --time_based --runtime 1 &&
		bl_refused 'below one IO a second per CPU queue' blkload run --engine io_uring \
			--dev /dev/nullb0 --rate_iops 1 --cpus 0-1 --time_based --runtime 1
}
bl_check "rate_iops below one per queue, rate_process without a rate: refused" rate_refused
bl_check "a bad --rate_process is refused by the CLI" \
	bash -c "! blkload run --dev /dev/nullb0 --rate_iops 10 --rate_process burst 2>/dev/null"
bl_check "nothing left" bl_clean
ktap_finished
