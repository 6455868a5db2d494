#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stage-dkms.sh DIR: the module's sources as DKMS wants them, in DIR
# (/usr/src/blkload-VERSION for "make dkms-install", the blkload-dkms
# package's tree for "make deb"): Kbuild, the Makefile, module/ without
# build products, the shared headers, the compile-probe script, dkms.conf.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=${1:?usage: stage-dkms.sh DIR}
ver=$(sed -n 's/^#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' "$top/include/blkload/version.h")
[[ -n $ver ]] || { echo "stage-dkms: no version in include/blkload/version.h" >&2; exit 1; }

mkdir -p "$dir/module/probes" "$dir/include" "$dir/scripts"
cp "$top/Kbuild" "$top/Makefile" "$dir/"
cp "$top"/module/*.c "$top"/module/*.h "$top/module/Kbuild" "$dir/module/"
cp "$top"/module/probes/*.c "$dir/module/probes/"
cp -r "$top/include/blkload" "$top/include/uapi" "$dir/include/"
cp "$top/scripts/kcompat.sh" "$top/scripts/kdir.sh" "$dir/scripts/"
rm -f "$dir/module/blkload.mod.c"
sed "s/@VERSION@/$ver/" "$top/scripts/packaging/dkms.conf.in" >"$dir/dkms.conf"
echo "$ver"
