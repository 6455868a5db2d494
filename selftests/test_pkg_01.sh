#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload where users install it from the tree: "make dkms-install" (DKMS
# builds the module against this kernel's headers, modprobe loads it,
# dkms-uninstall removes it). test_pkg_02 installs the Debian packages. It
# starts where a user does: nothing of blkload installed or loaded. One DKMS
# build under emulation is 3-5 minutes: the pkg lane (make check-pkg).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pkg_lib.sh"

bl_pkg_start 4

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
