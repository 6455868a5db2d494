#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# demo-guest.sh: the guest half of "make demo" (scripts/demo.sh). Ceph up,
# two images, the module loaded, then blkload compare on all four paths;
# results into $DEMO_OUT (shared read-write with the host).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
export PATH=$top/userspace:$PATH
out=${DEMO_OUT:?}
trap '"$top/scripts/ceph-mini" stop >/dev/null 2>&1 || true' EXIT

echo "demo: starting a one-node Ceph cluster (mon + memstore OSD)"
"$top/scripts/ceph-mini" start -n 0 -s 256M >/dev/null
export CEPH_CONF=${CEPH_MINI_DIR:-/tmp/ceph-mini}/ceph.conf
for i in 0 1; do rbd create "rbd/demo$i" --size 128M; done
# This tree's module, with its dependencies (scripts/load-module.sh), unless
# one is loaded already; unloaded after only when loaded here.
loaded=0
if [[ ! -d /sys/module/blkload ]]; then
	"$top/scripts/load-module.sh"
	loaded=1
fi
echo "demo: blkload compare over rbd/demo0 and rbd/demo1 (prefilled first)"
blkload compare --images rbd/demo --count 2 --rw randread,randwrite --bs 4k \
	--iodepth "${DEMO_IODEPTH:-1,32}" --repeat "${DEMO_REPEAT:-3}" \
	--time_based --runtime "${DEMO_RUNTIME:-4}" --ramp_time 1 --allow-write --output "$out"
if ((loaded)); then rmmod blkload; fi
