#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Runs last: kmemleak (debug kernel) scans and must report no leaked object
# allocated by blkload during the whole run (scripts/guest-selftests.sh
# cleared older reports at the start). The module is loaded for the scan so
# that its frames resolve; frames of a module unloaded since (blkload is
# loaded and unloaded many times) only resolve to an address, and count too.
. "$(dirname "$0")/lib.sh"

bl_require_root
kml=/sys/kernel/debug/kmemleak
if [[ ! -e $kml ]]; then
	ktap_skip_all "no kmemleak in this kernel (the debug lane has it)"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 2
bl_mark start
bl_load
bl_check "the module is loaded and idle" bl_clean
# kmemleak reports objects found unreferenced by two scans, older than 5 s.
sleep 6
echo scan >$kml
echo scan >$kml
all=$(grep -c '^unreferenced object' $kml)
# An object is ours when a frame of its backtrace is blkload's, or an
# address in the module area that no loaded module claims.
ours=$(awk '/^unreferenced object/ { if (mine) n++; mine = 0 }
	/\[blkload\]/ || /\] 0xffffffffc[0-9a-f]+$/ { mine = 1 }
	END { if (mine) n++; print n + 0 }' $kml)
echo "# kmemleak: $all unreferenced objects in all, $ours from blkload"
sed 's/^/# /' $kml | head -80
bl_check "kmemleak: no leak from blkload" test "$ours" = 0

bl_mark end
ktap_finished
