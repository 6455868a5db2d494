#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The queue machine's KUnit suite (module/kunit/queue_test.c): the scripted
# traces the host's unit tests run (ramp, limits with refusals, fio's reap
# batch, a stop and samples between reaps, think time, rate, verify's
# read-back, a stop in every phase), against the same header
# compiled into the kernel. Runs where the kernel has KUnit (the debug
# lane's); every case must pass, and a suite that ran no case fails.
. "$(dirname "$0")/lib.sh"

bl_require_root
ko=$BLKLOAD_TOP/module/kunit/blkload_queue_test.ko
if [[ ! -d /sys/kernel/debug/kunit && ! -e /sys/module/kunit ]]; then
	mount -t debugfs none /sys/kernel/debug 2>/dev/null
fi
if [[ ! -d /sys/kernel/debug/kunit || ! -f $ko ]]; then
	ktap_skip_all "no KUnit in this kernel (the debug lane's has it), or the suite was not built"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 3
bl_mark start
rmmod blkload_queue_test 2>/dev/null
# Its dependencies first, as modprobe would (crc32c: insmod alone fails
# with "Unknown symbol" where nothing loaded libcrc32c before).
load_suite() {
	local d
	for d in $(modinfo -F depends "$ko" | tr , ' '); do
		modprobe "$d" || return 1
	done
	insmod "$ko"
}
bl_check "the suite loads (its dependencies first; its cases run at load)" load_suite
res=/sys/kernel/debug/kunit/blkload_queue/results
sed 's/^/# /' "$res"
cases() {
	local ok notok
	ok=$(grep -cE '^\s*ok [0-9]+ bl_queue_test_' "$res")
	notok=$(grep -cE '^\s*not ok [0-9]+ bl_queue_test_' "$res")
	echo "# $ok cases passed, $notok failed"
	((ok == 9 && notok == 0))
}
bl_check "all 9 cases pass (ramp, limit, reap batch as fio, stop and samples between reaps, think, rate, verify, stop in every phase, runtime then verify)" cases
bl_check "the suite unloads" rmmod blkload_queue_test

bl_mark end
ktap_finished
