#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Ceph fixture: a one-node cluster comes up, four images map through
# krbd, a random 4 MiB pattern written with dd reads back identical; blkload
# runs over the four images with per-device and summed results; unmap and
# teardown leave nothing behind.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd ceph-mon ceph-osd rbd blkload python3

ktap_print_header
ktap_set_plan 7
bl_mark start
ceph_mini=$BLKLOAD_TOP/scripts/ceph-mini
tmp=$(mktemp -d)
trap '"$ceph_mini" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT

if ! devs=$("$ceph_mini" start -n 4 -s 64M 2>"$tmp/err"); then
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

mapfile -t rbds <<<"$devs"
args=()
for d in "${rbds[@]}"; do args+=(--dev "$d"); done
bl_load
write4() {
	blkload -j run "${args[@]}" --rw randwrite --bs 4k --iodepth 8 --number_ios 200 \
		--allow-write | tee "$tmp/w.json" |
		bl_json "len(d['jobs']) == 4" \
			"all(j['write']['total_ios'] == 200 and j['write']['errors'] == 0 for j in d['jobs'])" \
			"d['all_jobs']['write']['total_ios'] == 800"
}
bl_check "krbd: 4 images x 200 random 4k writes, exact per device and summed" write4
read4() {
	blkload -j run "${args[@]}" --rw randread --bs 4k --iodepth 16 --runtime 3 \
		--cpus 0-1 | tee "$tmp/r.json" |
		bl_json "len(d['jobs']) == 4" \
			"all(j['read']['total_ios'] > 0 and j['read']['errors'] == 0 for j in d['jobs'])" \
			"d['all_jobs']['read']['total_ios'] == sum(j['read']['total_ios'] for j in d['jobs'])" \
			"all(j['done_reason'] == 'runtime' for j in d['jobs'])"
}
bl_check "krbd: 4 images x 3 s random reads on 2 CPUs, per device and summed" read4
blkload run "${args[@]}" --rw randread --bs 4k --iodepth 16 --runtime 1 2>&1 | sed 's/^/# /'
bl_unload

"$ceph_mini" stop 2>&1 | sed 's/^/# /'
bl_check "unmapped" test ! -e "$dev"
bl_check "daemons gone" bash -c '! pgrep -x "ceph-(mon|osd)" >/dev/null'

bl_mark end
ktap_finished
