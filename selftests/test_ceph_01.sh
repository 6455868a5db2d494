#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The Ceph fixture: a one-node cluster comes up, four images map through
# krbd, a random 4 MiB pattern written with dd reads back identical; blkload
# runs over the four images with per-device and summed results. The librbd
# engine does exact counts, and one seed writes the same blocks through krbd
# and through librbd; io_uring runs on /dev/rbdX. The librbd write guard:
# an image another client watches, one mapped here and open, and one that
# carries a filesystem are refused (nothing written), reads and --force
# still run, an idle mapping does not refuse. Faults: the
# OSD stopped for 3 s mid-run (SIGSTOP) and resumed: the run goes on and
# reports the stall; an image mapped with osd_request_timeout=3 turns the
# same stall into ETIMEDOUT errors that end the run; a forced unmap mid-run
# ends the run within 2 s with the in-flight IO as errors. blkload compare
# over images given as pool/prefix (below). Unmap and teardown leave
# nothing behind.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd ceph-mon ceph-osd rbd blkload python3 mkfs.ext4 md5sum

ktap_print_header
ktap_set_plan 26
bl_mark start
ceph_mini=$BLKLOAD_TOP/scripts/ceph-mini
tmp=$(mktemp -d)
trap '"$ceph_mini" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT

t0=$(bl_ms)
if ! devs=$("$ceph_mini" start -n 4 -s 64M 2>"$tmp/err"); then
	sed 's/^/# /' "$tmp/err"
	ktap_exit_fail_msg "the Ceph cluster did not come up"
fi
# How long the start took, step by step, retries included (the debug
# kernel's starts took from one to ten minutes).
echo "# the cluster came up in $((($(bl_ms) - t0) / 1000)) s"
sed 's/^/# /' "$tmp/err"
dev=$(head -1 <<<"$devs")
bl_check "cluster up, image mapped at $dev" test -b "$dev"

head -c 4194304 /dev/urandom >"$tmp/pattern"
bl_check "dd writes 4 MiB to $dev" \
	dd if="$tmp/pattern" of="$dev" bs=1M oflag=direct status=none
# Drop the page cache so the read really goes to the OSD.
echo 3 >/proc/sys/vm/drop_caches
dd if="$dev" of="$tmp/back" bs=1M count=4 iflag=direct status=none
bl_check "the 4 MiB read back are identical" cmp -s "$tmp/pattern" "$tmp/back"

mapfile -t rbds <<<"$devs"
export CEPH_CONF=${CEPH_MINI_DIR:-/tmp/ceph-mini}/ceph.conf
args=()
for d in "${rbds[@]}"; do args+=(--dev "$d"); done
bl_load
write4() {
	blkload -j run "${args[@]}" --rw randwrite --bs 4k --iodepth 8 --number_ios 200 \
		--allow-write | tee "$tmp/w.json" |
		bl_json "len(d['jobs']) == 4" \
			"all(j['write']['total_ios'] == 200 and j['write']['errors'] == 0 for j in d['jobs'])" \
			"d['all_jobs']['write']['total_ios'] == 800"
}
bl_check "krbd: 4 images x 200 random 4k writes, exact per device and summed" write4
read4() {
	blkload -j run "${args[@]}" --rw randread --bs 4k --iodepth 16 --time_based --runtime 3 \
		--cpus 0-1 | tee "$tmp/r.json" |
		bl_json "len(d['jobs']) == 4" \
			"all(j['read']['total_ios'] > 0 and j['read']['errors'] == 0 for j in d['jobs'])" \
			"d['all_jobs']['read']['total_ios'] == sum(j['read']['total_ios'] for j in d['jobs'])" \
			"all(j['done_reason'] == 'runtime' for j in d['jobs'])"
}
bl_check "krbd: 4 images x 3 s random reads on 2 CPUs, per device and summed" read4
librbd_exact() {
	blkload -j run --engine librbd --pool rbd --rbdname img1 --rbdname img2 --rw randwrite \
		--bs 4k --iodepth 8 --number_ios 200 --cpus 0-1 --allow-write >"$tmp/l.json" &&
		bl_json "len(d['jobs']) == 2" \
			"all(j['write']['total_ios'] == 200 and j['write']['errors'] == 0 for j in d['jobs'])" \
			"d['all_jobs']['write']['total_ios'] == 400" <"$tmp/l.json"
}
bl_check "librbd engine: 2 images x 200 random 4k writes, exact" librbd_exact

krbd_librbd_same() {
	local k l
	rbd create rbd/seqk --size 16M && rbd create rbd/seql --size 16M || return 1
	k=$(rbd map -o noudev rbd/seqk) || return 1
	blkload run --dev "$k" --rw randwrite --allow-write --number_ios 150 --iodepth 4 \
		--cpus 0-1 --randseed 9 >/dev/null || return 1
	blkload run --engine librbd --pool rbd --rbdname seql --rw randwrite --allow-write \
		--number_ios 150 --iodepth 4 --cpus 0-1 --randseed 9 >/dev/null || return 1
	l=$(rbd map -o noudev rbd/seql) || return 1
	bl_stamped "$k" >"$tmp/k.blocks" && bl_stamped "$l" >"$tmp/l.blocks" || return 1
	rbd unmap -o noudev "$k"
	rbd unmap -o noudev "$l"
	echo "# krbd stamped $(wc -w <"$tmp/k.blocks") blocks, librbd $(wc -w <"$tmp/l.blocks")"
	test "$(wc -w <"$tmp/k.blocks")" -gt 130 && cmp -s "$tmp/k.blocks" "$tmp/l.blocks"
}
bl_check "one seed: krbd and librbd write the same blocks, stamped alike" krbd_librbd_same

# The bytes of image $1 ever written (rbd diff).
written() {
	rbd diff --format json "rbd/$1" |
		python3 -c 'import json, sys; print(sum(x["length"] for x in json.load(sys.stdin)))'
}
# A librbd write to image $1, with blkload's other arguments after it;
# stderr in $tmp/g.err.
gwrite() {
	local img=$1
	shift
	blkload -j run --engine librbd --pool rbd --rbdname "$img" --rw randwrite --bs 4k \
		--iodepth 4 --allow-write "$@" >"$tmp/g.json" 2>"$tmp/g.err"
	local rc=$?
	sed 's/^/# /' "$tmp/g.err"
	return $rc
}
# Whether image $1 has a watcher (rbd status).
has_watchers() {
	rbd status --format json "rbd/$1" |
		python3 -c 'import json, sys; sys.exit(0 if json.load(sys.stdin)["watchers"] else 1)'
}
# rbd watch on image $1 in the background, fed by a fifo: it unwatches and
# ends at a newline (killed, its watch would stay for the OSD's 30 s).
watch_start() {
	rm -f "$tmp/wf"
	mkfifo "$tmp/wf"
	rbd watch "rbd/$1" <"$tmp/wf" >/dev/null 2>&1 &
	watcher=$!
	exec {wfd}>"$tmp/wf"
	bl_wait 30 has_watchers "$1"
}
watch_stop() {
	echo >&"$wfd"
	exec {wfd}>&-
	wait "$watcher"
	bl_wait 30 no_watchers "$1"
}
no_watchers() { ! has_watchers "$1"; }
watched() {
	local rc
	rbd create rbd/gd --size 16M && watch_start gd || return 1
	gwrite gd --number_ios 20 && rc=0 || rc=$?
	echo "# written to rbd/gd: $(written gd) bytes"
	test "$rc" != 0 && test "$(written gd)" = 0 &&
		grep -q "^blkload: librbd rbd/gd: not writing: it is open by client\.[0-9]* at [^;]*; --force writes anyway$" \
			"$tmp/g.err"
}
bl_check "librbd: a write to an image another client watches is refused, naming it; nothing written" \
	watched
read_force() {
	local rc=0
	has_watchers gd || return 1
	blkload -j run --engine librbd --pool rbd --rbdname gd --rw randread --number_ios 20 |
		bl_json "d['jobs'][0]['read']['total_ios'] == 20" || rc=1
	gwrite gd --number_ios 50 --force || rc=1
	watch_stop gd || rc=1
	test $rc = 0 && bl_json "d['jobs'][0]['write']['total_ios'] == 50" <"$tmp/g.json"
}
bl_check "and reads of it run, and --force writes (50 exactly); the watch then ends" read_force
mapped_here() {
	local k s rc=0 before
	k=$(rbd map -o noudev rbd/gd) || return 1
	gwrite gd --number_ios 20 || rc=1
	before=$(rbd export rbd/gd - 2>/dev/null | md5sum)
	bash -c 'exec sleep 600' <"$k" &
	s=$!
	bl_wait 50 grep -qx sleep "/proc/$s/comm"
	gwrite gd --number_ios 20 && rc=1
	kill $s
	wait $s 2>/dev/null
	test "$(rbd export rbd/gd - 2>/dev/null | md5sum)" = "$before" || rc=1
	rbd unmap -o noudev "$k" || rc=1
	test $rc = 0 &&
		grep -q "^blkload: librbd rbd/gd: not writing: it is mapped here as $k, and it is open by sleep (pid $s); --force writes anyway$" \
			"$tmp/g.err"
}
bl_check "mapped here: idle, written; open by a process, refused naming it, the image unchanged" \
	mapped_here
fs_image() {
	local k
	rbd create rbd/gfs --size 16M && k=$(rbd map -o noudev rbd/gfs) || return 1
	mkfs.ext4 -q -L guarded "$k" || return 1
	[[ ! -e /run/udev/control ]] || udevadm settle
	rbd unmap -o noudev "$k" || return 1
	! gwrite gfs --number_ios 20 &&
		grep -q "^blkload: librbd rbd/gfs: not writing: it carries a filesystem (ext4) labelled 'guarded'; --force writes anyway$" \
			"$tmp/g.err"
}
bl_check "an image carrying ext4 is refused, naming it" fs_image

uring_rbd() {
	blkload -j run --engine io_uring --dev "$dev" --rw randwrite --bs 4k --iodepth 8 \
		--number_ios 300 --allow-write |
		bl_json "d['jobs'][0]['write']['total_ios'] == 300" \
			"d['jobs'][0]['write']['errors'] == 0"
}
bl_check "io_uring engine on $dev: 300 random writes exactly" uring_rbd

text_report() {
	blkload run "${args[@]}" --rw randread --bs 4k --iodepth 16 --time_based --runtime 1 >"$tmp/t.txt" 2>&1
	sed 's/^/# /' "$tmp/t.txt"
	test "$(grep -c '^/dev/rbd[0-9]*: (groupid=0, jobs=1): err= 0: job [0-9]* on /dev/rbd[0-9]*, rw=randread, bs=4096, iodepth=16, cpus=0: done (runtime)' "$tmp/t.txt")" = 4 &&
		test "$(grep -c '^  read: IOPS=[0-9.]*k\?, BW=[0-9.]*[KMG]\?i\?B/s ([0-9.]*[kMG]\?B/s)([0-9.]*[KMG]\?i\?B/[0-9]*msec)$' "$tmp/t.txt")" = 5 &&
		grep -q '^All jobs: (groupid=0, jobs=4): err= 0: 4 queues$' "$tmp/t.txt" &&
		test "$(grep -c '^  rbd[0-9]*: ios=[0-9]*/[0-9]*, merge=' "$tmp/t.txt")" = 4 &&
		grep -q '^   READ: bw=' "$tmp/t.txt"
}
bl_check "krbd: the text report names each device and the sum" text_report

osd_pid=$(cat "${CEPH_MINI_DIR:-/tmp/ceph-mini}/run/osd.0.pid")
# Writes: krbd answers reads of never-written objects itself.
# Each fault comes once the job runs, a second after the module has it: a
# CLI's start (the write guard's reads among it) takes seconds on a debug
# kernel beside the cluster, and after a fixed 2 s the faults came before
# the job (no stall seen; the guard's reads unanswered; the device gone).
job_runs() {
	bl_wait $((100 * BL_SCALE)) bl_has_jobs 1 || { kill "$1"; wait "$1"; return 1; }
	sleep 1
}

stall() {
	blkload -j run --dev "$dev" --rw randwrite --bs 4k --iodepth 8 \
		--time_based --runtime $((BL_SCALE > 1 ? 12 : 8)) --allow-write >"$tmp/s.json" &
	local pid=$!
	job_runs $pid || return 1
	kill -STOP "$osd_pid"
	sleep 3
	kill -CONT "$osd_pid"
	wait $pid || return 1
	bl_json "print('# stall_max_ns', d['jobs'][0]['stall_max_ns']) or True" \
		"d['jobs'][0]['stall_max_ns'] >= 2.5e9" \
		"d['jobs'][0]['done_reason'] == 'runtime'" \
		"d['jobs'][0]['write']['errors'] == 0" \
		"d['jobs'][0]['write']['total_ios'] > 0" <"$tmp/s.json"
}
bl_check "OSD stopped 3 s mid-run: the run resumes and reports a stall of >= 2.5 s" stall

timeout_map() {
	local d pid rc
	d=$(rbd map -o noudev,osd_request_timeout=3 rbd/img1) || return 1
	blkload -j run --dev "$d" --rw randwrite --bs 4k --iodepth 8 --time_based --runtime 60 \
		--allow-write >"$tmp/o.json" &
	pid=$!
	job_runs $pid || { rbd unmap -o noudev "$d"; return 1; }
	kill -STOP "$osd_pid"
	wait $pid && rc=0 || rc=$?
	kill -CONT "$osd_pid"
	rbd unmap -o noudev "$d"
	test "$rc" = 1 &&
		bl_json "d['jobs'][0]['done_reason'] == 'error'" "d['jobs'][0]['error'] == 110" \
			<"$tmp/o.json"
}
bl_check "osd_request_timeout=3: the same stall ends the run with ETIMEDOUT" timeout_map

force_unmap() {
	local d=${rbds[3]} pid rc t0 t1
	blkload -j run --dev "$d" --rw randwrite --bs 4k --iodepth 8 --time_based --runtime 60 \
		--allow-write >"$tmp/u.json" &
	pid=$!
	job_runs $pid || return 1
	# Through sysfs, as "rbd unmap -o force" does, without the rbd
	# command's own start (a second or more under emulation) in the time.
	# (With rbd's single_major, the default, "remove" refuses: EINVAL.)
	local f=/sys/bus/rbd/remove
	[[ $(cat /sys/module/rbd/parameters/single_major 2>/dev/null) == Y ]] &&
		f=/sys/bus/rbd/remove_single_major
	t0=$(bl_ms)
	echo "${d#/dev/rbd} force" >"$f" || return 1
	wait $pid && rc=0 || rc=$?
	t1=$(bl_ms)
	echo "# run exited $rc $((t1 - t0)) ms after the forced unmap"
	test "$rc" = 1 -a $((t1 - t0)) -lt "$(bl_ms_scaled 2000)" &&
		bl_json "d['jobs'][0]['done_reason'] == 'error'" "d['jobs'][0]['error'] > 0" \
			"d['jobs'][0]['write']['errors'] > 0" \
			<"$tmp/u.json"
}
bl_check "rbd unmap -o force mid-run: the run ends within 2 s with errors" force_unmap
# blkload compare over Ceph, in this cluster: two images given as
# pool/prefix and mapped by compare itself, a read cell refused on
# unallocated images with rbd du's figure, then prefilled and run (kernel
# and librbd, two interleaved rounds; all four paths: test_demo_01); nothing
# left mapped; SIGTERM and Ctrl-C still report what ran. Userspace
# orchestration: the debug lane leaves it to the 6.1 lane.
if ((BL_SCALE > 1)); then
	for c in "two 16 MiB images" "read cells on unallocated images refused" \
		"compare over Ceph: prefilled, kernel and librbd x 2 rounds" "compare unmapped what it mapped" \
		"the prefill allocated every byte of both images" "SIGTERM: the run in progress counts" \
		"Ctrl-C: the run stops at once"; do
		ktap_test_skip "$c (debug lane: compare over Ceph runs in the 6.1 lane)"
	done
else
	bl_check "two 16 MiB images" bash -c 'rbd create rbd/cmp0 --size 16M && rbd create rbd/cmp1 --size 16M'
	# Devices compare mapped (its images are rbd/cmp*), mapped now.
	mapped() { cat /sys/bus/rbd/devices/*/name 2>/dev/null | grep -c "^cmp"; }

	unallocated() {
		blkload compare --images rbd/cmp --count 2 --rw randread --bs 4k --iodepth 1 \
			--repeat 2 --time_based --runtime 1 --output "$tmp/un" 2>"$tmp/un.err" && return 1
		sed 's/^/# /' "$tmp/un.err"
		grep -q "rbd/cmp0 is not fully allocated (rbd du: .* used of 16.00 MiB provisioned" \
			"$tmp/un.err" && grep -q "Add --allow-write to prefill" "$tmp/un.err" &&
			test "$(mapped)" = 0
	}
	bl_check "read cells on unallocated images refused, naming rbd du's figure; unmapped" unallocated

	ceph() {
		blkload compare --images rbd/cmp --count 2 --rw randread --bs 4k --iodepth 4 \
			--paths kernel,librbd --repeat 2 --time_based --runtime 1 --ramp_time 300ms --allow-write \
			--cpus 0 --output "$tmp/ceph" >"$tmp/ceph.out" 2>"$tmp/ceph.err" ||
			{ sed 's/^/# /' "$tmp/ceph.err"; return 1; }
		grep -q "prefilling 2 targets" "$tmp/ceph.err" || return 1
		python3 "$BL_DIR/compare_check.py" "$tmp/ceph" 2 kernel,librbd librbd 2
	}
	bl_check "compare over Ceph: prefilled, kernel and librbd x 2 rounds; every output parsed" ceph
	bl_check "compare unmapped what it mapped" test "$(mapped)" = 0

	allocated() {
		for i in 0 1; do
			rbd diff --format json "rbd/cmp$i" |
				python3 -c 'import json, sys; print("# allocated", sum(x["length"] for x in json.load(sys.stdin)))' | tee /dev/stderr | grep -q "allocated 16777216" || return 1
		done
	}
	bl_check "the prefill allocated every byte of both images (rbd diff)" allocated 2>&1

	# SIGTERM: the run in progress finishes and counts, then compare ends.
	term() {
		blkload compare --images rbd/cmp --count 1 --rw randread --bs 4k --iodepth 1,2 \
			--repeat 5 --time_based --runtime 1 --ramp_time 0 --paths kernel,librbd \
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
			--repeat 5 --time_based --runtime 30 --ramp_time 0 --paths kernel,librbd \
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
fi
bl_check "nothing left of blkload" bl_clean
bl_unload

"$ceph_mini" stop 2>&1 | sed 's/^/# /'
bl_check "unmapped" test ! -e "$dev"
bl_check "daemons gone" bash -c '! pgrep -x "ceph-(mon|osd)" >/dev/null'

bl_mark end
ktap_finished
