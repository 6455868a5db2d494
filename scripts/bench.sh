#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: blkload against fio on the same devices in one guest run, as
# ratios. A benchmark, not a test: it prints a table and writes JSON; it
# fails only when a tool does not run. Meant for the test guest:
#
#   make bench          (scripts/vm -- scripts/bench.sh)
#
# Devices: null_blk, irqmode=0 (inline completion), memory_backed=0,
# scheduler none; 4k randread.
#  - fio libaio, fio io_uring (fixedbufs, registerfiles) and blkload on CPU 0
#    at iodepth 1, 32, 128;
#  - scaling: blkload at iodepth 32 on 2 CPUs against 1 CPU;
#  - many devices: 128 null_blk devices, one job each, on 2 CPUs (2 worker
#    threads in all) against one device on the same 2 CPUs, iodepth 4;
#  - the cost of per-IO latency accounting (--gtod_reduce).
# Every blkload point of the last three is run BENCH_REPEAT times (default
# 5), interleaved, and its median used: single runs under emulation swing
# by 1.5x. BENCH_RUNTIME (seconds per point, default 5), BENCH_OUT (JSON).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rt=${BENCH_RUNTIME:-5}
repeat=${BENCH_REPEAT:-5}
out=${BENCH_OUT:-$top/build/bench/result.json}
mkdir -p "$(dirname "$out")"
export PATH=$top/userspace:$PATH

if ! lsmod | grep -q '^blkload '; then
	insmod "$top/module/blkload.ko"
fi
modprobe -r null_blk 2>/dev/null || true
modprobe null_blk nr_devices=128 gb=16 irqmode=0 memory_backed=0 submit_queues=2
for q in /sys/block/nullb*/queue/scheduler; do echo none >"$q"; done
dev=/dev/nullb0
many=()
for ((i = 0; i < 128; i++)); do many+=(--dev "/dev/nullb$i"); done

fio_iops() {
	local engine=$1 depth=$2
	shift 2
	fio --name=bench --filename=$dev --ioengine="$engine" --direct=1 --rw=randread --bs=4k \
		--iodepth="$depth" --runtime="$rt" --time_based --cpus_allowed=0 \
		--randrepeat=0 --norandommap --output-format=json "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}

# blkload's summed IOPS; extra arguments go to "blkload run".
bl_iops() {
	local depth=$1 cpus=$2
	shift 2
	blkload -j run --rw randread --bs 4k --iodepth "$depth" --cpus "$cpus" \
		--runtime "$rt" "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["all_jobs"]["read"]["iops"])'
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# The 128-device run, with the worker count read while it runs.
many_iops() {
	local f=$1 r
	bl_iops 4 0-1 "${many[@]}" >"$f.iops" &
	r=$!
	sleep 2
	blkload -j info | python3 -c 'import json,sys; print(json.load(sys.stdin)["nr_workers"])' \
		>"$f.workers"
	wait $r
	cat "$f.iops"
}

declare -A r
for d in 1 32 128; do
	r[libaio_$d]=$(fio_iops libaio "$d")
	r[uring_$d]=$(fio_iops io_uring "$d" --fixedbufs --registerfiles)
	if ((d != 32)); then
		r[blkload_$d]=$(bl_iops "$d" 0 --dev $dev)
	fi
done
tmpf=$(mktemp)
one=() two=() nolat=() single=() multi=() workers=()
for ((i = 0; i < repeat; i++)); do
	one+=("$(bl_iops 32 0 --dev $dev)")
	two+=("$(bl_iops 32 0-1 --dev $dev)")
	nolat+=("$(bl_iops 32 0 --dev $dev --gtod_reduce)")
	single+=("$(bl_iops 4 0-1 --dev $dev)")
	multi+=("$(many_iops "$tmpf")")
	workers+=("$(cat "$tmpf.workers")")
done
rm -f "$tmpf" "$tmpf.iops" "$tmpf.workers"
r[blkload_32]=$(median "${one[@]}")
for d in 1 32 128; do
	echo "iodepth $d: fio libaio ${r[libaio_$d]}, fio io_uring ${r[uring_$d]}, blkload ${r[blkload_$d]} IOPS" >&2
done
echo "blkload iodepth 32 runs: 1 CPU ${one[*]}; 2 CPUs ${two[*]}; no latency ${nolat[*]}" >&2
echo "iodepth 4 on 2 CPUs: 1 device ${single[*]}; 128 devices ${multi[*]} (workers ${workers[*]})" >&2

python3 - "$out" "$rt" "${r[libaio_1]}" "${r[uring_1]}" "${r[blkload_1]}" \
	"${r[libaio_32]}" "${r[uring_32]}" "${r[blkload_32]}" \
	"${r[libaio_128]}" "${r[uring_128]}" "${r[blkload_128]}" \
	"${one[*]}" "${two[*]}" "${nolat[*]}" "${single[*]}" "${multi[*]}" "${workers[*]}" <<'PY'
import json, statistics, sys
out, rt = sys.argv[1], int(sys.argv[2])
v = [float(x) for x in sys.argv[3:12]]
runs = {k: [float(x) for x in s.split()] for k, s in
        zip(("one_cpu", "two_cpus", "no_lat", "one_device", "many_devices"), sys.argv[12:17])}
workers = [int(x) for x in sys.argv[17].split()]
med = {k: statistics.median(x) for k, x in runs.items()}
res = {"runtime_s": rt, "device": "null_blk irqmode=0 memory_backed=0, 4k randread",
       "iops": {}, "ratios": {}, "runs": runs, "medians": med, "workers_128_devices": workers}
for i, d in enumerate((1, 32, 128)):
    a, u, b = v[3 * i:3 * i + 3]
    res["iops"]["iodepth_%d" % d] = {"fio_libaio": a, "fio_io_uring": u, "blkload": b}
    res["ratios"]["blkload_vs_libaio_qd%d" % d] = b / a
    res["ratios"]["blkload_vs_io_uring_qd%d" % d] = b / u
# Ratios of medians, and the median of the per-round ratios (interleaved pairs).
pairs = lambda a, b: statistics.median(x / y for x, y in zip(runs[a], runs[b]))
res["ratios"]["two_cpus_vs_one_qd32"] = med["two_cpus"] / med["one_cpu"]
res["ratios"]["two_cpus_vs_one_qd32_paired"] = pairs("two_cpus", "one_cpu")
res["ratios"]["128_devices_vs_one_2cpus"] = med["many_devices"] / med["one_device"]
res["ratios"]["128_devices_vs_one_2cpus_paired"] = pairs("many_devices", "one_device")
res["ratios"]["latency_accounting_cost_qd32"] = 1 - med["one_cpu"] / med["no_lat"]
json.dump(res, open(out, "w"), indent=2)
print("%-10s %14s %14s %14s %10s %10s" % ("iodepth", "fio libaio", "fio io_uring", "blkload",
                                          "vs libaio", "vs uring"))
for d in (1, 32, 128):
    x = res["iops"]["iodepth_%d" % d]
    print("%-10d %14.0f %14.0f %14.0f %9.2fx %9.2fx" % (
        d, x["fio_libaio"], x["fio_io_uring"], x["blkload"],
        x["blkload"] / x["fio_libaio"], x["blkload"] / x["fio_io_uring"]))
n = len(runs["one_cpu"])
print("scaling, iodepth 32: 2 CPUs / 1 CPU = %.2fx (medians of %d), %.2fx (median of pairs)"
      "   target >= 1.85x" % (res["ratios"]["two_cpus_vs_one_qd32"], n,
                              res["ratios"]["two_cpus_vs_one_qd32_paired"]))
print("128 devices / 1 device on 2 CPUs, iodepth 4: %.2f (medians), %.2f (pairs), "
      "%s worker threads   target >= 0.90 with 2" % (
          res["ratios"]["128_devices_vs_one_2cpus"],
          res["ratios"]["128_devices_vs_one_2cpus_paired"], "/".join(map(str, workers))))
print("latency accounting cost at iodepth 32: %.1f%% of IOPS" %
      (100 * res["ratios"]["latency_accounting_cost_qd32"]))
PY
echo "JSON ($out, in the guest):"
cat "$out"
