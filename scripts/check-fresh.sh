#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-fresh.sh ("make check-fresh"): the README's two commands on a fresh
# Debian 12 machine, the way a new user meets them.
#
# A clean Debian 12 root, built with Debian's own mmdebstrap from this
# machine's apt sources: the minbase variant plus what the README's
# "Requirements" says to install first (git and make), nothing else. It is
# cached as a tarball keyed by that package list, the sources and the
# mmdebstrap version, and unpacked anew for every run. In it, as root:
#
#   1. git clone of this checkout (its committed HEAD) to /root/blkload;
#   2. the README's first command, make demo, reduced with its documented
#      knobs: packages, build, the guest, Ceph, the table;
#   3. the README's second command, make check, as written: the host part
#      and every guest selftest, the install test among them (the README's
#      "Using it" commands, test_install_01, which finds nothing of blkload
#      installed there; the packaging lane is make check-pkg).
#
# It fails if a command fails, if the demo's table lacks one of the four
# paths, or if the README does not name the prerequisites and the demo's
# knobs the lane uses. .ci/run runs make check this way, on a fresh root,
# rather than on this machine (whose state a user does not start from).
# Downloaded .debs are kept between runs (~/.cache/blkload/fresh/archives,
# seeded from this machine's apt cache); installing them is part of every
# run. Daemons that packages would start are not (policy-rc.d), as in any
# Debian container: the chroot shares this machine's processes.
#
# Safety: the script runs in a mount namespace of its own (it re-executes
# itself under unshare), so nothing it mounts (this machine's /dev, /sys
# read-only, the checkout read-only) is ever seen outside it, and it all
# goes when the script ends, however it ends. One run at a time (a lock);
# each run unpacks into a new directory, removed only when nothing is
# mounted under it.
#
# FRESH_FAULT=empty-kdir|no-crc32c breaks the clone on purpose (the lane
# must then fail): a Makefile that fixes and exports KDIR before the
# packages exist, or a guest whose kernel cannot load libcrc32c
# (module_blacklist= on its command line).
# FRESH_KEEP=1 keeps the root (~/.cache/blkload/fresh/run.XXXXXX/root) until
# the next run.
# Prints KTAP and "N passed, N failed", like make check.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# In a mount namespace of its own (not the machine's: an inherited variable
# is no proof), so that no mount made here outlives the run.
if [[ $(readlink /proc/self/ns/mnt) == "$(readlink /proc/1/ns/mnt)" ]]; then
	command -v unshare >/dev/null || { echo "check-fresh: unshare missing (util-linux)" >&2; exit 1; }
	exec unshare --mount --propagation private -- "$0" "$@"
fi
cache=$(realpath -m "${XDG_CACHE_HOME:-$HOME/.cache}/blkload/fresh")
logs=$top/build/check-fresh
suite=bookworm
# What the README's "Requirements" says to install before anything else.
prereq=(git make)
# make demo, reduced (the README documents these knobs).
demo_env=(DEMO_RUNTIME=2 DEMO_REPEAT=2 DEMO_IODEPTH=32)
fault=${FRESH_FAULT:-}

n=0
pass=0
fail=0
result() {
	n=$((n + 1))
	if (($1)); then
		pass=$((pass + 1))
		echo "ok $n $2"
	else
		fail=$((fail + 1))
		echo "not ok $n $2"
	fi
}
finish() {
	trap - EXIT
	if [[ -n ${root:-} ]] && ! teardown; then
		result 0 "check-fresh: the root was torn down (nothing left mounted or running)"
	fi
	echo "1..$n"
	echo "$pass passed, $fail failed"
	((fail == 0 && n > 0))
	exit $?
}
die() {
	echo "# $*"
	result 0 "check-fresh set-up"
	finish
}

echo "TAP version 13"
[[ $(id -u) == 0 ]] || die "must run as root (chroot, mounts)"
[[ $cache != *[[:space:]]* ]] || die "the cache path has white space: $cache"
mkdir -p "$cache"
exec 9>"$cache/lock"
flock -n 9 || die "another check-fresh runs (lock $cache/lock)"
# (After the lock: a second run must not remove the first one's logs.)
rm -rf "$logs"
mkdir -p "$logs"
command -v mmdebstrap >/dev/null || die "mmdebstrap missing: run 'make deps'"
case $fault in
"" | empty-kdir | no-crc32c) ;;
*) die "FRESH_FAULT=$fault: not empty-kdir or no-crc32c" ;;
esac

# --- the README says what the lane assumes ----------------------------------
readme_says() {
	local v missing=0
	grep -q "apt-get install ${prereq[*]}" "$top/README.md" ||
		{ echo "# the README does not say: apt-get install ${prereq[*]}"; missing=1; }
	for v in "${demo_env[@]}"; do
		grep -q "${v%%=*}" "$top/README.md" ||
			{ echo "# the README does not document ${v%%=*}"; missing=1; }
	done
	((!missing))
}
if readme_says; then
	result 1 "README: names the prerequisites and every knob this lane sets"
else
	result 0 "README: names the prerequisites and every knob this lane sets"
fi

# --- the root ----------------------------------------------------------------
# This machine's enabled apt sources (deb822 .sources and one-line .list).
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[[ -s $f ]] && sources+=("$f")
done
((${#sources[@]})) || die "no apt sources configured on this machine"
key=$( { echo "$suite minbase ${prereq[*]}"; mmdebstrap --version; cat "${sources[@]}"; } |
	sha256sum | cut -c1-16)
tarball=$cache/root-$key.tar
if [[ ! -f $tarball ]]; then
	echo "# building a Debian $suite root (mmdebstrap, minbase + ${prereq[*]})"
	rm -f "$cache"/root-*.tar
	if ! mmdebstrap --variant=minbase --format=tar --include="$(IFS=,; echo "${prereq[*]}")" \
		"$suite" "$tarball.tmp" "${sources[@]}" >"$logs/mmdebstrap.log" 2>&1; then
		tail -20 "$logs/mmdebstrap.log" | sed 's/^/# /'
		rm -f "$tarball.tmp"
		die "mmdebstrap failed"
	fi
	mv "$tarball.tmp" "$tarball"
fi

# Mounts and processes under a root; a root is removed only when nothing is
# mounted under it (in this namespace, which began with a copy of the
# machine's mounts).
under() {
	awk -v r="$1" '$2 == r || index($2, r "/") == 1 { print $2 }' /proc/self/mounts
}
teardown() {
	local p pids=() m try
	[[ -n ${root:-} && -d $root ]] || return 0
	# Processes whose root is this run's root (a guest left behind).
	for p in /proc/[0-9]*; do
		[[ $(readlink "$p/root" 2>/dev/null) == "$root" ]] && pids+=("${p#/proc/}")
	done
	((${#pids[@]})) && kill -9 "${pids[@]}" 2>/dev/null && sleep 1
	for try in 1 2 3; do
		for m in $(under "$root" | sort -r); do
			umount "$m" 2>/dev/null || umount -l "$m" 2>/dev/null
		done
		[[ -z $(under "$root") ]] && break
		sleep 1
	done
	if [[ -n $(under "$root") ]]; then
		echo "# still mounted under $root, so not removed:"
		under "$root" | sed 's/^/#   /'
		return 1
	fi
	if [[ -z ${FRESH_KEEP:-} ]]; then
		rm -rf --one-file-system "$(dirname "$root")"
	else
		echo "# FRESH_KEEP: the root stays in $root"
	fi
}
# Earlier runs' roots (a run killed hard), unless anything is mounted there.
for d in "$cache"/run.*; do
	[[ -d $d && -z $(under "$d") ]] && rm -rf --one-file-system "$d"
done
root=$(mktemp -d "$cache/run.XXXXXX")/root
trap teardown EXIT
mkdir -p "$root"
tar -C "$root" -xf "$tarball" || die "cannot unpack $tarball"
grep -q '^VERSION_ID="12"' "$root/etc/os-release" ||
	die "the root is not Debian 12: $(grep PRETTY_NAME "$root/etc/os-release")"

mkdir -p "$root"/{proc,sys,dev,run,mnt/origin,var/cache/apt/archives} "$cache/archives/partial"
mount -t proc proc "$root/proc" &&
	mount --bind "$root/proc/sys" "$root/proc/sys" && mount -o remount,bind,ro "$root/proc/sys" &&
	mount --rbind /sys "$root/sys" && mount -o remount,bind,ro "$root/sys" &&
	mount --rbind /dev "$root/dev" &&
	mount -t tmpfs -o mode=0755 tmpfs "$root/run" &&
	mount --bind "$top" "$root/mnt/origin" && mount -o remount,bind,ro "$root/mnt/origin" &&
	mount --bind "$cache/archives" "$root/var/cache/apt/archives" ||
	die "cannot mount the root's file systems"
# The downloads this machine already made are not made again.
find /var/cache/apt/archives -maxdepth 1 -name '*.deb' -exec cp -ln {} "$cache/archives/" \; 2>/dev/null
cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"

# Every mount under the root's /sys read-only too (cgroup, debugfs, ...).
for m in $(under "$root/sys"); do
	mount -o remount,bind,ro "$m" 2>/dev/null
done

# A command run in the fresh root as a user's root shell would run it, but
# never able to load into, reboot or reclock this machine's kernel: make
# demo and make check load modules only in their guests.
in_root() {
	setpriv --bounding-set=-sys_module,-sys_boot,-sys_time,-sys_rawio \
		chroot "$root" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "$1"
}

# step NAME LOG COMMAND: one result; the log's tail when it fails.
step() {
	local name=$1 log=$logs/$2 t0=$SECONDS rc
	in_root "$3" >"$log" 2>&1
	rc=$?
	echo "# $name: exit $rc, $((SECONDS - t0)) s"
	if ((rc != 0)); then
		tail -30 "$log" | sed 's/^/# /'
	fi
	result $((rc == 0)) "$name"
	return $rc
}

step "git clone of the checkout" clone.log \
	"git -c safe.directory='*' clone -q /mnt/origin /root/blkload && git -C /root/blkload log -1 --oneline"

case $fault in
empty-kdir)
	# The defect of issue 16: KDIR fixed when the Makefile is read (before
	# make demo installed any headers) and exported empty to the sub-make.
	python3 - "$root/root/blkload/Makefile" <<'PY' || die "cannot break the Makefile"
import re, sys
p = sys.argv[1]
s = open(p).read()
new, k = re.subn(r'ifeq \(\$\(strip \$\(KDIR\)\),\)\n.*?\nendif\n',
                 'KDIR ?= $(shell $(CURDIR)/scripts/kdir.sh)\nKDIR := $(KDIR)\nexport KDIR\n',
                 s, count=1, flags=re.S)
if k != 1:
    sys.exit('no KDIR block to break')
open(p, 'w').write(new)
PY
	echo "# FRESH_FAULT=empty-kdir: the clone's Makefile exports KDIR as read"
	;;
no-crc32c)
	# The guest's kernel refuses libcrc32c (module_blacklist=, enforced by
	# the kernel; an "install" line in modprobe.d is ignored by kmod for a
	# module with a softdep, as libcrc32c has).
	grep -q 'hung_task_timeout_secs=60 ' "$root/root/blkload/scripts/vm" &&
		sed -i 's/hung_task_timeout_secs=60 /hung_task_timeout_secs=60 module_blacklist=libcrc32c /' \
			"$root/root/blkload/scripts/vm" || die "cannot break the guest's command line"
	echo "# FRESH_FAULT=no-crc32c: the guest's kernel cannot load libcrc32c"
	;;
esac

# The README's first command.
demo_ok=0
if step "make demo (${demo_env[*]}): packages, build, guest, Ceph, compare" demo.log \
	"cd /root/blkload && ${demo_env[*]} make demo"; then
	demo_ok=1
fi
# A lane broken on purpose must fail here, for the reason it was broken.
if [[ -n $fault ]]; then
	case $fault in
	empty-kdir) why="no kernel build tree (KDIR='')" ;;
	no-crc32c) why="cannot load libcrc32c" ;;
	esac
	if ((!demo_ok)) && grep -qF "$why" "$logs/demo.log"; then
		echo "# $(grep -m1 -F "$why" "$logs/demo.log")"
		result 1 "FRESH_FAULT=$fault: make demo failed with \"$why\""
	else
		result 0 "FRESH_FAULT=$fault: make demo did not fail with \"$why\": the lane cannot see this fault"
	fi
	finish
fi
table() {
	local p missing=0
	for p in kernel io_uring libaio librbd; do
		grep -Eq "^\| randread \| 4k \| 32 \| $p \|" "$logs/demo.log" ||
			{ echo "# the demo's table has no randread row for $p"; missing=1; }
		grep -Eq "^\| randwrite \| 4k \| 32 \| $p \|" "$logs/demo.log" ||
			{ echo "# the demo's table has no randwrite row for $p"; missing=1; }
	done
	grep -q "^Average of averages" "$logs/demo.log" || { echo "# no average of averages"; missing=1; }
	((!missing))
}
if ((demo_ok)) && table; then
	grep -E '^\| rand' "$logs/demo.log" | sed 's/^/# /'
	result 1 "make demo: the table has all four paths"
else
	result 0 "make demo: the table has all four paths"
fi

# The README's second command, as written. Its KTAP results become this
# lane's own (so CI counts every test), then its verdict.
in_root "cd /root/blkload && make check" >"$logs/check.log" 2>&1
rc=$?
if [[ -d $root/root/blkload/build/check ]]; then
	cp -r "$root/root/blkload/build/check" "$logs/check-logs" 2>/dev/null
fi
totals=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$logs/check.log" | tail -1)
while IFS= read -r line; do
	case $line in
	"ok "*"# SKIP"*) n=$((n + 1)); echo "ok $n make check: ${line#ok * }" ;;
	"ok "*) result 1 "make check: ${line#ok * }" ;;
	"not ok "*) result 0 "make check: ${line#not ok * }" ;;
	"#"*) echo "$line" ;;
	esac
done < <(grep -E '^(ok|not ok) [0-9]+ |^# ' "$logs/check.log")
echo "# make check in the fresh root: ${totals:-no totals line}, exit $rc"
if ((rc == 0)) && [[ -n $totals ]]; then
	result 1 "make check: exit 0 with its totals line"
else
	result 0 "make check: exit 0 with its totals line"
fi
finish
