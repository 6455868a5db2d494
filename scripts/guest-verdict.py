#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge one guest run of the kselftest collection; the test lane's verdict.

  guest-verdict.py --output FILE --rc FILE --list FILE [--select "OPTS"] [--name P]

--output is what the guest printed (run_kselftest.sh's KTAP), --rc the file
holding the guest command's exit status, --list the installed
kselftest-list.txt ("collection:test" lines), --select the run_kselftest.sh
options the run was given (-c COLLECTION, -t COLLECTION:TEST; none: all).

Prints one line per result, "ok DESC", "not ok DESC" or "ok DESC # SKIP why",
for scripts/check.sh to count, and exits 1 when any is "not ok". It can
never pass empty: it fails when the exit status is missing or not 0, when
a selected test did not report, when a test reported fewer subtests than it
planned, and when no test reported at all.
"""

import argparse
import re
import shlex
import sys

TOP = re.compile(r'^(not )?ok \d+ selftests: ([^:]+): (\S+)(.*)$')
SUB = re.compile(r'^# (not )?ok \d+ (.*)$')
PLAN = re.compile(r'^# 1\.\.(\d+)$')
HEAD = re.compile(r'^# selftests: ([^:]+): (\S+)$')


def selected(list_path, select):
    with open(list_path, encoding='utf-8') as f:
        available = [l.strip() for l in f if ':' in l]
    return selected_from(available, select)


def selected_from(available, select):
    """The tests of available ("coll:test") that run_kselftest.sh options pick."""
    args = shlex.split(select or '')
    tests, colls = [], []
    i = 0
    while i < len(args):
        if args[i] in ('-t', '--test') and i + 1 < len(args):
            tests.append(args[i + 1])
            i += 2
        elif args[i] in ('-c', '--collection') and i + 1 < len(args):
            colls.append(args[i + 1])
            i += 2
        else:
            i += 1
    if not tests and not colls:
        return available
    out = [t for t in available if t.split(':')[0] in colls]
    return out + [t for t in tests if t not in out]


def judge(output, rc, expected):
    """Returns a list of (ok, desc, skip) for the run."""
    res = []
    if rc is None:
        res.append((False, 'guest: the command finished (no exit status)', None))
    elif rc != 0:
        res.append((False, f'guest: the command exited {rc}', None))
    seen = {}
    cur, plan, subs, sub_fail = None, None, 0, False
    for line in output.splitlines():
        line = line.rstrip('\r')
        m = HEAD.search(line)
        if m and line.startswith('# selftests:'):
            cur, plan, subs, sub_fail = f'{m.group(1)}:{m.group(2)}', None, 0, False
            continue
        m = PLAN.match(line)
        if m and cur and plan is None:
            plan = int(m.group(1))
            continue
        m = SUB.match(line)
        if m and cur:
            desc = m.group(2)
            subs += 1
            name = cur.split(':')[1]
            if '# SKIP' in desc:
                res.append((True, f'{name}: {desc.split(" # SKIP")[0]}',
                            desc.split('# SKIP', 1)[1].strip() or 'skipped'))
            elif m.group(1):
                res.append((False, f'{name}: {desc}', None))
                sub_fail = True
            else:
                res.append((True, f'{name}: {desc}', None))
            continue
        m = TOP.match(line)
        if m:
            key = f'{m.group(2)}:{m.group(3)}'
            name, rest = m.group(3), m.group(4)
            seen[key] = True
            if '# SKIP' in rest:
                if not subs:
                    res.append((True, name, rest.split('# SKIP', 1)[1].strip() or 'skipped'))
            elif m.group(1):
                if not sub_fail:
                    res.append((False, f'{name}: failed{rest}', None))
            elif subs == 0:
                res.append((False, f'{name}: passed without reporting a subtest', None))
            elif plan is not None and subs < plan:
                res.append((False, f'{name}: planned {plan} subtests, reported {subs}', None))
            cur, plan, subs, sub_fail = None, None, 0, False
    for t in expected:
        if t not in seen:
            res.append((False, f'{t.split(":")[1]}: did not report', None))
    if not seen:
        res.append((False, 'guest: no selftest reported', None))
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--output', required=True)
    ap.add_argument('--rc', required=True)
    ap.add_argument('--list', required=True)
    ap.add_argument('--select', default='')
    ap.add_argument('--name', default='guest')
    a = ap.parse_args()
    try:
        with open(a.output, encoding='utf-8', errors='replace') as f:
            output = f.read()
    except OSError:
        output = ''
    try:
        with open(a.rc, encoding='utf-8') as f:
            rc = int(f.read().strip())
    except (OSError, ValueError):
        rc = None
    expected = selected(a.list, a.select)
    bad = False
    for ok, desc, skip in judge(output, rc, expected):
        if skip is not None:
            print(f'ok {a.name}/{desc} # SKIP {skip}')
        else:
            print(f'{"ok" if ok else "not ok"} {a.name}/{desc}')
            bad |= not ok
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
