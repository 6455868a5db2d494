#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Without the module, the CLI says what is wrong and how to fix it, and fails.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "the CLI without the module"
bl_require_cmd blkload

ktap_print_header
ktap_set_plan 3
bl_mark start
bl_unload

out=$(blkload info 2>&1) && rc=0 || rc=$?
echo "$out" | sed 's/^/# /'
bl_check "exit status is non-zero" test "$rc" -ne 0
bl_check "names the missing family" \
	grep -q "generic netlink family 'blkload' not found" <<<"$out"
bl_check "suggests modprobe blkload" grep -q "try: modprobe blkload" <<<"$out"

bl_mark end
ktap_finished
