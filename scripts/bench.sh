#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# bench.sh: blkload against fio on the same device in one run, as ratios.
# A benchmark, not a test: it prints a table and writes JSON; it fails only
# when a tool does not run. Meant for the test guest:
#
#   make bench          (scripts/vm -- scripts/bench.sh)
#
# Device: null_blk, irqmode=0 (inline completion), memory_backed=0, scheduler
# none. Workload: 4k randread on CPU 0 at iodepth 1, 32, 128 with fio libaio,
# fio io_uring (fixedbufs, registerfiles) and blkload; blkload on 2 CPUs vs 1
# at iodepth 32; blkload with and without per-IO latency accounting.
# The iodepth-32 blkload points (1 CPU, 2 CPUs, no latency accounting) are
# run BENCH_REPEAT times (default 3), interleaved, and their medians used.
# BENCH_RUNTIME (seconds per point, default 5), BENCH_OUT (JSON path).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rt=${BENCH_RUNTIME:-5}
repeat=${BENCH_REPEAT:-3}
out=${BENCH_OUT:-$top/build/bench/result.json}
mkdir -p "$(dirname "$out")"
export PATH=$top/userspace:$PATH

if ! lsmod | grep -q '^blkload '; then
	insmod "$top/module/blkload.ko"
fi
modprobe -r null_blk 2>/dev/null || true
modprobe null_blk nr_devices=1 gb=16 irqmode=0 memory_backed=0 submit_queues=2
echo none >/sys/block/nullb0/queue/scheduler
dev=/dev/nullb0

fio_iops() {
	local engine=$1 depth=$2
	shift 2
	fio --name=bench --filename=$dev --ioengine="$engine" --direct=1 --rw=randread --bs=4k \
		--iodepth="$depth" --runtime="$rt" --time_based --cpus_allowed=0 \
		--randrepeat=0 --norandommap --output-format=json "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])'
}

bl_iops() {
	local depth=$1 cpus=$2
	shift 2
	blkload -j run --dev $dev --rw randread --bs 4k --iodepth "$depth" --cpus "$cpus" \
		--runtime "$rt" "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["all_jobs"]["read"]["iops"])'
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

declare -A r
for d in 1 32 128; do
	r[libaio_$d]=$(fio_iops libaio "$d")
	r[uring_$d]=$(fio_iops io_uring "$d" --fixedbufs --registerfiles)
	if ((d != 32)); then
		r[blkload_$d]=$(bl_iops "$d" 0)
	fi
done
one=() two=() nolat=()
for ((i = 0; i < repeat; i++)); do
	one+=("$(bl_iops 32 0)")
	two+=("$(bl_iops 32 0-1)")
	nolat+=("$(bl_iops 32 0 --gtod_reduce)")
done
r[blkload_32]=$(median "${one[@]}")
r[blkload2_32]=$(median "${two[@]}")
r[nolat_32]=$(median "${nolat[@]}")
for d in 1 32 128; do
	echo "iodepth $d: fio libaio ${r[libaio_$d]}, fio io_uring ${r[uring_$d]}, blkload ${r[blkload_$d]} IOPS" >&2
done
echo "blkload iodepth 32 runs: 1 CPU ${one[*]}; 2 CPUs ${two[*]}; no latency ${nolat[*]}" >&2

python3 - "$out" "$rt" \
	"${r[libaio_1]}" "${r[uring_1]}" "${r[blkload_1]}" \
	"${r[libaio_32]}" "${r[uring_32]}" "${r[blkload_32]}" \
	"${r[libaio_128]}" "${r[uring_128]}" "${r[blkload_128]}" \
	"${r[blkload2_32]}" "${r[nolat_32]}" "${one[*]}" "${two[*]}" <<'PY'
import json, sys
out, rt = sys.argv[1], int(sys.argv[2])
v = [float(x) for x in sys.argv[3:14]]
res = {"runtime_s": rt, "device": "null_blk irqmode=0 memory_backed=0, 4k randread",
       "iops": {}, "ratios": {}}
for i, d in enumerate((1, 32, 128)):
    a, u, b = v[3 * i:3 * i + 3]
    res["iops"]["iodepth_%d" % d] = {"fio_libaio": a, "fio_io_uring": u, "blkload": b}
    res["ratios"]["blkload_vs_libaio_qd%d" % d] = b / a
    res["ratios"]["blkload_vs_io_uring_qd%d" % d] = b / u
two, nolat = v[9], v[10]
res["iops"]["blkload_2cpu_qd32"] = two
res["iops"]["blkload_no_lat_qd32"] = nolat
res["ratios"]["blkload_2cpu_vs_1cpu_qd32"] = two / v[5]
res["runs_qd32"] = {"one_cpu": [float(x) for x in sys.argv[3 + 11].split()],
                    "two_cpus": [float(x) for x in sys.argv[3 + 12].split()]}
res["ratios"]["blkload_2cpu_vs_1cpu_qd32_best"] = (max(res["runs_qd32"]["two_cpus"]) /
                                                  max(res["runs_qd32"]["one_cpu"]))
res["ratios"]["latency_accounting_cost_qd32"] = 1 - v[5] / nolat
json.dump(res, open(out, "w"), indent=2)
print("%-10s %14s %14s %14s %10s %10s" % ("iodepth", "fio libaio", "fio io_uring", "blkload",
                                          "vs libaio", "vs uring"))
for d in (1, 32, 128):
    x = res["iops"]["iodepth_%d" % d]
    print("%-10d %14.0f %14.0f %14.0f %9.2fx %9.2fx" % (
        d, x["fio_libaio"], x["fio_io_uring"], x["blkload"],
        x["blkload"] / x["fio_libaio"], x["blkload"] / x["fio_io_uring"]))
print("blkload 2 CPUs vs 1 at iodepth 32: %.2fx (medians of %d), %.2fx (best runs)" % (
    res["ratios"]["blkload_2cpu_vs_1cpu_qd32"], len(res["runs_qd32"]["one_cpu"]),
    res["ratios"]["blkload_2cpu_vs_1cpu_qd32_best"]))
print("latency accounting cost at iodepth 32: %.1f%% of IOPS" %
      (100 * res["ratios"]["latency_accounting_cost_qd32"]))
PY
echo "JSON ($out, in the guest):"
cat "$out"
