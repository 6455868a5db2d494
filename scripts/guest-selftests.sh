#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Inside the test guest: install the freshly built module and CLI into the
# guest's (throw-away) root, then run the installed kselftest collection.
#   guest-selftests.sh [run_kselftest.sh options, default: -c blkload]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
kver=$(uname -r)

install -D -m 0644 "$top/module/blkload.ko" "/lib/modules/$kver/extra/blkload.ko"
depmod -a "$kver"
install -D -m 0755 "$top/userspace/blkload" /usr/local/sbin/blkload
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
