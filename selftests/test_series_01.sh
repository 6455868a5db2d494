#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Time series: the module's per-interval samples add up to the run's own
# totals and to the device's counters, across CPU queues; a stalled device
# still gets its (empty) samples on time; samples overwritten before they
# were read are reported lost; the io_uring engine takes the same samples;
# --status-interval prints each window; the CSV adds up; fio's log files
# have the names and columns of real fio's (same options, same device, hist
# logs at log_hist_coarseness=2) and fio2gnuplot and fio_generate_plots
# draw blkload's unchanged; "blkload plot" draws the JSON.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 fio fio2gnuplot fio_generate_plots gnuplot script

ktap_print_header
ktap_set_plan 13
bl_mark start
bl_load
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# 50 us timer completions; 2 CPU queues, reads and writes.
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=50000 memory_backed=0
bl_no_timeout nullb0
ios_now() { awk '{ print $1 + $5 }' /sys/block/nullb0/stat; }

# --force: the write guard's probe (test_safe_01) reads the device, inside
# the window of its counters.
a=$(ios_now)
blkload -j run --dev /dev/nullb0 --rw randrw --iodepth 8 --cpus 0-1 --time_based --runtime 3 \
	--sample-interval 100ms --allow-write --force --status-interval 500ms \
	--samples-csv "$tmp/s.csv" >"$tmp/k.json" 2>"$tmp/status.txt"
b=$(ios_now)
sums() {
	bl_json <"$tmp/k.json" \
		'd["jobs"][0]["time_series"]["interval_ns"] == 100000000' \
		'd["jobs"][0]["time_series"]["lost"] == 0' \
		'29 <= len(d["jobs"][0]["time_series"]["samples"]) <= 33' \
		'all(sum(s[o]["ios"] for s in d["jobs"][0]["time_series"]["samples"]) == d["jobs"][0][o]["total_ios"] > 0 for o in ("read", "write"))' \
		'all(sum(s[o]["bytes"] for s in d["jobs"][0]["time_series"]["samples"]) == d["jobs"][0][o]["io_bytes"] for o in ("read", "write"))' \
		"d['jobs'][0]['read']['total_ios'] + d['jobs'][0]['write']['total_ios'] == $((b - a))" \
		'all(s["time_ns"] > p["time_ns"] for p, s in zip(d["jobs"][0]["time_series"]["samples"], d["jobs"][0]["time_series"]["samples"][1:]))' \
		'all(list(s["read"]["clat_percentile"].values()) == sorted(s["read"]["clat_percentile"].values()) for s in d["jobs"][0]["time_series"]["samples"] if s["read"]["ios"])' \
		'd["jobs"][0]["read"]["iops_samples"] >= 28 and d["jobs"][0]["read"]["iops_min"] <= d["jobs"][0]["read"]["iops_mean"] <= d["jobs"][0]["read"]["iops_max"]' \
		'abs(d["jobs"][0]["read"]["bw_mean"] * 1024 / d["jobs"][0]["read"]["bw_bytes"] - 1) < 0.2'
}
bl_check "2 CPU queues: samples add up to the totals and the device's counters" sums

status() {
	sed 's/^/# /' "$tmp/status.txt"
	local n
	n=$(grep -c '^job [0-9]* \[ *[0-9.]*s\] read: IOPS=[0-9]*, BW=.*; write: IOPS=' "$tmp/status.txt")
	((n >= 5 && n <= 7))
}
bl_check "--status-interval 500ms: a line per window" status

csv() {
	python3 - "$tmp/s.csv" "$tmp/k.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
d = json.load(open(sys.argv[2]))["jobs"][0]
ok = bool(rows) and len(rows) == 2 * len(d["time_series"]["samples"])
for o in ("read", "write"):
    ok = ok and sum(int(r["ios"]) for r in rows if r["dir"] == o) == d[o]["total_ios"]
ok = ok and "clat_p99.9_ns" in rows[0]
sys.exit(not ok)
PY
}
bl_check "--samples-csv: a row per sample and direction, adding up" csv

# A device that answers every 300 ms, one IO at a time: intervals without a completion.
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=300000000 memory_backed=0
bl_no_timeout nullb0
stall() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 1 --cpus 0 --time_based --runtime 2 \
		--sample-interval 100ms | bl_json \
		'sum(1 for s in d["jobs"][0]["time_series"]["samples"] if s["read"]["ios"] == 0) >= 8' \
		'sum(1 for s in d["jobs"][0]["time_series"]["samples"] if s["read"]["ios"]) >= 4' \
		'sum(s["read"]["ios"] for s in d["jobs"][0]["time_series"]["samples"]) == d["jobs"][0]["read"]["total_ios"]' \
		'19 <= len(d["jobs"][0]["time_series"]["samples"]) <= 23'
}
bl_check "a stalled device gets empty samples on time" stall

bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=50000 memory_backed=0
bl_no_timeout nullb0
# The CLI reads a 40 ms ring every 20 ms: it is stopped for half a second
# mid-run (SIGSTOP), as a reader that falls behind.
lost() {
	local pid
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0 --time_based --runtime 2 \
		--sample-interval 10ms --sample-ring 4 2>"$tmp/lost.err" >"$tmp/lost.json" &
	pid=$!
	sleep 0.8
	kill -STOP "$pid"
	sleep 0.5
	kill -CONT "$pid"
	wait "$pid" || return 1
	bl_json <"$tmp/lost.json" \
		'd["jobs"][0]["time_series"]["lost"] > 0' \
		'sum(s["read"]["ios"] for s in d["jobs"][0]["time_series"]["samples"]) < d["jobs"][0]["read"]["total_ios"]'
}
bl_check "samples overwritten before they were read are counted lost" lost

# On a terminal, the progress line: during the ramp the jobs count nothing,
# the devices' counters show the ramp's IOPS.
ramp_progress() {
	script -qfc "blkload run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0 --ramp_time 3 --time_based --runtime 1" \
		/dev/null </dev/null >"$tmp/tty.txt" 2>&1
	tr '\r' '\n' <"$tmp/tty.txt" | grep -a 'ramp, devices' | sed 's/^/# /'
	tr '\r' '\n' <"$tmp/tty.txt" | grep -aq '\[ramp, devices\] 1 job: [1-9][0-9]* IOPS'
}
bl_check "the progress line shows the ramp's IOPS (the devices' counters)" ramp_progress

engine() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 8 --cpus 0 --time_based --runtime 2 \
		--sample-interval 100ms --ioengine io_uring | bl_json \
		'19 <= len(d["jobs"][0]["time_series"]["samples"]) <= 23' \
		'sum(s["read"]["ios"] for s in d["jobs"][0]["time_series"]["samples"]) == d["jobs"][0]["read"]["total_ios"] > 0' \
		'd["jobs"][0]["read"]["iops_samples"] >= 18'
}
bl_check "the io_uring engine takes the same samples" engine

# fio's logs from blkload and from fio, same options, same device.
logs=(--write_iops_log=X --write_bw_log=X --write_lat_log=X --write_hist_log=X
	--log_avg_msec=200 --log_hist_msec=200 --log_hist_coarseness=2)
mkdir -p "$tmp/b" "$tmp/f"
(cd "$tmp/b" && blkload run --filename=/dev/nullb0 --rw=randrw --bs=4k --iodepth=8 \
	--time_based --runtime=2 --cpus=0 --allow-write "${logs[@]/X/bl}" >/dev/null 2>&1)
(cd "$tmp/f" && fio --name=f --filename=/dev/nullb0 --rw=randrw --bs=4k --iodepth=8 \
	--time_based --runtime=2 --ioengine=libaio --direct=1 --cpus_allowed=0 \
	"${logs[@]/X/bl}" >/dev/null 2>&1)
fio_logs() {
	python3 - "$tmp/b" "$tmp/f" <<'PY'
import os, sys
b, f = sys.argv[1:3]
names = sorted(os.listdir(f))
ok = names == sorted(os.listdir(b)) and len(names) == 6
for n in names:
    lb = [l.split(", ") for l in open(os.path.join(b, n)).read().splitlines()]
    lf = [l.split(", ") for l in open(os.path.join(f, n)).read().splitlines()]
    if not lb or (lf and {len(x) for x in lb} != {len(x) for x in lf}):
        print("# %s: %d lines, columns %s (fio's %s)" % (n, len(lb), {len(x) for x in lb},
                                                         {len(x) for x in lf}))
        ok = False
    d = 1 if "hist" in n else 2     # the direction's column
    if not all(x[d] in ("0", "1") for x in lb) or {x[d] for x in lb} != {x[d] for x in lf}:
        print("# %s: directions %s (fio's %s)" % (n, {x[d] for x in lb}, {x[d] for x in lf}))
        ok = False
print("# files %s / fio %s" % (sorted(os.listdir(b)), names))
sys.exit(not ok)
PY
}
bl_check "fio's log files: the names and columns of real fio's" fio_logs

# fio's log_offset and log_prio: an offset column and the priority as
# 0x0000, as fio writes its averaged entries (same options, same device).
mkdir -p "$tmp/bo" "$tmp/fo"
olog=(--write_bw_log=o --write_lat_log=o --log_avg_msec=200 --log_offset=1 --log_prio=1)
(cd "$tmp/bo" && blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=8 \
	--time_based --runtime=2 --cpus=0 "${olog[@]}" >/dev/null 2>&1)
(cd "$tmp/fo" && fio --name=f --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=8 \
	--time_based --runtime=2 --ioengine=libaio --direct=1 --cpus_allowed=0 \
	"${olog[@]}" >/dev/null 2>&1)
fio_logs_offset() {
	python3 - "$tmp/bo" "$tmp/fo" <<'PY'
import os, sys
b, f = sys.argv[1:3]
names = sorted(os.listdir(f))
ok = names == sorted(os.listdir(b)) and len(names) == 4
for n in names:
    lb = [l.split(", ") for l in open(os.path.join(b, n)).read().splitlines()]
    lf = [l.split(", ") for l in open(os.path.join(f, n)).read().splitlines()]
    cols = ({len(x) for x in lb}, {len(x) for x in lf})
    tail = ({tuple(x[4:]) for x in lb}, {tuple(x[4:]) for x in lf})
    print("# %s: columns %s, offset and priority %s (fio's %s, %s)" % (n, cols[0], tail[0], cols[1], tail[1]))
    ok &= bool(lb) and cols[0] == cols[1] == {6} and tail[0] == tail[1] == {("0", "0x0000")}
sys.exit(not ok)
PY
}
bl_check "fio's log_offset and log_prio: the offset and priority columns of real fio's averaged logs" \
	fio_logs_offset

plots() {
	(cd "$tmp/b" && fio2gnuplot -p 'bl_bw*.log' -g -t blkload >/dev/null 2>&1 &&
		fio_generate_plots blkload >/dev/null 2>&1) || return 1
	ls -l "$tmp/b" | sed 's/^/# /'
	for f in blkload-iops.svg blkload-bw.svg blkload-lat.svg blkload-clat.svg blkload-slat.svg; do
		[[ -s $tmp/b/$f ]] && grep -q '<path' "$tmp/b/$f" || return 1
	done
	ls "$tmp"/b/*.png >/dev/null
}
bl_check "fio2gnuplot and fio_generate_plots draw blkload's logs" plots

plot() {
	blkload plot -o "$tmp/p" "$tmp/k.json" >/dev/null || return 1
	for n in iops bw lat cdf; do
		python3 - "$tmp/p-$n.svg" <<'PY' || return 1
import sys, xml.etree.ElementTree as E
r = E.parse(sys.argv[1]).getroot()
text = ["".join(e.itertext()).strip() for e in r.iter() if e.tag.endswith("text")]
# The job's lines by their titles, and data paths beyond axes and grid.
lat = sys.argv[1].endswith("-lat.svg")
want = ["/dev/nullb0 1 %s%s" % (d, " p99.9" if lat else "") for d in ("read", "write")]
missing = [t for t in want if t not in text]
long_paths = [e for e in r.iter() if e.tag.endswith("path") and e.get("d", "").count("L") > 20]
print("# %s: missing %s, %d long paths" % (sys.argv[1], missing, len(long_paths)))
sys.exit(bool(missing) or len(long_paths) < 2)
PY
	done
}
bl_check "blkload plot draws the run's JSON" plot

# Two jobs on one CPU share its worker: each gets its share of the worker's
# context switches (fio's ctx), split as its CPU time is, not one of them all.
ctx_split() {
	blkload -j run --dev /dev/nullb0 --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0 \
		--time_based --runtime 1 >"$tmp/ctx.json" || return 1
	python3 -c 'import json, sys; print("# ctx %s, cpu_ns %s" % tuple([j[k] for j in json.load(open(sys.argv[1]))["jobs"]] for k in ("ctx", "cpu_ns")))' "$tmp/ctx.json"
	bl_json <"$tmp/ctx.json" \
		'all(j["ctx"] > 0 for j in d["jobs"])' \
		'abs(d["jobs"][0]["ctx"] / (d["jobs"][0]["ctx"] + d["jobs"][1]["ctx"]) - d["jobs"][0]["cpu_ns"] / (d["jobs"][0]["cpu_ns"] + d["jobs"][1]["cpu_ns"])) < 0.15'
}
bl_check "two jobs on one worker each get their share of its context switches" ctx_split

bl_check "nothing left of blkload" bl_clean

bl_mark end
ktap_finished
