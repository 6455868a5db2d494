#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh [OUTDIR]: the Debian packages, with Debian's own tooling
# (dpkg-buildpackage, debhelper, dh-dkms): "blkload" (the CLI, blkload(8),
# the bash completion) and "blkload-dkms" (the module's source for DKMS).
# The checkout's files (git ls-files: tracked and untracked, not ignored) are
# copied to OUTDIR/blkload-VERSION with debian/ from scripts/packaging/debian;
# the .debs land in OUTDIR (default build/deb).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:-$top/build/deb}" && cd "${1:-$top/build/deb}" && pwd)
ver=$(sed -n 's/^#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' "$top/include/blkload/version.h")
[[ -n $ver ]] || { echo "make-deb: no version in include/blkload/version.h" >&2; exit 1; }
for t in dpkg-buildpackage dh dh_dkms; do
	command -v $t >/dev/null ||
		{ echo "make-deb: $t missing: apt install dpkg-dev debhelper dh-dkms (make deps)" >&2; exit 1; }
done

src=$out/blkload-$ver
rm -rf "$src" "$out"/blkload*_"$ver"_*.deb "$out"/blkload_"$ver"_*.{buildinfo,changes}
mkdir -p "$src"
git -C "$top" ls-files -co --exclude-standard -z |
	grep -zv '^build/' | rsync -a --from0 --files-from=- "$top/" "$src/"
cp -r "$top/scripts/packaging/debian" "$src/debian"
# The changelog's date: the last commit's (reproducible), else now.
when=$(git -C "$top" log -1 --format=%ct 2>/dev/null || date +%s)
sed -e "s/@VERSION@/$ver/" -e "s/@DATE@/$(date -R -d "@$when")/" \
	"$src/debian/changelog.in" >"$src/debian/changelog"
rm "$src/debian/changelog.in"
(cd "$src" && SOURCE_DATE_EPOCH=$when dpkg-buildpackage -b -us -uc >"$out/build.log" 2>&1) ||
	{ tail -30 "$out/build.log" >&2; echo "make-deb: dpkg-buildpackage failed ($out/build.log)" >&2; exit 1; }
ls "$out"/blkload_"$ver"_*.deb "$out"/blkload-dkms_"$ver"_all.deb
