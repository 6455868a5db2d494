#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-rt.sh: the PREEMPT_RT lane ("make check-rt"). The guest selftests
# that stress a job's end and the module's unload (rmmod with jobs in every
# state, 1000 create/run/delete cycles, CPU hotplug, polled IO, a device
# that hangs, the IO paths) on Debian's rt kernel of the headers the build
# matrix uses: there interrupts are threads, and a completion preempted
# after it dropped its last reference runs late against the module's text
# (Documentation/blkload.rst, "Unloading"). The kernel image is Debian's
# package, downloaded once (apt-get download) and unpacked in
# ~/.cache/blkload; nothing is installed on this machine.
# Prints "N passed, N failed" like make check.
#   RT_TESTS="test_x.sh ..."   another set of tests
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

fail() {
	echo "not ok 1 $1"
	echo "0 passed, 1 failed"
	exit 1
}

hdr=$(ls -d /usr/src/linux-headers-*-rt-amd64 2>/dev/null | sort -V | tail -1)
[[ -n $hdr ]] || fail "Debian's rt headers are installed (make deps)"
kver=${hdr#/usr/src/linux-headers-}
root=${XDG_CACHE_HOME:-$HOME/.cache}/blkload/rt-$kver
if [[ ! -f $root/boot/vmlinuz-$kver || ! -f $root/lib/modules/$kver/modules.dep ]]; then
	rm -rf "$root" "$root.tmp"
	mkdir -p "$root.tmp/deb"
	(cd "$root.tmp/deb" && apt-get download -q "linux-image-$kver" >/dev/null) ||
		fail "apt-get download linux-image-$kver"
	dpkg -x "$root.tmp"/deb/*.deb "$root.tmp/root" && depmod -b "$root.tmp/root" "$kver" ||
		fail "linux-image-$kver unpacks"
	mv "$root.tmp/root" "$root"
	rm -rf "$root.tmp"
fi
grep -q '^CONFIG_PREEMPT_RT=y' "$root/boot/config-$kver" ||
	fail "linux-image-$kver is a PREEMPT_RT kernel"
echo "# rt kernel $kver from $root"

tests=()
for t in ${RT_TESTS:-test_rmmod_01.sh test_cycle_01.sh test_hotplug_01.sh test_poll_01.sh \
	test_hang_01.sh test_io_01.sh}; do
	tests+=(-t "blkload:$t")
done
KDIR=$hdr KVER=$kver CHECK_HOST=0 CHECK_LOGS=$top/build/check-rt CHECK_SHARD=${CHECK_SHARD:-100000} \
	CHECK_TESTS="${tests[*]}" \
	VM_ARGS="-k $root/boot/vmlinuz-$kver -M $root --kver $kver ${VM_ARGS:-}" \
	scripts/check.sh
