#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksft-install.sh [ROOT]: install the blkload selftests as a kselftest tree,
# the way the kernel's "make install" does for its own collections:
#   ROOT/run_kselftest.sh, ROOT/kselftest/, ROOT/kselftest-list.txt,
#   ROOT/blkload/ (the tests, lib.sh and settings), ROOT/ynl/ (the kernel's
#   YNL client, cli.py and lib/, with the genetlink-legacy schema).
# Run it with ROOT/run_kselftest.sh -c blkload (or -t blkload:TEST).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top/build/kselftest}
ksrc=$("$top/scripts/ksrc.sh")
ksft=$ksrc/tools/testing/selftests

rm -rf "$root"
mkdir -p "$root"
make -s -C "$top/selftests" KSFT_DIR="$ksft" install INSTALL_PATH="$root/blkload" >/dev/null
cp "$ksft/run_kselftest.sh" "$root/"
cp -r "$ksft/kselftest" "$root/"
mkdir -p "$root/ynl"
cp -r "$ksrc/tools/net/ynl/cli.py" "$ksrc/tools/net/ynl/lib" \
	"$ksrc/Documentation/netlink/genetlink-legacy.yaml" "$root/ynl/"
make -s -C "$top/selftests" KSFT_DIR="$ksft" emit_tests COLLECTION=blkload |
	grep '^blkload:' >"$root/kselftest-list.txt"
