#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The bash completion that "blkload completion" generates from the option
# tables: it parses, completes run's options and --rw values, and every
# option --help lists completes (and the other way round). Fails on a
# completion that offers nothing.
set -uo pipefail
bl=${1:-userspace/blkload}
script=$(mktemp)
trap 'rm -f "$script"' EXIT
"$bl" completion >"$script" || { echo "completion failed"; exit 1; }
bash -n "$script" || { echo "the script does not parse"; exit 1; }

complete_words() {
	bash -c '
		. "$1"; shift
		compopt() { :; }
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
		_blkload
		printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$@"
}

fail=0
got=$(complete_words blkload run --r)
for w in --rw= --rwmixread= --runtime= --ramp_time= --randseed= --rbdname= --rate_iops=; do
	grep -qx -- "$w" <<<"$got" || { echo "run --r<TAB>: no $w"; fail=1; }
done
got=$(complete_words blkload run --rw rand)
[[ $got == $'randread\nrandwrite\nrandrw\nrandtrim' ]] || { echo "--rw rand<TAB>: $got"; fail=1; }
got=$(complete_words blkload st)
[[ $got == $'start\nstop\nstats' ]] || { echo "st<TAB>: $got"; fail=1; }
got=$(complete_words blkload run --)
[[ -n $got ]] || { echo "run --<TAB>: nothing"; fail=1; }
# The other commands: their own getopt tables, both spellings.
got=$(complete_words blkload stats --p)
[[ $got == $'--percentile_list=\n--per-cpu\n--percentile-list=\n--per_cpu' ]] ||
	{ echo "stats --p<TAB>: $got"; fail=1; }
got=$(complete_words blkload compare --ima)
[[ $got == --images= ]] || { echo "compare --ima<TAB>: $got"; fail=1; }
got=$(complete_words blkload plot --o)
[[ $got == --output= ]] || { echo "plot --o<TAB>: $got"; fail=1; }
got=$(complete_words blkload diff --)
grep -qx -- --threshold= <<<"$got" || { echo "diff --<TAB>: $got"; fail=1; }
# Each of them takes, parses and explains every option it completes.
for c in info stop stats monitor compare diff plot merge; do
	for o in $(complete_words blkload $c -- | sed 's/=$//' | grep -vx -- --help); do
		pat=--$(sed 's/^--//; s/[-_]/[-_]/g' <<<"$o")
		"$bl" $c --help 2>/dev/null | grep -q -- "$pat" ||
			{ echo "$c --help does not name $o"; fail=1; }
	done
done
got=$(complete_words blkload run --)
# One table: what --help names, completion offers, and the other way round.
helped=$("$bl" run --help | grep -o -- '--[a-z_-]*' | sort -u)
offered=$(sed 's/=$//' <<<"$got" | sort -u)
if [[ $helped != "$offered" ]]; then
	echo "help and completion differ:"
	diff <(echo "$helped") <(echo "$offered")
	fail=1
fi
exit $fail
