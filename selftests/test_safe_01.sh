#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Never harm a host: a write job is refused, unless --force, on a device
# that anything else has open (a process holding it O_DIRECT with an
# exclusive flock, as a BlueStore OSD does; refused by the CLI and, for a
# raw netlink request, by the module) or that carries data (a BlueStore label
# made by ceph-osd --mkfs, an ext4 filesystem mounted and not, an LVM2 PV, a
# LUKS header). Each refusal names what it found and writes nothing (the
# device's own write count); --force still writes; blkload's own jobs on one
# device are the user's load, not a stranger.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 mkfs.ext4 mount wipefs ceph-osd

ktap_print_header
ktap_set_plan 15
bl_mark start
bl_load
# 2 GiB, memory-backed (sparse: pages as written), with the IO counters brd
# does not keep. BlueStore wants room for its DB.
bl_nullb nr_devices=1 gb=2 memory_backed=1 irqmode=0
dev=/dev/nullb0
tmp=$(mktemp -d)
holder=
cleanup() {
	[[ -n $holder ]] && kill "$holder" 2>/dev/null
	umount "$tmp/mnt" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT

writes() { awk '{ print $5 }' /sys/block/nullb0/stat; }
w() { blkload run --dev "$dev" --rw randwrite --allow-write --number_ios 10 --size 64m "$@"; }

# Refused with $1 in the message, and not one write reached the device.
refused() {
	local want=$1 w0
	shift
	w0=$(writes)
	bl_refused "$want" "$@" || return 1
	[[ $(writes) == "$w0" ]] || { echo "# $(($(writes) - w0)) writes reached the device"; return 1; }
}

# Exactly $1 writes reached the device.
wrote() {
	local n=$1 w0
	shift
	w0=$(writes)
	"$@" >/dev/null || return 1
	[[ $(($(writes) - w0)) == "$n" ]] || { echo "# $(($(writes) - w0)) writes, not $n"; return 1; }
}

# A plain process holding the device open O_DIRECT with an exclusive flock.
python3 - "$dev" "$tmp/held" <<'PY' &
import fcntl, os, sys, time
fd = os.open(sys.argv[1], os.O_RDWR | os.O_DIRECT)
fcntl.flock(fd, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(600)
PY
holder=$!
bl_wait 100 test -e "$tmp/held"
bl_check "held O_DIRECT with a flock by a process: refused, naming it" \
	refused "open by python3 (pid $holder)" w
bl_check "the same through io_uring: refused" \
	refused "open by python3 (pid $holder)" w --engine io_uring

# The module's own count, for a client that is not the CLI (rw 3: randwrite).
raw() {
	local out
	out=$(python3 "$BL_DIR/blnl.py" new "$dev" --rw 3 --number-ios 10 --allow-write 2>&1) &&
		{ echo "# accepted: job $out"; python3 "$BL_DIR/blnl.py" del "$out"; return 1; }
	echo "# $out"
	grep -q "errno 16: device is open by another user" <<<"$out"
}
bl_check "a raw netlink job-new: the module refuses, with its extack" raw
bl_check "--force writes anyway" wrote 10 w --force
kill "$holder"
wait "$holder" 2>/dev/null
holder=
bl_check "the holder gone, the device written without --force" wrote 10 w

# Two jobs of blkload on one device: the user's own load.
two() {
	cat >"$tmp/two.fio" <<EOF
[global]
filename=$dev
size=64m
allow_write
[r]
rw=randread
runtime=3
time_based
[w]
rw=randwrite
number_ios=50
EOF
	blkload -j run "$tmp/two.fio" | bl_json 'd["jobs"][1]["write"]["total_ios"] == 50'
}
bl_check "a read job and a write job of blkload on one device run together" two

# A real BlueStore label: ceph-osd --mkfs on the device (no cluster needed).
bluestore() {
	mkdir -p "$tmp/osd"
	ln -s "$dev" "$tmp/osd/block"
	printf '[global]\nfsid = %s\nauth cluster required = none\nauth service required = none\nauth client required = none\n' \
		"$(cat /proc/sys/kernel/random/uuid)" >"$tmp/ceph.conf"
	timeout 300 ceph-osd -c "$tmp/ceph.conf" --no-mon-config -i 7 --mkfs --osd-objectstore bluestore \
		--osd-data "$tmp/osd" --osd-uuid "$(cat /proc/sys/kernel/random/uuid)" \
		--log-file "$tmp/osd.log" >"$tmp/mkfs.out" 2>&1 ||
		{ sed 's/^/# /' "$tmp/mkfs.out" | tail -5; return 1; }
	echo "# blkid: $(blkid -p "$dev")"
}
if bl_check "ceph-osd --mkfs makes a BlueStore OSD on the device" bluestore; then
	bl_check "a stopped OSD's BlueStore label: refused, naming it" \
		refused "Ceph BlueStore OSD label" w
	bl_check "--force writes over the label" wrote 10 w --force --offset 1g
else
	ktap_test_fail "a stopped OSD's BlueStore label: no OSD was made"
	ktap_test_fail "--force writes over the label: no OSD was made"
fi

wipefs -q -a "$dev"
mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$dev" 64m
mkdir -p "$tmp/mnt"
# Read-only: a mounted ext4 writes on its own (its journal, lazy init), and
# the device's write count must be blkload's alone.
mount -o ro "$dev" "$tmp/mnt"
bl_check "a mounted ext4: refused, naming the mount" refused "mounted on $tmp/mnt" w
umount "$tmp/mnt"
bl_check "an unmounted ext4: refused, naming the filesystem" refused "a filesystem (ext4)" w

wipefs -q -a "$dev"
if command -v pvcreate >/dev/null; then
	pvcreate -q -ff -y --config \
		'devices { types = [ "nullb", 16 ] filter = [ "a|/dev/nullb0|", "r|.*|" ] }' \
		"$dev" 2>&1 | sed 's/^/# /'
	echo "# blkid: $(blkid -p "$dev")"
	bl_check "an LVM2 physical volume: refused" refused "LVM2 physical volume" w
else
	ktap_test_fail "an LVM2 physical volume: pvcreate missing (make deps installs lvm2)"
fi
wipefs -q -a "$dev"
if command -v cryptsetup >/dev/null; then
	printf 'k' >"$tmp/key"
	cryptsetup luksFormat -q --type luks2 --pbkdf pbkdf2 --pbkdf-force-iterations 1000 \
		--key-file "$tmp/key" "$dev" 2>&1 | sed 's/^/# /'
	echo "# blkid: $(blkid -p "$dev")"
	bl_check "a LUKS header: refused" refused "LUKS header" w
else
	ktap_test_fail "a LUKS header: cryptsetup missing (make deps installs cryptsetup-bin)"
fi
wipefs -q -a "$dev"
bl_check "wiped, the device is written without --force" wrote 10 w
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
