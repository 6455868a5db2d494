#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Privilege and namespaces. A job belongs to its socket, named by network
# namespace and port id: an unprivileged user who binds, in a namespace of
# its own, sockets to every generic netlink port id of the initial
# namespace and closes them, stops nobody's job. Nobody may stop a job or
# read its events without CAP_SYS_ADMIN, and CAP_NET_ADMIN alone does not
# make a job.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 unshare setpriv

ktap_print_header
ktap_set_plan 7
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=1000000
# Debian lets users make user namespaces; say so explicitly for the test.
[[ -w /proc/sys/kernel/unprivileged_userns_clone ]] &&
	echo 1 >/proc/sys/kernel/unprivileged_userns_clone
tmp=$(mktemp -d)
chmod 755 "$tmp"
trap 'kill $rpid 2>/dev/null; rm -rf "$tmp"' EXIT
# What nobody runs must be readable by nobody wherever the checkout lives.
cp "$BL_DIR/blnl.py" "$BLKLOAD_TOP/include/uapi/linux/blkload.h" "$tmp/"
chmod 644 "$tmp/blnl.py" "$tmp/blkload.h"
export BLNL_UAPI=$tmp/blkload.h
nobody() {
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
}

# Long enough to outlast the steps below on a slow machine (they took over
# 6 s under emulation on one), which must all find it running.
blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --time_based --runtime $((20 * BL_SCALE)) \
	>"$tmp/run.json" 2>&1 &
rpid=$!
bl_wait 50 bl_has_jobs 1
id=$(blkload -j list | python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
sleep 0.5

# The port ids of every generic netlink socket, read as nobody, bound again
# from nobody's own user and network namespace.
pids=$(nobody awk '$2 == 16 && $3 != 0 { print $3 }' /proc/net/netlink | tr '\n' ' ')
bound=$(nobody unshare -Urn python3 "$tmp/blnl.py" squat $pids)
echo "# bound and closed $bound of the port ids: $pids"
bl_check "an unprivileged namespace took the port ids ($bound of them)" test "${bound:-0}" -gt 0
bl_check "the job still runs after their sockets closed" \
	test "$(bl_job_state "$id")" = running

out=$(nobody blkload stop "$id" 2>&1) && rc=0 || rc=$?
echo "# $out"
bl_check "nobody cannot stop it (EPERM)" \
	test "$rc" -ne 0 -a "$(bl_job_state "$id")" = running
grep -q "Operation not permitted" <<<"$out" || echo "# (no EPERM in the message)"

wait $rpid
bl_check "the run ends normally, by its runtime" grep -q '"done_reason":"runtime"' "$tmp/run.json"

# Events: root sees one, nobody cannot join, nobody's namespace sees none.
events() {
	bl_nl listen $((4 * BL_SCALE)) >"$tmp/root" 2>&1 &
	local r=$!
	nobody python3 "$tmp/blnl.py" listen $((4 * BL_SCALE)) >"$tmp/nobody" 2>&1 &
	local n=$!
	nobody unshare -Urn python3 "$tmp/blnl.py" listen $((4 * BL_SCALE)) \
		>"$tmp/ns" 2>&1 &
	local s=$!
	# All three have joined (or failed to) before the job runs.
	bl_wait $((50 * BL_SCALE)) bash -c "grep -q '^# listening' '$tmp/root' &&
		grep -q . '$tmp/nobody' && grep -q . '$tmp/ns'"
	blkload run --dev /dev/nullb0 --number_ios 100 >/dev/null
	wait $r $n $s
	sed 's/^/# root: /' "$tmp/root"
	sed 's/^/# nobody: /' "$tmp/nobody"
	sed 's/^/# nobody in its namespaces: /' "$tmp/ns"
	test "$(tail -1 "$tmp/root")" -ge 1 &&
		grep -q "errno 1:" "$tmp/nobody" &&
		{ grep -q "^errno" "$tmp/ns" || test "$(tail -1 "$tmp/ns")" = 0; }
}
bl_check "events: root gets one; nobody may not join (EPERM); another namespace gets none" events

no_sys_admin() {
	local out
	out=$(setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin \
		blkload run --dev /dev/nullb0 --number_ios 10 2>&1) && return 1
	echo "# $out"
	grep -q "need CAP_SYS_ADMIN" <<<"$out"
}
bl_check "CAP_NET_ADMIN without CAP_SYS_ADMIN: no job" no_sys_admin
bl_check "nothing left" bl_clean

bl_mark end
ktap_finished
