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
