#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Many hosts at once: --start-at (run, start, an engine; refused in the
# past; Ctrl-C while waiting), "blkload merge" of run reports (a run over
# two devices split into two reports merges back to the run's own sum:
# counts, bytes and bins exact, percentiles recomputed from the summed
# bins; two runs started together merge over their common window; what
# cannot be merged is refused), merge of compare results, and the pdsh
# (exec mode) and Ansible (local connection) recipes end to end.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "many hosts: start-at waits, merge and the recipes (userspace)"
bl_require_cmd blkload python3

ktap_print_header
ktap_set_plan 12
bl_mark start
bl_load
bl_nullb nr_devices=2 gb=1 irqmode=0 memory_backed=0 submit_queues=2
for d in nullb0 nullb1; do echo none >/sys/block/$d/queue/scheduler; done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
multi=$BLKLOAD_TOP/scripts/multihost
# Scheduling slack of a start under emulation (ms), scaled on a debug kernel.
slack=$(bl_ms_scaled 400)

# A check that may skip: its function returns $BL_SKIP when a tool is missing.
bl_check_skip() {
	local desc=$1 rc=0
	shift
	"$@" || rc=$?
	if ((rc == BL_SKIP)); then
		ktap_test_skip "$desc"
	elif ((rc == 0)); then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}
have() {
	command -v "$1" >/dev/null || { echo "# $1 is not installed"; return 1; }
}

run() {
	blkload -j --output-format=json+ run --rw randread --bs 4k --iodepth 4 --cpus 0 \
		--sample-interval 100ms "$@"
}

# Each percentile of @merged's @op lat_ns equals fio's rule applied to its bins
# (the first bucket whose running count reaches p% of N), recomputed here.
pct_py='
def pct_check(lat, name):
    bins = sorted((int(k), v) for k, v in lat["bins"].items())
    n = sum(v for _, v in bins)
    assert n == lat["N"], "%s: bins hold %d of N %d" % (name, n, lat["N"])
    for p, got in lat["percentile"].items():
        want, run = max(1.0, float(p) / 100 * n), 0
        for mid, v in bins:
            run += v
            if run >= want:
                break
        assert got == mid, "%s p%s: %d, bins say %d" % (name, p, got, mid)
'

# 1-2: one run over two devices, its jobs split into two one-job reports.
split_merge() {
	run --dev /dev/nullb0 --dev /dev/nullb1 --time_based --runtime 2 >"$tmp/both.json" || return 1
	python3 - "$tmp" <<'PY' || return 1
import json, sys
d = sys.argv[1]
r = json.load(open(d + "/both.json"))
for i, job in enumerate(r["jobs"]):
    part = dict(r, jobs=[job], all_jobs=job, hostname="host%d" % i)
    json.dump(part, open("%s/part%d.json" % (d, i), "w"))
PY
	blkload -j merge "$tmp/part0.json" "$tmp/part1.json" >"$tmp/m.json" || return 1
	python3 - "$tmp" <<PY
import json, sys
$pct_py
d = sys.argv[1]
r = json.load(open(d + "/both.json"))["all_jobs"]["read"]
m = json.load(open(d + "/m.json"))
a = m["all_hosts"]["read"]
assert [h["host"] for h in m["hosts"]] == ["host0", "host1"], m["hosts"]
assert a["total_ios"] == r["total_ios"] > 1000, (a["total_ios"], r["total_ios"])
assert a["io_bytes"] == r["io_bytes"], (a["io_bytes"], r["io_bytes"])
for key in ("lat_ns", "clat_ns"):
    assert a[key]["bins"] == r[key]["bins"], key + " bins differ"
    assert a[key]["percentile"] == r[key]["percentile"], key + " percentiles differ"
    assert a[key]["N"] == r[key]["N"] and a[key]["min"] == r[key]["min"] and a[key]["max"] == r[key]["max"]
    assert abs(a[key]["mean"] - r[key]["mean"]) <= 1e-6 * r[key]["mean"] + 1, key + " mean"
    assert abs(a[key]["stddev"] - r[key]["stddev"]) <= 1e-3 * r[key]["stddev"] + 1, \
        (key, a[key]["stddev"], r[key]["stddev"])
    pct_check(a[key], key)
# Both jobs measured over the same window: the summed rates are the run's.
assert m["merge"]["overlap"] > 0.95, m["merge"]
assert abs(a["iops"] - r["iops"]) <= 0.03 * r["iops"], (a["iops"], r["iops"])
print("# merged %d IOs (the run's own sum), %.0f IOPS against %.0f, p99 %d ns" %
      (a["total_ios"], a["iops"], r["iops"], a["clat_ns"]["percentile"]["99.000000"]))
PY
}
bl_check "merge of a run split in two: IOs, bytes, bins, mean/stddev and percentiles are the run's" \
	split_merge

# 3-4: two runs, one per device, started together by --start-at.
together() {
	local at=$(($(date +%s) + 5)) p0 p1 rc=0
	run --dev /dev/nullb0 --time_based --runtime 2 --start-at "@$at" >"$tmp/a.json" 2>"$tmp/a.err" &
	p0=$!
	run --dev /dev/nullb1 --time_based --runtime 2 --start-at "@$at" >"$tmp/b.json" 2>"$tmp/b.err" &
	p1=$!
	wait $p0 || rc=1
	wait $p1 || rc=1
	((rc == 0)) || { sed 's/^/# /' "$tmp/a.err" "$tmp/b.err"; return 1; }
	python3 - "$tmp" "$at" "$slack" <<'PY'
import json, sys
d, at, slack = sys.argv[1], int(sys.argv[2]) * 1000, int(sys.argv[3])
s = []
for f in ("a", "b"):
    r = json.load(open("%s/%s.json" % (d, f)))
    assert r["start_at_ms"] == at, r.get("start_at_ms")
    js = r["jobs"][0]["job_start"]
    assert at <= js <= at + slack, (f, js - at)
    s.append(js)
print("# started %d and %d ms after --start-at" % (s[0] - at, s[1] - at))
sys.exit(0 if abs(s[0] - s[1]) <= slack else 1)
PY
}
bl_check "--start-at: two runs start together, at the moment (job_start, start_at_ms)" together

merge_together() {
	blkload -j merge "$tmp/a.json" "$tmp/b.json" >"$tmp/ab.json" || return 1
	blkload merge "$tmp/a.json" "$tmp/b.json" >"$tmp/ab.txt" || return 1
	grep -q "all hosts" "$tmp/ab.txt" || return 1
	python3 - "$tmp" <<PY
import json, sys
$pct_py
d = sys.argv[1]
a, b = (json.load(open("%s/%s.json" % (d, f)))["all_jobs"]["read"] for f in "ab")
m = json.load(open(d + "/ab.json"))
x = m["all_hosts"]["read"]
assert x["total_ios"] == a["total_ios"] + b["total_ios"]
assert x["io_bytes"] == a["io_bytes"] + b["io_bytes"]
for key in ("lat_ns", "clat_ns"):
    bins = {}
    for o in (a, b):
        for k, v in o[key]["bins"].items():
            bins[k] = bins.get(k, 0) + v
    assert x[key]["bins"] == bins, key
    pct_check(x[key], key)
assert m["merge"]["rate_basis"] == "window" and m["merge"]["overlap"] > 0.8, m["merge"]
own = a["iops"] + b["iops"]
assert abs(x["iops"] - own) <= 0.1 * own, (x["iops"], own)
print("# window %.2f s (overlap %.2f): %.0f IOPS summed over it, %.0f over the own runs" %
      (m["merge"]["window_s"], m["merge"]["overlap"], x["iops"], own))
PY
}
bl_check "merge of two runs started together: sums exact, rates over the common window" \
	merge_together

# 5: what merge refuses, and why.
refusals() {
	blkload -j run --dev /dev/nullb0 --time_based --runtime 1 --cpus 0 >"$tmp/plain.json" || return 1
	blkload merge "$tmp/plain.json" "$tmp/a.json" 2>"$tmp/e1" && return 1
	grep -q "json+" "$tmp/e1" || return 1
	# One after the other: never measuring together.
	run --dev /dev/nullb0 --time_based --runtime 1 >"$tmp/later.json" || return 1
	blkload merge "$tmp/a.json" "$tmp/later.json" 2>"$tmp/e2" && return 1
	grep -q "never measuring together" "$tmp/e2" || return 1
	echo '{"kind": "blkload-compare"}' >"$tmp/cmp.json"
	blkload merge "$tmp/a.json" "$tmp/cmp.json" 2>"$tmp/e3" && return 1
	grep -q "cannot be merged together" "$tmp/e3" || return 1
	blkload merge "$tmp/nosuch.json" 2>"$tmp/e4" && return 1
	grep -q "nosuch.json" "$tmp/e4" || return 1
	local rc=0
	blkload merge 2>/dev/null || rc=$?
	((rc == 2)) || return 1
	sed 's/^/# /' "$tmp/e1" "$tmp/e2"
}
bl_check "merge refuses reports without bins, runs that never overlapped, mixed kinds" refusals

# 6: --start-at in the past, or too far, is refused before anything is made.
past() {
	local rc=0
	blkload run --dev /dev/nullb0 --time_based --runtime 1 --start-at "@$(($(date +%s) - 5))" \
		2>"$tmp/p.err" || rc=$?
	((rc == 2)) && grep -q "ago" "$tmp/p.err" || return 1
	rc=0
	blkload run --dev /dev/nullb0 --time_based --runtime 1 --start-at "@$(($(date +%s) + 90000))" \
		2>"$tmp/p2.err" || rc=$?
	((rc == 2)) && grep -q "24 h" "$tmp/p2.err" || return 1
	rc=0
	blkload run --dev /dev/nullb0 --time_based --runtime 1 --start-at "noon" 2>"$tmp/p3.err" || rc=$?
	((rc == 2)) && grep -q "EPOCH" "$tmp/p3.err" && bl_clean
}
bl_check "--start-at in the past, over 24 h ahead, or not a time: refused, nothing made" past

# 7: Ctrl-C while waiting for the moment: out at once, no job left.
interrupt() {
	local pid t0 t1
	blkload run --dev /dev/nullb0 --time_based --runtime 1 --start-at "@$(($(date +%s) + 60))" \
		>/dev/null 2>&1 &
	pid=$!
	bl_wait 100 bl_has_jobs 1 || return 1
	t0=$(bl_ms)
	kill -INT $pid
	wait $pid
	t1=$(bl_ms)
	echo "# out $((t1 - t0)) ms after Ctrl-C"
	((t1 - t0 < $(bl_ms_scaled 5000))) && bl_clean
}
bl_check "Ctrl-C while waiting for --start-at: exits, nothing left" interrupt

# 8: start (detached) waits for the moment, then leaves the job running.
detached() {
	local at=$(($(date +%s) + 2)) id
	blkload -j start --dev /dev/nullb0 --time_based --runtime 30 --cpus 0 --start-at "@$at" \
		>"$tmp/st.json" || return 1
	(($(date +%s) >= at)) || return 1
	id=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["jobs"][0]["job_id"])' \
		<"$tmp/st.json")
	blkload -j stats "$id" | bl_json 'd["jobs"][0]["state"] == "running"' || return 1
	blkload -j stop "$id" >/dev/null && bl_clean
}
bl_check "start --start-at: returns at the moment, the job runs detached" detached

# 9: the io_uring engine starts at the moment too.
engine() {
	local at=$(($(date +%s) + 2))
	run --dev /dev/nullb0 --time_based --runtime 1 --ioengine io_uring --start-at "@$at" \
		>"$tmp/u.json" || return 1
	python3 - "$tmp/u.json" "$at" "$slack" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
at, slack = int(sys.argv[2]) * 1000, int(sys.argv[3])
js = r["jobs"][0]["job_start"]
print("# io_uring started %d ms after --start-at; %d IOs" % (js - at, r["all_jobs"]["read"]["total_ios"]))
sys.exit(0 if at <= js <= at + slack and r["all_jobs"]["read"]["total_ios"] > 0 else 1)
PY
}
bl_check "--ioengine io_uring --start-at: starts at the moment" engine

# 10: compare on two "hosts" at once (--start-at: every run in its slot on
# both), the results merged run by run.
compares() {
	((BL_SCALE == 1)) || { echo "# debug lane: compare's slots run in the 6.1 lane"; return $BL_SKIP; }
	local d at=$(($(date +%s) + 6)) pids=()
	for d in 0 1; do
		blkload compare /dev/nullb$d --paths kernel,io_uring --rw randread --bs 4k \
			--iodepth 2 --repeat 2 --time_based --runtime 1 --ramp_time 100ms --cpus $d \
			--start-at "@$at" --slot "$(bl_ms_scaled 3000)ms" \
			--output "$tmp/c$d" >/dev/null 2>"$tmp/c$d.err" &
		pids+=($!)
	done
	for d in 0 1; do
		wait "${pids[$d]}" || { sed 's/^/# /' "$tmp/c$d.err"; return 1; }
	done
	blkload -j merge -o "$tmp/cm.json" "$tmp/c0/results.json" "$tmp/c1/results.json" \
		>"$tmp/cm.out" || return 1
	blkload merge "$tmp/c0/results.json" "$tmp/c1/results.json" >"$tmp/cm.md" || return 1
	grep -q "## all 2 hosts" "$tmp/cm.md" || return 1
	# The merged file reads back as a compare result (diff against itself).
	blkload diff "$tmp/cm.json" "$tmp/cm.json" >/dev/null || return 1
	python3 - "$tmp" "$at" "$slack" "$(bl_ms_scaled 3000)" <<'PY'
import glob, json, os, sys
d, at, slack, slot = sys.argv[1], int(sys.argv[2]) * 1000, int(sys.argv[3]), int(sys.argv[4])
a, b = (json.load(open("%s/c%d/results.json" % (d, i))) for i in (0, 1))
assert [(o["path"], o["round"]) for o in a["order"]] == \
    [(o["path"], o["round"]) for o in b["order"]], "the hosts ran different orders"
# Run k of each host started in slot k, together.
for k in range(len(a["order"])):
    s = []
    for i in (0, 1):
        f = sorted(glob.glob("%s/c%d/runs/%03d-*.json" % (d, i, k + 1)))[0]
        r = json.load(open(f))
        assert r["start_at_ms"] == at + k * slot, (k, r["start_at_ms"] - at)
        s.append(r["jobs"][0]["job_start"])
    assert abs(s[0] - s[1]) <= slack and at + k * slot <= min(s), (k, s)
m = json.load(open(d + "/cm.json"))
assert m["kind"] == "blkload-compare" and len(m["targets"]) == 2, m["targets"]
for p in ("kernel", "io_uring"):
    ca, cb, cm = (x["cells"][0]["paths"][p] for x in (a, b, m))
    want = [x + y for x, y in zip(ca["iops"], cb["iops"])]
    assert all(abs(x - y) <= 1e-6 * y for x, y in zip(cm["iops"], want)), (p, cm["iops"], want)
    assert abs(cm["iops_mean"] - sum(want) / len(want)) <= 1e-6 * cm["iops_mean"]
print("# %d runs per host, each in its slot on both; kernel per round: %s" %
      (len(a["order"]), m["cells"][0]["paths"]["kernel"]["iops"]))
PY
}
bl_check_skip "compare --start-at on two hosts: runs in their slots together; merged round by round" compares

# 11: the pdsh recipe, pdsh's exec module standing in for ssh.
pdsh_recipe() {
	have pdsh || return $BL_SKIP
	((BL_SCALE == 1)) || { echo "# debug lane: the recipes run in the 6.1 lane"; return $BL_SKIP; }
	(cd "$tmp" && "$multi/pdsh-run.sh" -R exec -w h0,h1 -d 6 -o "$tmp/pd" -- \
		--dev /dev/nullb%n --rw randread --bs 4k --iodepth 2 --time_based --runtime 2 --cpus %n) \
		>"$tmp/pd.out" 2>"$tmp/pd.err" || { sed 's/^/# /' "$tmp/pd.err"; return 1; }
	grep -q "all hosts" "$tmp/pd.out" || return 1
	python3 - "$tmp/pd" "$slack" <<'PY'
import json, sys
d, slack = sys.argv[1], int(sys.argv[2])
h = [json.load(open("%s/h%d.json" % (d, i))) for i in (0, 1)]
m = json.load(open(d + "/merged.json"))
devs = [r["jobs"][0]["device"] for r in h]
assert devs == ["/dev/nullb0", "/dev/nullb1"], devs
js = [r["jobs"][0]["job_start"] for r in h]
assert abs(js[0] - js[1]) <= slack, js
tot = sum(r["all_jobs"]["read"]["total_ios"] for r in h)
assert m["all_hosts"]["read"]["total_ios"] == tot > 0, (m["all_hosts"]["read"]["total_ios"], tot)
assert len(m["hosts"]) == 2
print("# pdsh: 2 hosts, %d IOs merged, starts %d ms apart" % (tot, abs(js[0] - js[1])))
PY
}
bl_check_skip "pdsh recipe (exec module): two hosts start together, reports merged" pdsh_recipe

# 12: the Ansible recipe, with a local connection for both hosts.
ansible_recipe() {
	have ansible-playbook || return $BL_SKIP
	((BL_SCALE == 1)) || { echo "# debug lane: the recipes run in the 6.1 lane"; return $BL_SKIP; }
	cat >"$tmp/inv" <<EOF
h0 ansible_connection=local blkload_args="--dev /dev/nullb0 --rw randread --bs 4k --iodepth 2 --time_based --runtime 2 --cpus 0"
h1 ansible_connection=local blkload_args="--dev /dev/nullb1 --rw randread --bs 4k --iodepth 2 --time_based --runtime 2 --cpus 1"
EOF
	(cd "$tmp" && LC_ALL=C.UTF-8 ANSIBLE_HOME=$tmp/ans ANSIBLE_LOCAL_TEMP=$tmp/ans/tmp \
		ANSIBLE_REMOTE_TEMP=$tmp/ans/rtmp ANSIBLE_ASYNC_DIR=$tmp/ans/async \
		ansible-playbook -i "$tmp/inv" "$multi/ansible/blkload-run.yml" \
		-e blkload_delay=60 -e "blkload_out=$tmp/an" \
		-e ansible_python_interpreter=/usr/bin/python3) >"$tmp/an.out" 2>&1 ||
		{ tail -30 "$tmp/an.out" | sed 's/^/# /'; return 1; }
	python3 - "$(ls -d "$tmp"/an/*/)" "$slack" <<'PY'
import json, sys
d, slack = sys.argv[1].rstrip("/"), int(sys.argv[2])
h = [json.load(open("%s/h%d.json" % (d, i))) for i in (0, 1)]
m = json.load(open(d + "/merged.json"))
js = [r["jobs"][0]["job_start"] for r in h]
assert abs(js[0] - js[1]) <= slack and all(r["start_at_ms"] == h[0]["start_at_ms"] for r in h), js
tot = sum(r["all_jobs"]["read"]["total_ios"] for r in h)
assert m["all_hosts"]["read"]["total_ios"] == tot > 0
print("# ansible: 2 hosts, %d IOs merged, starts %d ms apart" % (tot, abs(js[0] - js[1])))
PY
}
bl_check_skip "Ansible recipe (local connection): two hosts start together, reports merged" \
	ansible_recipe

bl_check "nothing of blkload is left" bl_clean
ktap_finished
