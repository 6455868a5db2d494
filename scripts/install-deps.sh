#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install-deps.sh: every Debian package blkload's build, tests and demo need.
# Idempotent: installs only what is missing, so a second run is quick.
set -euo pipefail

pkgs=(
	# build: compiler, kbuild, a kernel image and its matching headers
	build-essential bc bison flex libelf-dev kmod cpio xz-utils rsync pkg-config
	linux-image-amd64 linux-headers-amd64
	# the build matrix: the same release's rt flavour (scripts/build-matrix.sh)
	linux-headers-rt-amd64
	# the kernel's kselftest framework, checkpatch and kernel-doc
	linux-source-6.12 sparse perl python3 python3-yaml
	# the CLI
	libnl-3-dev libnl-genl-3-dev liburing-dev libaio-dev
	# the test guest
	qemu-system-x86 busybox-static iproute2 util-linux procps file
	# Ceph in the guest, librbd and the comparison engines
	ceph-mon ceph-osd ceph-common librbd-dev librados-dev liburing-dev fio
	# tests and checks (fio-examples: fio's own job files, run by the tests)
	fio-examples valgrind jq e2fsprogs libjson-c-dev dmsetup kmod
	# the write guard's tests: an LVM2 PV and a LUKS header on a guest device
	lvm2 cryptsetup-bin
	# many hosts: the recipes run in the guest (pdsh exec, Ansible local)
	pdsh ansible-core
	# the YNL client of the kernel (cli.py) and its spec schema check
	python3-jsonschema
	# packages: make deb, make dkms-install (tested in the guest)
	debhelper dh-dkms dkms dpkg-dev rsync man-db groff-base bsdextrautils
	# blkload compare and diff: statistics, JSON, charts
	libgsl-dev gnuplot-nox
	# make check-fresh: a fresh Debian 12 root
	mmdebstrap
)

# A Debian kernel running that is not the newest: its own headers too, so
# that "make && make install && modprobe blkload" builds for the kernel
# that modprobe loads into (linux-headers-amd64 is the newest's).
run=$(uname -r)
if dpkg-query -W -f='${Status}' "linux-image-$run" 2>/dev/null | grep -q "ok installed" &&
	apt-cache show "linux-headers-$run" >/dev/null 2>&1; then
	pkgs+=("linux-headers-$run")
fi

missing=()
for p in "${pkgs[@]}"; do
	[[ $p == \#* ]] && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
	echo "install-deps: everything is installed"
	exit 0
fi
echo "install-deps: installing ${missing[*]}"
if [[ $(id -u) != 0 ]]; then
	echo "install-deps: run as root (apt-get)" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
