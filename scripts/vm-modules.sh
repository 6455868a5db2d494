#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# vm-modules.sh KVER OUT MODULE...: a lean module tree for the test guest
# (scripts/vm -M OUT): only MODULE... and what they depend on, as this
# machine's /lib/modules/KVER has them, with the build and source links, and
# indexed by depmod here, at native speed. depmod over Debian's 4000 modules
# takes 45-90 s under emulation, and the install tests run it five times
# (make install, DKMS, dpkg); over a lean tree it takes a moment. Prints OUT.
set -euo pipefail
kver=${1:?usage: vm-modules.sh KVER OUT MODULE...}
out=${2:?usage: vm-modules.sh KVER OUT MODULE...}
shift 2
src=/lib/modules/$kver
# It is made anew each time: never remove a directory not named for it.
[[ $(basename "$out") == vm-modules* ]] || { echo "vm-modules: OUT must be named vm-modules*" >&2; exit 1; }
[[ -f $src/modules.dep ]] || { echo "vm-modules: no $src/modules.dep" >&2; exit 1; }

rm -rf "$out"
dst=$out/lib/modules/$kver
mkdir -p "$dst"
for f in modules.order modules.builtin modules.builtin.modinfo; do
	[[ -f $src/$f ]] && cp "$src/$f" "$dst/"
done
for l in build source; do
	[[ -e $src/$l ]] && ln -s "$(readlink -f "$src/$l")" "$dst/$l"
done
# Each module and its dependencies (soft ones too), as modprobe would load them.
for m in "$@"; do
	modprobe -S "$kver" --show-depends "$m" 2>/dev/null ||
		{ echo "vm-modules: no module $m for $kver" >&2; exit 1; }
done | awk '$1 == "insmod" { print $2 }' | sort -u | while read -r ko; do
	rel=${ko#"$src"/}
	mkdir -p "$dst/$(dirname "$rel")"
	cp "$ko" "$dst/$rel"
done
depmod -b "$out" "$kver"
echo "$out"
