#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio's steady state (ss, ss_dur, ss_ramp) on the module: a job whose IOPS
# hold within the limit over the window ends there, long before its
# runtime, with fio's "steadystate" object (attained, the window's values);
# a limit it cannot meet lets it run its runtime, attained 0; under
# group_reporting the group's jobs are one check and end together. Real
# fio, same device and options, attains too. The userspace engines refuse
# ss in words.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 fio

ktap_print_header
ktap_set_plan 5
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# A rate holds the IOPS steady under emulation: 500 a second, 20% allowed.
ss_opts="--rw=randread --rate_iops=500 --time_based --runtime=60 --ss=iops:20% --ss_dur=4s --ss_ramp=1s"

attained() {
	# shellcheck disable=SC2086
	blkload -j run --dev /dev/nullb0 $ss_opts >"$tmp/a.json" || return 1
	# shellcheck disable=SC2086
	fio --name=f --filename=/dev/nullb0 --direct=1 --ioengine=libaio $ss_opts \
		--output-format=json >"$tmp/f.json" || return 1
	python3 -c '
import json, sys
b = json.load(open(sys.argv[1]))["jobs"][0]
f = json.load(open(sys.argv[2]))["jobs"][0]
s, fs = b["steadystate"], f["steadystate"]
print("# blkload: attained %d in %d ms, criterion %s, iops %s" % (
    s["attained"], b["job_runtime"], s["criterion"], s["data"]["iops"]))
print("# fio:     attained %d in %d ms, criterion %s, iops %s" % (
    fs["attained"], f["job_runtime"], fs["criterion"], fs["data"]["iops"]))
ok = s["attained"] == 1 and fs["attained"] == 1 and s["ss"] == fs["ss"]
ok &= b["job_runtime"] < 30000 and f["job_runtime"] < 30000
ok &= len(s["data"]["iops"]) == 4 and all(abs(v - 500) <= 100 for v in s["data"]["iops"])
ok &= b["done_reason"] == "stopped" and b["error"] == 0
sys.exit(0 if ok else 1)' "$tmp/a.json" "$tmp/f.json"
}
bl_check "ss=iops:20% over 4 s: attained and ended early, as real fio (same ss, 4 values near 500)" \
	attained

# Nothing is below 0%: the job runs its runtime and says it did not attain.
not_attained() {
	blkload -j run --dev /dev/nullb0 --rw=randread --rate_iops=500 --time_based \
		--runtime=4 --ss=iops:0% --ss_dur=2s | bl_json \
		'd["jobs"][0]["steadystate"]["attained"] == 0' \
		'd["jobs"][0]["done_reason"] == "runtime"' \
		'abs(d["jobs"][0]["job_runtime"] - 4000) <= 400'
}
bl_check "ss=iops:0%: never attained, the job runs its runtime" not_attained

# group_reporting: two copies, one check over their sum; both end at once.
group() {
	blkload -j run --dev /dev/nullb0 --rw=randread --rate_iops=250 --numjobs=2 \
		--group_reporting --time_based --runtime=60 --ss=iops:20% --ss_dur=4s \
		--ss_ramp=1s | bl_json 'len(d["jobs"]) == 1' \
		'd["jobs"][0]["steadystate"]["attained"] == 1' \
		'all(abs(v - 500) <= 100 for v in d["jobs"][0]["steadystate"]["data"]["iops"])' \
		'd["jobs"][0]["job_runtime"] < 60000'
}
bl_check "group_reporting: one check over the group's sum (500 IOPS), attained, both copies ended" group

bl_check "the io_uring engine refuses ss in words" bl_refused "module's jobs only yet" \
	blkload run --ioengine=io_uring --dev /dev/nullb0 --ss=iops:20% --ss_dur=4s --runtime=1
bl_check "nothing left" bl_clean
ktap_finished
