#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload where users install it from the tree: "make dkms-install" (DKMS
# builds the module against this kernel's headers, modprobe loads it,
# dkms-uninstall removes it). test_pkg_02 installs the Debian packages. It
# starts where a user does: nothing of blkload installed or loaded. One DKMS
# build under emulation is 3-5 minutes: the pkg lane (make check-pkg).
. "$(dirname "$0")/lib.sh"

bl_require_root
# DKMS builds under KASAN and emulation take over the runner's 10 minutes.
bl_not_on_debug_lane "packaging and DKMS builds"
bl_require_cmd dkms dpkg make modinfo

kver=$(uname -r)
if [[ ! -f /lib/modules/$kver/build/Makefile ]]; then
	ktap_skip_all "no headers for $kver (/lib/modules/$kver/build): DKMS cannot build here"
	exit "$BL_SKIP"
fi
ver=$(sed -n 's/^#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' \
	"$BLKLOAD_TOP/include/blkload/version.h")
debs=$BLKLOAD_TOP/build/deb

ktap_print_header
ktap_set_plan 4
bl_mark start
tmp=$(mktemp -d)
restore() {
	modprobe -r blkload 2>/dev/null
	dpkg -r blkload blkload-dkms >/dev/null 2>&1
	dkms remove -m blkload -v "$ver" --all >/dev/null 2>&1
	rm -rf "/usr/src/blkload-$ver"
	rm -rf "$tmp"
}
# The runner's timeout sends SIGTERM: restore then too, or every later test
# would find the packaged module and CLI.
trap restore EXIT
trap 'exit 143' TERM
trap 'exit 130' INT
bl_unload
bl_check "the user's state: nothing of blkload installed or loaded" bl_nothing_installed

# Where modprobe would load blkload from, or nothing.
modpath() {
	modinfo -n blkload 2>/dev/null
}

dkms_install() {
	local t0 t1
	t0=$(bl_ms)
	make -s -C "$BLKLOAD_TOP" dkms-install >"$tmp/dkms.log" 2>&1 ||
		{ tail -20 "$tmp/dkms.log" | sed 's/^/# /'; return 1; }
	t1=$(bl_ms)
	echo "# DKMS built and installed in $(((t1 - t0) / 1000)) s"
	dkms status -m blkload -v "$ver" | grep -q "$kver.*installed" &&
		[[ $(modpath) == */updates/dkms/blkload.ko* ]]
}
bl_check "make dkms-install: DKMS builds blkload $ver for $kver" dkms_install

loads() {
	modprobe blkload && [[ $(cat /sys/module/blkload/version) == "$ver" ]] &&
		modinfo blkload | grep -q "^parm: *max_iodepth:" && modprobe -r blkload
}
bl_check "modprobe loads the DKMS module; modinfo describes its parameters" loads

dkms_uninstall() {
	make -s -C "$BLKLOAD_TOP" dkms-uninstall >"$tmp/dkmsu.log" 2>&1 || return 1
	[[ -z $(dkms status -m blkload 2>/dev/null) && -z $(modpath) && ! -d /usr/src/blkload-$ver ]]
}
bl_check "make dkms-uninstall: DKMS and modprobe know no blkload" dkms_uninstall

ktap_finished
