#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Rate limits: --rate_iops holds its target within 5% (the device's own
# counters agree), spread over the job's queues; linear pacing is smooth
# (per-interval counts hardly vary) and poisson pacing varies as a Poisson
# process does (variance about the mean); on a device slower than the rate,
# the latency from each IO's scheduled time carries the queueing the
# submission latency does not; the userspace engines pace the same way.
# fio's rate in bytes, beside real fio: a rate of no whole number of IOs a
# second (1250k of 4k reads: 312.5 reads a second) and a mix with
# a rate each way; fio's rate_min ends a job below it with fio's error, as
# fio ends it; fio's exitall and exit_what, on fio's own exitwhat.fio.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 12
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
		bl_refused 'without a rate' blkload run --dev /dev/nullb0 \
			--rate_process poisson --time_based --runtime 1 &&
		bl_refused 'below one IO a second per CPU queue' blkload run --engine io_uring \
			--dev /dev/nullb0 --rate_iops 1 --cpus 0-1 --time_based --runtime 1
}
bl_check "rate_iops below one per queue, rate_process without a rate: refused" rate_refused
bl_check "a bad --rate_process is refused by the CLI" \
	bash -c "! blkload run --dev /dev/nullb0 --rate_iops 10 --rate_process burst 2>/dev/null"
# fio's rate=1250k of 4k reads is 312.5 a second; 256k each way of a 50/50
# mix, 64 reads and 64 writes a second. blkload (module, io_uring) and fio
# on the same device, each within 5% of the rate it was given. fio paces
# each direction apart, so its split is exact; blkload paces the job's one
# stream at the sum and draws each IO's direction by rwmixread, so its split
# is a binomial draw: the sum within 5%, the reads' share within 4 standard
# deviations of half.
bytes_rate() {
	local e
	for e in kernel io_uring; do
		blkload -j run --engine $e --dev /dev/nullb0 --rw randread --rate 1250k --time_based \
			--runtime 4 >"$tmp/r-$e.json" || return 1
	done
	blkload -j run --dev /dev/nullb1 --rw randrw --rate 256k --allow-write --time_based \
		--runtime 4 >"$tmp/m.json" || return 1
	fio --name=f --filename=/dev/nullb0 --direct=1 --ioengine=libaio --rw=randread \
		--rate=1250k --time_based --runtime=4 --output-format=json >"$tmp/rf.json" || return 1
	fio --name=f --filename=/dev/nullb1 --direct=1 --ioengine=libaio --rw=randrw \
		--rate=256k --time_based --runtime=4 --output-format=json >"$tmp/mf.json" || return 1
	python3 -c '
import json, sys
t = sys.argv[1]
def job(f):
    return json.load(open(t + "/" + f))["jobs"][0]
ok = True
for f, d, want in (("r-kernel.json", "read", 312.5), ("r-io_uring.json", "read", 312.5),
                   ("rf.json", "read", 312.5), ("mf.json", "read", 64), ("mf.json", "write", 64)):
    got = job(f)[d]["iops"]
    print("# %s %s: %.1f IOPS (rate %.1f)" % (f, d, got, want))
    ok &= abs(got - want) <= want / 20
m = job("m.json")
r, w = m["read"]["total_ios"], m["write"]["total_ios"]
print("# m.json: %.1f IOPS in all (rate 128), %d reads of %d" % (
    m["read"]["iops"] + m["write"]["iops"], r, r + w))
ok &= abs(m["read"]["iops"] + m["write"]["iops"] - 128) <= 128 / 20
ok &= abs(r - (r + w) / 2) <= 4 * ((r + w) / 4) ** 0.5
ok &= job("r-kernel.json").get("rate_bps") == 1280000
ok &= job("m.json").get("rate_iops") == 128
sys.exit(0 if ok else 1)' "$tmp" || return 1
	# Under one IO a second (fio's 1mbs_clients rate=1250: bytes), time based:
	# the job's time is its runtime, idle or not, as fio's (it was its last IO's).
	blkload -j run --dev /dev/nullb0 --rw read --rate 1250 --time_based --runtime 3 |
		bl_json 'abs(d["jobs"][0]["job_runtime"] - 3000) <= 300' \
			'd["jobs"][0]["read"]["iops"] < 1'
}
bl_check "fio's rate in bytes: 312.5 IOPS (1250k of 4k) and 64+64 (256k each way) within 5%, as real fio" \
	bytes_rate

# 2 ms a read at iodepth 1 is 2 MB/s of 4k reads: fio's rate_min of 4 MB/s
# ends the job after its two seconds of settling and a cycle, with fio's
# error (EIO), on the module and on an engine; real fio ends the same job
# the same way. (fio refuses a minimum above the job's rate: so does blkload.)
rate_min() {
	local e t0
	bl_refused "minimum rate exceeds the rate" blkload run --dev /dev/nullb0 --rate 1m \
		--ratemin 2m --time_based --runtime 1 || return 1
	# Above its minimum on two queues (each paced at 1m, its share 512k): runs to its end.
	blkload -j run --dev /dev/nullb0 --rw randread --cpus 0-1 --rate 2m --ratemin 1m \
		--time_based --runtime 4 | bl_json 'd["jobs"][0]["done_reason"] == "runtime"' \
		'd["jobs"][0]["error"] == 0' || return 1
	bl_nullb nr_devices=2 gb=1 irqmode=2 completion_nsec=2000000 memory_backed=0 || return 1
	for e in kernel io_uring; do
		if blkload -j run --engine $e --dev /dev/nullb0 --rw randread --ratemin 4m \
			--time_based --runtime 30 >"$tmp/n.json" 2>"$tmp/n.err"; then
			echo "# $e: a job below its rate_min succeeded"
			return 1
		fi
		sed 's/^/# /' "$tmp/n.err"
		grep -q "rate_min=4194304B/s not met" "$tmp/n.err" &&
			bl_json 'd["jobs"][0]["error"] == 5' 'd["jobs"][0]["done_reason"] == "rate-min"' \
				'd["jobs"][0]["elapsed"] <= 10' <"$tmp/n.json" || return 1
	done
	t0=$SECONDS
	if fio --name=f --filename=/dev/nullb0 --direct=1 --ioengine=libaio --rw=randread \
		--ratemin=4m --time_based --runtime=30 --output-format=json >"$tmp/nf.json" \
		2>"$tmp/nf.err"; then
		echo "# fio: a job below its rate_min succeeded"
		return 1
	fi
	# fio 3.33 ends its run there, without a report: its message and its time.
	sed 's/^/# fio: /' "$tmp/nf.err"
	grep -q "rate_min=4194304B/s not met" "$tmp/nf.err" && ((SECONDS - t0 <= 10)) &&
		bl_nullb nr_devices=2 gb=1 irqmode=0 memory_backed=0
}
bl_check "fio's rate_min: a job below it ends with EIO within 10 s (module, io_uring, real fio)" rate_min

# fio's exitwhat.fio: slow1's end stops every job of its wave
# (exit_what=stonewall), slow2's every job (exit_what=all): the fast copies
# at 300 B/s each way, which would run for hours, end with them. Run as
# shipped (the device given on the command line), and without
# group_reporting beside real fio on the same file (the device swapped in):
# the same jobs ran (fio 3.33 runs runsnever too: it is in slow2's wave,
# whatever the file's comment says), slow1 and slow2 did their 1000 IOs.
exitall() {
	local f=/usr/share/doc/fio/examples/exitwhat.fio
	[[ -f $f ]] || { echo "# $f: missing (fio-examples)"; return 1; }
	(cd "$tmp" && timeout 300 blkload -j run --allow-write --filename=/dev/nullb1 "$f") \
		>"$tmp/x.json" || return 1
	sed '/^group_reporting/d' "$f" >"$tmp/x2.fio"
	sed -e 's|^filename=.*|filename=/dev/nullb1|' "$tmp/x2.fio" >"$tmp/xf.fio"
	(cd "$tmp" && timeout 300 blkload -j run --allow-write --filename=/dev/nullb1 x2.fio) \
		>"$tmp/x2.json" || return 1
	(cd "$tmp" && timeout 300 fio --output-format=json xf.fio) >"$tmp/xf.json" || return 1
	python3 -c '
import json, sys
t = sys.argv[1]
jobs = json.load(open(t + "/x2.json"))["jobs"]
fio = json.load(open(t + "/xf.json"))["jobs"]
names = [j["jobname"] for j in jobs]
print("# blkload: %s" % " ".join("%s:%s" % (j["jobname"], j["done_reason"]) for j in jobs))
print("# fio:     %s" % " ".join(j["jobname"] for j in fio))
by = {j["jobname"]: j for j in jobs}
ok = sorted(names) == sorted(j["jobname"] for j in fio)
ok &= by["slow1"]["read"]["total_ios"] == 1000 and by["slow2"]["write"]["total_ios"] == 1000
ok &= all(j["done_reason"] == "stopped" for j in jobs if not j["jobname"].startswith("slow"))
ok &= len(json.load(open(t + "/x.json"))["jobs"]) >= 1
sys.exit(0 if ok else 1)' "$tmp" || return 1
	# The module: a job that ends stops its group (exit_what's default), not
	# another group; with exit_what=all, no later wave runs.
	blkload -j run --exitall --name=a --dev /dev/nullb0 --number_ios 2000 \
		--name=b --dev /dev/nullb0 --time_based --runtime 120 \
		--name=c --new_group --dev /dev/nullb1 --time_based --runtime 4 >"$tmp/k.json" || return 1
	bl_json 'd["jobs"][1]["done_reason"] == "stopped"' 'd["jobs"][1]["elapsed"] < 60' \
		'd["jobs"][0]["read"]["total_ios"] == 2000' \
		'd["jobs"][2]["done_reason"] == "runtime"' <"$tmp/k.json" || return 1
	blkload -j run --exitall --name=a --dev /dev/nullb0 --number_ios 100 --exit_what=all \
		--name=b --stonewall --dev /dev/nullb0 --number_ios 100 >"$tmp/k2.json" || return 1
	bl_json 'len(d["jobs"]) == 1' 'd["jobs"][0]["jobname"] == "a"' <"$tmp/k2.json"
}
bl_check "fio's exitall/exit_what: exitwhat.fio as shipped (engines), and on the module" exitall
bl_check "nothing left" bl_clean

ktap_finished
