#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# engine-costs.sh: what each userspace path does per IO, fio's engines
# beside blkload's, on the same device in one guest run (Documentation,
# "Userspace engines": the table there comes from this). For fio libaio,
# fio io_uring (fixedbufs, registerfiles) and blkload's --engine libaio and
# io_uring, 4k randread at iodepth 32 on CPU 0, null_blk irqmode=0 (fio
# also with --iodepth_batch_complete_max=32, "-reapall"):
#   - clock reads per IO: an LD_PRELOAD shim counts clock_gettime() calls
#     (scripts/tools/clockcount.c; fio with --clocksource=clock_gettime so
#     that its reads go through libc, as blkload's always do);
#   - submission and reap system calls per IO (strace -c);
#   - IOPS and mean slat/clat of a plain run (no shim, no strace).
# A measurement, not a test: it prints a table, and fails only when a tool
# does not run. COSTS_IOS (IOs a run, 20000).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export PATH=$top/userspace:$PATH
n=${COSTS_IOS:-20000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cc -O2 -shared -fPIC -o "$tmp/clockcount.so" "$top/scripts/tools/clockcount.c" -ldl
# It makes its own null_blk and removes it at the end: never someone else's.
if [[ -d /sys/module/null_blk ]]; then
	echo "engine-costs: null_blk is loaded already; run this in the test guest (scripts/vm -- scripts/engine-costs.sh)" >&2
	exit 1
fi
trap 'rm -rf "$tmp"; modprobe -r null_blk 2>/dev/null || true' EXIT
modprobe null_blk nr_devices=1 gb=16 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
dev=/dev/nullb0

# The command of path $1 into CMD, extra arguments after it.
cmd() {
	local path=$1
	shift
	case $path in
	fio-libaio | fio-io_uring | fio-libaio-reapall | fio-io_uring-reapall)
		local e=${path#fio-} x=()
		# -reapall: fio reaping every ready completion at once, as blkload does.
		[[ $e == *-reapall ]] && x=(--iodepth_batch_complete_max=32) && e=${e%-reapall}
		[[ $e == io_uring ]] && x+=(--fixedbufs --registerfiles)
		CMD=(fio --name=c --filename="$dev" --ioengine="$e" "${x[@]}" --direct=1
			--rw=randread --bs=4k --iodepth=32 --number_ios="$n" --cpus_allowed=0
			--randrepeat=0 --norandommap --output-format=json "$@")
		;;
	blkload-libaio | blkload-io_uring)
		CMD=(blkload -j run --engine "${path#blkload-}" --dev "$dev" --rw randread --bs 4k
			--iodepth 32 --number_ios "$n" --cpus 0 "$@")
		;;
	esac
}

printf '%-18s %10s %12s %12s %10s %10s %10s\n' path "clock/IO" "submit/IO" "reap/IO" IOPS \
	"slat us" "clat us"
for path in fio-libaio fio-libaio-reapall blkload-libaio fio-io_uring fio-io_uring-reapall \
	blkload-io_uring; do
	extra=()
	[[ $path == fio-* ]] && extra=(--clocksource=clock_gettime)
	cmd "$path" "${extra[@]}"
	LD_PRELOAD=$tmp/clockcount.so "${CMD[@]}" >/dev/null 2>"$tmp/clock"
	clocks=$(awk '/^clockcount:/ { s += $2 } END { print s + 0 }' "$tmp/clock")
	cmd "$path"
	strace -f -c -o "$tmp/strace" -e trace=io_submit,io_getevents,io_pgetevents,io_uring_enter \
		"${CMD[@]}" >/dev/null 2>&1
	sub=$(awk '$NF == "io_submit" || $NF == "io_uring_enter" { s += $4 } END { print s + 0 }' "$tmp/strace")
	reap=$(awk '$NF == "io_getevents" || $NF == "io_pgetevents" { s += $4 } END { print s + 0 }' "$tmp/strace")
	"${CMD[@]}" >"$tmp/out.json"
	python3 - "$tmp/out.json" "$path" "$clocks" "$sub" "$reap" "$n" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["jobs"][0]["read"]
path, clocks, sub, reap, n = sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6])
print("%-18s %10.2f %12.3f %12.3f %10.0f %10.1f %10.1f" % (
    path, clocks / n, sub / n, reap / n, r["iops"], r["slat_ns"]["mean"] / 1e3,
    r["clat_ns"]["mean"] / 1e3))
PY
done
echo "# io_uring_enter counts once per call whether it submits, reaps or both (submit/IO)."
