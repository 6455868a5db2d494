#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# --verify=crc32c (include/blkload/verify.h) on a RAM disk: a write job reads
# every unit back and finds it intact; a read job over clean data finds
# nothing; one byte changed with dd is found, in exactly its unit, as a CRC
# failure, and the run fails; another seed's data is found in every unit,
# with the reports bounded and the rest counted; randrw on two CPUs (a
# split too) checks what it reads against the generation it last wrote and
# finds nothing wrong; writes lost under it (dm-flakey drop_writes) are
# found as an earlier run's data; a runtime-bound write reads back after its
# runtime, which is all its elapsed time;
# what cannot work is refused.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 dmsetup

ktap_print_header
ktap_set_plan 14
bl_mark start
bl_load
bl_brd 16384
dev=/dev/ram0
tmp=$(mktemp -d)
trap 'dmsetup remove --noudevsync bl_flaky 2>/dev/null; dmsetup remove --noudevsync bl_vslow 2>/dev/null; modprobe -r brd 2>/dev/null; rm -rf "$tmp"' EXIT

# The debug lane keeps its time for the kernel: fewer IOs in the mixes there.
# (6000: about 5% of the 1024 units are never written, so fewer read back.)
n_mix=20000 n_split=8000 rb_min=1000
((BL_SCALE > 1)) && n_mix=6000 n_split=3000 rb_min=900

# Runs blkload -j run "$@" on $dev into $tmp/out.json; its exit status.
vrun() {
	blkload -j run --dev $dev --bs 4k --cpus 0 "$@" >"$tmp/out.json" 2>"$tmp/out.err"
	local rc=$?
	sed 's/^/# /' "$tmp/out.err" | head -5
	return $rc
}

# Assertions over the run's verify object "v" and job "j".
vjson() {
	python3 - "$tmp/out.json" "$@" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))["jobs"][0]
v = j.get("verify", {})
print("# verify: checked %s skipped %s errors %s readback %s; failures %s" % (
    v.get("checked"), v.get("skipped"), v.get("errors"), v.get("readback"),
    [(f["offset"], f["what"]) for f in v.get("failures", [])][:3]))
for expr in sys.argv[2:]:
    if not eval(expr):
        print("# assertion failed: " + expr)
        sys.exit(1)
PY
}

write_back() {
	vrun --rw write --iodepth 8 --allow-write --verify crc32c || return 1
	vjson 'v["checked"] == 4096' 'v["readback"] == 4096' 'v["errors"] == 0' \
		'v["skipped"] == 0' 'j["write"]["total_ios"] == 4096' 'j["read"]["total_ios"] == 0'
}
bl_check "write 16 MiB with verify: all 4096 units read back and intact; the read-back is not in the reads" write_back

clean() {
	vrun --rw read --iodepth 8 --verify crc32c || return 1
	vjson 'v["checked"] == 4096' 'v["errors"] == 0' 'v["readback"] == 0' \
		'j["read"]["total_ios"] == 4096'
}
bl_check "read with verify over clean data: 4096 units checked, none failed, exit 0" clean

# Flips one bit of byte 1000 of unit 1234, with direct IO (no page cache
# between dd and the module's bios).
one_byte() {
	local rc
	dd if=$dev of="$tmp/unit" bs=4k skip=1234 count=1 iflag=direct status=none || return 1
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[1000] ^= 1; open(sys.argv[1], "wb").write(b)' "$tmp/unit" || return 1
	dd if="$tmp/unit" of=$dev bs=4k seek=1234 count=1 oflag=direct conv=notrunc status=none ||
		return 1
	vrun --rw read --iodepth 4 --verify crc32c
	rc=$?
	echo "# exit $rc"
	((rc != 0)) || return 1
	vjson 'v["errors"] == 1' 'v["checked"] == 4096' 'len(v["failures"]) == 1' 'all(f["offset"] == 1234 * 4096 and f["what"] == "crc32c" for f in v["failures"])' \
		'j["error"] != 0' || return 1
	# The text report names the unit.
	blkload run --dev $dev --bs 4k --cpus 0 --rw read --verify crc32c >"$tmp/out.txt" 2>&1
	if ! grep -q "at $((1234 * 4096)): crc32c" "$tmp/out.txt" ||
		! grep -q "4096 units checked, 0 skipped, 1 failed" "$tmp/out.txt"; then
		sed 's/^/# /' "$tmp/out.txt" | head -20
		return 1
	fi
}
bl_check "one byte changed with dd: exactly its unit fails its CRC, the run fails, the text names it" one_byte

other_seed() {
	vrun --rw read --iodepth 8 --verify crc32c --randseed 9 && return 1
	vjson 'v["errors"] == 4096' 'len(v["failures"]) == 16' \
		'all(f["what"] in ("seed", "crc32c") for f in v["failures"])' \
		'sum(f["what"] == "seed" for f in v["failures"]) >= 15'
}
bl_check "another seed's data: every unit fails, 16 reported and the rest counted" other_seed

randrw() {
	vrun --rw randrw --size 4m --iodepth 8 --cpus 0-1 --number_ios $n_mix --allow-write \
		--verify crc32c || return 1
	vjson 'v["errors"] == 0' 'v["checked"] > 2000' "v['readback'] > $rb_min" \
		'v["readback"] <= 1024' "j['read']['total_ios'] + j['write']['total_ios'] == $n_mix"
}
bl_check "randrw on 2 CPUs over 1024 units: reads check the last generation written; nothing fails" randrw

split() {
	vrun --rw randrw --size 4m --bssplit 4k/50:16k/30:64k/20 --iodepth 8 --cpus 0-1 \
		--number_ios $n_split --allow-write --verify crc32c --buffer_compress_percentage 50 ||
		return 1
	vjson 'v["errors"] == 0' 'v["checked"] > 2000'
}
bl_check "randrw with a bssplit and compressible data: nothing fails" split

# The pass after a 1 s random write, its reads slowed to 20 ms by dm-delay
# (256 units at iodepth 4: over a second): the run takes longer, its
# elapsed time stays the workload's.
timed() {
	local slow t0 t1
	echo "0 $(blockdev --getsz $dev) delay $dev 0 20 $dev 0 0" |
		dmsetup create bl_vslow --noudevsync || return 1
	slow=/dev/mapper/bl_vslow
	[[ -b $slow ]] || slow=/dev/$(dmsetup info -c --noheadings -o blkdevname bl_vslow)
	t0=$(bl_ms)
	blkload -j run --dev "$slow" --bs 4k --cpus 0 --size 1m --rw randwrite --iodepth 4 \
		--time_based --runtime 1 --allow-write --verify crc32c --zero_buffers >"$tmp/out.json" \
		2>"$tmp/out.err" || { sed 's/^/# /' "$tmp/out.err"; dmsetup remove --noudevsync bl_vslow; return 1; }
	t1=$(bl_ms)
	dmsetup remove --noudevsync bl_vslow
	echo "# run took $((t1 - t0)) ms"
	((t1 - t0 > 2200)) || return 1
	vjson 'v["errors"] == 0' 'v["readback"] > 200' 'v["checked"] == v["readback"]' \
		'j["read"]["total_ios"] == 0' 'j["elapsed_ns"] < 1.6e9'
}
bl_check "read-back after a 1 s write through slow reads: the run is longer, elapsed is the write's" timed

# A stop in the middle of the read-back pass (reads slowed to 50 ms: the
# pass of 256 units at iodepth 4 takes over 3 s): the job ends at once, its
# pass cut short, nothing left behind.
stop_pass() {
	local slow id t0 t1
	echo "0 $(blockdev --getsz $dev) delay $dev 0 50 $dev 0 0" |
		dmsetup create bl_vslow --noudevsync || return 1
	slow=/dev/mapper/bl_vslow
	[[ -b $slow ]] || slow=/dev/$(dmsetup info -c --noheadings -o blkdevname bl_vslow)
	id=$(blkload -j start --dev "$slow" --bs 4k --cpus 0 --size 1m --rw randwrite \
		--iodepth 4 --time_based --runtime 1 --allow-write --verify crc32c --zero_buffers |
		python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])') ||
		{ dmsetup remove --noudevsync bl_vslow; return 1; }
	sleep 2
	t0=$(bl_ms)
	blkload -j stop "$id" >"$tmp/out.json" 2>"$tmp/out.err"
	t1=$(bl_ms)
	bl_wait 50 bl_clean_now
	dmsetup remove --noudevsync bl_vslow
	echo "# stopped $((t1 - t0)) ms after the stop, 2 s into the run"
	((t1 - t0 < $(bl_ms_scaled 3000))) || return 1
	vjson 'j["state"] == "done"' 'v["errors"] == 0' '0 < v["readback"] < 250' \
		'j["elapsed_ns"] < 1.6e9' && bl_clean
}
bl_check "a stop during the read-back pass: done at once, the pass cut short, nothing left" stop_pass

# A map of 32768 units (512-byte units) on 2 CPUs, 300 writes: each queue's
# pass looks far past its last written unit, and still ends.
sparse() {
	timeout 300 blkload -j run --dev $dev --bs 512 --cpus 0-1 --rw randwrite --iodepth 4 \
		--number_ios 300 --allow-write --verify crc32c >"$tmp/out.json" 2>"$tmp/out.err" ||
		{ sed 's/^/# /' "$tmp/out.err"; return 1; }
	vjson 'v["errors"] == 0' 'v["readback"] > 250' 'v["readback"] <= 300'
}
bl_check "a sparse map (300 writes over 32768 units): the read-back pass ends" sparse

# Writes that the device drops: the units keep what an earlier run wrote,
# same seed and generation but another run's nonce, which the reads and the
# read-back find. First every unit once (generation 1), then randrw through
# dm-flakey dropping every write.
lost() {
	local sectors flaky
	vrun --rw write --iodepth 8 --allow-write --verify crc32c --do_verify=0 || return 1
	vjson 'v["checked"] == 0' || return 1
	sectors=$(blockdev --getsz $dev)
	echo "0 $sectors flakey $dev 0 0 1 1 drop_writes" |
		dmsetup create bl_flaky --noudevsync || return 1
	flaky=/dev/mapper/bl_flaky
	[[ -b $flaky ]] || flaky=/dev/$(dmsetup info -c --noheadings -o blkdevname bl_flaky)
	blkload -j run --dev "$flaky" --bs 4k --cpus 0 --rw randrw --iodepth 4 \
		--number_ios 4000 --allow-write --verify crc32c >"$tmp/out.json" 2>"$tmp/out.err"
	local rc=$?
	sed 's/^/# /' "$tmp/out.err" | head -5
	((rc != 0)) || { dmsetup remove --noudevsync bl_flaky; return 1; }
	vjson 'v["errors"] > 100' 'len(v["failures"]) == 16' \
		'all(f["what"] in ("another run", "generation") for f in v["failures"])' \
		'v["failures"][0]["what"] == "another run"' ||
		{ dmsetup remove --noudevsync bl_flaky; return 1; }
	# The io_uring engine compares the nonce and generation too (and reads back).
	blkload -j run --engine io_uring --dev "$flaky" --bs 4k --cpus 0 --rw randrw \
		--iodepth 4 --number_ios 4000 --allow-write --verify crc32c \
		>"$tmp/out.json" 2>"$tmp/out.err"
	rc=$?
	dmsetup remove --noudevsync bl_flaky
	((rc != 0)) || return 1
	vjson 'v["errors"] > 100' 'v["failures"][0]["what"] == "another run"' 'v["readback"] > 0'
}
if modprobe dm-flakey 2>/dev/null; then
	bl_check "writes dropped by dm-flakey: found as another run's data (nonce), by the module and io_uring" lost
else
	ktap_test_skip "writes dropped by dm-flakey (no dm-flakey in this kernel)"
fi

refusals() {
	bl_refused "verify writes a header" blkload run --dev $dev --rw write --allow-write \
		--verify crc32c --dedupe_percentage 10 --number_ios 1 &&
		bl_refused "crc32c" blkload run --dev $dev --rw read --verify md5 --number_ios 1
}
bl_check "verify with dedupe, another algorithm: refused" refusals

# The engines' read-back pass: a write job reads every unit it wrote back
# once its threads are done, outside its statistics; a randrw on two CPUs
# too (libaio, same pass).
engine_readback() {
	vrun --engine io_uring --rw write --iodepth 8 --allow-write --verify crc32c || return 1
	vjson 'v["checked"] == 4096' 'v["readback"] == 4096' 'v["errors"] == 0' \
		'j["write"]["total_ios"] == 4096' 'j["read"]["total_ios"] == 0' || return 1
	vrun --engine libaio --rw randrw --iodepth 4 --cpus 0-1 --number_ios $n_split \
		--size 4m --allow-write --verify crc32c || return 1
	vjson 'v["readback"] > 500' 'v["readback"] <= 1024' 'v["errors"] == 0' \
		'v["checked"] > v["readback"]' 'j["read"]["errors"] == 0'
}
bl_check "io_uring and libaio read back what they wrote (verify's pass), clean" engine_readback

# One header for every path: io_uring checks what the module wrote, its
# randrw checks itself, and the module checks what io_uring wrote; a
# changed bit is found by io_uring too.
engines() {
	vrun --rw write --iodepth 8 --allow-write --verify crc32c --do_verify=0 || return 1
	vrun --engine io_uring --rw read --iodepth 8 --verify crc32c || return 1
	vjson 'v["checked"] == 4096' 'v["errors"] == 0' || return 1
	# Uniform draws: reads meet this run's writes in the first pass too (a
	# random map's first pass reads only blocks it has not written).
	vrun --engine io_uring --rw randrw --iodepth 8 --cpus 0-1 --number_ios 8000 \
		--norandommap --allow-write --verify crc32c --do_verify=0 || return 1
	vjson 'v["checked"] > 1000' 'v["errors"] == 0' || return 1
	vrun --rw read --iodepth 8 --verify crc32c || return 1
	vjson 'v["checked"] == 4096' 'v["errors"] == 0' || return 1
	dd if=$dev of="$tmp/unit" bs=4k skip=77 count=1 iflag=direct status=none || return 1
	python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[3000] ^= 4; open(sys.argv[1], "wb").write(b)' "$tmp/unit" || return 1
	dd if="$tmp/unit" of=$dev bs=4k seek=77 count=1 oflag=direct conv=notrunc status=none ||
		return 1
	vrun --engine io_uring --rw read --iodepth 8 --verify crc32c && return 1
	vjson 'v["errors"] == 1' 'v["failures"][0]["offset"] == 77 * 4096' \
		'v["failures"][0]["what"] == "crc32c"'
}
bl_check "io_uring and the module check each other's headers; io_uring finds a flipped bit" engines

bl_check "nothing left of blkload" bl_clean
bl_mark end
ktap_finished
