#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh checkpatch|sparse|w1|kernel-doc
#
# The kernel's own tools on the kernel side of blkload; each prints its
# findings and exits non-zero on any.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
ksrc=$("$top/scripts/ksrc.sh")
# As the Makefile: KDIR if given, else the tree scripts/kdir.sh finds.
kdir=${KDIR:-}
if [[ -z $kdir ]] && ! kdir=$("$top/scripts/kdir.sh"); then
	echo "lint: no kernel build tree; run 'make deps' or set KDIR=" >&2
	exit 1
fi
kver=$("$top/scripts/kdir.sh" --kver "$kdir")
kfiles=(module/*.c module/*.h module/kunit/queue_test.c module/probes/*.c include/uapi/linux/blkload.h include/blkload/*.h)
kfiles=("${kfiles[@]/module\/blkload.mod.c/}")

case ${1:?usage: lint.sh checkpatch|sparse|w1|kernel-doc} in
checkpatch)
	out=$(perl "$ksrc/scripts/checkpatch.pl" --no-tree --strict --terse --show-types \
		--ignore FILE_PATH_CHANGES -f ${kfiles[@]} | grep -v '^total:' || true)
	if [[ -n $out ]]; then
		echo "$out"
		exit 1
	fi
	echo "checkpatch --strict: ${#kfiles[@]} files clean"
	;;
sparse|w1)
	command -v sparse >/dev/null || { echo "sparse missing; run 'make deps'" >&2; exit 1; }
	"$top/scripts/kcompat.sh" "$kdir" "$top/.kcompat/$kver"
	flags=(W=1)
	[[ $1 == sparse ]] && flags+=(C=2 CHECK=sparse)
	if ! log=$(make -C "$kdir" M="$top" BLKLOAD_KCOMPAT_DIR="$top/.kcompat/$kver" "${flags[@]}" modules 2>&1); then
		echo "$log"
		exit 1
	fi
	warn=$(grep -E 'warning:|error:|ERROR:' <<<"$log" || true)
	if [[ -n $warn ]]; then
		echo "$warn"
		exit 1
	fi
	echo "$1: module builds without warnings against $kver"
	;;
kernel-doc)
	out=$(perl "$ksrc/scripts/kernel-doc" -none -Wall module/*.c 2>&1 || true)
	if [[ -n $out ]]; then
		echo "$out"
		exit 1
	fi
	echo "kernel-doc: clean"
	;;
*) echo "lint.sh: unknown check $1" >&2; exit 2 ;;
esac
