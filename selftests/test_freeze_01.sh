#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Suspend freezes the workers before devices suspend: through the freezer
# test of the suspend path (pm_test=freezer: tasks frozen, a delay, thawed),
# no bio of a running job reaches the device between the end of the freeze
# (the freeze_processes tracepoint's end) and the thaw (thaw_processes'
# begin); bios do before and after, and the job ends by its runtime with no
# error.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3
if [[ ! -w /sys/power/pm_test ]] || ! grep -qw freeze /sys/power/state; then
	ktap_skip_all "no /sys/power/pm_test (CONFIG_PM_DEBUG) or no s2idle"
	exit "$BL_SKIP"
fi
bl_trace_require
if [[ ! -d $T/events/power/suspend_resume ]]; then
	ktap_skip_all "no power:suspend_resume tracepoint"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 4
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=100000 memory_backed=0
tmp=$(mktemp -d)
job=
trap 'echo none >/sys/power/pm_test; [[ -n $job ]] && kill "$job" 2>/dev/null; bl_trace_teardown;
	echo 0 >"$T/events/power/suspend_resume/enable"; rm -rf "$tmp"' EXIT
bl_trace_dev nullb0
echo 1 >"$T/events/power/suspend_resume/enable"
echo 3 >/sys/module/suspend/parameters/pm_test_delay

blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0-1 --rate_iops 400 \
	--time_based --runtime 25 >"$tmp/job.json" 2>"$tmp/job.err" &
job=$!
sleep 6
bl_trace_on
sleep 2
echo freezer >/sys/power/pm_test
froze=0
echo freeze >/sys/power/state && froze=1
echo none >/sys/power/pm_test
sleep 2
bl_trace_off
cp "$T/trace" "$tmp/trace"
wait "$job"
rc=$?
job=

bl_check "the freezer test of the suspend path ran (tasks frozen and thawed)" test "$froze" = 1

window() {
	python3 - "$tmp/trace" <<'PY'
import re, sys
freeze_end = thaw_begin = None
bios = []
for line in open(sys.argv[1]):
    m = re.search(r"\s(\d+\.\d+): (\w+): (.*)", line)
    if not m:
        continue
    t, ev, rest = float(m.group(1)), m.group(2), m.group(3)
    if ev == "suspend_resume":
        if rest.startswith("freeze_processes") and rest.endswith("end"):
            freeze_end = t
        elif rest.startswith("thaw_processes") and rest.endswith("begin") and thaw_begin is None:
            thaw_begin = t
    elif ev == "block_bio_queue":
        bios.append(t)
if freeze_end is None or thaw_begin is None:
    print("# no freeze_processes end / thaw_processes begin in the trace")
    sys.exit(1)
before = sum(1 for t in bios if t < freeze_end)
during = sum(1 for t in bios if freeze_end <= t <= thaw_begin)
after = sum(1 for t in bios if t > thaw_begin)
print("# frozen %.3f s: bios before %d, while frozen %d, after %d" %
      (thaw_begin - freeze_end, before, during, after))
sys.exit(0 if during == 0 and before > 0 and after > 0 else 1)
PY
}
bl_check "no bio reaches the device while the tasks are frozen; bios before and after" window
bl_check "the job ends by its runtime, without error" \
	bl_json 'd["jobs"][0]["error"] == 0' 'd["jobs"][0]["read"]["total_ios"] > 0' <"$tmp/job.json"
[[ $rc == 0 ]] || sed 's/^/# /' "$tmp/job.err"
bl_check "nothing left: no job, no pinned memory, refcount 0" bl_clean

bl_mark end
ktap_finished
