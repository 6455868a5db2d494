#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Whole-client CPU: every run reports the busy time of all CPUs over its
# measured window, minus the processes left out (--cpu-exclude), per IO and
# per core. A busy loop burning a CPU through the window adds about the
# window to it, and leaves it where it was when it is left out.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3 taskset

ktap_print_header
ktap_set_plan 6
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=50000
tmp=$(mktemp -d)
trap 'kill $busy 2>/dev/null; rm -rf "$tmp"' EXIT
# A busy loop with a name of its own (comm is the executable's name).
cp "$(command -v python3)" "$tmp/blbusy"

client() {
	python3 -c 'import json,sys; print(json.load(sys.stdin)["client_cpu"]["client_s"])'
}
run() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 4 --cpus 0 --time_based --runtime 3 "$@"
}

fields() {
	run --engine "$1" | tee "$tmp/$1.json" >/dev/null
	bl_json "print('#', '$1', d['client_cpu']) or True" \
		"abs(d['client_cpu']['window_s'] - 3) < 0.5" \
		"d['client_cpu']['cpu_us_per_io'] > 0" "d['client_cpu']['iops_per_core'] > 0" \
		"abs(d['client_cpu']['cpu_us_per_io'] * d['all_jobs']['read']['total_ios'] / 1e6 - d['client_cpu']['client_s']) < 0.01" \
		<"$tmp/$1.json"
}
bl_check "kernel path: client CPU over a 3 s window, per IO and per core" fields kernel
bl_check "io_uring: the same figures" fields io_uring

# The busy loop can only add what was idle: a light load (one IO in flight
# on a device answering in 2 ms, 8 ms on a debug kernel, where 500 IOs a
# second once took more than 3.6 of the window's 6 CPU-seconds) leaves
# CPU 1 idle, so the loop has the window to fill.
bl_nullb nr_devices=1 gb=1 irqmode=2 completion_nsec=$((2000000 * BL_SCALE))
light() {
	blkload -j run --dev /dev/nullb0 --rw randread --iodepth 1 --cpus 0 --time_based --runtime 3 "$@" | client
}
# Waits (up to 10 s) until the machine is quiet: work left behind by what
# ran before (module unloads, reclaim) must not land in a window.
settle() {
	python3 - <<'EOF'
import time
def sample():
    v = [int(x) for x in open('/proc/stat').readline().split()[1:]]
    return sum(v), v[3] + v[4]
for _ in range(20):
    t0, i0 = sample(); time.sleep(0.5); t1, i1 = sample()
    busy = 1 - (i1 - i0) / max(t1 - t0, 1)
    if busy < 0.15:
        break
print('# settled at %.0f%% busy' % (busy * 100))
EOF
}
# The loop's own CPU time so far (utime + stime), in seconds.
loop_cpu() {
	python3 -c "import os,sys; f=open('/proc/$busy/stat').read().rsplit(')',1)[1].split(); print((int(f[11])+int(f[12]))/os.sysconf('SC_CLK_TCK'))"
}
# Room for the loop: the light load's window leaves most of a CPU idle. On
# the debug kernel its own background (a kmemleak scan, 1.2 cores once: 3.7
# of the 6 CPU-seconds at 125 IOs a second) can land in a window: up to
# three windows, each after the machine settled.
roomy() { python3 -c "import sys; sys.exit(not (2 * 3 - $1 > 0.8 * 3))"; }
for try in 1 2 3; do
	settle
	base=$(light --cpu-exclude none)
	roomy "$base" && break
	echo "# window $try: the light load took $base s of the 6 CPU-seconds (background): again"
done
taskset -c 1 "$tmp/blbusy" -c 'while True: pass' &
busy=$!
sleep 0.5
with=$(light --cpu-exclude none)
# t0..t1 holds l0..l1: the loop's time between its two readings is at most
# that wall time.
t0=$(bl_ms)
l0=$(loop_cpu)
blkload -j run --dev /dev/nullb0 --rw randread --iodepth 1 --cpus 0 --time_based --runtime 3 \
	--cpu-exclude blbusy >"$tmp/without.json"
l1=$(loop_cpu)
t1=$(bl_ms)
without=$(client <"$tmp/without.json")
kill $busy
# (On the debug kernel under emulation the light load alone is ~2.4 s of
# the 6 s that two CPUs have in the window, and the loop gets less of it.)
bl_check "the light load leaves most of a CPU's window idle" roomy "$base"
echo "# client CPU: alone $base s, beside a busy loop $with s, the loop left out $without s; the loop ran $l0 -> $l1 s"
# Both windows with the loop running: the difference is the loop alone.
share=$( ((BL_SCALE > 1)) && echo 0.4 || echo 0.6)
bl_check "a busy loop through the window adds about the window" \
	python3 -c "import sys; sys.exit(not ($with - $without > $share * 3))"
# (The debug kernel's own background swings by a second or more between
# windows: the exact check is the next one.)
bl_check "left out by --cpu-exclude, it adds nothing" \
	python3 -c "import sys; sys.exit(not (abs($without - $base) < 0.5 * $BL_SCALE + 0.3 * $base))"
# What is left out is the loop's own time over the window: no more than it
# ran around the whole command, and no less than that minus what it can
# have run outside the window (the command's wall time beyond the window).
bl_json "-0.05 < ($l1 - $l0) - d['client_cpu']['excluded_s'] < ($t1 - $t0) / 1000 - d['client_cpu']['window_s'] + 0.1" \
	"d['client_cpu']['excluded_s'] > 1" <"$tmp/without.json" >"$tmp/ex.out"
bl_check "what is left out is the loop's own CPU time in the window" test $? = 0
sed 's/^/# /' "$tmp/ex.out"

bl_mark end
ktap_finished
