#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload's reports as fio's consumers read them, next to real fio on the
# same device in the same run: every key fio writes is there; slat + clat is
# lat for every IO; the IO depth and latency distributions and disk_util
# count what happened (disk_util against the device's own counters); fio's
# own fio_jsonplus_clat2csv converts and validates blkload's json+ (module
# and io_uring engine); the text report has fio's lines.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "reports as fio consumers read them (userspace)"
bl_require_cmd blkload python3 fio fio_jsonplus_clat2csv

ktap_print_header
ktap_set_plan 7
bl_mark start
bl_load
# 50 us completions from a timer: clat is real and spread, slat is small.
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=50000 memory_backed=0
bl_no_timeout nullb0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=20000

blkload -j run --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=32 --number_ios=$n \
	--cpus 0 --output-format=json+ >"$tmp/k.json" 2>"$tmp/k.err"
fio --name=fio --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=32 --number_ios=$n \
	--ioengine=libaio --direct=1 --cpus_allowed=0 --output-format=json+ \
	--output="$tmp/f.json" >/dev/null 2>&1

# Every key of fio's document, its job, its directions and latencies.
keys_of_fio() {
	python3 - "$tmp/f.json" "$tmp/k.json" <<'PY'
import json, sys
f, k = (json.load(open(p)) for p in sys.argv[1:3])
missing = []
seen = [0]
def walk(a, b, path):
    for key, val in a.items():
        if key in ('percentile', 'bins'):
            continue
        seen[0] += 1
        if key not in b:
            missing.append(path + key)
        elif key == 'job options':
            continue    # the options each was given
        elif isinstance(val, dict) and isinstance(b[key], dict):
            walk(val, b[key], path + key + '.')
walk({x: y for x, y in f.items() if x != 'jobs'}, k, '')
walk(f['jobs'][0], k['jobs'][0], 'jobs[0].')
for i, d in enumerate(f.get('disk_util', [])[:1]):
    walk(d, k['disk_util'][0], 'disk_util[0].')
print('# %d keys of fio checked' % seen[0])
if missing:
    print('# missing: ' + ', '.join(missing))
sys.exit(bool(missing) or seen[0] < 100 or not f['jobs'][0]['read']['clat_ns']['N'])
PY
}
bl_check "every key fio writes (json+, libaio, same device) is in blkload's" keys_of_fio

counts() {
	bl_json "d['jobs'][0]['read']['total_ios'] == $n" \
		"all(d['jobs'][0]['read'][k]['N'] == $n for k in ('slat_ns', 'clat_ns', 'lat_ns'))" \
		"sum(d['jobs'][0]['read']['clat_ns']['bins'].values()) == $n" \
		"abs(d['jobs'][0]['read']['slat_ns']['mean'] + d['jobs'][0]['read']['clat_ns']['mean'] - d['jobs'][0]['read']['lat_ns']['mean']) < 1e-6 * d['jobs'][0]['read']['lat_ns']['mean']" \
		"d['jobs'][0]['read']['lat_ns']['min'] >= 50000" \
		"0 < d['jobs'][0]['read']['clat_ns']['stddev'] < d['jobs'][0]['read']['clat_ns']['max'] - d['jobs'][0]['read']['clat_ns']['min']" \
		"d['jobs'][0]['read']['slat_ns']['mean'] < d['jobs'][0]['read']['clat_ns']['mean']" \
		"d['jobs'][0]['write']['total_ios'] == 0 and d['jobs'][0]['trim']['total_ios'] == 0" \
		"d['jobs'][0]['elapsed'] == round(d['jobs'][0]['job_runtime'] / 1000)" \
		"d['jobs'][0]['job options']['rw'] == 'randread' and d['jobs'][0]['job options']['iodepth'] == '32'" \
		"abs(sum(d['jobs'][0]['iodepth_level'].values()) - 100) < 1e-3" \
		"d['jobs'][0]['iodepth_level']['32'] > 50" \
		"abs(sum(sum(d['jobs'][0][u].values()) for u in ('latency_ns', 'latency_us', 'latency_ms')) - 100) < 1e-3" \
		"abs(sum(d['jobs'][0]['latency_ns'].values()) + sum(v for k, v in d['jobs'][0]['latency_us'].items() if int(k) <= 250) - 100 * sum(c for b, c in d['jobs'][0]['read']['clat_ns']['bins'].items() if int(b) <= 250000) / $n) < 2" \
		"'devlat_ns' in d['jobs'][0]['read'] and 50000 <= d['jobs'][0]['read']['devlat_ns']['min'] and d['jobs'][0]['read']['devlat_ns']['mean'] < d['jobs'][0]['read']['lat_ns']['mean']" \
		"d['jobs'][0]['ctx'] > 0 and d['jobs'][0]['usr_cpu'] == 0 < d['jobs'][0]['sys_cpu']" \
		"d['disk_util'][0]['name'] == 'nullb0' and d['disk_util'][0]['read_ios'] == $n" \
		"d['disk_util'][0]['write_ios'] == 0 and 0 < d['disk_util'][0]['util'] <= 100" \
		<"$tmp/k.json"
}
bl_check "module: N, slat + clat = lat, depth 32, latency shares as its clat histogram, devlat under lat, disk_util = $n reads" counts

clat2csv() {
	local in=$1 out=$2 jobs=$3
	(cd "$tmp" && fio_jsonplus_clat2csv "$in" "$out" >"$tmp/csv.log" 2>&1 &&
		fio_jsonplus_clat2csv "$in" "$out" --validate >>"$tmp/csv.log" 2>&1) || {
		sed 's/^/# /' "$tmp/csv.log"
		return 1
	}
	sed 's/^/# /' "$tmp/csv.log"
	test "$(grep -c 'validated' "$tmp/csv.log")" = "$jobs" || return 1
	# Every IO is a row count: the CSV's read_clat_ns counts add up to N.
	python3 - "$tmp/${out%.csv}_job0.csv" "$n" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), skipinitialspace=True))
col = rows[0].index('read_clat_ns_count')
total = sum(int(r[col]) for r in rows[1:] if r[col])
print('# read_clat_ns counts in the CSV: %d' % total)
sys.exit(total != int(sys.argv[2]))
PY
}
bl_check "fio_jsonplus_clat2csv converts and validates the module's json+" \
	clat2csv k.json k.csv 1

uring() {
	blkload -j run --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=32 \
		--number_ios=$n --cpus 0 --ioengine=io_uring --output-format=json+ \
		>"$tmp/u.json" 2>"$tmp/u.err" || return 1
	bl_json "all(d['jobs'][0]['read'][k]['N'] == $n for k in ('slat_ns', 'clat_ns', 'lat_ns'))" \
		"abs(d['jobs'][0]['read']['slat_ns']['mean'] + d['jobs'][0]['read']['clat_ns']['mean'] - d['jobs'][0]['read']['lat_ns']['mean']) < 1e-6 * d['jobs'][0]['read']['lat_ns']['mean']" \
		"d['disk_util'][0]['read_ios'] == $n" \
		"abs(sum(d['jobs'][0]['iodepth_level'].values()) - 100) < 1e-3" \
		"isinstance(d['jobs'][0]['ctx'], int) and d['jobs'][0]['usr_cpu'] + d['jobs'][0]['sys_cpu'] > 0" \
		<"$tmp/u.json" || return 1
	# ctx may be 0: on null_blk irqmode=0 completions are inline and a
	# short run's thread need neither wait nor be preempted.
	python3 -c 'import json,sys; j = json.load(open(sys.argv[1]))["jobs"][0]; print("# io_uring thread: usr %.2f%% sys %.2f%% ctx %d" % (j["usr_cpu"], j["sys_cpu"], j["ctx"]))' "$tmp/u.json"
	clat2csv u.json u.csv 1
}
bl_check "io_uring engine: the same objects, usr/sys/ctx of its threads; fio_jsonplus_clat2csv validates them" uring

# The checker itself: a document without clat bins is refused.
refuses() {
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for op in ("read", "write", "trim"):
    for lat in ("clat_ns", "lat_ns", "slat_ns"):
        d["jobs"][0][op][lat].pop("bins", None)
d["jobs"][0]["read"]["clat_ns"]["bins"] = {"1000": 5}
json.dump(d, open(sys.argv[2], "w"))' "$tmp/k.json" "$tmp/bad.json" &&
		! clat2csv bad.json bad.csv 1 >/dev/null &&
		echo '{"jobs": []}' >"$tmp/empty.json" &&
		! clat2csv empty.json empty.csv 1 >/dev/null
}
bl_check "the CSV check fails on bins that do not add up, and on no job" refuses

# fio's units follow the values (percentiles in msec once the tail passes
# 100 ms, as a TCG stall can make it): any of fio's three.
text() {
	blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=32 --number_ios=$n \
		--cpus 0 --sample-interval 10ms >"$tmp/t.txt" 2>&1 || return 1
	sed 's/^/# /' "$tmp/t.txt"
	python3 - "$tmp/t.txt" <<'PY'
import re, sys
want = [
    r'/dev/nullb0: \(groupid=0, jobs=1\): err= 0: job \d+ on /dev/nullb0, rw=randread, bs=4096, iodepth=32, cpus=0: done \(limit\)',
    r'  read: IOPS=[\d.]+k?, BW=[\d.]+[KM]iB/s \([\d.]+[kM]B/s\)\(78\.1MiB/\d+msec\)',
    r'    slat \((n|u)sec\): min=\d+, max=\d+, avg=[\d.]+, stdev=[\d.]+',
    r'    clat \((n|u|m)sec\): min=\d+, max=\d+, avg=[\d.]+, stdev=[\d.]+',
    r'     lat \((n|u|m)sec\): min=\d+, max=\d+, avg=[\d.]+, stdev=[\d.]+',
    r'    clat percentiles \((n|u|m)sec\):',
    r'     \|  1\.00th=\[ *\d+\],  5\.00th=\[ *\d+\], 10\.00th=\[ *\d+\], 20\.00th=\[ *\d+\],',
    r'     \| 30\.00th=\[ *\d+\], 40\.00th=\[ *\d+\], 50\.00th=\[ *\d+\], 60\.00th=\[ *\d+\],',
    r'     \| 70\.00th=\[ *\d+\], 80\.00th=\[ *\d+\], 90\.00th=\[ *\d+\], 95\.00th=\[ *\d+\],',
    r'     \| 99\.00th=\[ *\d+\], 99\.50th=\[ *\d+\], 99\.90th=\[ *\d+\], 99\.95th=\[ *\d+\],',
    r'     \| 99\.99th=\[ *\d+\]',
    r'     lat percentiles \((n|u|m)sec\):',
    r'     \|  1\.00th=\[ *\d+\],  5\.00th=.*',
    r'     \| 30\.00th=.*', r'     \| 70\.00th=.*', r'     \| 99\.00th=.*', r'     \| 99\.99th=\[ *\d+\]',
    r'   bw \(  KiB/s\): min=\d+, max=\d+, per=100\.00%, avg=[\d.]+, stdev=[\d.]+, samples=\d+',
    r'   iops        : min=\d+, max=\d+, avg=[\d.]+, stdev=[\d.]+, samples=\d+',
    ('+', r'  lat \((n|u|m)sec\)   : (\d+=[\d.]+%(, )?)+'),
    r'  cpu          : usr=0\.00%, sys=[\d.]+%, ctx=[1-9]\d*, \d+ ns/IO on 1 queues',
    r'  IO depths    : 1=[\d.]+%, 2=[\d.]+%, 4=[\d.]+%, 8=[\d.]+%, 16=[\d.]+%, 32=[\d.]+%, >=64=0\.0%',
    r'     issued rwts: total=20000,0,0,0 short=0,0,0,0 dropped=0,0,0,0',
    r'client CPU:',
    ('+', r'  [A-Za-z ,]+: +[\d.]+( s| us)?'),
    r'',
    r'Run status group 0 \(all jobs\):',
    r'   READ: bw=[\d.]+[KM]iB/s \([\d.]+[kM]B/s\), [\d.]+[KM]iB/s-[\d.]+[KM]iB/s \([\d.]+[kM]B/s-[\d.]+[kM]B/s\), io=78\.1MiB \(81\.9MB\), run=\d+-\d+msec',
    r'',
    r'Disk stats \(read/write\):',
    r'  nullb0: ios=20000/0, merge=0/0, ticks=\d+/0, in_queue=\d+, util=[\d.]+%',
]
got = open(sys.argv[1]).read().split('\n')
if got and got[-1] == '':
    got.pop()
i = 0
for w in want:
    more = isinstance(w, tuple)     # one line or more of this form
    w = w[1] if more else w
    if i >= len(got) or not re.fullmatch(w, got[i]):
        print('# line %d: %r does not match %r' % (i + 1, got[i] if i < len(got) else None, w))
        sys.exit(1)
    i += 1
    while more and i < len(got) and re.fullmatch(w, got[i]):
        i += 1
if i != len(got):
    print('# %d lines, %d matched' % (len(got), i))
    sys.exit(1)
PY
}
bl_check "the text report, line by line, as fio's" text

bl_check "nothing left of blkload" bl_clean

bl_mark end
ktap_finished
