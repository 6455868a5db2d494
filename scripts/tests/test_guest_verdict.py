#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The test lane's own tests: the guest verdict, and check.sh around it.

Each case feeds a made-up guest run (KTAP output, exit status) to
scripts/guest-verdict.py, or to scripts/check.sh with a stand-in for
scripts/vm, and asserts the verdict: a good run passes; a bad exit status,
a selected test that did not report, a selection that matches nothing, a
test that failed before its first subtest, fewer subtests than planned and
an empty run all fail.
"""

import os
import subprocess
import sys
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(TOP, 'scripts'))
import importlib.util  # noqa: E402

_spec = importlib.util.spec_from_file_location('gv', os.path.join(TOP, 'scripts',
                                                                  'guest-verdict.py'))
gv = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gv)
_spec = importlib.util.spec_from_file_location('gp', os.path.join(TOP, 'scripts',
                                                                  'guest-plan.py'))
gp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gp)

GOOD = """TAP version 13
1..2
# selftests: blkload: test_a.sh
# TAP version 13
# 1..2
# ok 1 first thing
# ok 2 second thing
# # Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0
ok 1 selftests: blkload: test_a.sh
# selftests: blkload: test_b.sh
# TAP version 13
# 1..1
# ok 1 only thing
ok 2 selftests: blkload: test_b.sh
"""

LIST = ['blkload:test_a.sh', 'blkload:test_b.sh']


def verdict(output, rc, expected=LIST):
    res = gv.judge(output, rc, expected)
    return all(ok for ok, _, _ in res), res


class Verdict(unittest.TestCase):
    def test_good_run_passes(self):
        ok, res = verdict(GOOD, 0)
        self.assertTrue(ok, res)
        self.assertEqual(3, len(res))

    def test_nonzero_exit_fails(self):
        self.assertFalse(verdict(GOOD, 125)[0])

    def test_missing_exit_status_fails(self):
        self.assertFalse(verdict(GOOD, None)[0])

    def test_empty_run_fails(self):
        ok, res = verdict('', 0)
        self.assertFalse(ok)
        self.assertTrue(any('no selftest reported' in d for _, d, _ in res), res)

    def test_empty_run_with_empty_selection_fails(self):
        self.assertFalse(verdict('', 0, [])[0])

    def test_missing_test_fails(self):
        out = GOOD.split('# selftests: blkload: test_b.sh')[0]
        ok, res = verdict(out, 0)
        self.assertFalse(ok)
        self.assertTrue(any('test_b.sh: did not report' in d for _, d, _ in res), res)

    def test_exit_before_first_subtest_fails(self):
        out = GOOD.replace('# TAP version 13\n# 1..1\n# ok 1 only thing\n'
                           'ok 2 selftests: blkload: test_b.sh',
                           'not ok 2 selftests: blkload: test_b.sh # exit=1')
        self.assertFalse(verdict(out, 0)[0])

    def test_ok_without_subtests_fails(self):
        out = GOOD.replace('# TAP version 13\n# 1..1\n# ok 1 only thing\n', '')
        self.assertFalse(verdict(out, 0)[0])

    def test_fewer_subtests_than_planned_fails(self):
        out = GOOD.replace('# ok 2 second thing\n', '')
        self.assertFalse(verdict(out, 0)[0])

    def test_failing_subtest_fails(self):
        out = GOOD.replace('# ok 2 second thing', '# not ok 2 second thing').replace(
            'ok 1 selftests: blkload: test_a.sh', 'not ok 1 selftests: blkload: test_a.sh')
        self.assertFalse(verdict(out, 0)[0])

    def test_timeout_fails(self):
        out = GOOD.replace('ok 2 selftests: blkload: test_b.sh',
                           'not ok 2 selftests: blkload: test_b.sh # TIMEOUT 600 seconds')
        out = out.replace('# ok 1 only thing\n', '')
        self.assertFalse(verdict(out, 0)[0])

    def test_skip_is_a_skip(self):
        out = GOOD.replace('# TAP version 13\n# 1..1\n# ok 1 only thing\n'
                           'ok 2 selftests: blkload: test_b.sh',
                           '# 1..0 # SKIP no Ceph\nok 2 selftests: blkload: test_b.sh # SKIP')
        ok, res = verdict(out, 0)
        self.assertTrue(ok, res)
        self.assertTrue(any(skip for _, _, skip in res))

    def test_selection(self):
        with tempfile.NamedTemporaryFile('w', delete=False) as f:
            f.write('\n'.join(LIST) + '\n')
        try:
            self.assertEqual(LIST, gv.selected(f.name, ''))
            self.assertEqual(LIST, gv.selected(f.name, '-c blkload'))
            self.assertEqual(['blkload:test_b.sh'], gv.selected(f.name, '-t blkload:test_b.sh'))
            # A selection that names no installed test expects it anyway: it fails.
            self.assertEqual(['blkload:nosuch'], gv.selected(f.name, '-t blkload:nosuch'))
            self.assertFalse(verdict(GOOD, 0, gv.selected(f.name, '-t blkload:nosuch'))[0])
        finally:
            os.unlink(f.name)


RBD_SPLAT = """[ 1.0] ======================================================
[ 1.0] WARNING: possible circular locking dependency detected
[ 1.0] unmapper/5946 is trying to acquire lock:
[ 1.0] ffff (&disk->open_mutex){+.+.}-{3:3}, at: del_gendisk+0x112/0x920
[ 1.0] ffff (&q->q_usage_counter(io)#21){++++}-{0:0}, at: do_rbd_remove+0x433/0x590 [rbd]
[ 1.0]  <TASK>
[ 1.0]  del_gendisk+0x112/0x920
[ 1.0]  </TASK>
"""

OURS = """[ 2.0] WARNING: CPU: 1 PID: 77 at module/job.c:300 bl_job_start+0x10/0x20 [blkload]
[ 2.0]  <TASK>
[ 2.0]  bl_job_start+0x10/0x20 [blkload]
[ 2.0]  </TASK>
"""


class Splats(unittest.TestCase):
    """scripts/splats.py: the kernel-log verdict and its list of known reports."""

    def splats(self, text):
        with tempfile.NamedTemporaryFile('w', delete=False) as f:
            f.write(text)
        try:
            p = subprocess.run([sys.executable, os.path.join(TOP, 'scripts', 'splats.py'),
                                f.name, os.path.join(TOP, 'scripts', 'known-splats')],
                               capture_output=True, text=True, check=True)
            return p.stdout, p.stderr
        finally:
            os.unlink(f.name)

    def test_clean_log(self):
        self.assertEqual(('', ''), self.splats('[ 0.1] Linux version 6.12\n[ 0.2] ok\n'))

    def test_our_warning_is_reported(self):
        out, _ = self.splats('[ 0.1] boot\n' + OURS)
        self.assertIn('WARNING: CPU: 1 PID: 77', out)

    def test_known_rbd_report_is_ignored_and_named(self):
        out, err = self.splats(RBD_SPLAT)
        self.assertEqual('', out)
        self.assertIn('rbd-force-unmap-lockdep', err)

    def test_known_report_with_a_blkload_frame_is_reported(self):
        out, _ = self.splats(RBD_SPLAT.replace('del_gendisk+0x112/0x920\n[ 1.0]  </TASK>',
                                               'bl_worker_fn+0x1/0x2 [blkload]\n[ 1.0]  </TASK>'))
        self.assertIn('possible circular locking', out)

    def test_known_report_with_a_blkload_thread_is_reported(self):
        out, _ = self.splats(RBD_SPLAT.replace('unmapper/5946 is trying',
                                               'blkload/0/77 is trying').replace(
            '[ 1.0]  <TASK>', '[ 1.0] 1 lock held by blkload/0/77:\n[ 1.0]  <TASK>'))
        self.assertIn('possible circular locking', out)

    def test_known_report_interleaved_with_our_messages_is_ignored(self):
        # Seen on 6.12: the worker's bio_check_eod messages about the device
        # being removed land in the middle of rbd's own report.
        out, err = self.splats(RBD_SPLAT.replace(
            '[ 1.0] unmapper/5946', '[ 1.0] blkload/0: attempt to access beyond end of device\n'
            '[ 1.0] rbd3: rw=34817, sector=106192, nr_sectors = 8 limit=0\n[ 1.0] unmapper/5946'))
        self.assertEqual('', out)
        self.assertIn('rbd-force-unmap-lockdep', err)

    def test_known_report_beside_ours_still_fails(self):
        out, _ = self.splats(RBD_SPLAT + OURS)
        self.assertIn('bl_job_start', out)


STUB = """#!/usr/bin/env python3
# A stand-in for scripts/vm: writes the canned output of the tests it is asked
# to run (every section when none is named) and the exit status.
import os, re, sys
args = sys.argv[1:]
out = args[args.index('-o') + 1]
cmd = args[args.index('--') + 1:]
names = [cmd[i + 1].split(':', 1)[1] for i, a in enumerate(cmd) if a == '-t']
os.makedirs(out, exist_ok=True)
text = open(os.environ['STUB_OUTPUT']).read()
if names and 'selftests:' in text:
    head, *parts = re.split(r'(?m)^(?=# selftests: )', text)
    text = head + ''.join(p for p in parts if p.split()[3] in names)
open(os.path.join(out, 'output'), 'w').write(text)
with open(os.environ['STUB_CALLS'], 'a') as f:
    f.write(' '.join(args[args.index('-t') + 1:args.index('-t') + 2] + names) + '\\n')
rc = os.environ.get('STUB_RC', '')
if rc:
    open(os.path.join(out, 'rc'), 'w').write(rc + '\\n')
open(os.path.join(out, 'splats'), 'w').close()
sys.exit(int(rc) if rc else 1)
"""

BUDGET = """_start 20 40 -
test_a.sh 100 - main
test_b.sh 200 300 main
"""


def budget_of(text):
    """A budget file's text as guest-plan.read_budget returns it."""
    b = {}
    for line in text.splitlines():
        name, x, y, lane = line.split()
        b[name] = (int(x), None if y == '-' else int(y), lane)
    return b


class Plan(unittest.TestCase):
    """scripts/guest-plan.py: guest runs and their timeouts from the budgets."""

    def plan(self, budget=BUDGET, lst=LIST, select='', shard=600, column='6.1'):
        b = budget_of(budget)
        return gp.plan(lst, b, column, select, shard, 2.0)

    def test_one_run_timeout_twice_the_budget(self):
        lines, errors = self.plan()
        self.assertEqual([], errors)
        self.assertEqual([(640, 320, 'main', LIST)], lines)

    def test_split_when_over_the_shard(self):
        lines, errors = self.plan(shard=250)
        self.assertEqual([], errors)
        self.assertEqual([(240, 120, 'main', LIST[:1]), (440, 220, 'main', LIST[1:])], lines)

    def test_debug_column_and_a_test_that_skips_there(self):
        lines, _ = self.plan(column='debug')
        self.assertEqual([(2 * (40 + 5 + 300), 345, 'main', LIST)], lines)

    def test_missing_budget_line_fails(self):
        lines, errors = self.plan(budget=BUDGET.replace('test_b.sh 200 300 main\n', ''))
        self.assertIsNone(lines)
        self.assertTrue(any('no line for test_b.sh' in e for e in errors), errors)

    def test_budget_for_no_test_fails(self):
        _, errors = self.plan(budget=BUDGET + 'test_gone.sh 5 5 main\n')
        self.assertTrue(any('test_gone.sh' in e for e in errors), errors)

    def test_one_run_per_lane(self):
        budget = BUDGET.replace('test_b.sh 200 300 main', 'test_b.sh 200 300 install')
        lines, _ = self.plan(budget=budget)
        self.assertEqual([('main', LIST[:1]), ('install', LIST[1:])], [(l[2], l[3]) for l in lines])
        lines, _ = self.plan(budget=budget, select='-t blkload:test_b.sh')
        self.assertEqual([('install', LIST[1:])], [(l[2], l[3]) for l in lines])

    def test_lanes_pick_the_tests_without_a_selection(self):
        lst = LIST + ['blkload:test_z.sh']
        budget = BUDGET.replace('test_b.sh 200 300 main', 'test_b.sh 200 300 pkg') + \
            'test_z.sh 10 10 main\n'
        b = budget_of(budget)
        # make check: main and install; the pkg test is not planned.
        lines, errors = gp.plan(lst, b, '6.1', '', 600, 2.0, ['test_z.sh'])
        self.assertEqual([], errors)
        self.assertEqual([[LIST[0], lst[2]]], [l[3] for l in lines])
        # make check-pkg: the pkg test, the test that ends every run after it.
        lines, errors = gp.plan(lst, b, '6.1', '', 600, 2.0, ['test_z.sh'], ('pkg',))
        self.assertEqual([], errors)
        self.assertEqual([('pkg', [LIST[1], lst[2]])], [(l[2], l[3]) for l in lines])
        # A lane that holds nothing, or is not a lane, fails (not a run of
        # the test that ends every run alone).
        for lanes in (('install',), ('pgk',), ('main, install',)):
            lines, errors = gp.plan(lst, b, '6.1', '', 600, 2.0, ['test_z.sh'], lanes)
            self.assertIsNone(lines, lanes)
            self.assertTrue(errors, lanes)
        # A selection names its tests whatever their lane.
        lines, _ = gp.plan(lst, b, '6.1', '-t blkload:test_b.sh', 600, 2.0, ['test_z.sh'])
        self.assertEqual([[LIST[1]]], [l[3] for l in lines])

    def test_each_ends_every_run(self):
        lst = LIST + ['blkload:test_z.sh']
        budget = BUDGET + 'test_z.sh 10 10 main\n'
        b = budget_of(budget)
        lines, errors = gp.plan(lst, b, '6.1', '', 250, 2.0, ['test_z.sh'])
        self.assertEqual([], errors)
        self.assertEqual([LIST[:1] + lst[2:], LIST[1:] + lst[2:]], [l[3] for l in lines])
        # Selected alone, it is a run of its own.
        lines, _ = gp.plan(lst, b, '6.1', '-t blkload:test_z.sh', 250, 2.0, ['test_z.sh'])
        self.assertEqual([lst[2:]], [l[3] for l in lines])

    def test_empty_selection_fails(self):
        _, errors = self.plan(lst=[], budget='_start 1 1 -')
        self.assertTrue(any('no selftest' in e for e in errors), errors)

    def test_the_real_budget_covers_every_selftest(self):
        # selftests/budget against selftests/Makefile's TEST_PROGS.
        progs = []
        with open(os.path.join(TOP, 'selftests', 'Makefile')) as f:
            for line in f:
                progs += [w for w in line.split() if w.startswith('test_') and w.endswith('.sh')]
        budget = gp.read_budget(os.path.join(TOP, 'selftests', 'budget'))
        with open(os.path.join(TOP, 'selftests', 'settings')) as f:
            timeout = int(f.read().split('timeout=', 1)[1].split()[0])
        for column in ('6.1', 'debug'):
            lines, errors = gp.plan(['blkload:' + p for p in progs], budget, column, '', 600, 2.0,
                                    test_timeout=timeout)
            self.assertEqual([], errors)
            self.assertTrue(lines)
        # Every selftest is in a lane that some lane's plan runs.
        planned = set()
        for lanes in (('main', 'install'), ('pkg',)):
            lines, errors = gp.plan(['blkload:' + p for p in progs], budget, '6.1', '', 600, 2.0,
                                    ['test_leak_99.sh'], lanes)
            self.assertEqual([], errors)
            planned |= {t for l in lines for t in l[3]}
        self.assertEqual({'blkload:' + p for p in progs}, planned)

    def test_a_test_near_the_runners_timeout_fails(self):
        b = {'_start': (20, 40, '-'), 'test_a.sh': (100, None, 'main'),
             'test_b.sh': (401, 300, 'main')}
        lines, errors = gp.plan(LIST, b, '6.1', '', 600, 2.0, test_timeout=600)
        self.assertIsNone(lines)
        self.assertTrue(any('test_b.sh' in e and 'two thirds' in e for e in errors), errors)
        lines, errors = gp.plan(LIST, b, '6.1', '', 600, 2.0, test_timeout=602)
        self.assertEqual([], errors)

    def test_a_selection_of_no_selftest_fails(self):
        for select, want in (('-t test_a.sh', 'COLLECTION:TEST'),
                             ('-t blkload:nosuch.sh', 'no such selftest')):
            lines, errors = self.plan(select=select)
            self.assertIsNone(lines, select)
            self.assertTrue(any(want in e for e in errors), errors)

    def test_a_budget_line_in_no_lane_fails(self):
        with tempfile.TemporaryDirectory() as d:
            p = os.path.join(d, 'budget')
            with open(p, 'w') as f:
                f.write('_start 20 40 -\ntest_a.sh 100 - instal\n')
            with self.assertRaises(ValueError):
                gp.read_budget(p)


class CheckDriver(unittest.TestCase):
    """check.sh end to end with the guest replaced: its closing line and status."""

    def run_check(self, output, rc, select='', shard=600):
        with tempfile.TemporaryDirectory() as d:
            stub = os.path.join(d, 'vm')
            with open(stub, 'w') as f:
                f.write(STUB)
            os.chmod(stub, 0o755)
            with open(os.path.join(d, 'out'), 'w') as f:
                f.write(output)
            with open(os.path.join(d, 'list'), 'w') as f:
                f.write('\n'.join(LIST) + '\n')
            with open(os.path.join(d, 'budget'), 'w') as f:
                f.write(BUDGET)
            env = dict(os.environ, CHECK_HOST='0', CHECK_GUEST='1', CHECK_VM=stub,
                       CHECK_LIST=os.path.join(d, 'list'), CHECK_LOGS=os.path.join(d, 'logs'),
                       CHECK_BUDGET_FILE=os.path.join(d, 'budget'), CHECK_SHARD=str(shard),
                       CHECK_TESTS=select, STUB_OUTPUT=os.path.join(d, 'out'),
                       STUB_CALLS=os.path.join(d, 'calls'),
                       STUB_RC='' if rc is None else str(rc))
            p = subprocess.run([os.path.join(TOP, 'scripts', 'check.sh')], env=env,
                               cwd=TOP, capture_output=True, text=True, check=False)
            last = p.stdout.strip().splitlines()[-1]
            calls = []
            if os.path.exists(os.path.join(d, 'calls')):
                with open(os.path.join(d, 'calls')) as f:
                    calls = f.read().splitlines()
            self.calls = calls
            return p.returncode, last

    def test_good(self):
        rc, last = self.run_check(GOOD, 0)
        self.assertEqual(0, rc, last)
        self.assertRegex(last, r'^4 passed, 0 failed')
        self.assertEqual(['640 test_a.sh test_b.sh'], self.calls)

    def test_cd_failed_in_guest(self):
        rc, last = self.run_check('bash: line 2: cd: /tmp/clone: No such file or directory\n', 125)
        self.assertNotEqual(0, rc)
        self.assertRegex(last, r'^\d+ passed, [1-9]\d* failed')

    def test_exit_1_at_top_of_a_selftest(self):
        out = GOOD.replace('# TAP version 13\n# 1..1\n# ok 1 only thing\n'
                           'ok 2 selftests: blkload: test_b.sh',
                           'not ok 2 selftests: blkload: test_b.sh # exit=1')
        rc, last = self.run_check(out, 0)
        self.assertNotEqual(0, rc, last)

    def test_selection_matching_nothing(self):
        rc, last = self.run_check('No such test \'blkload:nosuch\'\n', 0, '-t blkload:nosuch')
        self.assertNotEqual(0, rc, last)

    def test_two_guest_runs_with_their_own_timeouts(self):
        rc, last = self.run_check(GOOD, 0, shard=250)
        self.assertEqual(0, rc, last)
        # Each run: its tests and their kernel-log verdict.
        self.assertRegex(last, r'^5 passed, 0 failed')
        self.assertEqual(['240 test_a.sh', '440 test_b.sh'], self.calls)

    def test_a_test_without_a_budget_fails(self):
        rc, last = self.run_check(GOOD, 0, select='-t blkload:test_c.sh')
        self.assertNotEqual(0, rc, last)

    def test_guest_crash(self):
        rc, last = self.run_check(GOOD, None)
        self.assertNotEqual(0, rc, last)


if __name__ == '__main__':
    unittest.main(verbosity=1)
