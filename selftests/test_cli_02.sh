#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio habits on the command line: a fio command line runs unchanged after
# "blkload run" (both engines), global options after the command, options
# after job ids, fio's numbers, and one-line refusals; fio's forms as others
# write them: a Ceph user's options, a CBT-shaped line (one-dash options,
# --output-format=json,normal, checked against real fio's file), a job file
# with comments, aliases, file options and options blkload behaves like.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "the CLI's option handling"
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 11
bl_mark start
bl_load
bl_nullb nr_devices=2 gb=1 irqmode=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fio_line() {
	blkload run --name=randread-test --filename=/dev/nullb0:/dev/nullb1 --ioengine=$1 \
		--direct=1 --rw=randread --bs=4k --iodepth=8 --time_based --runtime=1 \
		--numjobs=2 --cpus_allowed_policy=split --group_reporting --norandommap \
		--output-format=json --output="$tmp/$1.json" || return 1
	# Two copies on each device, group_reporting: one entry, as fio's.
	bl_json "len(d['jobs']) == 1" "d['jobs'][0]['jobname'] == 'randread-test'" \
		"d['jobs'][0]['read']['total_ios'] == d['all_jobs']['read']['total_ios'] > 0" \
		"d['jobs'][0]['nr_queues'] == 4" <"$tmp/$1.json"
}
bl_check "a fio command line runs unchanged (libaio), report in --output" fio_line libaio
bl_check "the same line on the module (ioengine=kernel)" fio_line kernel

numbers() {
	blkload run --dev /dev/nullb0 --bs 0x1000 --iodepth 08 --number_ios 010 \
		--drain-timeout 100msec -j | bl_json "d['jobs'][0]['read']['total_ios'] == 10" \
		"d['jobs'][0]['bs'] == 4096" "d['jobs'][0]['iodepth'] == 8"
}
bl_check "fio's numbers: 0x1000, 08, 010 (ten), 100msec; -j after the command" numbers

after_ids() {
	local id
	id=$(blkload -j start --dev /dev/nullb0 --rw randread --time_based --runtime 30 |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
	blkload stats "$id" --per_cpu --output-format=json | bl_json "len(d['jobs']) == 1" &&
		blkload stop "$id" --drain-timeout 5s -j >/dev/null
}
bl_check "options after job ids: stats ID --per_cpu, stop ID --drain-timeout 5s" after_ids

refusals() {
	local out
	out=$(blkload run --dev /dev/nullb0 --rate_ignore_thinktime=1 2>&1) && return 1
	test "$(wc -l <<<"$out")" = 1 && grep -q -- "'rate_ignore_thinktime' is a fio I/O rate option that blkload does not have yet" <<<"$out" || return 1
	out=$(blkload run --dev /dev/nullb0 --direct=0 --ioengine=kernel 2>&1) && return 1
	grep -q "the module's bios do not go through it" <<<"$out" || return 1
	out=$(blkload run --dev /dev/nullb0 --bogus 2>&1) && return 1
	test "$(wc -l <<<"$out")" = 2
}
bl_check "refusals in one line: --rate, --direct=0, an unknown option (no usage dump)" refusals
# The options a Ceph user posted for cluster runs, as written (bools given apart).
ceph_user() {
	blkload run --filename=/dev/nullb0 --rw=randread --bs=4k --iodepth=4 \
		--cpus_allowed_policy split --randrepeat 0 --disk_util 0 --time_based \
		--time_based --runtime 1 --ramp_time 0 --numjobs 1 --buffered 0 --output-format=json |
		bl_json "d['jobs'][0]['read']['total_ios'] > 0" "d['jobs'][0]['randseed'] != 0"
}
bl_check "a Ceph user's options: --randrepeat 0 --disk_util 0 --buffered 0 --numjobs 1" ceph_user

# CBT's shape: one-dash options, JSON then text in one --output file; real fio
# writes the same shape for the same line (after its start-up lines, which
# readers such as CBT skip: the document starts at a line "{").
json_then_text() {
	python3 -c '
import json, sys
t = open(sys.argv[1]).read()
start = 0 if t.startswith("{") else t.find("\n{\n") + 1
d, end = json.JSONDecoder().raw_decode(t, start)
rest = t[end:]
if not d["jobs"][0]["read"]["total_ios"] > 0 or "IOPS=" not in rest:
    print("# %s: no IO in the JSON or no text after it" % sys.argv[1])
    sys.exit(1)' "$1"
}
cbt_line() {
	local tool
	mkdir -p "$tmp/bin" && ln -sf "$(command -v blkload)" "$tmp/bin/fio" || return 1
	for tool in "blkload run" "$tmp/bin/fio" fio; do
		$tool --output-format=json,normal --output="$tmp/cbt.out" --end_fsync=0 \
			-ioengine=libaio --name=cbt --filename=/dev/nullb0 --rw=randread --bs=4k \
			--iodepth=4 --time_based --runtime=1 --direct=1 >/dev/null || return 1
		json_then_text "$tmp/cbt.out" || { echo "# $tool"; return 1; }
		rm -f "$tmp/cbt.out"
	done
}
bl_check "a CBT-shaped line: -ioengine, --end_fsync=0, --output-format=json,normal; blkload as a link named fio; real fio" cbt_line

job_file() {
	local err
	cat >"$tmp/c.fio" <<-'EOF'
	[global] ; defaults
	rw=randread	# random reads
	buffered=0
	directory=/mnt ; a file option
	filesize=512m
	nrfiles=2
	timeout=1
	time_based
	[one]
	numjobs=1 ; one copy
	filename=/dev/nullb0 ; or a full disk
	EOF
	blkload run --output-format=json "$tmp/c.fio" 2>"$tmp/err" >"$tmp/c.json" || {
		cat "$tmp/err"; return 1; }
	err=$(cat "$tmp/err")
	grep -q "c.fio:4: 'directory' ignored" <<<"$err" && grep -q "c.fio:6: 'nrfiles' ignored" <<<"$err" &&
		test "$(wc -l <<<"$err")" = 2 || { echo "# $err"; return 1; }
	bl_json "d['jobs'][0]['read']['total_ios'] > 0" "d['jobs'][0]['device'] == '/dev/nullb0'" \
		"0.9e9 < d['jobs'][0]['runtime_ns'] < 1.1e9" "d['jobs'][0]['size'] == 512 << 20" <"$tmp/c.json"
}
bl_check "a job file with comments anywhere, timeout (runtime), buffered=0, filesize (the region), file options warned once" job_file
# fio's jobs on one command line: each --name starts one, the options before
# the first are every job's; real fio runs the same line to the same counts.
several_names() {
	local args=(--rw=randread --bs=4k --number_ios=100 --name=a --filename=/dev/nullb0
		--name=b --filename=/dev/nullb1 --iodepth=2)
	blkload run "${args[@]}" --output-format=json >"$tmp/bl.json" || return 1
	fio --output-format=json --direct=1 --ioengine=libaio "${args[@]}" >"$tmp/fio.json" || return 1
	bl_json "[j['jobname'] for j in d['jobs']] == ['a', 'b']" \
		"[j['device'] for j in d['jobs']] == ['/dev/nullb0', '/dev/nullb1']" \
		"[j['iodepth'] for j in d['jobs']] == [1, 2]" \
		"[j['read']['total_ios'] for j in d['jobs']] == [100, 100]" <"$tmp/bl.json" &&
		bl_json "[j['jobname'] for j in d['jobs']] == ['a', 'b']" \
			"[j['read']['total_ios'] for j in d['jobs']] == [100, 100]" \
			"'iodepth' not in d['jobs'][0]['job options']" \
			"d['jobs'][1]['job options']['iodepth'] == '2'" <"$tmp/fio.json"
}
bl_check "several --name on one line: two jobs, options after a name are its own (as real fio)" several_names

# CBT's rawfio names the device with --name alone: fio's default filename is the job's name.
name_is_device() {
	blkload run --name=/dev/nullb1 --rw=read --number_ios=10 -j |
		bl_json "d['jobs'][0]['device'] == '/dev/nullb1'" "d['jobs'][0]['read']['total_ios'] == 10"
}
bl_check "--name=/dev/nullb1 alone is the device (CBT's rawfio)" name_is_device
bl_check "nothing left of blkload" bl_clean
bl_unload
bl_mark end
ktap_finished
