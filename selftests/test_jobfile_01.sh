#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio job files: a file fio itself accepts ([global], ${VAR}, comments, two
# jobs together, a third after a stonewall) runs with "blkload run FILE":
# the two run at the same time and the third alone after them, each does
# its exact IO count, names and groups as fio's, the command line's options
# win over the file's; an option blkload lacks is refused with its line.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "fio job files (CLI parsing)"
bl_require_cmd blkload python3 fio

ktap_print_header
ktap_set_plan 8
bl_mark start
bl_load
# 200 us completions: two seconds of IO are a few thousand IOs, not millions.
bl_nullb nr_devices=2 gb=1 irqmode=2 completion_nsec=200000 memory_backed=0
bl_no_timeout nullb0
bl_no_timeout nullb1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

cat >"$tmp/two.fio" <<'FIO'
; two jobs together, then one alone (fio's own syntax throughout)
[global]
ioengine=libaio
direct=1
bs=4k
iodepth=4
# the device comes from the environment
filename=${BL_DEV_A}

[reader]
rw=randread
runtime=3
time_based

[writer]
filename=${BL_DEV_B}
rw=randwrite
allow_write
number_ios=20000

[after]
stonewall
rw=read
runtime=1
time_based
FIO
sed '/allow_write/d' "$tmp/two.fio" >"$tmp/fio.fio"

parses() {
	BL_DEV_A=/dev/nullb0 BL_DEV_B=/dev/nullb1 fio --parse-only "$tmp/fio.fio" >/dev/null
}
bl_check "fio itself accepts the job file" parses

# Which jobs run, sampled while the file runs.
sample() {
	local end=$((SECONDS + 30))
	while ((SECONDS < end)); do
		blkload list 2>/dev/null | awk '$3 == "running" { printf "%s ", $1 } END { print "" }'
		sleep 0.1
	done
}
sample >"$tmp/samples" &
spid=$!
BL_DEV_A=/dev/nullb0 BL_DEV_B=/dev/nullb1 blkload -j run --ioengine=kernel "$tmp/two.fio" \
	>"$tmp/out.json" 2>"$tmp/err"
rc=$?
kill $spid 2>/dev/null
wait $spid 2>/dev/null
sed 's/^/# /' "$tmp/err"

runs() {
	((rc == 0)) || return 1
	bl_json "[j['jobname'] for j in d['jobs']] == ['reader', 'writer', 'after']" \
		"[j['groupid'] for j in d['jobs']] == [0, 0, 1]" \
		"[j['device'] for j in d['jobs']] == ['/dev/nullb0', '/dev/nullb1', '/dev/nullb0']" \
		"d['jobs'][0]['read']['total_ios'] > 0 and d['jobs'][0]['write']['total_ios'] == 0" \
		"d['jobs'][0]['done_reason'] == 'runtime'" \
		"d['jobs'][1]['write']['total_ios'] == 20000 and d['jobs'][1]['read']['total_ios'] == 0" \
		"d['jobs'][2]['read']['total_ios'] > 0 and d['jobs'][2]['done_reason'] == 'runtime'" \
		"d['jobs'][1]['job options']['rw'] == 'randwrite' and d['jobs'][1]['job options']['bs'] == '4k'" \
		"d['jobs'][0]['job options']['ioengine'] == 'kernel'" \
		"d['global options']['filename'] == '/dev/nullb0'" \
		"d['disk_util'][1]['name'] == 'nullb1' and d['disk_util'][1]['write_ios'] == 20000" \
		<"$tmp/out.json"
}
bl_check "three jobs: names, groups, devices, exact counts, options as fio's" runs

together() {
	python3 - "$tmp/samples" "$tmp/out.json" <<'PY'
import json, sys
ids = [j['job_id'] for j in json.load(open(sys.argv[2]))['jobs']]
samples = [set(map(int, l.split())) for l in open(sys.argv[1]) if l.strip()]
both = sum(1 for s in samples if {ids[0], ids[1]} <= s)
alone = sum(1 for s in samples if ids[2] in s)
mixed = sum(1 for s in samples if ids[2] in s and s & {ids[0], ids[1]})
print('# %d samples: %d with both first jobs, %d with the third, %d mixed' %
      (len(samples), both, alone, mixed))
sys.exit(not (both and alone and not mixed))
PY
}
bl_check "the first two run at the same time, the third never with them" together

text() {
	BL_DEV_A=/dev/nullb0 BL_DEV_B=/dev/nullb1 blkload run --ioengine=kernel --time_based --runtime=1 \
		"$tmp/two.fio" >"$tmp/t.txt" 2>&1 || return 1
	sed 's/^/# /' "$tmp/t.txt"
	grep -q '^reader (/dev/nullb0): (groupid=0, jobs=1): err= 0: ' "$tmp/t.txt" &&
		grep -q '^after (/dev/nullb0): (groupid=1, jobs=1): err= 0: ' "$tmp/t.txt" &&
		grep -q '^Run status group 0 (all jobs):$' "$tmp/t.txt" &&
		grep -q '^Run status group 1 (all jobs):$' "$tmp/t.txt" &&
		grep -q '^  nullb1: ios=0/[1-9][0-9]*, ' "$tmp/t.txt" &&
		grep -q '^writer (/dev/nullb1): .*: done (runtime)$' "$tmp/t.txt"
}
bl_check "text: jobs by section name, two run status groups, disk stats" text

# The command line's device and name replace the file's (not a second device).
override() {
	BL_DEV_A=/dev/nullb0 BL_DEV_B=/dev/nullb1 blkload -j run --ioengine=kernel \
		--filename=/dev/nullb1 --name=cli --time_based --runtime=1 "$tmp/two.fio" |
		bl_json "len(d['jobs']) == 3" \
			"all(j['device'] == '/dev/nullb1' and j['jobname'] == 'cli' for j in d['jobs'])" \
			"d['all_jobs']['elapsed_ns'] >= d['jobs'][0]['elapsed_ns'] + d['jobs'][2]['elapsed_ns']"
}
bl_check "command line --filename and --name replace the file's; waves add up in the sum" override

vg_run() {
	command -v valgrind >/dev/null || { echo "# no valgrind"; return 1; }
	BL_DEV_A=/dev/nullb0 BL_DEV_B=/dev/nullb1 valgrind -q --leak-check=full \
		--errors-for-leak-kinds=all --error-exitcode=99 --log-file="$tmp/vg" \
		blkload -j run --ioengine=kernel --time_based --runtime=1 --number_ios=2000 "$tmp/two.fio" \
		>/dev/null 2>&1
	local rc=$?
	sed 's/^/# /' "$tmp/vg"
	((rc == 0)) && ! [[ -s $tmp/vg ]]
}
bl_check "a job-file run (three jobs, two waves) under valgrind: clean" vg_run

refusals() {
	local out
	printf '[global]\nfilename=/dev/nullb0\n[a]\nrw=read\nrate_ignore_thinktime=1\n' >"$tmp/bad.fio"
	out=$(blkload run "$tmp/bad.fio" 2>&1)
	(($? == 2)) && echo "# $out" &&
		grep -q "bad.fio:5: 'rate_ignore_thinktime' is a fio I/O rate option that blkload does not have yet" <<<"$out" || return 1
	printf '[global]\nfilename=/dev/nullb0\nnumber_ios=10\n[a]\nioengine=kernel\n[b]\nioengine=libaio\n' >"$tmp/mixed.fio"
	out=$(blkload run "$tmp/mixed.fio" 2>&1)
	(($? == 2)) && echo "# $out" && grep -q "on the module or on userspace engines, not both" <<<"$out" || return 1
	out=$(BL_DEV_A=/dev/nullb0 blkload run --ioengine=kernel "$tmp/two.fio" 2>&1)
	(($? == 2)) && echo "# $out" && grep -q 'BL_DEV_B} is not set' <<<"$out" || return 1
	out=$(BL_DEV_A=/dev/nullb0 BL_DEV_B=/dev/nullb1 blkload start "$tmp/two.fio" --ioengine=kernel 2>&1)
	(($? == 2)) && echo "# $out" && grep -q "'stonewall' needs run" <<<"$out"
}
bl_check "refusals: an option with its line, the module and an engine together, an unset variable, start with stonewall" refusals

bl_check "nothing left of blkload" bl_clean

bl_mark end
ktap_finished
