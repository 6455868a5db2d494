#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# fio's --parse-only on the host (no module, no device): accepted lines and
# files exit 0; what a run would refuse without touching a device is refused
# here too, with its reason; fio's job files in the shapes users write.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
bl=$top/userspace/blkload
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

ok() {
	local out
	out=$("$bl" run --parse-only "$@" 2>&1) || { echo "refused: $*: $out"; fail=1; }
}
refused() {
	local want=$1 out
	shift
	if out=$("$bl" run --parse-only "$@" 2>&1); then
		echo "accepted: $*"
		fail=1
	elif ! grep -qF -- "$want" <<<"$out"; then
		echo "refused without '$want': $*: $out"
		fail=1
	fi
}

ok --filename=/dev/x --rw=randread --bs=4k --iodepth=32 --randrepeat 0 --disk_util 0 \
	--buffered 0 --time_based --runtime 10
ok -ioengine=libaio -filename=/dev/x -rw=read -end_fsync=0 -timeout=5
ok --name=a --filename=/dev/x --name=b --filename=/dev/y --iodepth=2
ok --ioengine=libaio --name=a --filename=/dev/x --name=b --stonewall --filename=/dev/y
# --parse-only given to a later job counts too.
out=$("$bl" run --ioengine=libaio --name=a --filename=/dev/x --name=b --stonewall \
	--filename=/dev/y --parse-only 2>&1) || { echo "parse-only of a later job: $out"; fail=1; }
refused "allow-write is required" --dev /dev/x --rw=randwrite
refused "multiple of" --dev /dev/x --bs=3000
refused "no device: --dev DEVICE or --filename=DEVICE" --rw=read
refused "has no trims" --dev /dev/x --rw=trim --allow-write --ioengine=libaio
refused "'rate_ignore_thinktime' is a fio I/O rate option" --dev /dev/x --rate_ignore_thinktime=1
refused "the minimum rate exceeds the rate" --dev /dev/x --rate=1m --rate_min=2m
ok --dev /dev/x --rw=randrw --allow-write --rate=1m --rate_min=512k --exitall --exit_what=stonewall
refused "the module's bios do not go through it" --dev /dev/x --direct=0 --ioengine=kernel
refused "fio's null engine is not a block-device path" --dev /dev/x --ioengine=null
ok --ioengine=libaio --name=a --filename=/dev/x --name=b --wait_for=a --filename=/dev/x
refused "wait_for=zz: no job of that name before it" --name=a --filename=/dev/x \
	--name=b --wait_for=zz --filename=/dev/x
refused "waiting for more is not in blkload yet" --dev /dev/x --iodepth_batch_complete=16
grep -q "^output-format: .*blkload takes it" <<<"$("$bl" fio --cmdhelp=output-format)" ||
	{ echo "cmdhelp output-format: $("$bl" fio --cmdhelp=output-format)"; fail=1; }
ok --dev /dev/x --ioengine=psync --iodepth=8
refused "--showcmd turns job files into a command line" --dev /dev/x --showcmd
ok --dev /dev/x --direct=0
ok --dev /dev/x --numjobs=8 --cpus_allowed=0 --cpus_allowed_policy=shared --group_reporting
refused "--cpus (one job, a queue per CPU) or fio's cpus_allowed" --dev /dev/x --numjobs=2 \
	--cpus_allowed=0 --cpus 0
# Detached copies that write would each claim the device: start refuses them.
out=$("$bl" start --parse-only --dev /dev/x --numjobs=2 --rw=randwrite --allow-write 2>&1) &&
	{ echo "start with writing copies accepted"; fail=1; }
grep -q "numjobs copies that write one device need run" <<<"$out" ||
	{ echo "start with writing copies: $out"; fail=1; }
ok --dev /dev/x --rw=read:-8k
refused "fio's rw_sequencer" --dev /dev/x --rw=randread:8
ok --dev /dev/x --rw=randread --random_distribution=zoned:50/5:50/95
refused "zones apart for reads, writes and trims are not in blkload yet" --dev /dev/x \
	--rw=randrw --random_distribution=zoned:50/5:50/95,100/100
refused "size=N% (a share of the device) is not in blkload yet" --dev /dev/x --size=10%
ok --dev /dev/x --bssplit=4k/50:64k/50 --size=1g
ok --ioengine=libaio --name=a --filename=/dev/x --name=b --filename=/dev/y
refused "on the module or on userspace engines, not both" --name=a --filename=/dev/x \
	--name=b --ioengine=io_uring --filename=/dev/y

# Started as fio: "blkload fio ..." and a link named fio (or blkload-fio) take fio's line.
out=$("$bl" fio --parse-only -ioengine=libaio --name=x --filename=/dev/x --rw=read 2>&1) ||
	{ echo "blkload fio: $out"; fail=1; }
mkdir "$tmp/bin" && ln -s "$bl" "$tmp/bin/fio" && ln -s "$bl" "$tmp/bin/blkload-fio"
out=$("$tmp/bin/fio" --parse-only --output-format=json,normal --name=x --filename=/dev/x 2>&1) ||
	{ echo "a link named fio: $out"; fail=1; }
out=$("$tmp/bin/blkload-fio" --parse-only --rw=randwrite --name=x --filename=/dev/x 2>&1) &&
	{ echo "blkload-fio wrote without --allow-write"; fail=1; }
grep -q "allow-write is required" <<<"$out" || { echo "blkload-fio: $out"; fail=1; }
grep -q "^blkload-.*(fio's command line)" <<<"$("$tmp/bin/fio" --version)" ||
	{ echo "fio --version: $("$tmp/bin/fio" --version)"; fail=1; }

cat >"$tmp/ok.fio" <<-'FIO'
	; fio's comments, aliases, file options
	[global]
	ioengine=libaio ; the engine
	direct=1
	buffered=0
	directory=/mnt	# ignored on a device
	timeout=30
	[job1]
	filename=/dev/x
	rw=randread
	FIO
ok "$tmp/ok.fio"
# --showcmd: the file as one command line, which is accepted in turn.
line=$("$bl" run --showcmd "$tmp/ok.fio" 2>/dev/null) || { echo "showcmd: $line"; fail=1; }
grep -q "^blkload fio --name=job1 .*--runtime=30" <<<"$line" || { echo "showcmd: $line"; fail=1; }
eval "ok ${line#blkload fio }"
printf '[w]\nfilename=/dev/x\nrw=write\n' >"$tmp/w.fio"
refused "allow-write is required" "$tmp/w.fio"
# Each refusal checked above is also one of fio's own: the file is fio's.
exit $fail
