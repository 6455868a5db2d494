#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The checks every "blkload compare" result must pass (test_compare_01,
test_demo_01).

  compare_check.py DIR NTARGETS PATHS BASELINE REPEAT

DIR the results folder, NTARGETS the targets, PATHS the expected paths
(comma-separated), BASELINE the baseline path, REPEAT the rounds. Prints
what is wrong as "# ..." and exits 1, else prints one summary line.
"""
import csv, json, os, sys, xml.etree.ElementTree as ET
d, ntargets, paths, base, rep = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(','), sys.argv[4], int(sys.argv[5])
# Per-target means add up to the path's within 1%; 3% on the debug lane,
# where Ceph writes run at ~60 IOPS and one IO is over 1% of a target's run.
tol = 0.01 if os.environ.get('BL_SCALE', '1') == '1' else 0.03
r = json.load(open(os.path.join(d, 'results.json')))
def fail(msg):
    print('# ' + msg)
    sys.exit(1)
if r['kind'] != 'blkload-compare' or r['paths'] != paths or r['baseline'] != base or r['incomplete']:
    fail('header: %r %r %r' % (r['paths'], r['baseline'], r['incomplete']))
ncells = len(r['cells'])
for c in r['cells']:
    for p in paths:
        e = c['paths'][p]
        lat = e['lat_percentile_ns']
        if e['n'] != rep or len(e['iops']) != rep or min(e['iops']) <= 0:
            fail('%s %s: runs %r' % (c['rw'], p, e['iops']))
        if not (e['iops_ci95_low'] < e['iops_mean'] < e['iops_ci95_high']):
            fail('%s %s: interval' % (c['rw'], p))
        if not (0 < lat['50.000000'] <= lat['99.000000'] <= lat['99.900000']):
            fail('%s %s: percentiles %r' % (c['rw'], p, lat))
        if e['lat_N'] != e['ios'] or e['ios'] <= 0:
            fail('%s %s: histogram holds %d IOs of %d' % (c['rw'], p, e['lat_N'], e['ios']))
        if not e['cpu_us_per_io_mean'] > 0 or not sum(e['machine_cpu_s'].values()) > 0:
            fail('%s %s: cpu %r' % (c['rw'], p, e['machine_cpu_s']))
        t = e['per_target']
        if len(t) != ntargets or min(x['iops_mean'] for x in t) <= 0 or \
           abs(sum(x['iops_mean'] for x in t) - e['iops_mean']) > tol * e['iops_mean']:
            fail('%s %s: per target %r' % (c['rw'], p, t))
        if p != base and not (e['ratio'] > 0 and 0 <= e['welch_p'] <= 1 and 'significant' in e):
            fail('%s %s: no ratio/test' % (c['rw'], p))
order = r['order']
if len(order) != ncells * len(paths) * rep:
    fail('order has %d runs' % len(order))
for k in range(rep):
    rnd = [(o['rw'], o['bs'], o['iodepth'], o['path']) for o in order if o['round'] == k + 1]
    if len(set(rnd)) != ncells * len(paths) or len(rnd) != len(set(rnd)):
        fail('round %d is not every run once' % (k + 1))
for a, b in zip(order, order[1:]):
    if ncells > 1 and (a['rw'], a['bs'], a['iodepth']) == (b['rw'], b['bs'], b['iodepth']):
        fail('the same cell twice in a row at %d' % b['seq'])
# The order's IOPS are the runs' own reports, kept under runs/.
runs = sorted(f for f in os.listdir(os.path.join(d, 'runs')) if f.endswith('.json'))
if len(runs) != len(order):
    fail('%d run reports' % len(runs))
for o, f in zip(order, runs):
    j = json.load(open(os.path.join(d, 'runs', f)))
    got = j['all_jobs']['read']['iops'] + j['all_jobs']['write']['iops']
    if abs(got - o['iops']) > 1e-3 * max(got, 1) or o['path'] not in f:
        fail('run %s: %r against %r' % (f, got, o['iops']))
if set(r['average_of_averages_ratio']) != set(paths) - {base} or \
   any(a['cells'] != ncells for a in r['average_of_averages_ratio'].values()):
    fail('average of averages: %r' % r['average_of_averages_ratio'])
rows = list(csv.DictReader(open(os.path.join(d, 'results.csv'))))
if len(rows) != ncells * len(paths) or any(float(x['iops_mean']) <= 0 for x in rows):
    fail('csv: %d rows' % len(rows))
md = open(os.path.join(d, 'results.md')).read()
if md.count('\n| ') != ncells * len(paths) + 1 or 'Average of averages' not in md:
    fail('markdown table')
svgs = [f for f in os.listdir(d) if f.endswith('.svg')]
groups = {(c['rw'], c['bs']) for c in r['cells']}
if len(svgs) != 3 * len(groups):
    fail('%d charts for %d groups' % (len(svgs), len(groups)))
for f in svgs:
    root = ET.parse(os.path.join(d, f)).getroot()
    if not root.tag.endswith('svg') or len(list(root.iter())) < 20:
        fail('chart %s' % f)
print('# %d cells x %d paths x %d rounds: %s' % (ncells, len(paths), rep,
      ', '.join('%s %.0f' % (p, r['cells'][0]['paths'][p]['iops_mean']) for p in paths)))
