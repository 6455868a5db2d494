#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "blkload info" round trip: text and JSON agree with the module and kernel,
# limits follow the module parameters, and no privilege is needed to read.
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_not_on_debug_lane "info and --version (the CLI's text and JSON)"
bl_require_cmd blkload python3 setpriv

ktap_print_header
ktap_set_plan 7
bl_mark start
bl_unload
bl_load

ver=$(cat /sys/module/blkload/version)
text=$(blkload info 2>&1)
echo "$text" | sed 's/^/# /'
bl_check "text shows the module version" grep -q "module version: *$ver\$" <<<"$text"
bl_check "text shows the kernel release" grep -q "kernel: *$(uname -r)\$" <<<"$text"

echo 77 >/sys/module/blkload/parameters/max_iodepth
echo 3 >/sys/module/blkload/parameters/max_jobs
echo 16 >/sys/module/blkload/parameters/mem_budget_mb
json=$(blkload -j info)
echo "# $json"
check_json() {
	python3 - "$json" "$ver" "$(uname -r)" <<'PY'
import json, sys
d = json.loads(sys.argv[1])
assert d["version"] == sys.argv[2], d
assert d["kernel_release"] == sys.argv[3], d
assert d["abi_version"] == d["cli_abi_version"] == 3, d
lim = d["limits"]
assert lim["max_iodepth"] == 77, lim
assert lim["max_jobs"] == 3, lim
assert lim["mem_budget"] == 16 << 20, lim
assert lim["max_bs"] == 4 << 20, lim
assert d["nr_jobs"] == 0 and d["mem_used"] == 0, d
PY
}
bl_check "JSON parses and matches module parameters" check_json

pretty=$(blkload --pretty --output-format=json info)
bl_check "pretty JSON parses" python3 -c 'import json,sys; json.loads(sys.argv[1])' "$pretty"

# Out-of-range parameters are refused by the module.
refuse_zero() {
	! bash -c 'echo 0 >/sys/module/blkload/parameters/max_iodepth' 2>/dev/null &&
		test "$(cat /sys/module/blkload/parameters/max_iodepth)" = 77
}
bl_check "max_iodepth=0 refused, value kept" refuse_zero

bl_check "info works unprivileged" \
	setpriv --reuid=nobody --regid=nogroup --clear-groups blkload info

# --version: the CLI's and the module's, one version; loaded, or not there
# (the lanes install nothing; test_install_01 checks "installed, not loaded").
versions() {
	local v
	v=$(blkload --version) || return 1
	echo "$v" | sed 's/^/# /'
	grep -qx "blkload $ver (netlink ABI 3)" <<<"$v" &&
		grep -qx "module $ver (loaded)" <<<"$v" || return 1
	bl_unload
	v=$(blkload --version) || return 1
	grep -qx "module: not installed" <<<"$v"
}
bl_check "--version names the CLI and the module, one version" versions

bl_unload
bl_mark end
ktap_finished
