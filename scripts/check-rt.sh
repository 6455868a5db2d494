#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-rt.sh: the PREEMPT_RT lane ("make check-rt"). The guest selftests
# that stress a job's end and the module's unload (rmmod with jobs in every
# state, 1000 create/run/delete cycles, CPU hotplug, polled IO, a device
# that hangs, the IO paths) on Debian's rt kernel of the headers the build
# matrix uses: there interrupts are threads, and a completion preempted
# after it dropped its last reference runs late against the module's text
# (Documentation/blkload.rst, "Stopping"). The kernel image is Debian's
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

export PATH=$PATH:/usr/sbin:/sbin
# The rt headers the build matrix builds against (scripts/build-matrix.sh).
hdr=$(ls -d /usr/src/linux-headers-6.1.*-rt-amd64 2>/dev/null | sort -V | tail -1)
[[ -n $hdr ]] || fail "Debian's rt headers are installed (make deps)"
kver=${hdr#/usr/src/linux-headers-}
cache=${XDG_CACHE_HOME:-$HOME/.cache}/blkload
root=$cache/rt-$kver
mkdir -p "$cache"
# One run at a time fills the cache; a tree counts once its stamp is there
# (written last), so an interrupted unpack is made anew.
exec 8>"$cache/rt.lock"
flock 8
if [[ ! -f $root/.complete ]]; then
	rm -rf "$cache"/rt-*
	new=$(mktemp -d "$cache/rt-tmp.XXXXXX")
	(cd "$new" && apt-get download -q "linux-image-$kver" >/dev/null) ||
		{ rm -rf "$new"; fail "apt-get download linux-image-$kver"; }
	if ! dpkg -x "$new"/*.deb "$new/root" || ! depmod -b "$new/root" "$kver" ||
		! mv "$new/root" "$root"; then
		rm -rf "$new" "$root"
		fail "linux-image-$kver unpacks"
	fi
	rm -rf "$new"
	echo "$kver" >"$root/.complete"
fi
grep -q '^CONFIG_PREEMPT_RT=y' "$root/boot/config-$kver" ||
	fail "linux-image-$kver is a PREEMPT_RT kernel"
echo "# rt kernel $kver from $root"

tests=()
for t in ${RT_TESTS:-test_rmmod_01.sh test_late_01.sh test_cycle_01.sh test_hotplug_01.sh test_poll_01.sh \
	test_hang_01.sh test_io_01.sh}; do
	tests+=(-t "blkload:$t")
done
# A skip fails here: the lane is its tests. The user's VM_ARGS first, so
# that they cannot swap the kernel under test.
logs=$top/build/check-rt
mkdir -p "$top/build"
KDIR=$hdr KVER=$kver CHECK_HOST=0 CHECK_LOGS=$logs CHECK_SHARD=${CHECK_SHARD:-100000} \
	CHECK_SKIP_FAILS=1 CHECK_TESTS="${tests[*]}" \
	VM_ARGS="${VM_ARGS:-} -k $root/boot/vmlinuz-$kver -M $root --kver $kver" \
	scripts/check.sh | tee "$logs.out"
rc=${PIPESTATUS[0]}
# The kernel that ran is the rt one (its banner in every guest's console).
booted=0
for c in "$logs"/vm*/console.log; do
	grep -a -q "Linux version $kver .*PREEMPT_RT" "$c" || { booted=0; break; }
	booted=1
done
if ((!booted)); then
	echo "not ok 1000 every guest run booted $kver (PREEMPT_RT)"
	last=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs.out" | tail -1)
	p=$(awk '{ print $1 }' <<<"$last")
	f=$(awk '{ print $3 }' <<<"$last")
	echo "${p:-0} passed, $((${f:-0} + 1)) failed"
	exit 1
fi
exit "$rc"
