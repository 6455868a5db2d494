#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksft-install.sh [ROOT]: install the blkload selftests as a kselftest tree,
# the way the kernel's "make install" does for its own collections:
#   ROOT/run_kselftest.sh, ROOT/kselftest/, ROOT/kselftest-list.txt,
#   ROOT/blkload/ (the tests, lib.sh and settings).
# Run it with ROOT/run_kselftest.sh -c blkload (or -t blkload:TEST).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
root=${1:-$top/build/kselftest}
ksft=$("$top/scripts/ksrc.sh")/tools/testing/selftests

rm -rf "$root"
mkdir -p "$root"
make -s -C "$top/selftests" KSFT_DIR="$ksft" install INSTALL_PATH="$root/blkload" >/dev/null
cp "$ksft/run_kselftest.sh" "$root/"
cp -r "$ksft/kselftest" "$root/"
make -s -C "$top/selftests" KSFT_DIR="$ksft" emit_tests COLLECTION=blkload |
	grep '^blkload:' >"$root/kselftest-list.txt"
