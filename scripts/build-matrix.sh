#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build-matrix.sh: the module against every kernel blkload supports here,
# W=1, no warning allowed; each build in a copy of the module sources under
# build/matrix/NAME, so the tree's own module (the guest's) is untouched.
#   - Debian's 6.1 headers (amd64) and the same release's rt flavour;
#   - a prepared 6.12 tree: the debug kernel's (scripts/debug-kernel.sh,
#     built from Debian's linux-source-6.12, cached) when it is built, else
#     the same config made ready for external modules alone (a few minutes,
#     not the build's half hour; modpost then has no Module.symvers and
#     only warns of the kernel's symbols, as it must).
# Each build runs the compile probes for its tree (scripts/kcompat.sh,
# whose _control probe proves an unrelated warning cannot pick a fallback)
# and prints which API each probe chose. KTAP out, "N passed, N failed".
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
out=$top/build/matrix
n=0 pass=0 fail=0
echo "TAP version 13"

result() {
	n=$((n + 1))
	if (($1)); then
		pass=$((pass + 1))
		echo "ok $n $2${3:+ # $3}"
	else
		fail=$((fail + 1))
		echo "not ok $n $2"
	fi
}

# The API each probe must choose on a tree: "HAVE_X" defined, "!HAVE_X" not.
expect() {
	local name=$1 h=$out/$1/.kcompat/kcompat.h e bad=
	shift
	for e in "$@"; do
		if [[ $e == !* ]]; then
			grep -q "define ${e#!} 1" "$h" && bad+=" ${e#!}(chosen)"
		else
			grep -q "define $e 1" "$h" || bad+=" $e(fallback)"
		fi
	done
	[[ -z $bad ]] || echo "# $name: wrong choices:$bad"
	result "$([[ -z $bad ]] && echo 1 || echo 0)" "probes choose the expected API on $name"
}

build() {
	local name=$1 kdir=$2 src=$out/$1 kver log
	kver=$(cat "$kdir/include/config/kernel.release" 2>/dev/null) ||
		{ echo "# $name: no kernel.release in $kdir"; result 0 "module builds with W=1 against $name"; return 1; }
	rm -rf "$src"
	mkdir -p "$src"
	cp -r "$top/module" "$top/include" "$top/Kbuild" "$src/"
	find "$src/module" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' -o -name '.*.cmd' \
		-o -name modules.order \) -delete
	mkdir -p "$src/scripts"
	cp "$top/scripts/kcompat.sh" "$src/scripts/"
	log=$src/build.log
	local warn=()
	[[ -f $kdir/Module.symvers ]] || warn=(KBUILD_MODPOST_WARN=1)
	if ! "$src/scripts/kcompat.sh" "$kdir" "$src/.kcompat" >"$log" 2>&1 ||
	   ! make -C "$kdir" M="$src" BLKLOAD_KCOMPAT_DIR="$src/.kcompat" W=1 "${warn[@]}" modules \
		>>"$log" 2>&1; then
		sed 's/^/# /' "$log" | tail -30
		result 0 "module builds with W=1 against $name ($kver)"
		return 1
	fi
	if grep -E 'warning:|error:|ERROR:' "$log" | sed 's/^/# /' | grep .; then
		result 0 "module builds with W=1 against $name ($kver): no warning"
		return 1
	fi
	echo "# $name: probes: $(grep -o 'define HAVE_[A-Z0-9_]*' "$src/.kcompat/kcompat.h" |
		sed 's/define HAVE_//' | tr '\n' ' ')"
	echo "# $name: fallbacks: $(grep -o 'undef HAVE_[A-Z0-9_]*' "$src/.kcompat/kcompat.h" |
		sed 's/undef HAVE_//' | tr '\n' ' ')"
	result 1 "module builds with W=1 against $name ($kver), no warning"
}

hdr=$(ls -d /usr/src/linux-headers-6.1.*-amd64 2>/dev/null | grep -v -- '-rt-' | sort -V | tail -1)
rt=$(ls -d /usr/src/linux-headers-6.1.*-rt-amd64 2>/dev/null | sort -V | tail -1)
# 6.1: blkdev_get_by_path(path, mode, holder), bio polling, blk_opf_t.
api61=(HAVE_BLKDEV_GET_BY_PATH_3ARG HAVE_BIO_POLL HAVE_BLK_OPF_T HAVE_BIO_INIT_5ARG
	HAVE_STRUCT_SIZE_T HAVE_GENL_MCAST_CAP_SYS_ADMIN
	'!HAVE_BDEV_FILE_OPEN_BY_PATH' '!HAVE_BDEV_OPEN_BY_PATH' '!HAVE_BLKDEV_GET_BY_PATH_4ARG'
	'!HAVE_GENL_SPLIT_OPS')
# 6.12: bdev_file_open_by_path() and no blkdev_get_by_path at all; split genl ops.
api612=(HAVE_BDEV_FILE_OPEN_BY_PATH HAVE_BDEV_FPUT HAVE_BIO_POLL HAVE_BLK_OPF_T
	HAVE_STRUCT_SIZE_T HAVE_GENL_MCAST_CAP_SYS_ADMIN HAVE_GENL_SPLIT_OPS
	'!HAVE_BLKDEV_GET_BY_PATH_3ARG' '!HAVE_BLKDEV_GET_BY_PATH_4ARG')
if [[ -n $hdr ]]; then
	build "debian-6.1-amd64" "$hdr" && expect "debian-6.1-amd64" "${api61[@]}"
	# Early 6.1.y (before Debian's backports) has neither: their fallbacks build.
	early=(struct_size_t genl_mcast_cap_sys_admin)
	BLKLOAD_PROBES_OFF="${early[*]}" build "debian-6.1-early-fallbacks" "$hdr" &&
		expect "debian-6.1-early-fallbacks" '!HAVE_STRUCT_SIZE_T' '!HAVE_GENL_MCAST_CAP_SYS_ADMIN' \
			HAVE_BLKDEV_GET_BY_PATH_3ARG
	# A preemptible kernel without Tasks RCU: unload could not wait for a
	# completion preempted in the module's text, so the module has no exit
	# (rmmod refuses it); the same build has one otherwise.
	if KCFLAGS=-DBLKLOAD_TEST_NO_TASKS_RCU build "debian-6.1-no-tasks-rcu" "$hdr"; then
		# grep reads all of nm's output: -q would quit at the match and
		# nm's SIGPIPE fail the pipeline (pipefail) on a large module.
		exits() { nm "$out/$1/module/blkload.ko" | grep -w cleanup_module >/dev/null; }
		if exits "debian-6.1-amd64" && ! exits "debian-6.1-no-tasks-rcu"; then
			result 1 "without Tasks RCU on a preemptible kernel the module has no exit; with it, one"
		else
			result 0 "without Tasks RCU on a preemptible kernel the module has no exit; with it, one"
		fi
	fi
	# A kernel built with CONFIG_WERROR (-Werror for modules): the probes choose alike.
	src=$out/debian-6.1-amd64
	if KCFLAGS="-Werror -Wunused-variable" "$src/scripts/kcompat.sh" "$hdr" "$src/.kcompat-werror" \
		>/dev/null 2>&1 &&
	   diff <(grep -o 'define HAVE_[A-Z0-9_]* 1' "$src/.kcompat/kcompat.h") \
		<(grep -o 'define HAVE_[A-Z0-9_]* 1' "$src/.kcompat-werror/kcompat.h") >/dev/null; then
		result 1 "probes under -Werror choose as without it (a warning never picks a fallback)"
	else
		result 0 "probes under -Werror choose as without it (a warning never picks a fallback)"
	fi
	# The control probe proves it each run: one that fails stops kcompat.
	bad=$out/control-fails
	rm -rf "$bad"
	mkdir -p "$bad/scripts"
	cp -r "$top/module" "$bad/"
	cp "$top/scripts/kcompat.sh" "$bad/scripts/"
	sed -i 's/blk_start_plug(plug);/blk_start_plug_no_such_api(plug);/' "$bad/module/probes/_control.c"
	if "$bad/scripts/kcompat.sh" "$hdr" "$bad/.kcompat" >"$bad/log" 2>&1; then
		result 0 "a control probe that does not compile stops kcompat"
	else
		grep -q "control probe did not compile" "$bad/log"
		result $((! $?)) "a control probe that does not compile stops kcompat"
	fi
else
	echo "# no linux-headers-*-amd64 (make deps)"
	result 0 "Debian's amd64 headers are installed"
fi
if [[ -n $rt ]]; then
	build "debian-6.1-rt-amd64" "$rt" && expect "debian-6.1-rt-amd64" "${api61[@]}"
else
	echo "# no linux-headers-*-rt-amd64 (make deps)"
	result 0 "Debian's rt headers are installed"
fi
if dk=$("$top/scripts/debug-kernel.sh" --prepared 2>/dev/null); then
	build "linux-6.12-debug" "$dk/build" && expect "linux-6.12-debug" "${api612[@]}"
else
	echo "# the 6.12 tree (scripts/debug-kernel.sh) could not be prepared"
	result 0 "module builds with W=1 against a prepared 6.12 tree"
fi
echo "$pass passed, $fail failed"
((fail == 0))
