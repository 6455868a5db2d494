#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "Job done" events on the multicast group carry the job and the reason it
# finished: limit, runtime, stopped.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 timeout

ktap_print_header
ktap_set_plan 3
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Starts a monitor for $1 events; waits until it has joined the group.
monitor() {
	timeout 30 blkload -j monitor --count "$1" >"$tmp/ev" 2>"$tmp/err" &
	mpid=$!
	bl_wait 50 grep -q monitoring "$tmp/err"
}

event_limit() {
	monitor 1 || return 1
	blkload run --dev /dev/nullb0 --number_ios 123 >/dev/null || return 1
	wait $mpid || return 1
	sed 's/^/# /' "$tmp/ev"
	bl_json "d['event'] == 'job-done'" "d['device'] == '/dev/nullb0'" \
		"d['done_reason'] == 'limit'" "d['ios'] == 123" "d['error'] == 0" <"$tmp/ev"
}
bl_check "number_ios: one event, reason limit, 123 IOs" event_limit

event_runtime() {
	monitor 2 || return 1
	blkload run --dev /dev/nullb0 --dev /dev/nullb0 --time_based --runtime 1 >/dev/null || return 1
	wait $mpid || return 1
	sed 's/^/# /' "$tmp/ev"
	test "$(grep -c '"done_reason":"runtime"' "$tmp/ev")" = 2
}
bl_check "two jobs with a runtime: two events, reason runtime" event_runtime

event_stopped() {
	local id
	monitor 1 || return 1
	id=$(blkload -j start --dev /dev/nullb0 --time_based --runtime 60 |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
	blkload stop "$id" >/dev/null || return 1
	wait $mpid || return 1
	sed 's/^/# /' "$tmp/ev"
	bl_json "d['done_reason'] == 'stopped'" "d['job_id'] == $id" <"$tmp/ev"
}
bl_check "a stopped detached job: reason stopped" event_stopped

bl_mark end
ktap_finished
