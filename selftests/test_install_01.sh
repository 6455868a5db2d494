#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The README's "Using it" path, as written there, from the state a user
# starts in: nothing of blkload installed or loaded, a fresh copy of the
# tree (its tracked files, nothing built). The commands are read from
# README.md itself, so the test runs what the README says today:
#   make deps && make && make install; modprobe blkload; blkload info
# then its null_blk run, counted against the device, and "make uninstall"
# leaving nothing.
. "$(dirname "$0")/lib.sh"

bl_require_root
# The build under KASAN and emulation is long, and its subject is the build.
bl_not_on_debug_lane "the README's install path (a build in the guest)"
bl_require_cmd make gcc git rsync depmod modinfo python3

kver=$(uname -r)
if [[ ! -f /lib/modules/$kver/build/Makefile ]]; then
	ktap_skip_all "no headers for $kver (/lib/modules/$kver/build): the README's make cannot build here"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 9
bl_mark start
tmp=$(mktemp -d)
src=$tmp/blkload
cleanup() {
	modprobe -r blkload 2>/dev/null
	if [[ -f $src/Makefile ]]; then
		make -s -C "$src" uninstall >/dev/null 2>&1
	fi
	modprobe -r null_blk 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 143' TERM
trap 'exit 130' INT

# The "Using it" block of README.md: its install lines (up to "blkload
# info") and its null_blk run, one command a line, comments kept (bash
# ignores them).
readme_lines() {
	python3 - "$BLKLOAD_TOP/README.md" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
m = re.search(r'^## Using it\n+```sh\n(.*?)^```', text, re.S | re.M)
if not m:
    sys.exit('no "## Using it" code block in README.md')
lines = m.group(1).splitlines()
install = []
for l in lines:
    if not l.strip():
        break
    install.append(l)
if not install or not install[-1].startswith('blkload info'):
    sys.exit('the block does not start with the install lines ending in "blkload info"')
run = [l for l in lines if '--dev /dev/nullb0' in l and not l.endswith('\\')]
if len(run) != 1:
    sys.exit('not exactly one one-line null_blk run in the block')
print('\n'.join(install + run))
PY
}

fresh() {
	readme_lines >"$tmp/lines" || return 1
	sed 's/^/# README: /' "$tmp/lines"
	bl_unload || return 1
	mkdir -p "$src"
	# A fresh clone of what is in the tree: its tracked files, nothing built.
	# (Run as root on a checkout someone else may own: git refuses that.)
	git -c safe.directory="$BLKLOAD_TOP" -C "$BLKLOAD_TOP" ls-files >"$tmp/files" &&
		rsync -a --files-from="$tmp/files" --ignore-missing-args "$BLKLOAD_TOP/" "$src/" ||
		return 1
	bl_nothing_installed && [[ ! -e $src/module/blkload.ko && ! -e $src/userspace/blkload ]]
}
bl_check "the user's state: nothing of blkload installed or loaded; a copy with nothing built" fresh

# Line $1 of the README's commands, run as written in the copy.
readme() {
	local line log=$tmp/readme-$1.log t0
	line=$(sed -n "$1p" "$tmp/lines")
	[[ -n $line ]] || return 1
	t0=$SECONDS
	(cd "$src" && bash -eo pipefail -c "$line") >"$log" 2>"$log.err" ||
		{ echo "# failed: $line"; tail -20 "$log.err" | sed 's/^/# /'; return 1; }
	echo "# ${line%%#*}: $((SECONDS - t0)) s"
}

installed() {
	readme 1 || return 1
	[[ $(modinfo -n blkload) == /lib/modules/$kver/extra/blkload.ko ]] &&
		[[ $(command -v blkload) == /usr/local/sbin/blkload ]] &&
		[[ $(readlink /usr/local/sbin/blkload-fio) == blkload ]] &&
		[[ -f /usr/local/share/man/man8/blkload.8 ]] &&
		[[ -f /usr/local/share/bash-completion/completions/blkload ]]
}
bl_check "README: make deps && make && make install: module, CLI (and blkload-fio), man page, completion installed" installed

not_loaded() {
	local v
	v=$(blkload --version) || return 1
	echo "$v" | sed 's/^/# /'
	grep -qx "module $(sed -n 's/^#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' \
		"$src/include/blkload/version.h") (installed, not loaded)" <<<"$v"
}
bl_check "blkload --version: the module installed, not loaded" not_loaded

loaded() {
	readme 2 && grep -q '^blkload ' /proc/modules
}
bl_check "README: modprobe blkload loads the installed module" loaded

info() {
	readme 3 || return 1
	sed 's/^/# /' "$tmp/readme-3.log"
	grep -Eq "^module version: +$(sed -n 's/^#define BLKLOAD_VERSION[[:space:]]*"\(.*\)"/\1/p' \
		"$src/include/blkload/version.h")\$" "$tmp/readme-3.log"
}
bl_check "README: blkload info names the version just built" info

run() {
	local before after
	bl_nullb nr_devices=1 gb=1 irqmode=0 memory_backed=0 || return 1
	before=$(awk '{ print $5 }' /sys/block/nullb0/stat)
	readme 4 || return 1
	after=$(awk '{ print $5 }' /sys/block/nullb0/stat)
	echo "# the device counted $((after - before)) writes"
	bl_json 'd["jobs"][0]["write"]["total_ios"] == 100000' <"$tmp/readme-4.log" &&
		((after - before == 100000))
}
bl_check "README: its null_blk run writes 100000 IOs, and the device counted 100000" run

bl_check "the run left nothing (no job, no memory pinned)" bl_clean

uninstall() {
	modprobe -r blkload || return 1
	make -s -C "$src" uninstall >"$tmp/uninstall.log" 2>&1 || return 1
	bl_nothing_installed && [[ ! -e /usr/local/share/man/man8/blkload.8 &&
		! -e /usr/local/sbin/blkload-fio &&
		! -e /usr/local/share/bash-completion/completions/blkload ]]
}
bl_check "make uninstall: module, CLI, blkload-fio, man page and completion gone" uninstall

# The checker above cannot pass on nothing: the build really happened.
bl_check "the copy's build made the module and the CLI" \
	test -f "$src/module/blkload.ko" -a -x "$src/userspace/blkload"

bl_mark end
ktap_finished
