#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# One timing definition on every path, fio's: an IO's completion is stamped
# when its submitter reaps it, so clat is never 0 for a real IO, even on a
# device that completes inside submit_bio() (null_blk irqmode=0, brd), where
# a stamp in bi_end_io gave clat 0 and lat = slat. Side by side with real
# fio on the same devices in the same run (the module and blkload's libaio
# beside fio's libaio, blkload's io_uring beside fio's), 4k randread: at
# iodepth 1 each path's clat and lat are fio's order of magnitude (means
# not over ten times fio's engine of the same kind, nor under a tenth of the
# cheaper of fio's libaio and io_uring; slat within 20: a bio's submission
# is no system call), at iodepth 1 and 8 clat > 0 and lat = slat + clat, and on a
# timer device (null_blk irqmode=2, 100 us) no IO is faster than the
# configured service time. (At iodepth 8 an IO's clat is mostly its wait
# behind the submissions of the others, so it scales with each path's cost
# per IO: the module's is a fraction of fio's.)
#
# The reap is fio's on every path (iodepth_batch_complete_max, 1 by
# default): one completion a reap, the queue refilled before the next. On an
# inline device at iodepth 8 each IO then waits behind the other seven's
# resubmission, as in fio: by Little's law IOPS x mean latency, the IOs in
# flight, is near 8 on each path (at least 6 asked), where reaping every
# ready completion at one clock read (--iodepth_batch_complete_max 8) keeps
# about half as many: the module is run that way too and must keep fewer.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "timings side by side with fio (the 6.1 lane checks them)"
bl_require_cmd blkload python3 fio

ktap_print_header
ktap_set_plan 12
bl_mark start
bl_load
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; modprobe -r brd 2>/dev/null' EXIT
n=4000

# fio and blkload, the same IOs on $1 at iodepth 1 and 8; their JSON in
# $tmp/$2{1,8}.{fio,fiouring,mod,uring,aio}.json: fio libaio, fio io_uring
# (fixedbufs, registerfiles), the module, blkload's io_uring and libaio; and
# $tmp/$2.L{mod,modall,uring,aio}.json, 1 s runs at iodepth 8 (inflight()).
side_by_side() {
	local dev=$1 tag=$2 rc=0 qd
	for qd in 1 8; do
		fio --name=fio --filename="$dev" --rw=randread --bs=4k --iodepth=$qd \
			--number_ios=$n --ioengine=libaio --direct=1 --cpus_allowed=0 \
			--output-format=json --output="$tmp/$tag$qd.fio.json" >/dev/null \
			2>"$tmp/$tag.err" || rc=1
		fio --name=fio --filename="$dev" --rw=randread --bs=4k --iodepth=$qd \
			--number_ios=$n --ioengine=io_uring --fixedbufs --registerfiles --direct=1 \
			--cpus_allowed=0 --output-format=json --output="$tmp/$tag$qd.fiouring.json" \
			>/dev/null 2>>"$tmp/$tag.err" || rc=1
		blkload -j run --dev "$dev" --rw randread --bs 4k --iodepth $qd --number_ios $n \
			--cpus 0 >"$tmp/$tag$qd.mod.json" 2>>"$tmp/$tag.err" || rc=1
		blkload -j run --engine io_uring --dev "$dev" --rw randread --bs 4k --iodepth $qd \
			--number_ios $n --cpus 0 >"$tmp/$tag$qd.uring.json" 2>>"$tmp/$tag.err" || rc=1
		blkload -j run --engine libaio --dev "$dev" --rw randread --bs 4k --iodepth $qd \
			--number_ios $n --cpus 0 >"$tmp/$tag$qd.aio.json" 2>>"$tmp/$tag.err" || rc=1
		sed 's/^/# /' "$tmp/$tag.err"
	done
	# Little's law wants a steady state: 1 s runs (a short one is mostly its start).
	blkload -j run --dev "$dev" --rw randread --bs 4k --iodepth 8 --time_based --runtime 1 --cpus 0 \
		>"$tmp/$tag.Lmod.json" 2>"$tmp/$tag.err" || rc=1
	blkload -j run --dev "$dev" --rw randread --bs 4k --iodepth 8 --time_based --runtime 1 --cpus 0 \
		--iodepth_batch_complete_max 8 >"$tmp/$tag.Lmodall.json" 2>>"$tmp/$tag.err" || rc=1
	blkload -j run --engine io_uring --dev "$dev" --rw randread --bs 4k --iodepth 8 \
		--time_based --runtime 1 --cpus 0 >"$tmp/$tag.Luring.json" 2>>"$tmp/$tag.err" || rc=1
	blkload -j run --engine libaio --dev "$dev" --rw randread --bs 4k --iodepth 8 \
		--time_based --runtime 1 --cpus 0 >"$tmp/$tag.Laio.json" 2>>"$tmp/$tag.err" || rc=1
	sed 's/^/# /' "$tmp/$tag.err"
	return $rc
}

# Checks of one device's reports ($1: tag, $2: the service time's floor in
# ns, 0 for none): iodepth 1 and 8; prints the means for the log.
compare() {
	python3 - "$tmp/$1" "$2" "$n" <<'PY'
import json, sys
base, floor, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ok = True
# Each path beside fio's engine of the same kind (the module beside libaio),
# and fio's other engine for the floor.
ref = {"mod": "fio", "uring": "fiouring", "aio": "fio"}
for qd, eng in ((q, e) for q in ("1", "8") for e in ("mod", "uring", "aio")):
    f = json.load(open(base + qd + "." + ref[eng] + ".json"))["jobs"][0]["read"]
    r = json.load(open(base + qd + "." + eng + ".json"))["jobs"][0]["read"]
    print("# %s iodepth %s %s: slat %.1f/%.1f us, clat %.1f/%.1f us, lat %.1f/%.1f us (blkload/%s)" % (
        base.rsplit("/", 1)[1], qd, eng,
        r["slat_ns"]["mean"] / 1e3, f["slat_ns"]["mean"] / 1e3,
        r["clat_ns"]["mean"] / 1e3, f["clat_ns"]["mean"] / 1e3,
        r["lat_ns"]["mean"] / 1e3, f["lat_ns"]["mean"] / 1e3, ref[eng]))
    if r["total_ios"] != n or f["total_ios"] != n:
        print("# %s: %d IOs, fio %d, want %d" % (eng, r["total_ios"], f["total_ios"], n))
        ok = False
    if r["clat_ns"]["min"] <= 0 or r["clat_ns"]["mean"] <= 0:
        print("# %s: clat min %s mean %s: a completion not timed at its reap" %
              (eng, r["clat_ns"]["min"], r["clat_ns"]["mean"]))
        ok = False
    sum_ = r["slat_ns"]["mean"] + r["clat_ns"]["mean"]
    if abs(sum_ - r["lat_ns"]["mean"]) > 0.01 * r["lat_ns"]["mean"] + 1:
        print("# %s: slat + clat %.0f != lat %.0f" % (eng, sum_, r["lat_ns"]["mean"]))
        ok = False
    # Not over ten times (slat twenty) fio's engine of the same kind, nor
    # under a tenth (a twentieth) of the cheaper of fio's two: the module
    # reaps with no system call, so its clat at iodepth 1 is a fraction of
    # fio libaio's (0.4-0.5 us against 3-7 us here; a tenth of one noisy
    # fio libaio run in 2 of 12 runs), 2.5-3x under fio io_uring's. A
    # definition error (clat 0, a unit) falls outside either way.
    g = json.load(open(base + qd + "." + {"fio": "fiouring", "fiouring": "fio"}[ref[eng]] +
                       ".json"))["jobs"][0]["read"]
    for k, m in (("slat_ns", 20), ("clat_ns", 10), ("lat_ns", 10)):
        a = r[k]["mean"]
        lo, hi = min(f[k]["mean"], g[k]["mean"]) / m, f[k]["mean"] * m
        if qd == "1" and not (lo <= a <= hi):
            print("# %s: %s %.0f is not fio's order of magnitude (%.0f-%.0f)" % (eng, k, a, lo, hi))
            ok = False
    for who, d in ((eng, r), ("fio", f)):
        if floor and d["lat_ns"]["min"] < floor:
            print("# %s: an IO in %d ns, under the device's %d ns" % (who, d["lat_ns"]["min"], floor))
            ok = False
sys.exit(0 if ok else 1)
PY
}

# fio's reap on an inline device at iodepth 8 ($1: tag): IOs in flight by
# Little's law (IOPS x mean latency) at least 6 on each blkload path, and
# fewer on the module reaping all at once (--iodepth_batch_complete_max 8),
# whose report says so; fio's own (its 4000-IO runs) for the log.
inflight() {
	python3 - "$tmp/$1" <<'PY'
import json, sys
base = sys.argv[1]
ok = True
def load(eng):
    return json.load(open(base + "." + eng + ".json"))["jobs"][0]
def little(j):
    r = j["read"]
    return r["iops"] * r["lat_ns"]["mean"] / 1e9
got = {e: little(load(e)) for e in ("Lmod", "Luring", "Laio", "Lmodall")}
fio = {e: little(json.load(open(base + "8." + e + ".json"))["jobs"][0]) for e in ("fio", "fiouring")}
print("# %s iodepth 8, IOs in flight (IOPS x mean lat): %s; fio's: %s" % (
    base.rsplit("/", 1)[1], ", ".join("%s %.2f" % kv for kv in got.items()),
    ", ".join("%s %.2f" % kv for kv in fio.items())))
for e in ("Lmod", "Luring", "Laio"):
    if got[e] < 6:
        print("# %s: %.2f IOs in flight at iodepth 8: not fio's one completion a reap" % (e, got[e]))
        ok = False
    if load(e).get("iodepth_batch_complete_max") != 1:
        print("# %s: the report does not say iodepth_batch_complete_max 1" % e)
        ok = False
if load("Lmodall").get("iodepth_batch_complete_max") != 8:
    print("# Lmodall: the report does not say iodepth_batch_complete_max 8")
    ok = False
if not got["Lmodall"] < got["Lmod"] - 1:
    print("# reaping all at once kept %.2f in flight, one a reap %.2f: the batch did nothing"
          % (got["Lmodall"], got["Lmod"]))
    ok = False
sys.exit(0 if ok else 1)
PY
}

# Inline completions: null_blk irqmode=0 completes inside submit_bio().
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0
bl_check "null_blk irqmode=0: fio and blkload ran, each path (exit 0)" \
	side_by_side /dev/nullb0 inline
bl_check "null_blk irqmode=0 (completes in submit_bio): module, io_uring, libaio clat > 0, slat/clat/lat fio's order, lat = slat + clat" \
	compare inline 0
bl_check "null_blk irqmode=0, iodepth 8: fio's reap on every path (>= 6 IOs in flight by Little's law), fewer reaping all at once" \
	inflight inline
modprobe -r null_blk

# A timer device: 100 us a request.
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=100000 memory_backed=0
bl_no_timeout nullb0
bl_check "null_blk irqmode=2 100 us: fio and blkload ran, each path (exit 0)" \
	side_by_side /dev/nullb0 timer
bl_check "null_blk irqmode=2 100 us: as above, and no IO under 100 us (module, engines, fio)" \
	compare timer 100000
modprobe -r null_blk

# brd: a RAM disk, completed inline too.
bl_brd 262144
bl_check "brd: fio and blkload ran, each path (exit 0)" \
	side_by_side /dev/ram0 brd
bl_check "brd (completes in submit_bio): module, io_uring, libaio clat > 0, fio's order, lat = slat + clat" \
	compare brd 0
bl_check "brd, iodepth 8: fio's reap on every path (>= 6 IOs in flight), fewer reaping all at once" \
	inflight brd
modprobe -r brd

# The checker fails where it must: on clat 0 (the old definition), on a
# unit slip either way (clat and lat 1000x over, 1000x under), on a count
# short, and on a report that is not there.
python3 - "$tmp/inline" <<'PY'
import json, sys
base = sys.argv[1]
d = json.load(open(base + "1.mod.json"))
r = d["jobs"][0]["read"]
bad = json.loads(json.dumps(d))
br = bad["jobs"][0]["read"]
br["slat_ns"]["mean"] = r["lat_ns"]["mean"]
br["clat_ns"]["mean"] = 0
br["clat_ns"]["min"] = 0
json.dump(bad, open(base + "01.mod.json", "w"))
# A unit slip: clat and lat 1000x, slat + clat = lat still.
c = r["clat_ns"]["mean"] * 1000
bad["jobs"][0]["read"] = dict(r, clat_ns=dict(r["clat_ns"], mean=c),
                              lat_ns=dict(r["lat_ns"], mean=r["slat_ns"]["mean"] + c))
json.dump(bad, open(base + "11.mod.json", "w"))
bad["jobs"][0]["read"] = dict(r, total_ios=r["total_ios"] - 1)
json.dump(bad, open(base + "21.mod.json", "w"))
# The other way: clat and lat 1000x under, slat + clat = lat still.
c = r["clat_ns"]["mean"] / 1000
bad["jobs"][0]["read"] = dict(r, clat_ns=dict(r["clat_ns"], mean=c),
                              lat_ns=dict(r["lat_ns"], mean=r["slat_ns"]["mean"] + c))
json.dump(bad, open(base + "41.mod.json", "w"))
PY
for i in 0 1 2 3 4; do
	for qd in 1 8; do
		for e in fio fiouring uring aio; do
			cp "$tmp/inline$qd.$e.json" "$tmp/inline$i$qd.$e.json"
		done
		[[ -e $tmp/inline$i$qd.mod.json ]] || cp "$tmp/inline$qd.mod.json" "$tmp/inline$i$qd.mod.json"
	done
done
rm -f "$tmp/inline31.mod.json"
# Each for its own reason (compare's words), the missing report by failing.
fails_for() {
	local out
	out=$(compare "$1" 0) && { echo "# $1: passed"; return 1; }
	[[ $out == *"$2"* ]] && return 0
	echo "# $1: failed, but not for '$2':"
	grep -v "iodepth" <<<"$out"
	return 1
}
refuses() {
	fails_for inline0 "# mod: clat min 0 mean 0" &&
		fails_for inline1 "# mod: clat_ns " &&
		fails_for inline4 "# mod: clat_ns " &&
		fails_for inline2 "# mod: 3999 IOs, fio" &&
		! compare inline3 0 >/dev/null 2>&1
}
bl_check "the comparison fails on clat 0, on a clat 1000x over and 1000x under (slat + clat = lat), on a short count, on no report" refuses
# The in-flight check fails where it must: a module that reaps all at once
# (its own reap-all report as the default's), and no report.
mkdir -p "$tmp/neg"
for w in a b; do
	cp "$tmp/inline8.fio.json" "$tmp/neg/${w}8.fio.json"
	cp "$tmp/inline8.fiouring.json" "$tmp/neg/${w}8.fiouring.json"
	for e in Lmod Luring Laio Lmodall; do
		cp "$tmp/inline.$e.json" "$tmp/neg/$w.$e.json"
	done
done
python3 - "$tmp/neg/a" <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + ".Lmodall.json"))
d["jobs"][0]["iodepth_batch_complete_max"] = 1
json.dump(d, open(sys.argv[1] + ".Lmod.json", "w"))
PY
rm -f "$tmp/neg/b.Luring.json"
inflight_refuses() {
	! inflight neg/a >/dev/null 2>&1 && ! inflight neg/b >/dev/null 2>&1
}
bl_check "the in-flight check fails on a module reaping all at once and on a missing report" \
	inflight_refuses
bl_check "the comparison passes on the real inline run again (the checker is not broken)" \
	compare inline 0
bl_check "nothing left of blkload" bl_clean

bl_mark end
ktap_finished
