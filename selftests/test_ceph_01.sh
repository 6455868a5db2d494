#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Ceph fixture: a one-node cluster comes up, an image maps through krbd,
# a random 4 MiB pattern written with dd reads back identical, and unmap and
# teardown leave nothing behind.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd ceph-mon ceph-osd rbd

ktap_print_header
ktap_set_plan 5
bl_mark start
ceph_mini=$BLKLOAD_TOP/scripts/ceph-mini
tmp=$(mktemp -d)
trap '"$ceph_mini" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT

if ! devs=$("$ceph_mini" start -n 1 -s 64M 2>"$tmp/err"); then
	sed 's/^/# /' "$tmp/err"
	ktap_exit_fail_msg "the Ceph cluster did not come up"
fi
dev=$(head -1 <<<"$devs")
bl_check "cluster up, image mapped at $dev" test -b "$dev"

head -c 4194304 /dev/urandom >"$tmp/pattern"
bl_check "dd writes 4 MiB to $dev" \
	dd if="$tmp/pattern" of="$dev" bs=1M oflag=direct status=none
# Drop the page cache so the read really goes to the OSD.
echo 3 >/proc/sys/vm/drop_caches
dd if="$dev" of="$tmp/back" bs=1M count=4 iflag=direct status=none
bl_check "the 4 MiB read back are identical" cmp -s "$tmp/pattern" "$tmp/back"

"$ceph_mini" stop 2>&1 | sed 's/^/# /'
bl_check "unmapped" test ! -e "$dev"
bl_check "daemons gone" bash -c '! pgrep -x "ceph-(mon|osd)" >/dev/null'

bl_mark end
ktap_finished
