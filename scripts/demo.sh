#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo.sh ("make demo"): krbd against librbd on this machine, from nothing.
# Installs what is missing (Debian packages), builds, boots the test guest
# (QEMU, software emulation: this machine's kernel is never touched), starts
# the one-node Ceph cluster in it, and runs "blkload compare" over all four
# client paths -- kernel (the module on /dev/rbdX), io_uring and libaio on
# /dev/rbdX, librbd -- on a reduced matrix with three interleaved rounds
# (about 5 minutes). Prints the table; the reports and charts stay in the
# folder it names (DEMO_OUT, default build/demo/DATE-TIME).
#
# DEMO_RUNTIME (s per run, 4), DEMO_REPEAT (3), DEMO_IODEPTH (1,32) shrink or
# grow it.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=${DEMO_OUT:-$top/build/demo/$(date +%Y%m%d-%H%M%S)}

if [[ $(id -u) == 0 ]]; then
	scripts/install-deps.sh
else
	echo "demo: not root: skipping the package check (make deps as root installs them)"
fi
make -s all
mkdir -p "$out"
echo "demo: booting the test guest; results go to $out"
scripts/vm -t 2400 -w "$out" -o "$top/build/demo/vm" -e "DEMO_OUT=$out" \
	-e "DEMO_RUNTIME=${DEMO_RUNTIME:-4}" -e "DEMO_REPEAT=${DEMO_REPEAT:-3}" \
	-e "DEMO_IODEPTH=${DEMO_IODEPTH:-1,32}" -- scripts/demo-guest.sh
echo
echo "demo: the reports and charts are in $out:"
ls "$out" | sed 's/^/  /'
