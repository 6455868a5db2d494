#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Common helpers of the blkload selftests. Each test sources this file, then
# uses the kernel's ktap_helpers.sh through it. Tests run as root in the
# test guest (scripts/vm), with blkload installed there (modprobe blkload,
# blkload on PATH); BLKLOAD_TOP names the checkout for scripts/.

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
	bl_loaded || modprobe blkload "$@"
}

bl_unload() {
	! bl_loaded || modprobe -r blkload
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

# Nothing of blkload is left: no job, no pinned memory, refcount 0.
bl_clean() {
	blkload -j info | bl_json 'd["nr_jobs"] == 0' 'd["mem_used"] == 0' &&
		test "$(bl_refcnt)" = 0
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
