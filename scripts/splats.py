#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""splats.py CONSOLE_LOG KNOWN_FILE: the kernel reports of a guest run.

Prints, one per line, every console line that shows a problem (BUG,
WARNING, Oops, KASAN, UBSAN, lockdep, RCU, hung task, soft lockup, panic),
except those of a report that matches an entry of KNOWN_FILE (all of its
fragments, and no blkload frame, lock site or thread in it). Each ignored report is named on stderr.
Exit status 0; no output means a clean log.
"""

import re
import sys

PROBLEM = re.compile(r'BUG:|WARNING:|Oops|general protection|UBSAN:|possible circular locking|'
                     r'possible recursive locking|inconsistent lock state|suspicious RCU usage|'
                     r'DEBUG_LOCKS_WARN_ON|blocked for more than|Kernel panic|detected stalls|'
                     r'soft lockup|kernel BUG')
END = re.compile(r'</TASK>|---\[ end trace|^\S*\s*$')
CMDLINE = re.compile(r'(Kernel )?[Cc]ommand line:')
# blkload in a report: a frame or lock site of the module, or a blkload
# thread as the reporting task or a lock holder. Not a message another CPU
# printed in between ("blkload/0: attempt to access beyond end of device").
BLKLOAD = re.compile(r'\[blkload\]|Comm: blkload|held by blkload|by task blkload')


def known_entries(path):
    out = []
    for line in open(path, encoding='utf-8'):
        line = line.strip()
        if not line or line.startswith('#'):
            continue
        parts = [p.strip() for p in line.split('|')]
        out.append((parts[0], parts[1:]))
    return out


def main():
    lines = open(sys.argv[1], encoding='utf-8', errors='replace').read().splitlines()
    known = known_entries(sys.argv[2])
    reported = set()
    for i, line in enumerate(lines):
        if not PROBLEM.search(line) or CMDLINE.search(line):
            continue
        # The report: from here to the end of its stack dump.
        j = i + 1
        while j < len(lines) and j < i + 400 and '</TASK>' not in lines[j] and \
                '---[ end trace' not in lines[j]:
            j += 1
        block = '\n'.join(lines[i:j + 1])
        name = None
        if not BLKLOAD.search(block):
            for n, frags in known:
                if all(f in block for f in frags):
                    name = n
                    break
        if name:
            if (name, j) not in reported:
                sys.stderr.write(f'splats: known report ignored: {name} (console line {i + 1})\n')
                reported.add((name, j))
            continue
        print(f'{i + 1}:{line}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
