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

cd "$top/build/kselftest"
if (($# == 0)); then
	set -- -c blkload
fi
exec ./run_kselftest.sh "$@"
