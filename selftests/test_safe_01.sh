#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Never harm a host: a write job is refused, unless --force, on a device
# that anything else has open (a process holding it O_DIRECT with an
# exclusive flock, as a BlueStore OSD does; refused by the CLI and, for a
# raw netlink request, by the module) or that carries data (a BlueStore label
# made by ceph-osd --mkfs, that OSD running, an ext4 filesystem mounted and not, an LVM2 PV, a
# LUKS header), or that the kernel uses (a device-mapper target over it, a
# loop device backed by it, which holds no claim). Each refusal names what it found and writes nothing (the
# device's own write count); --force still writes; blkload's own jobs on one
# device are the user's load, not a stranger. Partitions: an open of one
# counts on its disk and not on its sibling, by the running kernel's rule; a
# disk with a partition table is refused.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 mkfs.ext4 mount wipefs ceph-osd losetup blockdev

ktap_print_header
ktap_set_plan 22
bl_mark start
bl_load
# 2 GiB, memory-backed (sparse: pages as written), with the IO counters brd
# does not keep. BlueStore wants room for its DB.
bl_nullb nr_devices=1 gb=2 memory_backed=1 irqmode=0
dev=/dev/nullb0
tmp=$(mktemp -d)
holder=
loopdev=
dmname=blkload-safe-$$
backed=
# Ends child $1: TERM (and CONT, were it stopped), KILL after 30 s, reaped.
stop_pid() {
	kill "$1" 2>/dev/null
	kill -CONT "$1" 2>/dev/null
	bl_wait 300 bash -c "[[ ! -e /proc/$1 ]] || grep -q '^[0-9]* (.*) Z' /proc/$1/stat" ||
		kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}
cleanup() {
	[[ -n $holder ]] && stop_pid "$holder"
	umount "$tmp/mnt" 2>/dev/null
	command -v dmsetup >/dev/null && dmsetup remove --retry "$dmname" 2>/dev/null
	[[ -n $backed ]] && losetup -d "$backed"
	[[ -n $loopdev ]] && losetup -d "$loopdev"
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

# The module's own refusal, for a client that is not the CLI (rw 3:
# randwrite), with its extack $1, an extended regex (default: the count
# of openers).
raw() {
	local out want=${1:-device is open by another user}
	out=$(python3 "$BL_DIR/blnl.py" new "$dev" --rw 3 --number-ios 10 --allow-write 2>&1) &&
		{ echo "# accepted: job $out"; python3 "$BL_DIR/blnl.py" del "$out"; return 1; }
	echo "# $out"
	grep -qE "errno 16: ($want)" <<<"$out"
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
	printf '[global]\nfsid = %s\nmon host = 127.0.0.1:1\nauth cluster required = none\nauth service required = none\nauth client required = none\n' \
		"$(cat /proc/sys/kernel/random/uuid)" >"$tmp/ceph.conf"
	timeout 300 ceph-osd -c "$tmp/ceph.conf" --no-mon-config -i 7 --mkfs --osd-objectstore bluestore \
		--osd-data "$tmp/osd" --osd-uuid "$(cat /proc/sys/kernel/random/uuid)" \
		--log-file "$tmp/osd.log" >"$tmp/mkfs.out" 2>&1 ||
		{ sed 's/^/# /' "$tmp/mkfs.out" | tail -5; return 1; }
	echo "# blkid: $(blkid -p "$dev")"
}
# The OSD running: it mounts its store (the device open O_DIRECT, with
# BlueStore's flock) and then waits for a monitor that is not there.
osd_up() {
	ceph-osd -c "$tmp/ceph.conf" --no-mon-config -i 7 -f --osd-data "$tmp/osd" \
		--log-file "$tmp/osd-run.log" >"$tmp/osd-run.out" 2>&1 &
	holder=$!
	local ino
	ino=$(stat -c %i "$dev")
	# Mounted: BlueStore's lock on the device is in /proc/locks (an OFD
	# lock, whose pid reads -1; its label probe before opens and closes).
	bl_wait $((300 * BL_SCALE)) bash -c "grep -q ' [0-9a-f]*:[0-9a-f]*:$ino ' /proc/locks" ||
		{ echo "# ceph-osd never locked $dev"; tail -5 "$tmp/osd-run.out" | sed 's/^/# /'; return 1; }
	# Mounted and past its init (BlueStore opens, closes and reopens the
	# device while it mounts; a check in between races it): it then
	# waits for its monitor, with all its opens of the device held.
	bl_wait $((300 * BL_SCALE)) grep -q 'log_to_monitors' "$tmp/osd-run.log" ||
		{ echo "# ceph-osd never finished its init"; tail -5 "$tmp/osd-run.log" | sed 's/^/# /'; return 1; }
	echo "# ceph-osd (pid $holder) has $dev open ($(find -L /proc/"$holder"/fd -samefile "$dev" 2>/dev/null | wc -l) times) and locked"
}
osd_down() {
	stop_pid "$holder"
	holder=
}
if bl_check "ceph-osd --mkfs makes a BlueStore OSD on the device" bluestore; then
	bl_check "a stopped OSD's BlueStore label: refused, naming it" \
		refused "Ceph BlueStore OSD label" w
	if osd_up; then
		# Stopped for the check, so that the device's write count is blkload's.
		kill -STOP "$holder"
		sleep 1
		bl_check "the OSD running on it: refused, naming the process" \
			refused "open by ceph-osd (pid $holder)" w
		kill -CONT "$holder"
		# Either of the module's two refusals: the OSD's opens are
		# counted, and the device is claimed (an O_EXCL probe got EBUSY
		# at every look; fdinfo cannot tell which of the OSD's opens
		# holds it). The check is that the module refuses.
		bl_check "the OSD running, a raw netlink job-new: the module refuses (its claim or its count of openers)" \
			raw "device is mounted or claimed by another holder|device is open by another user"
	else
		ktap_test_fail "the OSD running on it: ceph-osd did not start"
		ktap_test_fail "the OSD running, raw netlink: ceph-osd did not start"
	fi
	osd_down
	bl_check "--force writes over the label" wrote 10 w --force --offset 1g
else
	ktap_test_fail "a stopped OSD's BlueStore label: no OSD was made"
	ktap_test_fail "the OSD running on it: no OSD was made"
	ktap_test_fail "the OSD running, raw netlink: no OSD was made"
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

# The kernel's users: a device-mapper target holds it (a holder, with the
# kernel's claim); a loop device backed by it keeps it open with no claim.
if ! command -v dmsetup >/dev/null; then
	ktap_test_skip "a device-mapper target over it: no dmsetup"
	ktap_test_skip "the same, raw netlink: no dmsetup"
elif dmsetup create "$dmname" --table "0 $(blockdev --getsz "$dev") linear $dev 0"; then
	dmdev=dm-$(dmsetup info -c --noheadings -o minor "$dmname" | tr -d ' ')
	bl_check "a device-mapper target over it: refused, naming the holder" \
		refused "$dmdev holds it" w
	bl_check "the same, a raw netlink job-new: the module refuses (the holder's claim)" \
		raw "device is mounted or claimed by another holder"
	dmsetup remove --retry "$dmname"
else
	ktap_test_fail "a device-mapper target over it: dmsetup create failed"
	ktap_test_fail "the same, raw netlink: dmsetup create failed"
fi
modprobe loop 2>/dev/null
if backed=$(losetup -f --show "$dev"); then
	bl_check "a loop device backed by it (a kernel opener, no claim): refused by the module" \
		refused "device is open by another user" w
	losetup -d "$backed"
	backed=
	bl_wait 50 bash -c "! losetup -j $dev | grep -q ." || echo "# the loop device still holds $dev"
else
	ktap_test_fail "a loop device backed by it: losetup failed"
fi

# Partitions (a loop device over a file with a DOS table of two): the
# module's count of strangers on a disk, a partition and its sibling, by
# the running kernel's rule (since 6.5 each open of a partition holds the
# disk once; before, a partition's first open did); p1 is held twice, so
# that the two rules give different counts. Then the CLI's guard.
part_img=$tmp/parts.img
truncate -s 64M "$part_img"
python3 - "$part_img" <<'PY'
import struct, sys
mbr = bytearray(512)
for i, start in enumerate((2048, 51200)):
    mbr[446 + 16 * i:462 + 16 * i] = struct.pack("<B3sB3sII", 0, bytes(3), 0x83, bytes(3),
                                                 start, 49152)
mbr[510:512] = b"\x55\xaa"
with open(sys.argv[1], "r+b") as f:
    f.write(mbr)
PY
modprobe loop 2>/dev/null
loopdev=$(losetup -fP --show "$part_img") && bl_wait 50 test -b "${loopdev}p2" || loopdev=
# (udev, where it runs, reads the new devices for a moment.)
[[ ! -e /run/udev/control ]] || udevadm settle
# The module's answer to a write job on $1 (made, not started): ok or busy.
verdict() {
	local out
	if out=$(python3 "$BL_DIR/blnl.py" new "$1" --rw 3 --number-ios 10 --allow-write 2>&1); then
		python3 "$BL_DIR/blnl.py" del "$out" >/dev/null
		echo ok
	elif grep -q "errno 16: device is open by another user" <<<"$out"; then
		echo busy
	else
		echo "other($out)"
	fi
}
# "HELD: whole p1 p2" for each holder (a sleep with the devices open).
table() {
	local h d row
	for h in none p1x2 whole; do
		case $h in
		none) holder= ;;
		p1x2) bash -c 'exec sleep 600' <"${loopdev}p1" 3<"${loopdev}p1" & holder=$! ;;
		whole) bash -c 'exec sleep 600' <"$loopdev" & holder=$! ;;
		esac
		[[ -z $holder ]] || bl_wait 50 grep -qsx sleep "/proc/$holder/comm"
		row="$h:"
		for d in "$loopdev" "${loopdev}p1" "${loopdev}p2"; do
			row+=" $(verdict "$d")"
		done
		echo "$row"
		[[ -z $holder ]] || { kill "$holder"; wait "$holder" 2>/dev/null; }
		holder=
	done
}
parts() {
	local got
	table >"$tmp/table"
	got=$(tr '\n' ';' <"$tmp/table")
	echo "# whole p1 p2 by holder: $got"
	[[ $got == "none: ok ok ok;p1x2: busy busy ok;whole: busy busy busy;" ]]
}
if [[ -n $loopdev ]]; then
	bl_check "partitions: the module counts a partition's opens on its disk, not on its sibling" parts
cli_parts() {
	local rc=0
	bl_refused "it carries a partition table (dos)" \
		blkload run --dev "$loopdev" --rw randwrite --allow-write --number_ios 1 || rc=1
	bash -c 'exec sleep 600' <"${loopdev}p1" &
	holder=$!
	bl_wait 50 grep -qsx sleep "/proc/$holder/comm"
	bl_refused "open by sleep (pid $holder)" \
		blkload run --dev "$loopdev" --rw randwrite --allow-write --number_ios 1 || rc=1
	bl_refused "open by sleep (pid $holder)" \
		blkload run --dev "${loopdev}p1" --rw randwrite --allow-write --number_ios 1 || rc=1
	blkload -j run --dev "${loopdev}p2" --rw randwrite --allow-write --number_ios 1 |
		bl_json "d['jobs'][0]['write']['total_ios'] == 1" || rc=1
	kill "$holder"
	wait "$holder" 2>/dev/null
	holder=
	return $rc
}
	bl_check "the CLI: a disk with a table refused; p1 held: the disk and p1 refused naming it, p2 written" \
		cli_parts
	losetup -d "$loopdev"
	loopdev=
else
	ktap_test_fail "partitions: losetup -P on a file failed"
	ktap_test_fail "the CLI on partitions: losetup -P on a file failed"
fi
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
