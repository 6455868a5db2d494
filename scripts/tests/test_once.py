#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Policy is written once: the workload's checks and predicates live in
include/blkload/params.h, the queue's policy in include/blkload/queue.h, and
nothing in module/ or userspace/ writes them again.

Fails when, in module/ or userspace/ (C sources and headers):
  - a check's reason of params.h is written out (a check made twice);
  - a pattern is tested against BLKLOAD_RW_* (a predicate over rw made
    again; assignments and the name table are not tests);
  - a queue's pacing, hold or think state is touched (sched_next,
    sched_step, think_count, hold_until: queue.h's alone).
Run with a tree as its argument (default: this checkout); --self-test
proves that it fails on a tree with a duplicate and on an empty one.
"""

import os
import re
import shutil
import sys
import tempfile

RW_TEST = re.compile(r'(?:[=!]=\s*BLKLOAD_RW_\w+|BLKLOAD_RW_\w+\s*[=!]=|case\s+BLKLOAD_RW_\w+)')
QUEUE_STATE = re.compile(r'(?:->|\.)(?:sched_next|sched_step|think_count|hold_until)\b')


def sources(top):
    for d in ('module', 'userspace'):
        for root, _, files in os.walk(os.path.join(top, d)):
            for f in files:
                if f.endswith(('.c', '.h')) and not f.endswith('.mod.c'):
                    yield os.path.join(root, f)


def check(top):
    """Returns the list of findings (empty: policy is written once)."""
    params = os.path.join(top, 'include/blkload/params.h')
    queue = os.path.join(top, 'include/blkload/queue.h')
    if not os.path.exists(params) or not os.path.exists(queue):
        return ['no include/blkload/params.h or queue.h: nothing to hold the policy']
    with open(params, encoding='utf-8') as f:
        reasons = re.findall(r'bl_params_no\(why, -BL_E\w+,\s*"([^"]+)"', f.read())
    if len(reasons) < 20:
        return ['params.h has %d reasons: the checks are not there' % len(reasons)]
    found = []
    seen = 0
    for path in sources(top):
        seen += 1
        with open(path, encoding='utf-8', errors='replace') as f:
            text = f.read()
        rel = os.path.relpath(path, top)
        for r in reasons:
            if r in text:
                found.append('%s: writes params.h\'s check "%s" again' % (rel, r))
        for i, line in enumerate(text.splitlines(), 1):
            if RW_TEST.search(line):
                found.append('%s:%d: tests rw itself (params.h has the predicates): %s' %
                             (rel, i, line.strip()))
            if QUEUE_STATE.search(line):
                found.append('%s:%d: touches the queue machine\'s state: %s' %
                             (rel, i, line.strip()))
    if seen < 20:
        found.append('only %d sources under module/ and userspace/: the wrong tree?' % seen)
    return found


def self_test(top):
    """The checker fails on a duplicate, on each kind, and on an empty tree."""
    ok = True
    bad = {
        'a check': 'const char *m = "rwmixtrim is for read and write patterns";\n',
        'an rw test': 'static int x(unsigned rw) { return rw == BLKLOAD_RW_READ; }\n',
        'a switch': 'static int y(unsigned rw) { switch (rw) { case BLKLOAD_RW_TRIM: return 1; } return 0; }\n',
        'queue state': 'static void z(struct bl_q *q) { q->hold_until = 0; }\n',
    }
    for what, line in bad.items():
        with tempfile.TemporaryDirectory() as tmp:
            for d in ('include', 'module', 'userspace'):
                shutil.copytree(os.path.join(top, d), os.path.join(tmp, d),
                                ignore=shutil.ignore_patterns('*.o', '*.ko', 'blkload'))
            with open(os.path.join(tmp, 'userspace', 'dup.c'), 'w', encoding='utf-8') as f:
                f.write(line)
            if not check(tmp):
                print('# the checker passed a tree with %s written again' % what)
                ok = False
    with tempfile.TemporaryDirectory() as tmp:
        if not check(tmp):
            print('# the checker passed an empty tree')
            ok = False
    return ok


def main():
    top = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
    if len(sys.argv) > 1 and sys.argv[1] == '--self-test':
        sys.exit(0 if self_test(top) else 1)
    if len(sys.argv) > 1:
        top = sys.argv[1]
    found = check(top)
    for f in found:
        print(f)
    if not found:
        print('policy written once: params.h and queue.h alone hold it')
    sys.exit(1 if found else 0)


if __name__ == '__main__':
    main()
