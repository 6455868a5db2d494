#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload compare and diff end to end on null_blk: the device paths, every
# output (JSON, CSV, markdown, SVG charts, the runs' own reports) produced
# and parsed (selftests/compare_check.py), the order's rules, refusals,
# valgrind on the parent. diff: no change against itself, a regression
# (exit 3) and an improvement on doctored copies. Over Ceph (images as
# pool/prefix, mapped by compare, prefill, SIGTERM and Ctrl-C):
# test_ceph_01, in its cluster; all four paths over Ceph: test_demo_01.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "compare's orchestration (userspace; its kernel side is every other test's)"
bl_require_cmd blkload python3 valgrind gnuplot

ktap_print_header
ktap_set_plan 5
bl_mark start
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=20000

# The checks every result must pass: $1 results dir, $2 number of targets,
# $3 expected paths (comma-separated), $4 baseline, $5 repeat.
check_result() {
	BL_SCALE=$BL_SCALE python3 "$BL_DIR/compare_check.py" "$@"
}

# --- block devices: the device paths -------------------------------------
nullb() {
	blkload compare /dev/nullb0 --rw randread,randwrite --bs 4k --iodepth 2 --repeat 2 \
		--time_based --runtime 1 --ramp_time 200ms --allow-write --cpus 0 --output "$tmp/nb" \
		>"$tmp/nb.out" 2>"$tmp/nb.err" || { sed 's/^/# /' "$tmp/nb.err"; return 1; }
	check_result "$tmp/nb" 1 kernel,io_uring,libaio kernel 2 &&
		grep -q "^| randread | 4k | 2 | libaio |" "$tmp/nb.out"
}
bl_check "null_blk: kernel, io_uring, libaio x 2 cells x 2 rounds; every output parsed" nullb

refusals() {
	blkload compare /dev/nullb0 --paths librbd --rw randread 2>"$tmp/e1" && return 1
	grep -q "librbd needs RBD images; /dev/nullb0 is not one" "$tmp/e1" || return 1
	blkload compare /dev/nullb0 --rw randwrite 2>"$tmp/e2" && return 1
	grep -q "add --allow-write" "$tmp/e2" || return 1
	blkload compare /dev/nullb0 --rw randread --paths kernel,bogus 2>"$tmp/e3" && return 1
	grep -q "'bogus' is none of" "$tmp/e3" || return 1
	blkload compare /dev/nullb0 --rw randread --bs 4k,4096 2>"$tmp/e4" && return 1
	grep -q "'4k' and '4096' are the same" "$tmp/e4" || return 1
	blkload compare /dev/null --rw randread 2>"$tmp/e5" && return 1
	grep -q "'/dev/null': not a block device" "$tmp/e5" || return 1
	blkload compare /dev/nullb0 --rw randread --output "$tmp/nb" 2>"$tmp/e6" && return 1
	grep -q "already there; choose another --output" "$tmp/e6"
}
bl_check "refused: librbd on a plain device, writes without --allow-write, an unknown path, a cell twice, not a device, a used folder" refusals

vg() {
	valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
		--log-file="$tmp/vg" blkload compare /dev/nullb0 --paths kernel,io_uring \
		--rw randread --bs 4k --iodepth 1 --repeat 2 --time_based --runtime 300ms --ramp_time 0 \
		--output "$tmp/vgout" >/dev/null 2>&1
	local rc=$?
	valgrind -q --leak-check=full --errors-for-leak-kinds=all --error-exitcode=99 \
		--log-file="$tmp/vg2" blkload -j diff "$tmp/nb/results.json" "$tmp/nb/results.json" \
		>/dev/null 2>&1
	local rc2=$?
	sed 's/^/# /' "$tmp/vg" "$tmp/vg2"
	test $rc = 0 -a $rc2 = 0 -a ! -s "$tmp/vg" -a ! -s "$tmp/vg2"
}
bl_check "compare and diff under valgrind: clean" vg

# --- diff on results with known differences -------------------------------
# $1 in, $2 out, $3 path, $4 factor: that path's runs become its mean times
# the factor +-0.1% (a difference no noise hides); the other paths stay.
doctor() {
	python3 - "$@" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
for c in r['cells']:
    e = c['paths'][sys.argv[3]]
    m = e['iops_mean'] * float(sys.argv[4])
    e['iops'] = [m * 0.999, m * 1.001]
json.dump(r, open(sys.argv[2], 'w'))
EOF
}
diffs() {
	local rc
	blkload -j diff "$tmp/nb/results.json" "$tmp/nb/results.json" >"$tmp/d0.json" || return 1
	bl_json "d['regressions'] == 0 and d['improvements'] == 0" \
		"all(x['verdict'] == 'no change' and x['change_pct'] == 0 for x in d['rows'])" \
		"len(d['rows']) == 6" <"$tmp/d0.json" || return 1
	doctor "$tmp/nb/results.json" "$tmp/base.json" io_uring 1
	doctor "$tmp/nb/results.json" "$tmp/slow.json" io_uring 0.5
	blkload -j diff "$tmp/base.json" "$tmp/slow.json" >"$tmp/d1.json"
	rc=$?
	test $rc = 3 || { echo "# diff exit $rc, not 3"; return 1; }
	bl_json "d['regressions'] == 2" \
		"all(x['verdict'] == 'regression' and abs(x['change_pct'] + 50) < 1e-6 for x in d['rows'] if x['path'] == 'io_uring')" \
		"all(x['verdict'] == 'no change' for x in d['rows'] if x['path'] != 'io_uring')" \
		<"$tmp/d1.json" || return 1
	blkload diff "$tmp/slow.json" "$tmp/base.json" >"$tmp/d2.txt" || return 1
	grep -q "| io_uring | .* | +100.0% | .* improvement |" "$tmp/d2.txt" &&
		grep -q "0 regressions, 2 improvements" "$tmp/d2.txt" || return 1
	# Beyond the threshold: a 50% drop is not counted at 60%.
	blkload diff --threshold 60 "$tmp/base.json" "$tmp/slow.json" >/dev/null
}
bl_check "diff: no change against itself; a halved path is a regression (exit 3), then an improvement" diffs

bl_check "nothing left of blkload" bl_clean
bl_unload
bl_mark end
ktap_finished
