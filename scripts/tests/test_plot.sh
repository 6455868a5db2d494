#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# "blkload plot" on a report with known content: four SVGs that parse, with
# their titles, one line per job and direction (IOPS, bandwidth), three
# percentile lines each (latency over time) and a CDF from json+ bins or
# from percentiles. A report without jobs or without IO writes nothing and
# fails; the SVG check itself fails on an empty and on a truncated file.
# Runs under valgrind when it is installed.
set -uo pipefail
bl=$(realpath "${1:-userspace/blkload}")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0

python3 - "$dir/r.json" <<'PY'
import json, sys
def samples(iops, n=10):
    out = []
    for i in range(n):
        s = {"time_ns": (i + 1) * 100000000, "interval_s": 0.1}
        for d, k in (("read", 1.0), ("write", 0.5)):
            ios = int(iops * k / 10)
            s[d] = {"ios": ios, "bytes": ios * 4096, "iops": ios * 10.0,
                    "bw_bytes": ios * 40960.0, "clat_mean_ns": 90000.0,
                    "clat_percentile": {"50.000000": 88064, "99.000000": 151552,
                                        "99.900000": 401408}}
        out.append(s)
    # A last sample over a sliver of time: not drawn as a rate.
    out.append({"time_ns": n * 100000000 + 5000, "interval_s": 5e-06,
                "read": {"ios": 1, "bytes": 4096, "iops": 200000.0, "bw_bytes": 8.2e8},
                "write": {"ios": 0, "bytes": 0, "iops": 0.0, "bw_bytes": 0.0}})
    return out
def job(name, iops, bins):
    clat = {"N": iops, "percentile": {"50.000000": 88064, "99.000000": 151552}}
    if bins:
        clat["bins"] = {"80000": iops // 2, "100000": iops // 2}
    return {"jobname": name, "read": {"clat_ns": clat}, "write": {"clat_ns": dict(clat)},
            "time_series": {"interval_ns": 100000000, "lost": 0, "samples": samples(iops)}}
json.dump({"jobs": [job("alpha", 1000, True), job("beta", 2000, False)]}, open(sys.argv[1], "w"))
json.dump({"jobs": []}, open(sys.argv[1] + ".empty", "w"))
# A job name that would end a gnuplot string and run a command.
evil = job("x\nsystem(\"touch PWNED\")\n#", 1000, False)
json.dump({"jobs": [evil]}, open(sys.argv[1] + ".evil", "w"))
# Other percentiles than 50/99/99.9 (--percentile_list=90:95).
odd = job("odd", 1000, False)
for s in odd["time_series"]["samples"]:
    for d in ("read", "write"):
        if "clat_percentile" in s[d]:
            s[d]["clat_percentile"] = {"90.000000": 96256, "95.000000": 120000}
json.dump({"jobs": [odd]}, open(sys.argv[1] + ".odd", "w"))
# gtod_reduce: IO over time, no latency at all.
nolat = job("nolat", 1000, False)
for d in ("read", "write"):
    nolat[d]["clat_ns"] = {"N": 0}
for s in nolat["time_series"]["samples"]:
    for d in ("read", "write"):
        s[d].pop("clat_percentile", None)
json.dump({"jobs": [nolat]}, open(sys.argv[1] + ".nolat", "w"))
json.dump({"jobs": [{"jobname": "idle", "read": {"clat_ns": {"N": 0}}}]},
          open(sys.argv[1] + ".idle", "w"))
PY

# check_svg FILE TITLE MIN_LINES LABEL...: parses, has TITLE, MIN_LINES plotted paths, each LABEL.
check_svg() {
	python3 - "$@" <<'PY'
import sys, xml.etree.ElementTree as ET
f, title, lines, labels = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
try:
    root = ET.parse(f).getroot()
except Exception as e:
    print("# %s: %s" % (f, e)); sys.exit(1)
text = [("".join(e.itertext())).strip() for e in root.iter() if e.tag.endswith("text")]
paths = [e for e in root.iter() if e.tag.endswith("path") and len(e.get("d", "")) > 40]
missing = [x for x in [title] + labels if x not in text]
if missing or len(paths) < lines:
    print("# %s: missing %s, %d long paths (want %d)" % (f, missing, len(paths), lines))
    sys.exit(1)
PY
}

run=("$bl")
command -v valgrind >/dev/null && run=(valgrind -q --leak-check=full --error-exitcode=99 "$bl")
"${run[@]}" plot -o "$dir/c" "$dir/r.json" >"$dir/out" 2>"$dir/err"
rc=$?
[[ $rc == 0 ]] || { echo "plot exited $rc: $(cat "$dir/err")"; fail=1; }
for n in iops bw lat cdf; do
	grep -qx "$dir/c-$n.svg" "$dir/out" || { echo "plot did not name c-$n.svg"; fail=1; }
done
check_svg "$dir/c-iops.svg" "IOPS over time" 4 "alpha 1 read" "alpha 1 write" "beta 2 read" \
	"beta 2 write" || fail=1
check_svg "$dir/c-bw.svg" "Bandwidth over time" 4 "alpha 1 read" || fail=1
check_svg "$dir/c-lat.svg" "clat percentiles over time" 12 "alpha 1 read p50" \
	"beta 2 write p99.9" || fail=1
check_svg "$dir/c-cdf.svg" "clat CDF" 4 "alpha 1 read" "beta 2 write" || fail=1
# The sliver at the end is not drawn: no IOPS axis up to 200000.
if grep -q '>200000<\|> 200000<\|>200000 <' "$dir/c-iops.svg"; then
	echo "the last sample's sliver was drawn as a rate"; fail=1
fi

# A newline in a job name is a space in the title, not a gnuplot command.
(cd "$dir" && "$bl" plot -o "$dir/e" "$dir/r.json.evil" >/dev/null 2>&1) ||
	{ echo "plot of a job with a newline in its name failed"; fail=1; }
[[ -e $dir/PWNED ]] && { echo "a job name ran a gnuplot command"; fail=1; }
check_svg "$dir/e-iops.svg" "IOPS over time" 2 'x system("touch PWNED") # 1 read' || fail=1
"$bl" plot -o "$dir/o" "$dir/r.json.odd" >/dev/null 2>&1 || { echo "plot with p90/p95 failed"; fail=1; }
check_svg "$dir/o-lat.svg" "clat percentiles over time" 4 "odd 1 read p90" "odd 1 write p95" ||
	fail=1
"$bl" plot -o "$dir/n" "$dir/r.json.nolat" >"$dir/n.out" 2>/dev/null ||
	{ echo "plot of a gtod_reduce run failed"; fail=1; }
check_svg "$dir/n-iops.svg" "IOPS over time" 2 "nolat 1 read" || fail=1
[[ $(cat "$dir/n.out") == "$dir/n-iops.svg"$'\n'"$dir/n-bw.svg" && ! -e $dir/n-lat.svg &&
	! -e $dir/n-cdf.svg ]] || { echo "gtod_reduce: $(cat "$dir/n.out")"; fail=1; }
"$bl" plot -o $'bad\nname' "$dir/r.json" >/dev/null 2>&1 && { echo "a newline in -o was taken"; fail=1; }
# The temporary data go under $TMPDIR and leave nothing behind.
mkdir "$dir/tmp"
TMPDIR=$dir/tmp "$bl" plot -o "$dir/t" "$dir/r.json" >/dev/null 2>&1 || fail=1
[[ -z $(ls -A "$dir/tmp") ]] || { echo "plot left $(ls -A "$dir/tmp") in TMPDIR"; fail=1; }

for bad in empty idle; do
	if "$bl" plot -o "$dir/$bad" "$dir/r.json.$bad" >/dev/null 2>&1 || ls "$dir/$bad"-* >/dev/null 2>&1; then
		echo "plot of a report with no $bad jobs did not fail, or wrote charts"; fail=1
	fi
done
: >"$dir/empty.svg"
head -c 2000 "$dir/c-iops.svg" >"$dir/cut.svg"
for f in empty cut; do
	check_svg "$dir/$f.svg" "IOPS over time" 1 >/dev/null && { echo "check_svg passed $f.svg"; fail=1; }
done
exit $fail
