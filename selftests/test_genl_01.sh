#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's generic netlink controller lists the family, its command and
# its multicast group, and forgets them on unload.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd genl

ktap_print_header
ktap_set_plan 4
bl_mark start
bl_unload
bl_load

list=$(genl ctrl list)
fam=$(genl ctrl get name blkload 2>&1)
echo "$fam" | sed 's/^/# /'
bl_check "listed by 'genl ctrl list'" grep -q "Name: blkload" <<<"$list"
bl_check "version 1, command 1 (info-get)" \
	bash -c 'grep -q "Version: 0x1" <<<"$1" && grep -q "ID-0x1 " <<<"$1"' _ "$fam"
bl_check "multicast group 'events'" grep -q "name: events" <<<"$fam"
bl_unload
bl_check "gone after unload" bash -c '! genl ctrl get name blkload >/dev/null 2>&1'

bl_mark end
ktap_finished
