#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""blkload merge on made-up reports whose right answer is known.

Rates are summed over the window all hosts were measuring: two hosts 3 ms
apart (100 and 200 IOPS), a host whose two jobs ran one after the other
(waves: 100 IOPS, not 200), a job held back by startdelay (its time starts
later), a host without time series (its whole-run rate), runs that never
overlapped (refused), the same report twice (refused). Histograms: summed
exactly, percentiles recomputed from the sum.
"""
import json
import os
import subprocess
import sys
import tempfile

bl = sys.argv[1] if len(sys.argv) > 1 else "userspace/blkload"
tmp = tempfile.mkdtemp()
fails = 0


def lat(n, mid):
    return {"min": mid, "max": mid, "mean": float(mid), "stddev": 0.0, "N": n,
            "percentile": {}, "bins": {str(mid): n} if n else {}}


def job(start_ms, secs, iops, startdelay_s=0, samples=True, mid=100):
    ios = int(iops * secs)
    op = {"total_ios": ios, "io_bytes": ios * 4096, "errors": 0, "iops": float(iops),
          "bw_bytes": iops * 4096, "lat_ns": lat(ios, mid), "clat_ns": lat(ios, mid)}
    none = {"total_ios": 0, "io_bytes": 0, "errors": 0, "iops": 0.0, "bw_bytes": 0,
            "lat_ns": lat(0, 0), "clat_ns": lat(0, 0)}
    j = {"job_start": start_ms, "ramp_time_ns": 0, "startdelay_ns": int(startdelay_s * 1e9),
         "elapsed_ns": int(secs * 1e9), "read": op, "write": none, "trim": none}
    if samples:
        j["time_series"] = {"samples": [
            {"time_ns": int((k + 1) * 1e9), "interval_s": 1.0,
             "read": {"ios": iops, "bytes": iops * 4096},
             "write": {"ios": 0, "bytes": 0}, "trim": {"ios": 0, "bytes": 0}}
            for k in range(int(secs))]}
    return j


def report(name, host, jobs):
    alls = {k: dict(jobs[0][k]) for k in ("read", "write", "trim")}
    for k in alls:
        tot = sum(j[k]["total_ios"] for j in jobs)
        mid = next((int(b) for j in jobs for b in j[k]["lat_ns"]["bins"]), 0)
        alls[k] = dict(alls[k], total_ios=tot, io_bytes=tot * 4096,
                       iops=sum(j[k]["iops"] for j in jobs),
                       lat_ns=lat(tot, mid), clat_ns=lat(tot, mid))
    path = os.path.join(tmp, name)
    json.dump({"hostname": host, "jobs": jobs, "all_jobs": alls}, open(path, "w"))
    return path


def merge(*files, ok=True):
    p = subprocess.run([bl, "-j", "merge", *files], capture_output=True, text=True)
    if ok and p.returncode:
        raise AssertionError("merge failed: " + p.stderr)
    if not ok:
        return p
    return json.loads(p.stdout)


def check(name, cond, detail=""):
    global fails
    print("%s %s%s" % ("ok" if cond else "FAIL", name, (": %s" % (detail,)) if detail != "" else ""))
    fails += not cond


T = 1_000_000_000  # ms
a = report("a.json", "a", [job(T, 10, 100)])
b = report("b.json", "b", [job(T + 3, 10, 200)])
m = merge(a, b)
r = m["all_hosts"]["read"]
check("two hosts 3 ms apart: 300 IOPS over the window", abs(r["iops"] - 300) < 1.5, r["iops"])
check("IOs summed exactly", r["total_ios"] == 3000, r["total_ios"])
check("bins summed exactly", r["lat_ns"]["bins"] == {"100": 3000}, r["lat_ns"]["bins"])
check("percentile from the merged bins", r["clat_ns"]["percentile"]["99.000000"] == 100)
check("window 9.997 s", abs(m["merge"]["window_s"] - 9.997) < 1e-6, m["merge"]["window_s"])

waves = report("w.json", "w", [job(T, 5, 100), job(T + 5000, 5, 100)])
m = merge(a, waves)
hw = next(h for h in m["hosts"] if h["host"] == "w")["read"]["iops"]
check("a host's two waves: 100 IOPS over the window, not 200", abs(hw - 100) < 1, hw)

sd = report("sd.json", "sd", [job(T - 2000, 10, 100, startdelay_s=2)])
m = merge(a, sd)
check("startdelay: the job's time starts later (window 10 s)",
      abs(m["merge"]["window_s"] - 10) < 1e-6, m["merge"]["window_s"])

flat = report("flat.json", "flat", [job(T, 10, 50, samples=False)])
m = merge(a, flat)
h = next(h for h in m["hosts"] if h["host"] == "flat")
check("no time series: the whole-run rate, said so",
      abs(h["read"]["iops"] - 50) < 0.5 and h["rate_basis"] == "own run", h)

late = report("late.json", "late", [job(T + 20000, 5, 100)])
p = merge(a, late, ok=False)
check("runs that never overlapped: refused", p.returncode == 1 and "never measuring" in p.stderr,
      p.stderr.strip())
p = merge(a, a, ok=False)
check("the same report twice: refused", p.returncode == 1 and "same run" in p.stderr,
      p.stderr.strip())
empty = os.path.join(tmp, "empty.json")
open(empty, "w").write("")
p = merge(a, empty, ok=False)
check("an empty file: refused", p.returncode == 1, p.stderr.strip())
sys.exit(1 if fails else 0)
