#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# debug-kernel.sh: build a debug kernel (KASAN, lockdep, atomic-sleep checks,
# kmemleak, fault injection; the memory cgroup and dm-crypt the charge and
# late-completion tests need; KUnit for the queue machine's suite) from
# Debian's linux-source-6.12 for the test guest, cached outside the checkout
# and keyed by the config fragment below.
# Prints the directory holding bzImage, the build tree (for KDIR=) and
# mods/ (modules for the guest's /lib/modules: scripts/vm --modules).
#
#   scripts/debug-kernel.sh            build if needed (about 28 min on 2 cores)
#   scripts/debug-kernel.sh --cached   only if built already, else exit 3
#   scripts/debug-kernel.sh --prepared the built tree if there is one, else
#                                      the same config made ready for
#                                      external modules only (modules_prepare,
#                                      a few minutes; no Module.symvers): the
#                                      build matrix's 6.12 tree
#   KDIR=$(scripts/debug-kernel.sh)/build make module
set -euo pipefail

tarball=$(ls /usr/src/linux-source-6.12.tar.xz 2>/dev/null || true)
[[ -n $tarball ]] || { echo "debug-kernel: linux-source-6.12 missing; run 'make deps'" >&2; exit 1; }

fragment='CONFIG_MODULES=y
CONFIG_MODULE_UNLOAD=y
CONFIG_BLK_DEV_NULL_BLK=m
CONFIG_BLK_DEV_NULL_BLK_FAULT_INJECTION=y
CONFIG_BLK_DEV_RAM=m
CONFIG_BLK_DEV_LOOP=m
CONFIG_BLK_DEV_RBD=m
CONFIG_CEPH_LIB=m
CONFIG_NET_9P=y
CONFIG_NET_9P_VIRTIO=y
CONFIG_9P_FS=y
CONFIG_9P_FS_POSIX_ACL=y
CONFIG_OVERLAY_FS=y
CONFIG_VIRTIO_PCI=y
CONFIG_VIRTIO_BLK=y
CONFIG_HW_RANDOM_VIRTIO=y
CONFIG_CONFIGFS_FS=y
CONFIG_DEVTMPFS=y
CONFIG_BLK_DEV_INITRD=y
CONFIG_KASAN=y
CONFIG_KASAN_GENERIC=y
CONFIG_KASAN_INLINE=y
CONFIG_PROVE_LOCKING=y
CONFIG_DEBUG_ATOMIC_SLEEP=y
CONFIG_DEBUG_KMEMLEAK=y
CONFIG_FAULT_INJECTION=y
CONFIG_FAIL_MAKE_REQUEST=y
CONFIG_FAULT_INJECTION_DEBUG_FS=y
CONFIG_FAILSLAB=y
CONFIG_FAIL_PAGE_ALLOC=y
CONFIG_DEBUG_FS=y
CONFIG_DEBUG_LIST=y
CONFIG_DEBUG_OBJECTS=y
CONFIG_DEBUG_OBJECTS_WORK=y
CONFIG_DEBUG_OBJECTS_TIMERS=y
CONFIG_DEBUG_OBJECTS_RCU_HEAD=y
CONFIG_UBSAN=y
CONFIG_HOTPLUG_CPU=y
CONFIG_MEMCG=y
CONFIG_USER_NS=y
CONFIG_NET_NS=y
CONFIG_BLK_WBT=y
CONFIG_BLK_WBT_MQ=y
CONFIG_MD=y
CONFIG_BLK_DEV_DM=y
CONFIG_DM_DELAY=m
CONFIG_DM_CRYPT=m
CONFIG_CRYPTO_XTS=m
CONFIG_NET_FOU=m
CONFIG_DETECT_HUNG_TASK=y
CONFIG_KUNIT=y
CONFIG_KUNIT_DEBUGFS=y
CONFIG_DEBUG_INFO_NONE=y
CONFIG_DRM=n
CONFIG_SOUND=n
CONFIG_WLAN=n
CONFIG_USB_SUPPORT=n
CONFIG_NFS_FS=n
CONFIG_NETFILTER=n
CONFIG_WIRELESS=n
CONFIG_CFG80211=n
CONFIG_ETHERNET=n
CONFIG_HID_SUPPORT=n
CONFIG_FB=n
CONFIG_AGP=n
CONFIG_SECURITY_SELINUX=n'
hash=$(printf '%s' "$fragment" | sha256sum | cut -c1-12)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/blkload/debug-kernel-$hash
if [[ -f $cache/.complete ]]; then
	echo "$cache"
	exit 0
fi
if [[ ${1:-} == --cached ]]; then
	echo "debug-kernel: not built yet ($cache)" >&2
	exit 3
fi
# The tree, configured (for the build below, or prepared alone).
configure() {
	mkdir -p "$1"
	if [[ ! -f $1/build/Makefile ]]; then
		rm -rf "$1/build" "$1/linux-source-6.12"
		tar -C "$1" -xJf "$tarball"
		mv "$1/linux-source-6.12" "$1/build"
	fi
	cd "$1/build"
	printf '%s\n' "$fragment" >"$1/fragment.config"
	make -s defconfig kvm_guest.config >&2
	scripts/kconfig/merge_config.sh -m .config "$1/fragment.config" >&2
	make -s olddefconfig >&2
}
if [[ ${1:-} == --prepared ]]; then
	prep=$cache-prepared
	if [[ ! -f $prep/.complete ]]; then
		configure "$prep"
		make -s -j"$(($(nproc) + 1))" modules_prepare >&2
		touch "$prep/.complete"
	fi
	echo "$prep"
	exit 0
fi
configure "$cache"
make -s -j"$(($(nproc) + 1))" bzImage modules >&2
rm -rf "$cache/mods"
make -s modules_install INSTALL_MOD_PATH="$cache/mods" INSTALL_MOD_STRIP=1 >&2
cp arch/x86/boot/bzImage "$cache/bzImage"
touch "$cache/.complete"
echo "$cache"
