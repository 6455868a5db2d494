#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The CLI on its real paths against the module, under valgrind: run (text
# with per-CPU rows, JSON+), start, list, stats, stop, and a kernel
# rejection. Each path is valgrind-clean and prints what it must: counts that
# add up, the job that was started, its state and reason.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "the CLI under valgrind (userspace)"
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
		--log-file="$tmp/vg" "$@" >"$tmp/out" 2>"$tmp/err"
	local rc=$?
	if [[ -s $tmp/vg ]] || ((rc == 99)); then
		sed 's/^/# /' "$tmp/vg"
		return 1
	fi
	return $rc
}

# Per-CPU rows: two CPUs, and their reads and writes add up to the 500 IOs.
run_text() {
	vg blkload run --dev /dev/nullb0 --rw randrw --number_ios 500 --iodepth 8 --cpus 0-1 \
		--per-cpu --allow-write || return 1
	sed 's/^/# /' "$tmp/out"
	grep -q '^/dev/nullb0: (groupid=0, jobs=1): err= 0: job [0-9]* on /dev/nullb0, rw=randrw, bs=4096, iodepth=8, cpus=0-1: done (limit)' \
		"$tmp/out" &&
		test "$(grep -c '^  cpu [01]: read ios=' "$tmp/out")" = 2 &&
		test "$(sed -n 's/^  cpu [01]: read ios=\([0-9]*\), write ios=\([0-9]*\),.*/\1 \2/p' \
			"$tmp/out" | awk '{ s += $1 + $2 } END { print s }')" = 500
}
bl_check "run (text, per-CPU): two CPU rows adding up to 500 IOs" run_text

run_json_plus() {
	vg blkload --output-format=json+ run --dev /dev/nullb0 --dev /dev/nullb0 \
		--number_ios 300 --percentile_list 50:99 || return 1
	bl_json "len(d['jobs']) == 2" \
		"d['all_jobs']['read']['total_ios'] == 600" \
		"sum(d['all_jobs']['read']['lat_ns']['bins'].values()) == 600" \
		"sorted(d['jobs'][0]['read']['lat_ns']['percentile']) == ['50.000000', '99.000000']" \
		"d['jobs'][0]['read']['lat_ns']['percentile']['50.000000'] <= d['jobs'][0]['read']['lat_ns']['percentile']['99.000000']" \
		<"$tmp/out"
}
bl_check "run (json+): two jobs, 600 IOs, bins and the asked percentiles" run_json_plus

start_job() {
	vg blkload -j start --dev /dev/nullb0 --time_based --runtime 600 || return 1
	id=$(bl_started_id <"$tmp/out") && test -n "$id"
}
bl_check "start: a job id" start_job
list_it() {
	vg blkload -j list || return 1
	bl_json "any(j['job_id'] == $id and j['state'] == 'running' and j['detached']
	          for j in d['jobs'])" <"$tmp/out"
}
bl_check "list: the job, running and detached" list_it
stats_it() {
	vg blkload stats --per-cpu "$id" || return 1
	sed 's/^/# /' "$tmp/out"
	grep -q "^/dev/nullb0: (groupid=0, jobs=1): err= 0: job $id on /dev/nullb0, rw=read, .*: running" "$tmp/out" &&
		grep -q '^  cpu 0: read ios=[1-9]' "$tmp/out"
}
bl_check "stats: the running job, IOs on CPU 0" stats_it
stop_it() {
	vg blkload -j stop "$id" || return 1
	bl_json "d['jobs'][0]['job_id'] == $id" "d['jobs'][0]['state'] == 'done'" \
		"d['jobs'][0]['done_reason'] == 'stopped'" "d['jobs'][0]['read']['total_ios'] > 0" \
		<"$tmp/out" && bl_wait $((20 * BL_SCALE)) bl_has_jobs 0
}
bl_check "stop: done, reason stopped, then gone" stop_it
rejected() {
	vg blkload run --dev /dev/nullb0 --bs 8m
	test $? = 1 && grep -q -- "--bs [0-9]*: integer out of range (allowed 512..4194304)" "$tmp/err"
}
bl_check "a kernel rejection: exit 1 and the reason" rejected

bl_mark end
ktap_finished
