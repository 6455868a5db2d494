#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio's own example job files (Debian's fio-examples), not written here: each
# block-device example given to "blkload run --filename=DEVICE FILE" on the
# host, where DEVICE does not exist and the module is not loaded. An example
# "reaches the device" when blkload took every option and stopped only at
# opening the device (or at the module, or at librbd's cluster). Fails when
# fewer reach than the floor (a regression), when a refusal calls a fio
# option unknown, or when the examples are not there (no verdict from no test).
#
#   scripts/tests/test_fio_examples.sh [-v]     FIO_EXAMPLES=DIR to use another copy
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bl=$top/userspace/blkload
dir=${FIO_EXAMPLES:-/usr/share/doc/fio/examples}
# Reached at the last change of this floor: 25 of the 35 fio 3.33 ships.
floor=25
dev=/dev/blkload-fio-examples-none
# The block-device workloads among fio's examples (the rest are fio engines
# that are no block path, filesystem-only jobs, or files fio itself refuses).
names="1mbs_clients aio-read backwards-read basic-verify butterfly cmdprio-bssplit
cmdprio-percentage cross-stripe-verify dedupe-global disk-zone-profile exitwhat fio-rand-RW
fio-rand-read fio-rand-write fio-seq-RW fio-seq-read fio-seq-write fixed-rate-submission flow
fsx iometer-file-access-server jesd219 latency-profile numa poisson-rate-submission rand-zones
rbd ssd-steadystate ssd-test steadystate surface-scan tiobench-example waitfor zbd-rand-write
zbd-rand-write-trim-gc zbd-rand-write-zone-reset-gc zbd-seq-read"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
ok=0
unknown=0
for f in $names; do
	[[ -f $dir/$f.fio ]] || continue
	n=$((n + 1))
	# In a directory of its own: examples name relative files and directories.
	out=$(cd "$tmp" && timeout 30 "$bl" run --allow-write --filename="$dev" "$dir/$f.fio" \
		2>&1 </dev/null)
	last=$(tail -1 <<<"$out")
	if grep -qE "$dev: No such file|generic netlink family 'blkload' not found|cannot connect to the cluster" \
		<<<"$last"; then
		ok=$((ok + 1))
		[[ ${1:-} == -v ]] && echo "reaches: $f"
	else
		echo "stops: $f: $last"
	fi
	if grep -q "is not an option fio or blkload knows" <<<"$out"; then
		echo "unknown option in $f: $out"
		unknown=$((unknown + 1))
	fi
done
echo "fio's examples: $ok of $n block-device files reach the device (floor $floor)"
if ((n < 30)); then
	echo "fio's examples are not in $dir ($n found): install fio-examples"
	exit 1
fi
((ok >= floor && unknown == 0))
