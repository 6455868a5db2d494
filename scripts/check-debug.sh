#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# check-debug.sh: the debug-kernel lane ("make check-debug"). The whole guest
# suite on Debian's 6.12 built with KASAN, lockdep, DEBUG_ATOMIC_SLEEP,
# kmemleak, UBSAN and fault injection (scripts/debug-kernel.sh, cached in
# ~/.cache/blkload keyed by its config); the kernel log must stay clean, and
# test_leak_99.sh turns kmemleak's report into a test. Tests that measure
# time scale their limits on this kernel (selftests/lib.sh, BL_SCALE).
# Prints "N passed, N failed" like make check.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"

if ! dk=$(scripts/debug-kernel.sh); then
	echo "not ok 1 debug kernel builds"
	echo "0 passed, 1 failed"
	exit 1
fi
kver=$(cat "$dk/build/include/config/kernel.release")
echo "# debug kernel $kver from $dk"
export KDIR=$dk/build KVER=$kver
# -cpu Haswell-noTSX: the one-node Ceph runs (qemu64 lacks what its
# erasure-code library needs) and no early-boot KASAN report (seen with max).
# One guest run (each debug boot takes two minutes), planned from the debug
# column; kmemleak is read at its end. The main lane only: the install and
# packaging tests build in the guest, and skip on this kernel.
CHECK_HOST=0 CHECK_LOGS=$top/build/check-debug CHECK_BUDGET=debug CHECK_SHARD=${CHECK_SHARD:-100000} \
	CHECK_LANES=${CHECK_LANES:-main} \
	VM_ARGS="-k $dk/bzImage -M $dk/mods --kver $kver --cpu-model Haswell-noTSX -m 6144 -a kasan_multi_shot ${VM_ARGS:-}" \
	scripts/check.sh
