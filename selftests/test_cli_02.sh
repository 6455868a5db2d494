#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio habits on the command line: a fio command line runs unchanged after
# "blkload run" (both engines), global options after the command, options
# after job ids, fio's numbers, and one-line refusals.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "the CLI's option handling"
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 6
bl_mark start
bl_load
bl_nullb nr_devices=2 gb=1 irqmode=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fio_line() {
	blkload run --name=randread-test --filename=/dev/nullb0:/dev/nullb1 --ioengine=$1 \
		--direct=1 --rw=randread --bs=4k --iodepth=8 --runtime=1 --time_based \
		--numjobs=2 --cpus_allowed_policy=split --group_reporting --norandommap \
		--output-format=json --output="$tmp/$1.json" || return 1
	bl_json "len(d['jobs']) == 2" "all(j['jobname'] == 'randread-test' for j in d['jobs'])" \
		"all(j['read']['total_ios'] > 0 and j['nr_queues'] == 2 for j in d['jobs'])" \
		"d['jobs'][1]['device'] == '/dev/nullb1'" <"$tmp/$1.json"
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
	id=$(blkload -j start --dev /dev/nullb0 --rw randread --runtime 30 |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
	blkload stats "$id" --per_cpu --output-format=json | bl_json "len(d['jobs']) == 1" &&
		blkload stop "$id" --drain-timeout 5s -j >/dev/null
}
bl_check "options after job ids: stats ID --per_cpu, stop ID --drain-timeout 5s" after_ids

refusals() {
	local out
	out=$(blkload run --dev /dev/nullb0 --rate=5m 2>&1) && return 1
	test "$(wc -l <<<"$out")" = 1 && grep -q -- "--rate is a fio option blkload does not support" <<<"$out" || return 1
	out=$(blkload run --dev /dev/nullb0 --direct=0 2>&1) && return 1
	grep -q "never goes through the page cache" <<<"$out" || return 1
	out=$(blkload run --dev /dev/nullb0 --bogus 2>&1) && return 1
	test "$(wc -l <<<"$out")" = 2
}
bl_check "refusals in one line: --rate, --direct=0, an unknown option (no usage dump)" refusals
bl_check "nothing left of blkload" bl_clean
bl_unload
bl_mark end
ktap_finished
