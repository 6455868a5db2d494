#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CLI is valgrind-clean on its real paths against the module: run (text,
# JSON, json+), start, list, stats, stop, and a kernel rejection.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload valgrind python3

ktap_print_header
ktap_set_plan 7
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

vg() {
	valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
		--log-file="$tmp/vg" "$@" >"$tmp/out" 2>&1
	local rc=$?
	if [[ -s $tmp/vg ]] || ((rc == 99)); then
		sed 's/^/# /' "$tmp/vg"
		return 1
	fi
	return $rc
}

bl_check "run (text, per-CPU)" vg blkload run --dev /dev/nullb0 --rw randrw --number_ios 500 \
	--iodepth 8 --cpus 0-1 --per-cpu --allow-write
bl_check "run (json+)" vg blkload --output-format=json+ run --dev /dev/nullb0 --dev /dev/nullb0 \
	--number_ios 300 --percentile_list 50:99
start_job() {
	vg blkload -j start --dev /dev/nullb0 --runtime 30 &&
		id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])' <"$tmp/out")
}
bl_check "start" start_job
bl_check "list" vg blkload -j list
bl_check "stats" vg blkload stats --per-cpu "$id"
bl_check "stop" vg blkload -j stop "$id"
rejected() {
	vg blkload run --dev /dev/nullb0 --bs 8m
	test $? = 1 && grep -q "bs: integer out of range" "$tmp/out"
}
bl_check "a kernel rejection" rejected

bl_mark end
ktap_finished
