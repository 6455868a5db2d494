#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The module loads and unloads cleanly twenty times, with its reference count
# back to zero and its netlink family registered and gone each time (loaded
# from the tree with its dependencies, scripts/load-module.sh).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd modprobe rmmod genl

ktap_print_header
ktap_set_plan 3
bl_mark start
bl_unload

ok=1
for i in $(seq 20); do
	if ! bl_load; then
		echo "# load $i failed"
		ok=0
		break
	fi
	if [[ $(bl_refcnt) != 0 ]]; then
		echo "# load $i: refcnt $(bl_refcnt)"
		ok=0
	fi
	if ! genl ctrl get name blkload >/dev/null 2>&1; then
		echo "# load $i: family not registered"
		ok=0
	fi
	if ! rmmod blkload; then
		echo "# unload $i failed"
		ok=0
		break
	fi
	if bl_loaded || genl ctrl get name blkload >/dev/null 2>&1; then
		echo "# unload $i: module or family still present"
		ok=0
	fi
done
((ok)) && ktap_test_pass "load/unload x20, refcnt 0, family follows the module" ||
	ktap_test_fail "load/unload x20, refcnt 0, family follows the module"

# A socket that used the family must not pin the module.
bl_load
blkload info >/dev/null
bl_check "refcnt 0 after a netlink round trip" test "$(bl_refcnt)" = 0
bl_check "unload after use" rmmod blkload

bl_mark end
ktap_finished
