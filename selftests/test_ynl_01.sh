#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The spec has a second client: the kernel's own YNL cli.py (tools/net/ynl
# of Debian's linux-source, installed beside the tests by ksft-install.sh)
# drives the family from Documentation/netlink/specs/blkload.yaml alone,
# validated against the kernel's genetlink-legacy schema: info, a job made,
# started, its statistics read (checked against the device's own
# counters), stopped and deleted; errors come back with their extack
# messages.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "a second client (YNL) of the handlers every other test drives"
bl_require_cmd blkload

ynl=$BL_DIR/../ynl
spec=$BLKLOAD_TOP/Documentation/netlink/specs/blkload.yaml
# Debian's python3, with python3-yaml and python3-jsonschema.
py=/usr/bin/python3
if [[ ! -f $ynl/cli.py ]] || ! $py -c 'import yaml, jsonschema' 2>/dev/null; then
	ktap_skip_all "YNL's cli.py, python3-yaml or python3-jsonschema missing"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 8
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
echo none >/sys/block/nullb0/queue/scheduler
tmp=$(mktemp -d)
id=
# A step that fails leaves no detached job behind.
trap '[[ -n $id ]] && blkload stop "$id" >/dev/null 2>&1; rm -rf "$tmp"' EXIT

yn() {
	$py "$ynl/cli.py" --spec "$spec" --schema "$ynl/genetlink-legacy.yaml" --output-json "$@"
}

info() {
	yn --do info-get >"$tmp/info.json" || return 1
	python3 - "$tmp/info.json" "$(cat /sys/module/blkload/version)" "$(uname -r)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("# info-get: %s" % d)
sys.exit(0 if d["version"] == sys.argv[2] and d["kernel-release"] == sys.argv[3] and
         d["abi-version"] == 3 and d["nr-jobs"] == 0 else 1)
PY
}
bl_check "info-get: version, kernel release, ABI as the module has them" info

# A detached job: cli.py's socket closes after each command, and a job its
# owner leaves behind would be ended (owner-gone).
new() {
	yn --do job-new --json '{"path": "/dev/nullb0", "rw": "randread", "bs": 4096,
		"iodepth": 4, "cpumask": "0100000000000000", "runtime": 60000000000,
		"detached": true}' >"$tmp/new.json" || return 1
	id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["job-id"])' <"$tmp/new.json")
	[[ -n $id ]] && blkload -j list | bl_json "d['jobs'][0]['job_id'] == $id" \
		"d['jobs'][0]['state'] == 'created'"
}
bl_check "job-new: a detached randread job on nullb0" new

reads_before=$(awk '{ print $1 }' /sys/block/nullb0/stat)
start() {
	yn --do job-start --json "{\"job-id\": $id}" >/dev/null &&
		blkload -j list | bl_json "d['jobs'][0]['state'] == 'running'"
}
bl_check "job-start: the job runs" start

stats() {
	sleep 1
	yn --do job-get --json "{\"job-id\": $id, \"want-queues\": true}" >"$tmp/get.json" || return 1
	python3 - "$tmp/get.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
r = d["stats"]["read"]
q = d["stats"]["queue"]
print("# job-get: state %s, %d reads, %d queue(s)" % (d["state"], r["ios"], len(q)))
sys.exit(0 if d["state"] == "running" and r["ios"] > 0 and len(q) == 1 else 1)
PY
}
bl_check "job-get: its statistics, with the queue list (multi-attr)" stats

stop() {
	yn --do job-stop --json "{\"job-id\": $id}" >/dev/null || return 1
	bl_wait 50 bash -c "blkload -j list | grep -q '\"state\":\"done\"'" || return 1
	yn --do job-get --json "{\"job-id\": $id}" >"$tmp/end.json" || return 1
	python3 - "$tmp/end.json" "$reads_before" "$(awk '{ print $1 }' /sys/block/nullb0/stat)" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
dev = int(sys.argv[3]) - int(sys.argv[2])
ios = d["stats"]["read"]["ios"]
print("# job-stop: done (%s), %d reads counted, the device saw %d" % (d["reason"], ios, dev))
sys.exit(0 if d["state"] == "done" and d["reason"] == "stopped" and ios == dev else 1)
PY
}
bl_check "job-stop: done, its reads are the device's own count" stop

del() {
	yn --do job-del --json "{\"job-id\": $id}" >/dev/null && id= && bl_clean
}
bl_check "job-del: nothing left" del

# Errors: cli.py prints the kernel's extack message and exits 1.
errors() {
	local rc=0
	yn --do job-start --json '{"job-id": 4294967295}' >"$tmp/e1" 2>&1 || rc=$?
	((rc == 1)) && grep -q "'msg': 'no such job'" "$tmp/e1" || { cat "$tmp/e1"; return 1; }
	rc=0
	yn --do job-new --json '{"rw": "read"}' >"$tmp/e2" 2>&1 || rc=$?
	((rc == 1)) && grep -q "a device path is required" "$tmp/e2" || { cat "$tmp/e2"; return 1; }
	sed -n 's/^.*extack/# extack/p' "$tmp/e1" "$tmp/e2"
}
bl_check "errors: extack messages through cli.py (no such job, no device path)" errors

# nobody may not reach the tree (a clone in /root): a readable copy of the
# client and the spec.
unpriv() {
	local rc=0 pub
	pub=$(mktemp -d)
	cp -r "$ynl" "$pub/ynl" && cp "$spec" "$pub/" && chmod -R a+rX "$pub" || return 1
	(cd "$pub" && setpriv --reuid=nobody --regid=nogroup --clear-groups \
		$py ynl/cli.py --spec blkload.yaml --schema ynl/genetlink-legacy.yaml \
		--do job-new --json '{"path": "/dev/nullb0"}') >"$tmp/e3" 2>&1 || rc=$?
	rm -rf "$pub"
	((rc == 1)) && grep -q "CAP_SYS_ADMIN\|Operation not permitted" "$tmp/e3" && bl_clean ||
		{ echo "# exit $rc"; tail -5 "$tmp/e3" | sed 's/^/# /'; return 1; }
}
bl_check "an unprivileged job-new through cli.py is refused, nothing made" unpriv

ktap_finished
