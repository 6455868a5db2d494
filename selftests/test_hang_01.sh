#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A device that does not answer never hangs the CLI or rmmod: on a null_blk
# that takes 15 s per IO, stop gives up after its drain timeout and says what
# is in flight, rmmod fails at once while that IO is out, and everything is
# freed (and the module unloads) once the device completes it.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 6
bl_mark start
bl_unload
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=15000000000

id=$(blkload -j start --dev /dev/nullb0 --rw randread --iodepth 4 --runtime 60 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
sleep 1
t0=$(bl_ms)
out=$(blkload stop --drain-timeout 300 "$id" 2>&1) && rc=0 || rc=$?
t1=$(bl_ms)
echo "$out" | grep blkload: | sed 's/^/# /'
echo "# stop returned after $((t1 - t0)) ms"
bl_check "stop fails after its drain timeout, in under 3 s" \
	test "$rc" -ne 0 -a $((t1 - t0)) -lt 3000
bl_check "and says what is still in flight" \
	grep -q "did not complete.*in time" <<<"$out"
bl_check "4 IOs in flight reported" grep -q "4 IOs still in flight on /dev/nullb0" <<<"$out"

t0=$(bl_ms)
modprobe -r blkload 2>/dev/null && rc=0 || rc=$?
t1=$(bl_ms)
echo "# rmmod returned $rc after $((t1 - t0)) ms"
bl_check "rmmod refuses at once while IO is out" test "$rc" -ne 0 -a $((t1 - t0)) -lt 3000
bl_check "the job is freed once the device completes" bl_wait 300 bl_has_jobs 0
bl_check "then the module unloads" bl_wait 50 modprobe -r blkload

bl_mark end
ktap_finished
