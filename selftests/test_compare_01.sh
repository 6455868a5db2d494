#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload compare and diff end to end. On null_blk: the device paths, every
# output (JSON, CSV, markdown, SVG charts, the runs' own reports) produced
# and parsed, the order's rules, valgrind on the parent. On the one-node
# Ceph: two images given as pool/prefix, mapped by compare itself, a read
# cell refused on unallocated images with rbd du's figure, then prefilled and
# run on the kernel and librbd paths with two interleaved rounds (all four
# paths over Ceph, both directions: test_demo_01, with the same checks,
# selftests/compare_check.py); nothing left mapped;
# Ctrl-C (SIGTERM) still reports what ran. diff: no change against itself,
# a regression (exit 3) and an improvement on doctored copies.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "compare's orchestration (userspace; its kernel side is every other test's)"
bl_require_cmd blkload python3 valgrind gnuplot ceph-mon ceph-osd rbd

ktap_print_header
ktap_set_plan 13
bl_mark start
ceph_mini=$BLKLOAD_TOP/scripts/ceph-mini
tmp=$(mktemp -d)
trap '"$ceph_mini" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
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
		--runtime 1 --ramp_time 200ms --allow-write --cpus 0 --output "$tmp/nb" \
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
		--rw randread --bs 4k --iodepth 1 --repeat 2 --runtime 300ms --ramp_time 0 \
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

# --- Ceph: pool/prefix images, mapped by compare --------------------------
if ! "$ceph_mini" start -n 0 -s 16M >/dev/null 2>"$tmp/err"; then
	sed 's/^/# /' "$tmp/err"
	ktap_exit_fail_msg "the Ceph cluster did not come up"
fi
export CEPH_CONF=${CEPH_MINI_DIR:-/tmp/ceph-mini}/ceph.conf
bl_check "two 16 MiB images" bash -c 'rbd create rbd/cmp0 --size 16M && rbd create rbd/cmp1 --size 16M'
mapped() { ls /sys/bus/rbd/devices | wc -l; }

unallocated() {
	blkload compare --images rbd/cmp --count 2 --rw randread --bs 4k --iodepth 1 \
		--repeat 2 --runtime 1 --output "$tmp/un" 2>"$tmp/un.err" && return 1
	sed 's/^/# /' "$tmp/un.err"
	grep -q "rbd/cmp0 is not fully allocated (rbd du: .* used of 16.00 MiB provisioned" \
		"$tmp/un.err" && grep -q "Add --allow-write to prefill" "$tmp/un.err" &&
		test "$(mapped)" = 0
}
bl_check "read cells on unallocated images refused, naming rbd du's figure; unmapped" unallocated

ceph() {
	blkload compare --images rbd/cmp --count 2 --rw randread --bs 4k --iodepth 4 \
		--paths kernel,librbd --repeat 2 --runtime 1 --ramp_time 300ms --allow-write \
		--cpus 0 --output "$tmp/ceph" >"$tmp/ceph.out" 2>"$tmp/ceph.err" ||
		{ sed 's/^/# /' "$tmp/ceph.err"; return 1; }
	grep -q "prefilling 2 targets" "$tmp/ceph.err" || return 1
	check_result "$tmp/ceph" 2 kernel,librbd librbd 2
}
bl_check "Ceph: prefilled, kernel and librbd x 2 rounds; every output parsed" ceph
bl_check "compare unmapped what it mapped" test "$(mapped)" = 0

allocated() {
	for i in 0 1; do
		rbd diff --format json "rbd/cmp$i" | python3 -c '
import json, sys
print("# allocated", sum(x["length"] for x in json.load(sys.stdin)))
' | tee /dev/stderr | grep -q "allocated 16777216" || return 1
	done
}
bl_check "the prefill allocated every byte of both images (rbd diff)" allocated 2>&1

# SIGTERM: the run in progress finishes and counts, then compare ends.
term() {
	blkload compare --images rbd/cmp --count 1 --rw randread --bs 4k --iodepth 1,2 \
		--repeat 5 --runtime 1 --ramp_time 0 --paths kernel,librbd \
		--output "$tmp/term" >/dev/null 2>"$tmp/term.err" &
	local pid=$! rc
	# Once the second run has begun (the first is done): SIGTERM.
	bl_wait 1200 compgen -G "$tmp/term/runs/002-*.json" >/dev/null || return 1
	kill -TERM $pid
	wait $pid
	rc=$?
	test $rc = 1 || { echo "# exit $rc"; sed 's/^/# /' "$tmp/term.err"; return 1; }
	grep -q "terminated; reporting what ran" "$tmp/term.err" &&
		bl_json "d['incomplete'] is True" "2 <= len(d['order']) < 20" \
			"all(o['status'] == 0 and o['iops'] > 0 for o in d['order'])" \
			<"$tmp/term/results.json" && test "$(mapped)" = 0
}
bl_check "SIGTERM: the run in progress finishes and counts, then a report of what ran; unmapped" term

# Ctrl-C at a terminal signals the whole process group: the run in progress
# is stopped at once (a second Ctrl-C would detach its jobs: the children
# have groups of their own and get one), is not a sample, and nothing stays.
ctrlc() {
	setsid blkload compare --images rbd/cmp --count 1 --rw randread --bs 4k --iodepth 1,2 \
		--repeat 5 --runtime 30 --ramp_time 0 --paths kernel,librbd \
		--output "$tmp/int" >/dev/null 2>"$tmp/int.err" &
	local pid=$! rc t0 t1
	bl_wait 1200 compgen -G "$tmp/int/runs/001-*.json" >/dev/null || return 1
	sleep 2
	t0=$(bl_ms)
	kill -INT -- -$pid
	kill -INT -- -$pid
	wait $pid
	rc=$?
	t1=$(bl_ms)
	echo "# compare ended $((t1 - t0)) ms after Ctrl-C twice"
	test $rc = 1 -a $((t1 - t0)) -lt "$(bl_ms_scaled 15000)" ||
		{ echo "# exit $rc"; sed 's/^/# /' "$tmp/int.err"; return 1; }
	grep -q "interrupted; reporting what ran" "$tmp/int.err" &&
		bl_json "d['incomplete'] is True" "len(d['order']) == 1" \
			"d['order'][0]['status'] == 130 and d['order'][0]['iops'] is None" \
			"all(c['paths'][p]['n'] == 0 for c in d['cells'] for p in d['paths'])" \
			<"$tmp/int/results.json" && test "$(mapped)" = 0 && bl_clean
}
bl_check "Ctrl-C: the run stops at once and is not a sample; unmapped, no job left" ctrlc
bl_check "nothing left of blkload" bl_clean
bl_unload
"$ceph_mini" stop 2>&1 | sed 's/^/# /'
bl_check "daemons gone" bash -c '! pgrep -x "ceph-(mon|osd)" >/dev/null'
bl_mark end
ktap_finished
