#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# A job's memory is charged to the memory cgroup of the process that made
# it (__GFP_ACCOUNT, in the caller's context): a detached job of two queues
# of iodepth 1024, 4 KiB each (8 MiB of data pages, besides its slots),
# made by a process in a new cgroup, is in that cgroup's memory.current,
# and deleting the job gives it back (the drop is the job's alone: the
# process has exited by then, and page cache is not freed by a delete).
. "$(dirname "$0")/lib.sh"

bl_require_root
bl_require_cmd blkload python3

tmp=$(mktemp -d)
root=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
mounted=
cg=
job=
cleanup() {
	[[ -n $job ]] && python3 "$BL_DIR/blnl.py" del "$job" >/dev/null 2>&1
	[[ -n $cg ]] && rmdir "$cg" 2>/dev/null
	# Never rm -r into a cgroup tree still mounted.
	if [[ -z $mounted ]] || umount "$root"; then
		rm -rf "$tmp"
	fi
}
trap cleanup EXIT
if [[ -z $root ]]; then
	mkdir "$tmp/cg"
	mount -t cgroup2 none "$tmp/cg" && root=$tmp/cg mounted=1
fi
if [[ -z $root ]] || ! grep -qw memory "$root/cgroup.controllers"; then
	ktap_skip_all "no cgroup2 with the memory controller (CONFIG_MEMCG)"
	exit "$BL_SKIP"
fi
if (($(nproc) < 2)); then
	ktap_skip_all "one CPU: the job wants two queues"
	exit "$BL_SKIP"
fi

ktap_print_header
ktap_set_plan 3
bl_mark start
bl_load
bl_nullb nr_devices=1 gb=1 memory_backed=0
grep -qw memory "$root/cgroup.subtree_control" || echo +memory >"$root/cgroup.subtree_control"
cg=$root/blkload-memcg-$$
mkdir "$cg"

made() {
	job=$(bash -c 'echo $$ >"$1/cgroup.procs" && exec python3 "$2" new /dev/nullb0 \
		--iodepth 1024 --cpus 0,1 --detached' _ "$cg" "$BL_DIR/blnl.py") ||
		{ echo "# job-new failed: $job"; job=; return 1; }
	echo "# job $job made in $cg"
}
bl_check "a detached job made by a process in a new memory cgroup" made
with=$(cat "$cg/memory.current")
gone() {
	python3 "$BL_DIR/blnl.py" del "$job" || return 1
	job=
	bl_wait 50 bl_clean_now
}
bl_check "the job deleted" gone
without=$(cat "$cg/memory.current")
charged() {
	local d=$((with - without)) want=$((8 << 20))
	echo "# memory.current $with with the job, $without without: $((d >> 10)) KiB charged, want >= $((want >> 10))"
	((d >= want))
}
bl_check "the job's 8 MiB of pages were the cgroup's, and came back when it went" charged

bl_mark end
ktap_finished
