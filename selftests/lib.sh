#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Common helpers of the blkload selftests. Each test sources this file, then
# uses the kernel's ktap_helpers.sh through it. Tests run as root in the
# test guest (scripts/vm) the way a user of the tree runs blkload: nothing
# of it installed, the tree's module loaded with its dependencies
# (scripts/load-module.sh, bl_load), the tree's CLI last on PATH;
# BLKLOAD_TOP names the checkout. The install paths have tests of their own
# (test_install_01, test_pkg_01, test_pkg_02).

BL_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in "$BL_DIR/../kselftest/ktap_helpers.sh" "${KSFT_HELPERS:-}"; do
	if [[ -f $f ]]; then
		# shellcheck source=/dev/null
		. "$f"
		break
	fi
done
if ! declare -F ktap_print_header >/dev/null; then
	echo "Bail out! ktap_helpers.sh not found (install with scripts/ksft-install.sh)"
	exit 1
fi

# Each test's duration, before its totals: the lanes' time budget is read from
# these lines in the guest's output ("# test_x.sh took N s").
eval "$(declare -f ktap_finished | sed '1s/^ktap_finished/bl_ktap_finished_orig/')"
ktap_finished() {
	echo "# $(basename "$0") took ${SECONDS} s"
	bl_ktap_finished_orig
}

BLKLOAD_TOP=${BLKLOAD_TOP:-$(cd "$BL_DIR/../../.." 2>/dev/null && pwd)}
BL_SKIP=4

# Marks the kernel log so a splat can be matched to the test that caused it.
bl_mark() {
	echo "blkload selftest: $(basename "$0"): $*" >/dev/kmsg 2>/dev/null || true
}

bl_require_root() {
	if [[ $(id -u) != 0 ]]; then
		ktap_skip_all "must run as root"
		exit "$BL_SKIP"
	fi
}

# The debug lane (KASAN, lockdep, kmemleak) is for the kernel's paths: a
# test whose subject is the CLI, userspace or another tool skips there,
# saying so (the 6.1 lane runs it).
bl_not_on_debug_lane() {
	if ((${BL_SCALE:-1} > 1)); then
		ktap_skip_all "debug lane: $1; the 6.1 lane runs it"
		exit "$BL_SKIP"
	fi
}

bl_require_cmd() {
	local c
	for c in "$@"; do
		if ! command -v "$c" >/dev/null; then
			ktap_skip_all "$c is not installed"
			exit "$BL_SKIP"
		fi
	done
}

bl_loaded() {
	[[ -d /sys/module/blkload ]]
}

bl_load() {
	bl_loaded || "$BLKLOAD_TOP/scripts/load-module.sh" "$@"
}

bl_unload() {
	! bl_loaded || rmmod blkload
}

# Nothing of blkload is installed or loaded: no module loaded or known to
# modprobe, no CLI where make install or the package put it.
bl_nothing_installed() {
	! bl_loaded && ! modinfo blkload >/dev/null 2>&1 &&
		[[ ! -e /usr/local/sbin/blkload && ! -e /usr/sbin/blkload ]]
}

bl_refcnt() {
	cat /sys/module/blkload/refcnt 2>/dev/null || echo none
}

# ktap_test_result without word splitting: bl_check "description" cmd args...
bl_check() {
	local desc=$1
	shift
	if "$@"; then
		ktap_test_pass "$desc"
	else
		ktap_test_fail "$desc"
	fi
}

# Evaluates Python assertions over JSON on stdin: "d" is the document.
#   blkload -j run ... | bl_json 'd["jobs"][0]["read"]["total_ios"] == 100'
# Each argument is one assertion; the failing one is printed.
bl_json() {
	python3 -c '
import json, sys
d = json.load(sys.stdin)
for expr in sys.argv[1:]:
    try:
        ok = eval(expr)
    except Exception as e:
        ok = False
        print("# %s: %r" % (expr, e))
    if not ok:
        print("# assertion failed: %s" % expr)
        sys.exit(1)
' "$@"
}

# (Re)loads null_blk with the given module parameters.
bl_nullb() {
	modprobe -r null_blk 2>/dev/null
	modprobe null_blk "$@"
}

# (Re)loads brd with one RAM disk of $1 KiB.
bl_brd() {
	modprobe -r brd 2>/dev/null
	modprobe brd rd_nr=1 rd_size="$1"
}

# Waits up to $1 tenths of a second for "${@:2}" to succeed.
bl_wait() {
	local n=$1
	shift
	while ((n-- > 0)); do
		"$@" && return 0
		sleep 0.1
	done
	return 1
}

# Nothing of blkload is left: no job, no pinned memory, refcount 0. A job
# that just ended may still be in its done work for a moment: waits up to
# 5 s (scaled) for that.
bl_clean_now() {
	local j
	j=$(blkload -j info) || return 1
	[[ $j == *'"nr_jobs":0,'* && $j == *'"mem_used":0,'* && $(bl_refcnt) == 0 ]]
}

bl_clean() {
	bl_wait $((50 * ${BL_SCALE:-1})) bl_clean_now || {
		blkload -j info | sed 's/^/# /'
		echo "# refcnt $(bl_refcnt)"
		return 1
	}
}

# Jobs that exist now; cheap enough to poll every 100 ms under emulation.
bl_njobs() {
	blkload -j info | grep -o '"nr_jobs":[0-9]*' | cut -d: -f2
}

bl_has_jobs() {
	test "$(bl_njobs)" = "$1"
}

# Milliseconds of the monotonic-enough wall clock.
bl_ms() {
	echo $(($(date +%s%N) / 1000000))
}

# Time limits in tests are multiplied by this: 4 on a debug kernel (KASAN,
# lockdep and kmemleak make everything about 4x slower), else 1.
if [[ -z ${BL_SCALE:-} ]]; then
	BL_SCALE=1
	[[ -e /sys/kernel/debug/kmemleak ]] && BL_SCALE=4
fi

# Milliseconds scaled for this kernel.
bl_ms_scaled() {
	echo $(($1 * BL_SCALE))
}

# The raw netlink client (blnl.py): one command at a time.
bl_nl() {
	python3 "$BL_DIR/blnl.py" "$@"
}

# The helpers that tests poll (bl_wait) read the CLI's compact JSON with
# bash alone: a Python start costs about a second under emulation (measured
# 0.6-1.3 s in the guest, jq 0.6 s, blkload itself 0.2 s), which made a
# "wait up to 30 s" of 300 polls last six minutes.

# The job id of "blkload -j start" output on stdin; fails when there is none.
bl_started_id() {
	local j
	j=$(cat)
	[[ $j =~ \"job_id\":([0-9]+) ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# A top-level number or string field of "blkload -j info".
bl_info() {
	local j
	j=$(blkload -j info) || return 1
	[[ $j =~ \"$1\":\"?([^\",}]*) ]] || return 1
	echo "${BASH_REMATCH[1]}"
}

# Worker threads named blkload/N that exist now.
bl_worker_threads() {
	cat /proc/[0-9]*/comm 2>/dev/null | grep -c '^blkload/'
}

# The state of job $1 as the CLI lists it ("" when gone): its object in
# "blkload -j list" (flat: no object inside), from its job_id to its end.
bl_job_state() {
	local j o s
	j=$(blkload -j list) || return 1
	o=${j#*\"job_id\":$1,}
	[[ $o != "$j" ]] || return 0
	o=${o%%\}*}
	[[ $o =~ \"state\":\"([^\"]*)\" ]] || return 1
	s=${BASH_REMATCH[1]}
	[[ $o == *'"deleted":true'* ]] && s+=" deleted"
	echo "$s"
}

# Tracing of block_bio_queue ($T), set up as bl_trace_setup() says, or the
# test skipped where the kernel has no block tracepoints.
bl_trace_require() {
	T=/sys/kernel/tracing
	[[ -d $T/events ]] || mount -t tracefs nodev $T 2>/dev/null
	if [[ ! -d $T/events/block/block_bio_queue ]]; then
		ktap_skip_all "no block tracepoints"
		exit "$BL_SKIP"
	fi
	bl_trace_setup
}

# Only the bios of block device $1 (a name under /sys/block).
bl_trace_dev() {
	local mm
	mm=$(cat "/sys/block/$1/dev")
	echo "dev == $(((${mm%:*} << 20) | ${mm#*:}))" >"$T/events/block/block_bio_queue/filter"
}

# The bios of the last window, one a line: "time rwbs sector sectors".
bl_trace_bios() {
	awk '/block_bio_queue/ { for (i = 1; i < NF; i++) {
		if ($i ~ /^[0-9]+\.[0-9]+:$/) t = substr($i, 1, length($i) - 1)
		if ($i ~ /^[0-9]+,[0-9]+$/) { print t, $(i + 1), $(i + 2), $(i + 4); break } } }' \
		"$T/trace"
}

# The command "${@:2}" fails, saying (on stderr or stdout) what $1 matches.
bl_refused() {
	local want=$1 out
	shift
	out=$(mktemp)
	if "$@" >"$out" 2>&1; then
		echo "# accepted: $*"
		rm -f "$out"
		return 1
	fi
	sed 's/^/# /' "$out"
	grep -q -- "$want" "$out"
	local rc=$?
	rm -f "$out"
	return $rc
}

# block_bio_queue captured in windows. Every enable or disable of a trace
# event patches kernel text (and the first one hooks sched_switch, patching
# __schedule, unless record-cmd is off); software emulation can race that
# (an int3 oops in __schedule was seen). So the event is enabled once, while
# no IO runs, and tracing_on opens and closes the windows. $T is tracefs.
bl_trace_setup() {
	echo 0 >"$T/tracing_on"
	echo 0 >"$T/options/record-cmd"
	echo 1 >"$T/events/block/block_bio_queue/enable"
}

# A window: the buffer emptied, then recording.
bl_trace_on() {
	echo >"$T/trace"
	echo 1 >"$T/tracing_on"
}

bl_trace_off() {
	echo 0 >"$T/tracing_on"
}

bl_trace_teardown() {
	echo 0 >"$T/tracing_on"
	echo 0 >"$T/events/block/block_bio_queue/enable" 2>/dev/null
	echo 0 >"$T/events/block/block_bio_queue/filter" 2>/dev/null
	echo 1 >"$T/options/record-cmd" 2>/dev/null
	echo 1 >"$T/tracing_on"
}

# configfs mounted (null_blk devices made through it).
bl_configfs() {
	modprobe -q configfs 2>/dev/null
	mountpoint -q /sys/kernel/config ||
		mount -t configfs configfs /sys/kernel/config
}

# No worker thread is left.
bl_no_workers() {
	test "$(bl_worker_threads)" = 0
}

# A device that takes $3 ms per IO: dm-delay named $1 over block device $2.
# Prints its path. (Not a null_blk whose completions take that long: the
# kernel's partition scan when it is made waits the full delay for each of
# its reads: 6 minutes for a 30 s device.) bl_delay_dev_remove $1 removes it.
bl_delay_dev() {
	local p
	modprobe dm-delay || return 1
	echo "0 $(blockdev --getsz "$2") delay $2 0 $3" | dmsetup create "$1" --noudevsync ||
		return 1
	p=/dev/mapper/$1
	[[ -b $p ]] || p=/dev/$(dmsetup info -c --noheadings -o blkdevname "$1")
	echo "$p"
}

bl_delay_dev_remove() {
	dmsetup remove --noudevsync "$1" 2>/dev/null
}

# A slow device must not be failed by the block layer's request timeout
# (null_blk has 5 s on 6.12): give block device $1 a long one.
bl_no_timeout() {
	echo 600000 >"/sys/block/$1/queue/io_timeout"
}

# The 4 KiB blocks of device/file $1 that carry blkload's sector stamp
# (include/blkload/stamp.h: magic, then the block's own byte offset), as
# "offset offset ..." ascending; fails if a stamp names another offset.
bl_stamped() {
	python3 - "$1" <<'PY'
import struct, sys
MAGIC = 0x44414f4c4b4c42
out = []
with open(sys.argv[1], 'rb') as f:
    data = f.read()
for off in range(0, len(data), 4096):
    magic, where = struct.unpack_from('<QQ', data, off)
    if magic == MAGIC:
        if where != off:
            print('# block at', off, 'says', where)
            sys.exit(1)
        out.append(off)
print(' '.join(map(str, out)))
PY
}
