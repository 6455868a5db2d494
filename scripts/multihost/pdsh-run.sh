#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# pdsh-run.sh: one blkload workload on many hosts at once, merged.
#
#   pdsh-run.sh -w HOSTS [-R RCMD] [-d DELAY] [-o DIR] -- RUN-OPTIONS...
#
# On every host of HOSTS (pdsh's host list, e.g. client[01-16]) it loads the
# module and runs "blkload -j --output-format=json+ run --start-at @T
# RUN-OPTIONS", T being DELAY seconds (default 15) from now on this host's
# clock: the hosts' clocks must be in sync (chrony, NTP) to well under a
# second. Each host's report comes back on pdsh's output (indented JSON:
# pdsh keeps only the end of a very long line), its lines put together per
# host into DIR/HOST.json (DIR default: ./blkload-multihost-T, made new);
# a host without a whole report is named and fails the run; then "blkload
# merge" sums the reports into DIR/merged.json and prints the table. pdsh's
# fanout is the number of hosts: every host starts at once.
# RCMD is pdsh's remote command module (default ssh; "exec" runs each
# host's command here, with pdsh's %h, %n substituted: for tests).
# RUN-OPTIONS are passed through the remote shell quoted as given; pdsh
# substitutes %h (host) and %n (rank) in them, e.g. --dev /dev/rbd%n (a
# literal % is written %%).
# Exit status: 0, or 1 when a host failed or the merge did.
set -euo pipefail

usage() {
	sed -n '5,20s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

hosts= rcmd=ssh delay=15 dir=
while getopts "w:R:d:o:h" o; do
	case $o in
	w) hosts=$OPTARG ;;
	R) rcmd=$OPTARG ;;
	d) delay=$OPTARG ;;
	o) dir=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[[ -n $hosts && $# -gt 0 ]] || usage
[[ $delay =~ ^[0-9]+$ ]] || { echo "pdsh-run: -d takes whole seconds" >&2; exit 2; }
command -v pdsh >/dev/null || { echo "pdsh-run: pdsh is not installed (apt install pdsh)" >&2; exit 1; }
command -v blkload >/dev/null || { echo "pdsh-run: blkload is not on PATH here (the merge runs here)" >&2; exit 1; }

at=$(($(date +%s) + delay))
dir=${dir:-./blkload-multihost-$at}
if [[ -e $dir ]] && [[ -n $(ls -A "$dir") ]]; then
	echo "pdsh-run: $dir is not empty: an earlier run's reports would be merged" >&2
	exit 2
fi
mkdir -p "$dir"
# The hosts, one per line, as pdsh expands the list (exec runs echo here).
pdsh -R exec -w "$hosts" echo %h 2>/dev/null | sed 's/^[^:]*: //' | sort >"$dir/hosts"
nhosts=$(wc -l <"$dir/hosts")
((nhosts > 0)) || { echo "pdsh-run: no host in '$hosts'" >&2; exit 2; }
# Single quotes, for any POSIX shell (sh -c in exec mode, the login shell via ssh).
# The module: loaded already (from a tree: scripts/load-module.sh), else
# the installed one.
remote="{ test -d /sys/module/blkload || modprobe blkload; } && exec blkload -p -j --output-format=json+ run --start-at @$at"
for a in "$@"; do
	remote+=" '${a//\'/\'\\\'\'}'"
done
echo "pdsh-run: every host starts at $(date -d "@$at" '+%F %T %Z'); reports in $dir" >&2

rc=0
if [[ $rcmd == exec ]]; then
	pdsh -S -f "$nhosts" -R exec -w "$hosts" sh -c "$remote" >"$dir/pdsh.out" 2>"$dir/pdsh.err" || rc=1
else
	pdsh -S -f "$nhosts" -R "$rcmd" -w "$hosts" "$remote" >"$dir/pdsh.out" 2>"$dir/pdsh.err" || rc=1
fi
# "host: LINE": each host's lines in order; together they are its report.
python3 - "$dir" <<'PY' || rc=1
import collections, json, os, sys
d = sys.argv[1]
lines = collections.defaultdict(list)
for line in open(os.path.join(d, "pdsh.out")):
    host, sep, rest = line.partition(": ")
    if sep:
        lines[host].append(rest)
bad = 0
for host in open(os.path.join(d, "hosts")).read().split():
    try:
        report = json.loads("".join(lines.get(host, [])))
    except ValueError:
        print("pdsh-run: %s: no whole report (see pdsh.err)" % host, file=sys.stderr)
        bad += 1
        continue
    with open(os.path.join(d, host + ".json"), "w") as f:
        json.dump(report, f)
sys.exit(1 if bad else 0)
PY
sed 's/^/pdsh-run: /' "$dir/pdsh.err" >&2
shopt -s nullglob
reports=()
while read -r h; do
	[[ -f $dir/$h.json ]] && reports+=("$dir/$h.json")
done <"$dir/hosts"
if ((${#reports[@]} == 0)); then
	echo "pdsh-run: no host returned a report" >&2
	exit 1
fi
blkload merge -o "$dir/merged.json" "${reports[@]}" || rc=1
exit $rc
