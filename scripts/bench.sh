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
#    threads in all) against one device on the same 2 CPUs, at iodepth 4
#    each against iodepth 4, and at iodepth 1 each against iodepth 32;
#  - the cost of per-IO latency accounting (--gtod_reduce);
#  - the cost of the time series at 100 ms: --sample-interval 100ms against
#    none (0), the CLI reading samples as a run does (target <= 1%);
#  - blkload's userspace engines against fio's at iodepth 32 on CPU 0:
#    --engine io_uring against fio io_uring (fixedbufs, registerfiles),
#    --engine libaio against fio libaio: they must not be handicapped;
#  - polled IO (--hipri): blkload against fio io_uring --hipri (IOPOLL,
#    fixedbufs, registerfiles) at iodepth 32 on CPU 0, on a null_blk with
#    poll queues (target >= 3x: no syscall per poll).
# BENCH_ONLY=polled runs the polled points alone.
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

if [[ ! -d /sys/module/blkload ]]; then
	"$top/scripts/load-module.sh"
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
		--time_based --runtime "$rt" --norandommap "$@" |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["all_jobs"]["read"]["iops"])'
}

median() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# The 128-device run at iodepth $2 (4), with the worker count read while it runs.
many_iops() {
	local f=$1 r
	bl_iops "${2:-4}" 0-1 "${many[@]}" >"$f.iops" &
	r=$!
	sleep 2
	blkload -j info | python3 -c 'import json,sys; print(json.load(sys.stdin)["nr_workers"])' \
		>"$f.workers"
	wait $r
	cat "$f.iops"
}

# --- polled: blkload --hipri against fio io_uring --hipri -------------------
polled() {
	local pf=() pb=() pl=()
	modprobe -r null_blk
	modprobe null_blk nr_devices=1 gb=16 irqmode=0 memory_backed=0 queue_mode=2 \
		submit_queues=2 poll_queues=2
	echo none >/sys/block/nullb0/queue/scheduler
	for ((i = 0; i < repeat; i++)); do
		# fio as the issue names it (io_uring, hipri), and at its best
		# (registered buffers and file too).
		pl+=("$(fio_iops io_uring 32 --hipri)")
		pf+=("$(fio_iops io_uring 32 --fixedbufs --registerfiles --hipri)")
		pb+=("$(bl_iops 32 0 --dev $dev --hipri)")
	done
	echo "polled, iodepth 32: fio io_uring --hipri ${pl[*]}; with fixedbufs registerfiles ${pf[*]}; blkload --hipri ${pb[*]}" >&2
	python3 - "$out" "${pf[*]}" "${pb[*]}" "${pl[*]}" <<'PY'
import json, os, statistics, sys
out = sys.argv[1]
res = json.load(open(out)) if os.path.exists(out) else {}
runs = {"fio_io_uring_hipri_fixedbufs_registerfiles": [float(x) for x in sys.argv[2].split()],
        "blkload_hipri": [float(x) for x in sys.argv[3].split()],
        "fio_io_uring_hipri": [float(x) for x in sys.argv[4].split()]}
b = runs["blkload_hipri"]
best = statistics.median(x / f for f, x in zip(runs["fio_io_uring_hipri_fixedbufs_registerfiles"], b))
plain = statistics.median(x / f for f, x in zip(runs["fio_io_uring_hipri"], b))
res["polled"] = {"device": "null_blk poll_queues=2 irqmode=0, 4k randread, iodepth 32, CPU 0",
                 "runs": runs, "blkload_vs_fio_io_uring_hipri": plain,
                 "blkload_vs_fio_io_uring_hipri_fixedbufs_registerfiles": best}
json.dump(res, open(out, "w"), indent=2)
print("polled, iodepth 32: blkload --hipri %.2fx fio io_uring --hipri, %.2fx with fixedbufs"
      " registerfiles (medians of pairs)   target >= 3x" % (plain, best))
PY
}
if [[ ${BENCH_ONLY:-} == polled ]]; then
	rm -f "$out"
	polled
	cat "$out"
	exit 0
fi

declare -A r
for d in 1 32 128; do
	r[libaio_$d]=$(fio_iops libaio "$d")
	r[uring_$d]=$(fio_iops io_uring "$d" --fixedbufs --registerfiles)
	if ((d != 32)); then
		r[blkload_$d]=$(bl_iops "$d" 0 --dev $dev)
	fi
done
tmpf=$(mktemp)
one=() two=() nolat=() single=() multi=() multi1=() workers=() nosmp=() smp100=()
fu=() bu=() fa=() ba=()
for ((i = 0; i < repeat; i++)); do
	fu+=("$(fio_iops io_uring 32 --fixedbufs --registerfiles)")
	bu+=("$(bl_iops 32 0 --dev $dev --engine io_uring)")
	fa+=("$(fio_iops libaio 32)")
	ba+=("$(bl_iops 32 0 --dev $dev --engine libaio)")
	one+=("$(bl_iops 32 0 --dev $dev)")
	two+=("$(bl_iops 32 0-1 --dev $dev)")
	nolat+=("$(bl_iops 32 0 --dev $dev --gtod_reduce)")
	nosmp+=("$(bl_iops 32 0 --dev $dev --sample-interval 0)")
	smp100+=("$(bl_iops 32 0 --dev $dev --sample-interval 100ms)")
	single+=("$(bl_iops 4 0-1 --dev $dev)")
	multi+=("$(many_iops "$tmpf")")
	workers+=("$(cat "$tmpf.workers")")
	multi1+=("$(many_iops "$tmpf" 1)")
done
rm -f "$tmpf" "$tmpf.iops" "$tmpf.workers"
r[blkload_32]=$(median "${one[@]}")
for d in 1 32 128; do
	echo "iodepth $d: fio libaio ${r[libaio_$d]}, fio io_uring ${r[uring_$d]}, blkload ${r[blkload_$d]} IOPS" >&2
done
echo "blkload iodepth 32 runs: 1 CPU ${one[*]}; 2 CPUs ${two[*]}; no latency ${nolat[*]}" >&2
echo "time series at iodepth 32: none ${nosmp[*]}; every 100 ms ${smp100[*]}" >&2
echo "iodepth 4 on 2 CPUs: 1 device ${single[*]}; 128 devices ${multi[*]} (workers ${workers[*]})" >&2
echo "128 devices at iodepth 1 on 2 CPUs: ${multi1[*]} (against 1 device at iodepth 32 on 2 CPUs above)" >&2
echo "engines at iodepth 32: fio io_uring ${fu[*]}; blkload io_uring ${bu[*]}; fio libaio ${fa[*]}; blkload libaio ${ba[*]}" >&2

python3 - "$out" "$rt" "${r[libaio_1]}" "${r[uring_1]}" "${r[blkload_1]}" \
	"${r[libaio_32]}" "${r[uring_32]}" "${r[blkload_32]}" \
	"${r[libaio_128]}" "${r[uring_128]}" "${r[blkload_128]}" \
	"${one[*]}" "${two[*]}" "${nolat[*]}" "${single[*]}" "${multi[*]}" "${workers[*]}" \
	"${fu[*]}" "${bu[*]}" "${fa[*]}" "${ba[*]}" "${nosmp[*]}" "${smp100[*]}" "${multi1[*]}" <<'PY'
import json, statistics, sys
out, rt = sys.argv[1], int(sys.argv[2])
v = [float(x) for x in sys.argv[3:12]]
runs = {k: [float(x) for x in s.split()] for k, s in
        zip(("one_cpu", "two_cpus", "no_lat", "one_device", "many_devices"), sys.argv[12:17])}
workers = [int(x) for x in sys.argv[17].split()]
for k, a in zip(("fio_io_uring", "engine_io_uring", "fio_libaio", "engine_libaio"), sys.argv[18:22]):
    runs[k] = [float(x) for x in a.split()]
for k, a in zip(("no_samples", "samples_100ms", "many_devices_qd1"), sys.argv[22:25]):
    runs[k] = [float(x) for x in a.split()]
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
res["ratios"]["128_devices_qd1_vs_one_qd32_2cpus"] = med["many_devices_qd1"] / med["two_cpus"]
res["ratios"]["128_devices_qd1_vs_one_qd32_2cpus_paired"] = pairs("many_devices_qd1", "two_cpus")
# The 1-CPU module against fio at iodepth 32, from interleaved rounds.
res["ratios"]["blkload_vs_fio_io_uring_qd32_paired"] = pairs("one_cpu", "fio_io_uring")
res["ratios"]["blkload_vs_fio_libaio_qd32_paired"] = pairs("one_cpu", "fio_libaio")
res["ratios"]["latency_accounting_cost_qd32"] = 1 - med["one_cpu"] / med["no_lat"]
res["ratios"]["sampling_100ms_cost_qd32"] = 1 - pairs("samples_100ms", "no_samples")
res["ratios"]["engine_io_uring_vs_fio_io_uring_qd32"] = pairs("engine_io_uring", "fio_io_uring")
res["ratios"]["engine_libaio_vs_fio_libaio_qd32"] = pairs("engine_libaio", "fio_libaio")
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
print("128 devices at iodepth 1 / 1 device at iodepth 32, on 2 CPUs: %.2f (medians), %.2f (pairs)"
      "   target >= 0.90" % (res["ratios"]["128_devices_qd1_vs_one_qd32_2cpus"],
                           res["ratios"]["128_devices_qd1_vs_one_qd32_2cpus_paired"]))
print("1 CPU, iodepth 32, interleaved pairs: blkload %.2fx fio io_uring, %.2fx fio libaio" % (
    res["ratios"]["blkload_vs_fio_io_uring_qd32_paired"],
    res["ratios"]["blkload_vs_fio_libaio_qd32_paired"]))
print("latency accounting cost at iodepth 32: %.1f%% of IOPS" %
      (100 * res["ratios"]["latency_accounting_cost_qd32"]))
print("time series every 100 ms at iodepth 32: %.1f%% of IOPS (median of pairs)   target <= 1%%" %
      (100 * res["ratios"]["sampling_100ms_cost_qd32"]))
print("engines at iodepth 32 (median of interleaved pairs): io_uring %.2fx fio io_uring, "
      "libaio %.2fx fio libaio   target 0.90-1.10" % (
          res["ratios"]["engine_io_uring_vs_fio_io_uring_qd32"],
          res["ratios"]["engine_libaio_vs_fio_libaio_qd32"]))
PY

polled

# --- Ceph: the same engines on an RBD image, against fio's ----------------
# krbd (/dev/rbd0) with io_uring and libaio, and librbd, each beside fio's
# engine on the same image, 4k randread at iodepth 32 on CPU 0, interleaved
# repetitions. The image is written whole first: krbd answers reads of
# never-written objects itself.
if [[ ${BENCH_CEPH:-1} == 1 ]] && command -v ceph-mon >/dev/null; then
	export CEPH_CONF=${CEPH_MINI_DIR:-/tmp/ceph-mini}/ceph.conf
	rbd=$("$top/scripts/ceph-mini" start -n 1 -s 128M | head -1)
	blkload run --dev "$rbd" --rw write --bs 1m --iodepth 4 --allow-write >/dev/null
	cfu=() cbu=() cfa=() cba=() cfr=() cbr=()
	for ((i = 0; i < ${BENCH_CEPH_REPEAT:-3}; i++)); do
		cfu+=("$(dev=$rbd fio_iops io_uring 32 --fixedbufs --registerfiles)")
		cbu+=("$(bl_iops 32 0 --dev "$rbd" --engine io_uring)")
		cfa+=("$(dev=$rbd fio_iops libaio 32)")
		cba+=("$(bl_iops 32 0 --dev "$rbd" --engine libaio)")
		cfr+=("$(fio --name=bench --ioengine=rbd --pool=rbd --rbdname=img0 --clientname=admin \
			--rw=randread --bs=4k --iodepth=32 --runtime="$rt" --time_based --cpus_allowed=0 \
			--randrepeat=0 --norandommap --output-format=json |
			python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["read"]["iops"])')")
		cbr+=("$(bl_iops 32 0 --engine librbd --pool rbd --rbdname img0)")
	done
	"$top/scripts/ceph-mini" stop >/dev/null 2>&1
	python3 - "$out" "${cfu[*]}" "${cbu[*]}" "${cfa[*]}" "${cba[*]}" "${cfr[*]}" "${cbr[*]}" <<'PY'
import json, statistics, sys
res = json.load(open(sys.argv[1]))
names = ("fio_io_uring", "blkload_io_uring", "fio_libaio", "blkload_libaio", "fio_rbd",
         "blkload_librbd")
runs = {k: [float(x) for x in a.split()] for k, a in zip(names, sys.argv[2:8])}
pair = lambda a, b: statistics.median(x / y for x, y in zip(runs[a], runs[b]))
res["ceph"] = {"device": "one-node memstore cluster, 128 MiB image written whole, "
                         "4k randread, iodepth 32, CPU 0", "runs": runs,
               "ratios": {"io_uring_on_krbd": pair("blkload_io_uring", "fio_io_uring"),
                          "libaio_on_krbd": pair("blkload_libaio", "fio_libaio"),
                          "librbd": pair("blkload_librbd", "fio_rbd")}}
json.dump(res, open(sys.argv[1], "w"), indent=2)
r = res["ceph"]["ratios"]
print("Ceph, 4k randread qd32 (median of interleaved pairs; target 0.90-1.10):")
print("  blkload io_uring / fio io_uring on krbd  %.2fx  (%s / %s)" % (
    r["io_uring_on_krbd"], runs["blkload_io_uring"], runs["fio_io_uring"]))
print("  blkload libaio / fio libaio on krbd      %.2fx  (%s / %s)" % (
    r["libaio_on_krbd"], runs["blkload_libaio"], runs["fio_libaio"]))
print("  blkload librbd / fio rbd                 %.2fx  (%s / %s)" % (
    r["librbd"], runs["blkload_librbd"], runs["fio_rbd"]))
PY
fi
echo "JSON ($out, in the guest):"
cat "$out"
