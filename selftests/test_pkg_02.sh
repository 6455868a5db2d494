#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload from its Debian packages ("make deb", built on the host by make
# check-pkg): installed with dpkg (blkload-dkms builds through DKMS),
# modprobe, --version, man blkload, completion of "blkload run --r<TAB>", a
# run counted against the device, and dpkg -r leaving nothing. It starts
# where a user does: nothing of blkload installed or loaded (test_pkg_01
# covers make dkms-install).
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pkg_lib.sh"

bl_pkg_start 9
bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0

pkg_install() {
	local f
	for f in "$debs/blkload_${ver}_amd64.deb" "$debs/blkload-dkms_${ver}_all.deb"; do
		[[ -f $f ]] || { echo "# $f missing: make deb (make check builds it on the host)"; return 1; }
	done
	dpkg -i "$debs/blkload-dkms_${ver}_all.deb" "$debs/blkload_${ver}_amd64.deb" \
		>"$tmp/dpkg.log" 2>&1 || { tail -20 "$tmp/dpkg.log" | sed 's/^/# /'; return 1; }
	dpkg -s blkload blkload-dkms | grep -c "^Status: install ok installed" | grep -qx 2 &&
		[[ $(modpath) == */updates/dkms/blkload.ko* ]]
}
bl_check "dpkg -i: both packages installed, DKMS built the module" pkg_install

pkg_version() {
	local v
	modprobe blkload || return 1
	v=$(/usr/sbin/blkload --version) || return 1
	echo "$v" | sed 's/^/# /'
	[[ $(command -v blkload) == /usr/sbin/blkload ]] &&
		grep -qx "blkload $ver (netlink ABI 3)" <<<"$v" && grep -qx "module $ver (loaded)" <<<"$v"
}
bl_check "modprobe blkload; blkload --version names the package's CLI and module" pkg_version

manpage() {
	local text
	text=$(MANWIDTH=100 man blkload 2>/dev/null | col -b) || return 1
	grep -q "BLKLOAD(8)" <<<"$text" && grep -q -- "--start-at" <<<"$text" &&
		grep -q "   merge" <<<"$text"
}
bl_check "man blkload: the page, with run's options and every command" manpage

completion() {
	local got
	got=$(bash -c '
		. /usr/share/bash-completion/completions/blkload
		compopt() { :; }
		COMP_WORDS=(blkload run --r); COMP_CWORD=2; COMPREPLY=()
		_blkload
		printf "%s\n" "${COMPREPLY[@]}"')
	echo "# run --r<TAB>: $(echo $got)"
	grep -qx -- "--rw=" <<<"$got" && grep -qx -- "--runtime=" <<<"$got"
}
bl_check "completion: blkload run --r<TAB> offers --rw= and --runtime=" completion

pkg_run() {
	local before after
	before=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	blkload -j run --dev /dev/nullb0 --rw randread --number_ios 1000 --cpus 0 \
		>"$tmp/run.json" || return 1
	after=$(awk '{ print $1 }' /sys/block/nullb0/stat)
	bl_json 'd["jobs"][0]["read"]["total_ios"] == 1000' <"$tmp/run.json" &&
		((after - before == 1000))
}
bl_check "run with the packaged CLI and module: 1000 reads, the device counted 1000" pkg_run

pkg_remove() {
	modprobe -r blkload || return 1
	dpkg -r blkload blkload-dkms >"$tmp/dpkgr.log" 2>&1 ||
		{ tail -20 "$tmp/dpkgr.log" | sed 's/^/# /'; return 1; }
	[[ -z $(modpath) && ! -e /usr/sbin/blkload && ! -e /usr/share/man/man8/blkload.8.gz &&
	   ! -e /usr/share/bash-completion/completions/blkload && -z $(dkms status -m blkload) &&
	   ! -d /usr/src/blkload-$ver ]]
}
bl_check "dpkg -r: module, CLI, man page, completion and DKMS tree gone" pkg_remove

gone() {
	! modprobe blkload 2>/dev/null
}
bl_check "modprobe blkload fails once removed" gone

# The checker above cannot pass on nothing: the packages were really there.
bl_check "dpkg saw both packages installed and removed" \
	grep -q "Removing blkload-dkms" "$tmp/dpkgr.log"

ktap_finished
