#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The guest half of "make demo" (scripts/demo-guest.sh), shrunk, from the
# state a user's guest starts in: blkload neither installed nor loaded, and
# libcrc32c (which the module needs) not loaded either, so the demo must
# load the tree's module with its dependencies itself. Then its own
# one-node Ceph, two images, blkload compare over all four paths in both
# directions, two rounds, the table printed and the reports and charts left
# in the folder, every output checked as test_compare_01 checks its own
# (selftests/compare_check.py); nothing left after.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd ceph-mon ceph-osd rbd gnuplot blkload python3

ktap_print_header
# The debug lane keeps its time for the kernel: the demo's guest half is
# userspace over compare (krbd under the module is test_ceph_01's there).
if ((BL_SCALE > 1)); then
	ktap_skip_all "the demo runs in make check; the debug lane runs test_ceph_01"
	exit "$BL_SKIP"
fi
ktap_set_plan 5
bl_mark start
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

fresh() {
	bl_unload || return 1
	# Earlier tests' krbd holds libceph, which holds libcrc32c.
	modprobe -r rbd 2>/dev/null
	modprobe -r libcrc32c 2>/dev/null
	bl_nothing_installed && [[ ! -d /sys/module/libcrc32c ]]
}
bl_check "the user's state: blkload not installed, not loaded; libcrc32c not loaded" fresh

demo() {
	DEMO_OUT=$tmp/r DEMO_RUNTIME=1 DEMO_REPEAT=2 DEMO_IODEPTH=1 \
		"$BLKLOAD_TOP/scripts/demo-guest.sh" >"$tmp/out" 2>"$tmp/err" ||
		{ tail -20 "$tmp/err" | sed 's/^/# /'; return 1; }
	grep "^| randread" "$tmp/out" | sed 's/^/# /'
	python3 - "$tmp" <<'PY'
import json, os, sys
t = sys.argv[1]
out = open(os.path.join(t, 'out')).read()
rows = [l for l in out.splitlines() if l.startswith('| rand')]
paths = {l.split('|')[4].strip() for l in rows}
r = json.load(open(os.path.join(t, 'r', 'results.json')))
svgs = [f for f in os.listdir(os.path.join(t, 'r')) if f.endswith('.svg')]
ok = len(rows) == 8 and paths == {'kernel', 'io_uring', 'libaio', 'librbd'} and \
    'vs librbd' in out and 'Average of averages' in out and \
    r['baseline'] == 'librbd' and r['targets'] == ['rbd/demo0', 'rbd/demo1'] and \
    not r['incomplete'] and len(svgs) == 6
sys.exit(not ok)
PY
	python3 "$BL_DIR/compare_check.py" "$tmp/r" 2 kernel,io_uring,libaio,librbd librbd 2
}
bl_check "demo: Ceph up, four paths compared, the table printed, reports and charts kept" demo
# (The kernel path's rows above prove the load: nothing had libcrc32c loaded
# when the demo loaded the module, before its compare mapped any image.)
bl_check "the demo unloaded the module it loaded" bash -c "! grep -q '^blkload ' /proc/modules"
bl_check "the Ceph daemons are gone" bash -c '! pgrep -x "ceph-(mon|osd)" >/dev/null'
bl_check "nothing of blkload left: no module loaded, none installed" bl_nothing_installed
bl_mark end
ktap_finished
