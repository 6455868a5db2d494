#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio's numjobs, group_reporting, several jobs of a wave on the userspace
# engines, wait_for and buffered IO (direct=0), next to real fio on the same
# device in the same run: the same number of job entries and IOs, the
# device's own counters agreeing; numjobs copies that write share their
# run's claim, and another process is still kept out.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "fio's numjobs and group_reporting (userspace)"
bl_require_cmd blkload python3 fio

ktap_print_header
ktap_set_plan 13
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=2000

# The device's completed reads and writes (/sys/block/X/stat fields 1 and 5).
dstat() {
	awk '{ print $1, $5 }' /sys/block/nullb0/stat
}

# The same random-read line on blkload (engine $1) and on fio's libaio, each
# with the options after $1: their JSON in b.json and f.json.
blkload_line() {
	local engine=$1
	shift
	blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=4 --number_ios=$n \
		--ioengine="$engine" --output-format=json "$@" >"$tmp/b.json"
}
fio_line() {
	fio --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=4 --number_ios=$n \
		--ioengine=libaio --direct=1 --output-format=json --output="$tmp/f.json" "$@" \
		>/dev/null 2>&1
}
# Both documents' job entries and reads, then the checks in $1 (python, f b fj bj n).
compare_jobs() {
	python3 - "$tmp/f.json" "$tmp/b.json" $n "$1" <<'PY'
import json, sys
f, b = (json.load(open(p)) for p in sys.argv[1:3])
n = int(sys.argv[3])
fj, bj = f['jobs'], b['jobs']
print('# fio %d entries %s, blkload %d entries %s' % (
    len(fj), [j['read']['total_ios'] for j in fj], len(bj), [j['read']['total_ios'] for j in bj]))
missing = [k for k in fj[0]['read'] if k not in bj[0]['read']]
if missing:
    print('# missing: %s' % missing)
sys.exit(bool(missing) or not eval('(' + sys.argv[4] + ')'))
PY
}

# numjobs=4 without group_reporting: four entries of n IOs each, as fio's,
# and 4n reads on the device (module, then libaio).
copies() {
	local a b
	a=$(dstat)
	blkload_line "$1" --name=c --numjobs=4 || return 1
	b=$(dstat)
	fio_line --name=c --numjobs=4 || return 1
	echo "# device reads: $a -> $b"
	test $(( ${b% *} - ${a% *} )) = $(( 4 * n )) &&
		compare_jobs "len(fj) == len(bj) == 4 and
all(j['read']['total_ios'] == n for j in fj + bj) and
all(j['jobname'] == 'c' for j in bj) and b['all_jobs']['read']['total_ios'] == 4 * n"
}
bl_check "numjobs=4 on the module: four jobs of n IOs, as fio's; the device counts 4n" copies kernel
bl_check "numjobs=4 on libaio (four jobs of a wave together): the same" copies libaio

# group_reporting: one entry summing the copies, with fio's keys.
grouped() {
	blkload_line "$1" --name=g --numjobs=3 --group_reporting || return 1
	fio_line --name=g --numjobs=3 --group_reporting || return 1
	compare_jobs "len(fj) == len(bj) == 1 and
fj[0]['read']['total_ios'] == bj[0]['read']['total_ios'] == 3 * n and
bj[0]['read']['clat_ns']['N'] == 3 * n"
}
bl_check "numjobs=3 group_reporting (module): one entry of 3n IOs, as fio's" grouped kernel
bl_check "numjobs=3 group_reporting (io_uring): the same" grouped io_uring

# Copies that write share the run's claim: all four write n blocks each; the
# module and the io_uring engine alike.
writers() {
	local a b
	a=$(dstat)
	blkload run --name=w --filename=/dev/nullb0 --rw=randwrite --bs=4k --iodepth=4 \
		--number_ios=$n --numjobs=4 --group_reporting --allow-write --ioengine="$1" \
		--output-format=json >"$tmp/b.json" || return 1
	b=$(dstat)
	echo "# device writes: $a -> $b"
	test $(( ${b#* } - ${a#* } )) = $(( 4 * n )) &&
		bl_json "d['jobs'][0]['write']['total_ios'] == $(( 4 * n ))" <"$tmp/b.json"
}
both_writers() {
	writers kernel && writers io_uring
}
bl_check "numjobs=4 writers share the run's claim (module, io_uring): 4n writes" both_writers

# Another process is still kept out while the copies write (module, io_uring):
# blkload refuses, and the device is claimed (an O_EXCL open gets EBUSY).
excl_busy() {
	python3 -c 'import os, sys
try:
    os.close(os.open("/dev/nullb0", os.O_RDONLY | os.O_EXCL))
except OSError as e:
    sys.exit(0 if e.errno == 16 else 2)
sys.exit(1)'
}
kept_out() {
	local pid rc=0 i
	blkload run --filename=/dev/nullb0 --rw=randwrite --numjobs=2 --time_based --runtime=5 \
		--ioengine="$1" --allow-write >/dev/null 2>&1 &
	pid=$!
	# Until the copies write (the device's write count moves).
	for ((i = 0; i < 50; i++)); do
		sleep 0.1
		test "$(awk '{ print $5 }' /sys/block/nullb0/stat)" != "$2" && break
	done
	sleep 0.5
	excl_busy || { echo "# $1: the device is not claimed while the copies write"; rc=1; }
	if blkload run --dev /dev/nullb0 --rw=randwrite --number_ios=10 --allow-write \
		>"$tmp/o.out" 2>&1; then
		rc=1
	fi
	grep -q "claimed\|open by\|in use\|holds it" "$tmp/o.out" || rc=1
	sed 's/^/# /' "$tmp/o.out"
	wait $pid || rc=1
	for ((i = 0; i < 20; i++)); do
		excl_busy || break
		sleep 0.1
	done
	excl_busy && { echo "# $1: still claimed after the run"; rc=1; }
	return $rc
}
both_kept_out() {
	kept_out kernel "$(awk '{ print $5 }' /sys/block/nullb0/stat)" &&
		kept_out io_uring "$(awk '{ print $5 }' /sys/block/nullb0/stat)"
}
bl_check "another process writing the same device meanwhile: refused (module, io_uring)" both_kept_out

# fio's job file shapes: two jobs of a wave on libaio, then wait_for.
cat >"$tmp/two.fio" <<EOF
[global]
ioengine=libaio
buffered=0
rw=randread
bs=4k
number_ios=$n
filename=/dev/nullb0
directory=/data1	; a file option: ignored with a warning

[file1]
iodepth=4

[file2]
iodepth=16

[after]
wait_for=file1
rw=read
iodepth=1
EOF
jobfile() {
	blkload run --output-format=json "$tmp/two.fio" >"$tmp/b.json" 2>"$tmp/b.err" || return 1
	sed 's/^/# /' "$tmp/b.err"
	bl_json "len(d['jobs']) == 3" \
		"all(j['read']['total_ios'] == $n for j in d['jobs'])" \
		"abs(d['jobs'][0]['job_start'] - d['jobs'][1]['job_start']) < 1000" \
		"d['jobs'][2]['job_start'] > max(d['jobs'][0]['job_start'], d['jobs'][1]['job_start'])" \
		"d['jobs'][2]['groupid'] == 0" <"$tmp/b.json" &&
		grep -q "'directory' ignored" "$tmp/b.err"
}
bl_check "a job file: two jobs together on libaio, one wait_for after them" jobfile

# direct=0: through the page cache, on libaio when no engine is named; the
# device reads no more than the IOs done (the cache serves repeats); the
# module refuses it, saying where it runs.
buffered() {
	local a b out
	echo 1 >/proc/sys/vm/drop_caches
	a=$(dstat)
	blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --size=8m --number_ios=$((4 * n)) \
		--direct=0 --output-format=json >"$tmp/b.json" || return 1
	b=$(dstat)
	# 4n reads of 2048 blocks: the cache serves most; O_DIRECT would read 4n.
	echo "# device reads: $a -> $b"
	test $(( ${b% *} - ${a% *} )) -gt 0 && test $(( ${b% *} - ${a% *} )) -lt $((2 * n)) ||
		return 1
	bl_json "d['jobs'][0]['read']['total_ios'] == $((4 * n))" \
		"d['jobs'][0]['job options']['direct'] == '0'" <"$tmp/b.json" || return 1
	out=$(blkload run --dev /dev/nullb0 --direct=0 --ioengine=kernel --number_ios=1 2>&1) &&
		return 1
	echo "# $out"
	grep -q "ioengine=libaio or io_uring" <<<"$out"
}
bl_check "direct=0: buffered reads on libaio, the page cache serving repeats; the module refuses" buffered
# A size past the device's end: the region ends there, as in fio (one pass
# of the 1 GiB device in 1 MiB random reads: 1024 IOs for both).
past_end() {
	local fio_n
	blkload run --filename=/dev/nullb0 --rw=randread --bs=1m --size=4g --output-format=json \
		>"$tmp/b.json" 2>"$tmp/b.err" || return 1
	sed 's/^/# /' "$tmp/b.err"
	fio --name=p --filename=/dev/nullb0 --rw=randread --bs=1m --size=4g --direct=1 \
		--ioengine=libaio --output-format=json --output="$tmp/f.json" >/dev/null 2>&1 ||
		return 1
	fio_n=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["jobs"][0]["read"]["total_ios"])' "$tmp/f.json")
	echo "# fio: $fio_n IOs"
	test "$fio_n" = 1024 && grep -q "past the device's end" "$tmp/b.err" &&
		bl_json "d['jobs'][0]['read']['total_ios'] == 1024" <"$tmp/b.json"
}
bl_check "size past the device's end: the region ends there, 1024 IOs as fio's" past_end
# fio's runtime without time_based is a cap: one pass over a 16 MiB region
# (4096 4k reads) ends the job long before 60 s, on fio as on blkload's
# module and io_uring engine; with time_based the passes repeat for the runtime.
one_pass() {
	local t0=$SECONDS engine
	fio --name=p --filename=/dev/nullb0 --rw=randread --bs=4k --size=16m --runtime=60 \
		--direct=1 --ioengine=libaio --output-format=json --output="$tmp/f.json" \
		>/dev/null 2>&1 || return 1
	for engine in kernel io_uring; do
		blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --size=16m --runtime=60 \
			--ioengine=$engine --output-format=json >"$tmp/b.json" || return 1
		compare_jobs "fj[0]['read']['total_ios'] == bj[0]['read']['total_ios'] == 4096" ||
			return 1
	done
	echo "# two passes capped by their 60 s runtimes in $((SECONDS - t0)) s"
	((SECONDS - t0 < 40)) || return 1
	blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --size=16m --runtime=2 \
		--time_based --output-format=json >"$tmp/b.json" || return 1
	bl_json "d['jobs'][0]['read']['total_ios'] > 4096" \
		"d['jobs'][0]['done_reason'] == 'runtime'" <"$tmp/b.json"
}
bl_check "runtime without time_based: one pass (4096 IOs) as fio's; time_based: the whole runtime" one_pass
# A wave of 600 module jobs starts in one request (a page held ~500 ids).
many() {
	timeout 300 blkload run --dev /dev/nullb0 --rw=randread --numjobs=600 --number_ios=2 \
		--iodepth=1 --group_reporting --output-format=json >"$tmp/m.json" || return 1
	bl_json "d['jobs'][0]['read']['total_ios'] == 1200" <"$tmp/m.json"
}
bl_check "numjobs=600 on the module: every copy starts and ends (1200 IOs)" many

# A job of a userspace wave that fails ends the others: the run does not go on
# for the other's 30 s.
sibling() {
	local t0=$SECONDS out
	out=$(timeout 60 blkload run --ioengine=io_uring --name=bad --filename=/dev/nosuchdev \
		--name=good --filename=/dev/nullb0 --rw=randread --time_based --runtime=30 2>&1) &&
		return 1
	echo "# $((SECONDS - t0)) s: $(head -1 <<<"$out")"
	((SECONDS - t0 < 15))
}
bl_check "a failing job of a userspace wave ends the others at once" sibling
bl_check "nothing left of blkload" bl_clean
bl_unload
bl_mark end

ktap_finished
