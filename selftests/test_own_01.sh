#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A job belongs to the netlink socket that made it: kill -9 of the CLI removes
# its jobs within a second; a detached job outlives its CLI and stops on
# request; unloading the module stops what is left.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 6
bl_mark start
bl_unload
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=2000000

blkload run --dev /dev/nullb0 --rw randread --iodepth 8 --cpus 0-1 --runtime 60 >/dev/null &
pid=$!
bl_check "the CLI's job is running" bl_wait 50 bl_has_jobs 1
t0=$(bl_ms)
kill -9 $pid
wait $pid 2>/dev/null
bl_wait 20 bl_has_jobs 0
t1=$(bl_ms)
echo "# jobs gone $((t1 - t0)) ms after kill -9"
bl_check "kill -9: its jobs are gone within 1 s" test $((t1 - t0)) -le 1000

id=$(blkload -j start --dev /dev/nullb0 --rw randread --iodepth 4 --runtime 60 |
	python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])')
sleep 1
bl_check "a detached job survives its CLI" \
	bash -c "blkload -j list | grep -q '\"job_id\":$id,.*\"state\":\"running\"'"
bl_check "and stops on request" blkload stop "$id"
bl_check "nothing left" bl_clean

blkload start --dev /dev/nullb0 --rw randread --iodepth 4 --runtime 60 >/dev/null
bl_check "unloading the module stops a running detached job" modprobe -r blkload

bl_mark end
ktap_finished
