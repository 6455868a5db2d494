#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the test guest: run the installed kselftest collection the way a
# user of the tree runs blkload: nothing of it installed (tests load the
# tree's module with its dependencies, scripts/load-module.sh), the tree's
# CLI last on PATH, so that an installed one (test_install_01, test_pkg_01, test_pkg_02)
# is found first.
#   guest-selftests.sh [run_kselftest.sh options, default: -c blkload]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

[[ -f $top/module/blkload.ko && -x $top/userspace/blkload ]] ||
	{ echo "guest-selftests: build first (make)" >&2; exit 1; }
# The guest's root is this machine's under an overlay: a blkload installed
# here (make install, DKMS, the package) would be the one tests find. It is
# removed in the guest (the overlay forgets it at power-off), so every run
# starts where a user of the tree does.
kver=$(uname -r)
gone=0
for f in /usr/local/sbin/blkload /usr/sbin/blkload \
	/lib/modules/"$kver"/extra/blkload.ko* /lib/modules/"$kver"/updates/dkms/blkload.ko*; do
	if [[ -e $f ]]; then
		echo "guest-selftests: $f is installed on this machine; removed in the guest"
		rm -f "$f"
		gone=1
	fi
done
if ((gone)); then
	depmod -a "$kver"
fi
export PATH=$PATH:$top/userspace
# The tests' unprivileged caller (nobody) may not reach the tree (a clone in
# /root is 0700): a copy of the CLI it can run, after the tree's on PATH
# (the search goes on past a file it may not execute; root finds the tree's).
if ! setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$top/userspace/blkload"; then
	pub=$(mktemp -d /tmp/blkload-nobody.XXXXXX)
	chmod 755 "$pub"
	install -m 755 "$top/userspace/blkload" "$pub/"
	export PATH=$PATH:$pub
fi
export BLKLOAD_TOP=$top
# A debug kernel: only leaks made from here on count (test_leak_99.sh).
if [[ -w /sys/kernel/debug/kmemleak ]]; then
	echo clear >/sys/kernel/debug/kmemleak
fi

cd "$top/build/kselftest"
if (($# == 0)); then
	set -- -c blkload
fi
# The runner's own status is not a verdict (the host judges each test's KTAP);
# a non-zero exit of this script means the set-up above failed.
./run_kselftest.sh "$@" || echo "# run_kselftest.sh exited $?"
exit 0
