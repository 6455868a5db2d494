#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Plan a lane's guest runs from the selftests' measured budgets.

  guest-plan.py --list FILE --budget FILE [--column 6.1|debug]
                [--select "OPTS"] [--shard SECONDS] [--margin X] [--each TEST]

--list is the installed kselftest-list.txt ("collection:test", in run
order), --budget selftests/budget (what each test takes, measured), --select
the run_kselftest.sh options a user gave (CHECK_TESTS; none: every test).
Tests are packed in order into guest runs of at most --shard
seconds of budget each; each run's timeout is --margin (default 2) times its
budget plus the guest's start ("_start" in the budget file), so a run ends
in half its timeout when the budgets hold and in two thirds of it when it
is a third slower than measured. --each names a test that ends every run
instead (test_leak_99: kmemleak is cleared at each guest's start, so each
run's leaks must be scanned in that run).

Prints one line per guest run: "TIMEOUT BUDGET LANE -t coll:test ...". A
run holds the tests of one lane (the install lane's guest gets a lean module
tree: scripts/check.sh).
Exits 1, saying why on stderr, when a selected test has no budget line, the
budget file names a test that does not exist, or nothing is selected.

  guest-plan.py --budget FILE --column C --took OUTPUT...

prints the budget file again with column C set to what the lane's outputs
(build/check/vm*/output) say each test took ("# test_x.sh took N s").
"""

import argparse
import math
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location(
    'gv', os.path.join(os.path.dirname(os.path.abspath(__file__)), 'guest-verdict.py'))
gv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gv)

COLUMNS = ('6.1', 'debug')
# main: make check; install: make check, a guest with a lean module tree;
# pkg: make check-pkg alone.
LANES = ('main', 'install', 'pkg')


def read_budget(path):
    """{test: (seconds on 6.1, seconds on debug or None, lane)}"""
    out = {}
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            line = line.split('#', 1)[0].split()
            if not line:
                continue
            if len(line) != 4:
                raise ValueError(f'{path}:{n}: want "TEST SECONDS DEBUG-SECONDS LANE"')
            name, a, b, lane = line
            if lane not in LANES and not (name.startswith('_') and lane == '-'):
                raise ValueError(f'{path}:{n}: lane {lane!r} is not one of {", ".join(LANES)}')
            out[name] = (int(a), None if b == '-' else int(b), lane)
    return out


def plan(available, budget, column, select, shard, margin, each=(), lanes=('main', 'install'),
         test_timeout=None):
    errors = []
    names = {t.split(':', 1)[1] for t in available}
    for name in budget:
        if not name.startswith('_') and name not in names:
            errors.append(f'selftests/budget names {name}, which is not a selftest')
    if '_start' not in budget:
        errors.append('selftests/budget has no _start line (the guest start)')
    tests = gv.selected_from(available, select)
    for t in tests:
        if ':' not in t:
            errors.append(f'{t}: a selftest is named COLLECTION:TEST (blkload:{t})')
        elif t not in available:
            errors.append(f'{t}: no such selftest (selftests/Makefile TEST_PROGS)')
    if errors:
        return None, errors
    for lane in lanes:
        if lane not in LANES:
            errors.append(f'lane {lane!r} is not one of {", ".join(LANES)}')
    if not select:
        # Without a selection, the lanes asked for (make check: main and
        # install; make check-pkg: pkg).
        tests = [t for t in tests
                 if t.split(':', 1)[1] not in budget or budget[t.split(':', 1)[1]][2] in lanes
                 or t.split(':', 1)[1] in each]
    for t in list(dict.fromkeys(available + tests)):
        if t.split(':', 1)[1] not in budget:
            errors.append(f'selftests/budget has no line for {t.split(":", 1)[1]}')
    if not tests:
        errors.append('no selftest selected')
    if errors:
        return None, errors

    def cost(name):
        a, b, _ = budget[name.split(':', 1)[-1]]
        if column == 'debug':
            # "-": the test skips on this lane, which still takes a moment.
            return 5 if b is None else b
        return a

    start = cost('_start')
    # kselftest's runner stops a test at its timeout (selftests/settings):
    # a test's budget must stay under two thirds of it.
    if test_timeout:
        for t in tests:
            if 3 * cost(t) > 2 * test_timeout:
                errors.append(f'{t.split(":", 1)[1]}: budget {cost(t)} s is over two thirds of '
                              f'the runner\'s {test_timeout} s timeout (selftests/settings)')
        if errors:
            return None, errors
    def lane_of(t):
        return budget[t.split(':', 1)[1]][2]

    ends = [t for t in tests if t.split(':', 1)[1] in each]
    tests = [t for t in tests if t not in ends]
    if ends and not tests:
        if not select:
            # Only what ends every run: the lanes asked for hold no test.
            return None, [f'no selftest in lanes {",".join(lanes)}']
        tests, ends = ends, []
    end_cost = sum(cost(t) for t in ends)
    runs, cur, total = [], [], end_cost
    for t in tests:
        c = cost(t)
        if cur and (total + c > shard or lane_of(t) != lane_of(cur[0])):
            runs.append((cur + ends, total))
            cur, total = [], end_cost
        cur.append(t)
        total += c
    if cur:
        runs.append((cur + ends, total))
    lines = []
    for tests_, total in runs:
        timeout = int(math.ceil(margin * (start + total)))
        lines.append((timeout, start + total, lane_of(tests_[0]), tests_))
    return lines, []


TOOK = re.compile(r'# (test_\S+\.sh) took (\d+) s$')


def took(paths):
    out = {}
    for p in paths:
        with open(p, encoding='utf-8', errors='replace') as f:
            for line in f:
                m = TOOK.search(line.rstrip())
                if m:
                    out[m.group(1)] = int(m.group(2))
    return out


def rewrite(path, column, measured):
    lines = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            words = line.split('#', 1)[0].split()
            if len(words) == 4 and words[0] in measured:
                words[1 + COLUMNS.index(column)] = str(measured[words[0]])
                line = '%-20s %5s %5s  %s\n' % tuple(words)
            lines.append(line)
    return ''.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--list')
    ap.add_argument('--budget', required=True)
    ap.add_argument('--column', default='6.1', choices=sorted(COLUMNS))
    ap.add_argument('--select', default='')
    ap.add_argument('--shard', type=int, default=600)
    ap.add_argument('--margin', type=float, default=2.0)
    ap.add_argument('--each', action='append', default=[])
    ap.add_argument('--took', nargs='+')
    ap.add_argument('--lanes', default='main,install')
    a = ap.parse_args()
    if a.took:
        sys.stdout.write(rewrite(a.budget, a.column, took(a.took)))
        return 0
    if not a.list:
        ap.error('--list is required')
    try:
        with open(a.list, encoding='utf-8') as f:
            available = [l.strip() for l in f if ':' in l]
    except OSError as e:
        print(f'guest-plan: {e} (scripts/ksft-install.sh makes the list)', file=sys.stderr)
        return 1
    try:
        budget = read_budget(a.budget)
    except (OSError, ValueError) as e:
        print(f'guest-plan: {e}', file=sys.stderr)
        return 1
    test_timeout = None
    settings = os.path.join(os.path.dirname(os.path.abspath(a.budget)), 'settings')
    if os.path.exists(settings):
        with open(settings, encoding='utf-8') as f:
            for line in f:
                if line.startswith('timeout='):
                    test_timeout = int(line.split('=', 1)[1])
    lines, errors = plan(available, budget, a.column, a.select, a.shard, a.margin, a.each,
                         tuple(a.lanes.split(',')), test_timeout)
    for e in errors:
        print(f'guest-plan: {e}', file=sys.stderr)
    if errors:
        return 1
    for timeout, total, lane_, tests in lines:
        print(timeout, total, lane_, ' '.join(f'-t {t}' for t in tests))
    return 0


if __name__ == '__main__':
    sys.exit(main())
