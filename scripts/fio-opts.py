#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fio-opts.py: writes userspace/fioopts.inc, fio's option table as blkload
knows it, from fio's own documentation.

    scripts/fio-opts.py [HOWTO.rst[.gz] ...] > userspace/fioopts.inc

The names, their aliases and whether they take a value come from fio's HOWTO
(Debian's fio package installs it as /usr/share/doc/fio/HOWTO.rst.gz) and,
where fio is installed, from "fio --cmdhelp=NAME" (the aliases the HOWTO does
not list). What blkload does with each is decided here: by the HOWTO section
an option sits in, then by the lists below. An option blkload implements is
not looked up in this table (the CLI's own table wins); the table says what
to do with every other fio option: accept it where blkload behaves that way
for the value given, ignore a file-layout option with a warning, or refuse it
with a reason in the user's terms. userspace/tests/test_fioopts.c checks
that every option of the installed fio's HOWTO is in the table.
"""
import gzip
import re
import shutil
import subprocess
import sys

# Kinds; the C side (userspace/fioopts.h) has the same numbers.
SAME, FILE, ENGINE, LATER, CLI, PROFILE = range(6)

# A HOWTO section's options: their kind and the area named in a refusal.
SECTIONS = {
    "Command line options": (CLI, "command-line"),
    "Units": (LATER, "units"),
    "Job description": (LATER, "job"),
    "Time related parameters": (LATER, "timing"),
    "Target file/device": (FILE, "file"),
    "I/O type": (LATER, "I/O type"),
    "Block size": (LATER, "block size"),
    "Buffers and memory": (LATER, "buffer"),
    "I/O size": (LATER, "I/O size"),
    "I/O engine": (LATER, "I/O engine"),
    "I/O engine specific parameters": (ENGINE, "engine"),
    "I/O depth": (LATER, "I/O depth"),
    "I/O rate": (LATER, "I/O rate"),
    "I/O latency": (LATER, "latency target"),
    "I/O replay": (LATER, "I/O replay (iolog)"),
    "Threads, processes and job synchronization": (LATER, "process and job control"),
    "Verification": (LATER, "verification"),
    "Steady state": (LATER, "steady state"),
    "Measurements and reporting": (LATER, "reporting"),
    "Error handling": (LATER, "error handling"),
    "Running predefined workloads": (PROFILE, "profile"),
    "Act profile options": (PROFILE, "act profile"),
    "Tiobench profile options": (PROFILE, "tiobench profile"),
}

# Accepted because blkload behaves that way for these values ("*": any value;
# "" the bare form). Each with what blkload does, for --verbose and the docs.
SAME_VALUES = {
    "disk_util": ("*", "the report shows the devices' utilization (/sys/block) anyway"),
    "end_fsync": ("0 false", "blkload's direct IO leaves nothing to flush; direct=0 writes are flushed once at the end, untimed"),
    "fsync_on_close": ("0 false", "blkload's direct IO leaves nothing to flush; direct=0 writes are flushed once at the end, untimed"),
    "fsync": ("0", "blkload issues no fsync"),
    "fdatasync": ("0", "blkload issues no fdatasync"),
    "description": ("*", "a text for the reader"),
    "exitall_on_error": ("0 false", "an error ends only the job that had it"),
    "create_only": ("0 false", "blkload does the job's IO"),
    "fixedbufs": ("*", "blkload's io_uring engine registers its buffers anyway"),
    "registerfiles": ("*", "blkload's io_uring engine registers its files anyway"),
    "sqthread_poll": ("0 false", "blkload's io_uring engine submits from its own thread"),
    "sync": ("0 none false", "blkload's writes are not O_SYNC"),
    "fill_device": ("0 false", "blkload does the job's IO, not a fill"),
    "readonly": ("*", "blkload writes only with --allow-write"),
    "clocksource": ("*", "blkload's clock is the kernel's monotonic clock"),
    "thread": ("*", "blkload runs kernel threads or threads of one process"),
    "stats": ("1 true ", "blkload keeps every statistic"),
    "unified_rw_reporting": ("none 0", "blkload reports reads and writes apart"),
    "fadvise_hint": ("*", "no page cache: the hint has nothing to act on"),
    "iomem": ("malloc", "blkload's buffers are its own memory"),
    "mem": ("malloc", "blkload's buffers are its own memory"),
    "io_submit_mode": ("inline", "blkload submits from the thread that reaps"),
    "significant_figures": ("*", "blkload's text report has its own precision"),
    "per_job_logs": ("1 true ", "blkload's logs are per job"),
    "allow_mounted_write": ("0 false", "blkload refuses a mounted device unless --force"),
    "create_serialize": ("*", "no files are created"),
    "pre_read": ("0 false", "no page cache to read into"),
    "overwrite": ("*", "a block device is overwritten in place"),
    "invalidate": ("*", "no page cache to invalidate"),
    "error_dump": ("*", "blkload counts and reports errors, it does not print each"),
    "gtod_cpu": ("*", "blkload's clock needs no timekeeping thread"),
    "eta": ("*", "blkload's progress line is on a terminal only"),
    "eta-newline": ("*", "blkload's progress line is on a terminal only"),
    "eta-interval": ("*", "blkload's progress line is on a terminal only"),
    "unit_base": ("0 8", "bandwidth is in bytes"),
    "hugepage-size": ("*", "blkload's buffers are its own memory"),
    "lockmem": ("0", "blkload pins its own buffers"),
}

# Target file/device options that are not about files.
NOT_FILE = {
    "ioscheduler": (LATER, "device setup"),
    "zonemode": (LATER, "zoned device"), "zonerange": (LATER, "zoned device"),
    "zonesize": (LATER, "zoned device"), "zonecapacity": (LATER, "zoned device"),
    "zoneskip": (LATER, "zoned device"), "read_beyond_wp": (LATER, "zoned device"),
    "max_open_zones": (LATER, "zoned device"), "job_max_open_zones": (LATER, "zoned device"),
    "ignore_zone_limits": (LATER, "zoned device"),
    "zone_reset_threshold": (LATER, "zoned device"),
    "zone_reset_frequency": (LATER, "zoned device"),
    "allow_mounted_write": (SAME, "file"),
    "create_only": (SAME, "file"),
}
# File-layout options from other sections.
MORE_FILE = {"file_append", "fallocate", "nrfiles", "openfiles",
             "file_service_type", "create_fsync", "create_on_open",
             "allow_file_create", "unlink", "unlink_each_loop", "opendir", "directory",
             "filename_format", "unique_filename", "lockfile"}

# How a source reads in the generated file's header.
HOWTO_NAMES = {"/usr/share/doc/fio/HOWTO.rst.gz": "Debian fio's HOWTO"}

def source_name(path):
    """A HOWTO saved as fio-HOWTO-<commit>.rst is fio's at that commit."""
    m = re.search(r"fio-HOWTO-([0-9a-f]+)\.rst$", path)
    return "fio's HOWTO at %s" % m.group(1) if m else HOWTO_NAMES.get(path, path)


OPT_RE = re.compile(r"^\.\. option:: (.*)$")


def read_howto(path):
    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8").read().splitlines()
    return open(path, encoding="utf-8").read().splitlines()


def parse(lines):
    """(names, takes_value, engines, section) for each option line of the HOWTO."""
    out, section = [], None
    for i, line in enumerate(lines):
        if i + 1 < len(lines) and re.fullmatch(r"[~=\-^]{3,}", lines[i + 1]) and \
                len(lines[i + 1]) >= len(line.strip()) > 0:
            section = line.strip()
        m = OPT_RE.match(line)
        if not m:
            continue
        spec, engines = m.group(1), ""
        em = re.search(r"\s:\s*((?:\[[^\]]*\]\s*)*)$", spec)
        if em:
            engines = em.group(1)
            spec = spec[:em.start()]
        # Or in the body, one bracketed line per engine group: "   [rbd,rados]".
        if not engines and section == "I/O engine specific parameters":
            for nxt in lines[i + 1:]:
                if OPT_RE.match(nxt):
                    break
                if re.fullmatch(r"\s*(\[[^\]]*\],?\s*)+", nxt):
                    engines += " " + nxt
        engines = " ".join(re.findall(r"\[([^\]]*)\]", engines)).replace(",", " ")
        names, value = [], False
        for part in re.split(r",\s+(?=-{0,2}[A-Za-z])", spec):
            part = part.strip()
            name = re.split(r"[=\[ ]", part, maxsplit=1)[0]
            if "=" in part and not part.endswith("=bool") and "=bool" not in part:
                value = True
            names.append(name)
        out.append((names, value, engines.strip(), section))
    return out


def cmdhelp_aliases(name):
    if not shutil.which("fio"):
        return []
    r = subprocess.run(["fio", "--cmdhelp=" + name], capture_output=True, text=True)
    if "showing closest match" in r.stdout:
        return []
    m = re.search(r"^\s*alias: (.*)$", r.stdout, re.M)
    return m.group(1).split() if m else []


def engine_options():
    """(name, engine) of every option "fio --enghelp=ENGINE" lists, where fio is installed."""
    if not shutil.which("fio"):
        return []
    r = subprocess.run(["fio", "--enghelp"], capture_output=True, text=True)
    out = []
    for eng in r.stdout.split()[3:]:
        h = subprocess.run(["fio", "--enghelp=" + eng], capture_output=True, text=True)
        for line in h.stdout.splitlines():
            m = re.match(r"^(\S+)\s+: ", line)
            if m:
                out.append((m.group(1), eng))
    return out


def main():
    paths = sys.argv[1:] or ["/usr/share/doc/fio/HOWTO.rst.gz"]
    entries = {}
    options = []
    for path in paths:
        options += parse(read_howto(path))
    for names, value, engines, section in options:
        cli = names[0].startswith("--")
        names = [n.lstrip("-") for n in names]
        first = names[0]
        kind, area = SECTIONS.get(section, (LATER, "other"))
        if cli:
            kind, area = CLI, "command-line"
        elif engines:
            kind, area = ENGINE, engines
        elif first in NOT_FILE:
            kind, area = NOT_FILE[first]
        elif "zone" in first or "zbd" in first:
            kind, area = LATER, "zoned device"
        elif first in MORE_FILE:
            kind, area = FILE, "file"
        ok, why = "", ""
        if SAME_VALUES.get(first):
            ok, why = SAME_VALUES[first]
            kind = SAME
        if first in entries:
            # Engine options documented once per engine group: the engines add up.
            old = entries[first]
            if old["kind"] == ENGINE and kind == ENGINE:
                old["area"] = " ".join(dict.fromkeys((old["area"] + " " + area).split()))
                for a in names[1:]:
                    if a not in old["aliases"]:
                        old["aliases"].append(a)
            continue
        aliases = names[1:]
        if not cli and shutil.which("fio"):
            for a in cmdhelp_aliases(first):
                if a not in aliases and a != first:
                    aliases.append(a)
        entries[first] = {"kind": kind, "value": value, "area": area, "aliases": aliases,
                          "ok": ok, "why": why}
    # Engine options the HOWTO does not document, from the engines' own help.
    for name, eng in engine_options():
        e = entries.get(name)
        if e is None:
            entries[name] = {"kind": ENGINE, "value": True, "area": eng, "aliases": [],
                             "ok": "", "why": ""}
        elif e["kind"] == ENGINE and eng not in e["area"].split():
            e["area"] += " " + eng
    # Aliases fio's parser takes that neither source lists.
    extra = {"iodepth_batch_complete_min": ["iodepth_batch_complete"],
             "steadystate": ["ss"], "steadystate_duration": ["ss_dur"],
             "steadystate_ramp_time": ["ss_ramp"], "runtime": ["timeout"],
             "stonewall": ["wait_for_previous"], "disable_bw_measurement": ["disable_bw"],
             "rate_min": ["ratemin"], "rate_cycle": ["ratecycle"], "nrfiles": ["nr_files"],
             "offset": ["fileoffset"], "io_size": ["io_limit"], "fill_device": ["fill_fs"]}
    for k, v in extra.items():
        if k in entries:
            for a in v:
                if a not in entries[k]["aliases"]:
                    entries[k]["aliases"].append(a)
    print("/* SPDX-License-Identifier: GPL-2.0 */")
    print("/*")
    ver = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip() \
        if shutil.which("fio") else "no fio installed"
    print(" * fio's options, from fio's HOWTO, as blkload takes each it does not")
    print(" * implement itself. Generated by scripts/fio-opts.py: edit that, not this.")
    print(" * Sources: %s; --cmdhelp and --enghelp of %s." % (
        ", ".join(source_name(p) for p in paths), ver))
    print(" * FIO_OPT(name, aliases, kind, takes a value, area or engines, accepted")
    print(" * values, what blkload does)")
    print(" */")
    kinds = ["FIO_SAME", "FIO_FILE", "FIO_ENGINE", "FIO_LATER", "FIO_CLI", "FIO_PROFILE"]
    for name in sorted(entries):
        e = entries[name]
        print('FIO_OPT("%s", "%s", %s, %d, "%s", "%s", "%s")' % (
            name, " ".join(e["aliases"]), kinds[e["kind"]], int(e["value"]), e["area"],
            e["ok"], e["why"]))


if __name__ == "__main__":
    main()
