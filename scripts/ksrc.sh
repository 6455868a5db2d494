#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh: print the path of the kernel-source pieces blkload builds with,
# extracting them once from Debian's linux-source package into the cache:
# the kselftest framework (lib.mk, kselftest.h, kselftest_harness.h,
# kselftest/ktap_helpers.sh, the runner), checkpatch.pl, and the YNL
# netlink client (tools/net/ynl) with the spec schemas (Documentation/netlink).
#
#   ksrc.sh            path of the extracted tree (linux-source-X.Y/)
set -euo pipefail

tarball=${BLKLOAD_KSRC_TARBALL:-}
if [[ -z $tarball ]]; then
	tarball=$(ls /usr/src/linux-source-*.tar.xz 2>/dev/null | sort -V | tail -1 || true)
fi
[[ -n $tarball && -f $tarball ]] ||
	{ echo "ksrc: no /usr/src/linux-source-*.tar.xz; run 'make deps'" >&2; exit 1; }

name=$(basename "$tarball" .tar.xz)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/blkload
dest=$cache/$name
# The marker names the set extracted: a larger set extracts again.
mark=$dest/.complete-2
if [[ ! -f $mark ]]; then
	mkdir -p "$cache"
	rm -rf "$dest"
	tar -C "$cache" -xJf "$tarball" \
		--wildcards \
		"$name/tools/testing/selftests/lib.mk" \
		"$name/tools/testing/selftests/kselftest.h" \
		"$name/tools/testing/selftests/kselftest_harness.h" \
		"$name/tools/testing/selftests/run_kselftest.sh" \
		"$name/tools/testing/selftests/kselftest/*" \
		"$name/tools/testing/selftests/Makefile" \
		"$name/scripts/checkpatch.pl" \
		"$name/scripts/spelling.txt" \
		"$name/scripts/const_structs.checkpatch" \
		"$name/scripts/kernel-doc" \
		"$name/scripts/Makefile.compiler" \
		"$name/scripts/subarch.include" \
		"$name/tools/scripts/Makefile.include" \
		"$name/tools/scripts/Makefile.arch" \
		"$name/tools/net/ynl/*" \
		"$name/Documentation/netlink/*.yaml" \
		"$name/Makefile" >&2
	touch "$mark"
fi
echo "$dest"
