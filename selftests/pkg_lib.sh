# SPDX-License-Identifier: GPL-2.0
#
# pkg_lib.sh: what the packaging tests (test_pkg_01, test_pkg_02) share,
# sourced after lib.sh. bl_pkg_start PLAN checks that DKMS can build here,
# prints the header, arms the restore of a user's state (nothing of blkload
# installed) for every exit, and checks that state as the first result.

bl_require_root
# DKMS builds under KASAN and emulation take over the runner's timeout.
bl_not_on_debug_lane "packaging and DKMS builds"
bl_require_cmd dkms dpkg make modinfo

kver=$(uname -r)
ver=$(sed -n 's/^#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$BLKLOAD_TOP/include/blkload/version.h")
debs=$BLKLOAD_TOP/build/deb

restore() {
	modprobe -r blkload 2>/dev/null
	dpkg -r blkload blkload-dkms >/dev/null 2>&1
	dkms remove -m blkload -v "$ver" --all >/dev/null 2>&1
	rm -rf "/usr/src/blkload-$ver"
	rm -rf "$tmp"
}

bl_pkg_start() {
	if [[ ! -f /lib/modules/$kver/build/Makefile ]]; then
		ktap_skip_all "no headers for $kver (/lib/modules/$kver/build): DKMS cannot build here"
		exit "$BL_SKIP"
	fi
	ktap_print_header
	ktap_set_plan "$1"
	bl_mark start
	tmp=$(mktemp -d)
	# The runner's timeout sends SIGTERM: restore then too, or every later
	# test would find the packaged module and CLI.
	trap restore EXIT
	trap 'exit 143' TERM
	trap 'exit 130' INT
	bl_unload
	bl_check "the user's state: nothing of blkload installed or loaded" bl_nothing_installed
}

# Where modprobe would load blkload from, or nothing.
modpath() {
	modinfo -n blkload 2>/dev/null
}
