#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# blkload(8), generated from the CLI (scripts/gen-man.py): it renders without
# a groff warning, and names every command and every option the completion
# offers (the completion comes from the option tables). The check is proven
# able to fail: a page without its last command's section must fail it.
set -uo pipefail
bl=${1:-userspace/blkload}
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

python3 "$top/scripts/gen-man.py" "$bl" "$tmp/blkload.8" || { echo "gen-man failed"; exit 1; }

# check PAGE: 0 when it renders clean and names every command and option.
check() {
	local page=$1 text warn c o fail=0
	warn=$(LC_ALL=C.UTF-8 groff -man -ww -z -Tutf8 "$page" 2>&1)
	[[ -z $warn ]] || { echo "groff: $warn"; fail=1; }
	text=$(LC_ALL=C.UTF-8 MANWIDTH=200 man -l "$page" 2>/dev/null | col -b)
	[[ -n $text ]] || { echo "the page renders empty"; return 1; }
	for c in $("$bl" --help | awk '/^Commands:/ { on = 1; next } on && NF { print $1 } on && !NF { exit }'); do
		[[ $c == help ]] && continue
		grep -qx "   $c" <<<"$text" || { echo "no section for $c"; fail=1; }
	done
	# Every option of every command, as completion offers it (one spelling is enough).
	for o in $("$bl" completion | grep -o -- "--[a-z][a-z0-9_-]*" | sort -u); do
		pat=--$(sed 's/^--//; s/[-_]/[-_]/g' <<<"$o")
		grep -q -- "$pat" <<<"$text" || { echo "the page does not name $o"; fail=1; }
	done
	return $fail
}

rc=0
check "$tmp/blkload.8" || rc=1
# The same check on a page cut before its last command section must fail.
last=$(grep -n '^\.SS ' "$tmp/blkload.8" | tail -1 | cut -d: -f1)
head -n $((last - 1)) "$tmp/blkload.8" >"$tmp/cut.8"
if check "$tmp/cut.8" >/dev/null; then
	echo "the check passed a page missing a command"
	rc=1
fi
: >"$tmp/empty.8"
if check "$tmp/empty.8" >/dev/null; then
	echo "the check passed an empty page"
	rc=1
fi
exit $rc
