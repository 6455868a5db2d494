#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""blnl.py: a raw generic netlink client of the blkload family, for tests.

It does what the CLI never does on purpose: one command at a time (a job
made and never started, a start of a stopped job), thousands of cycles in
one process, allocation failures injected into job creation (fail-nth),
sockets bound to chosen port ids, the events group joined by anyone.
Attribute numbers come from include/uapi/linux/blkload.h, read at run time.

  blnl.py new PATH [--rw N] [--iodepth N] [--runtime-ns N] [--number-ios N]
              [--detached] [--allow-write] [--cpus 0,1]        prints the job id
  blnl.py start|stop|del|detach [--time] ID...  --time: prints the
                                               request's round trip in ms
  blnl.py get ID                                               JSON of the job
  blnl.py rows ID [--first N] [--unpaged] [--hist] [--row-bytes]
                                  one job-get with want-queues (and want-hist) and
                                  queue-first N (none: --unpaged): "rows R queues-next N";
                                  --row-bytes: the bytes the stats nest holds after
                                  its first row, as a number
  blnl.py cycles N PATH                                        new+start+stop+del N times
  blnl.py failnth PATH [--max N]                               fail the Nth allocation
  blnl.py squat PORTID...                                      bind each port id, close
  blnl.py listen SECONDS                                       events seen, as a number
Exit status 0 on success; on a kernel error it prints "errno N: extack" and
exits 1.
"""

import json
import os
import re
import select
import socket
import struct
import sys
import threading
import time

NETLINK_GENERIC = 16
SOL_NETLINK = 270
NETLINK_ADD_MEMBERSHIP = 1
NETLINK_CAP_ACK = 10
NETLINK_EXT_ACK = 11
NLM_F_REQUEST, NLM_F_ACK, NLM_F_ACK_TLVS = 1, 4, 0x200
NLMSG_ERROR, NLMSG_DONE = 2, 3
GENL_ID_CTRL, CTRL_CMD_GETFAMILY = 0x10, 3
CTRL_ATTR_FAMILY_ID, CTRL_ATTR_FAMILY_NAME, CTRL_ATTR_MCAST_GROUPS = 1, 2, 7
NLMSGERR_ATTR_MSG = 1

HERE = os.path.dirname(os.path.abspath(__file__))


def uapi_path():
    for p in (os.environ.get('BLNL_UAPI', ''),
              os.environ.get('BLKLOAD_TOP', '') + '/include/uapi/linux/blkload.h',
              os.path.join(HERE, '../include/uapi/linux/blkload.h'),
              os.path.join(HERE, '../../../include/uapi/linux/blkload.h')):
        if p and os.path.exists(p):
            return p
    sys.exit('blnl: include/uapi/linux/blkload.h not found (set BLKLOAD_TOP)')


def uapi():
    """Every enumerator of the uAPI header, numbered as the compiler would."""
    names = {}
    text = open(uapi_path(), encoding='utf-8').read()
    for body in re.findall(r'enum[^{]*\{([^}]*)\}', text):
        val = -1
        for line in body.splitlines():
            m = re.match(r'\s*([A-Z_][A-Z0-9_]*)\s*(?:=\s*([^,]+))?,?\s*$', line)
            if not m:
                continue
            if m.group(2):
                expr = re.sub(r'[A-Z_][A-Z0-9_]*', lambda x: str(names[x.group(0)]),
                              m.group(2))
                val = int(eval(expr))  # only numbers and + - ( ) remain
            else:
                val += 1
            names[m.group(1)] = val
    return names


U = uapi()


def attr(t, payload):
    ln = 4 + len(payload)
    return struct.pack('=HH', ln, t) + payload + b'\0' * ((4 - ln % 4) % 4)


def a_u32(name, v):
    return attr(U['BLKLOAD_A_' + name], struct.pack('=I', v))


def a_u64(name, v):
    return attr(U['BLKLOAD_A_' + name], struct.pack('=Q', v))


def a_str(name, s):
    return attr(U['BLKLOAD_A_' + name], s.encode() + b'\0')


def a_flag(name):
    return attr(U['BLKLOAD_A_' + name], b'')


def parse_attrs(data):
    out = {}
    while len(data) >= 4:
        ln, t = struct.unpack('=HH', data[:4])
        if ln < 4:
            break
        out.setdefault(t & 0x3fff, []).append(data[4:ln])
        data = data[(ln + 3) & ~3:]
    return out


class Genl:
    def __init__(self, bind_pid=0):
        self.s = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, NETLINK_GENERIC)
        self.s.setsockopt(SOL_NETLINK, NETLINK_EXT_ACK, 1)
        self.s.setsockopt(SOL_NETLINK, NETLINK_CAP_ACK, 1)
        self.s.bind((bind_pid, 0))
        self.seq = 1
        self.family, self.groups = None, {}

    def close(self):
        self.s.close()

    def request(self, family, cmd, payload=b'', flags=NLM_F_ACK, version=1, before_send=None):
        self.seq += 1
        body = struct.pack('=BBH', cmd, version, 0) + payload
        msg = struct.pack('=IHHII', 16 + len(body), family, NLM_F_REQUEST | flags,
                          self.seq, 0) + body
        if before_send:
            before_send()
        self.s.send(msg)
        replies = []
        while True:
            data = self.s.recv(1 << 20)
            while data:
                ln, typ, fl, seq, _ = struct.unpack('=IHHII', data[:16])
                part, data = data[16:ln], data[(ln + 3) & ~3:]
                if seq != self.seq:
                    continue
                if typ == NLMSG_ERROR:
                    err = struct.unpack('=i', part[:4])[0]
                    msg_text = ''
                    if fl & NLM_F_ACK_TLVS:
                        tl = parse_attrs(part[4 + 16:])
                        if NLMSGERR_ATTR_MSG in tl:
                            msg_text = tl[NLMSGERR_ATTR_MSG][0].rstrip(b'\0').decode()
                    return -err, msg_text, replies
                if typ == NLMSG_DONE:
                    return 0, '', replies
                replies.append(parse_attrs(part[4:]))

    def resolve(self, name='blkload'):
        err, text, rep = self.request(GENL_ID_CTRL, CTRL_CMD_GETFAMILY,
                                      attr(CTRL_ATTR_FAMILY_NAME, name.encode() + b'\0'))
        if err:
            raise OSError(err, text or os.strerror(err))
        a = rep[0]
        self.family = struct.unpack('=H', a[CTRL_ATTR_FAMILY_ID][0][:2])[0]
        for g in parse_attrs(a.get(CTRL_ATTR_MCAST_GROUPS, [b''])[0]).values():
            ga = parse_attrs(g[0])
            self.groups[ga[1][0].rstrip(b'\0').decode()] = struct.unpack('=I', ga[2][0])[0]
        return self.family

    def cmd(self, name, payload=b'', before_send=None):
        if self.family is None:
            self.resolve()
        return self.request(self.family, U['BLKLOAD_CMD_' + name], payload,
                            before_send=before_send)


def job_new_payload(path, rw=0, iodepth=1, runtime_ns=0, number_ios=0, detached=False,
                    allow_write=False, cpus=None):
    p = a_str('PATH', path) + a_u32('RW', rw) + a_u32('IODEPTH', iodepth)
    if runtime_ns:
        p += a_u64('RUNTIME', runtime_ns)
    if number_ios:
        p += a_u64('NUMBER_IOS', number_ios)
    if detached:
        p += a_flag('DETACHED')
    if allow_write:
        p += a_flag('ALLOW_WRITE')
    if cpus:
        mask = 0
        for c in cpus:
            mask |= 1 << c
        p += attr(U['BLKLOAD_A_CPUMASK'], struct.pack('=Q', mask))
    return p


def fail(err, text):
    print(f'errno {err}: {text or os.strerror(err)}')
    sys.exit(1)


def job_id(rep):
    return struct.unpack('=I', rep[0][U['BLKLOAD_A_JOB_ID']][0])[0]


def opt(args, name, default=None, conv=int):
    if name in args:
        i = args.index(name)
        v = args[i + 1] if conv else True
        del args[i:i + (2 if conv else 1)]
        return conv(v) if conv else v
    return default


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    what, args = argv[1], argv[2:]
    if what == 'squat':
        # Bind each port id (in this network namespace) and close it again.
        n = 0
        for pid in args:
            try:
                Genl(int(pid)).close()
                n += 1
            except OSError:
                pass
        print(n)
        return 0
    g = Genl()
    if what == 'new':
        cpus = opt(args, '--cpus', None, lambda s: [int(c) for c in s.split(',')])
        p = job_new_payload(args[0], rw=opt(args, '--rw', 0),
                            iodepth=opt(args, '--iodepth', 1),
                            runtime_ns=opt(args, '--runtime-ns', 0),
                            number_ios=opt(args, '--number-ios', 0),
                            detached=opt(args, '--detached', False, None),
                            allow_write=opt(args, '--allow-write', False, None), cpus=cpus)
        err, text, rep = g.cmd('JOB_NEW', p)
        if err:
            fail(err, text)
        print(job_id(rep))
        return 0
    if what in ('start', 'stop', 'del', 'detach'):
        cmd = {'start': 'JOB_START', 'stop': 'JOB_STOP', 'del': 'JOB_DEL',
               'detach': 'JOB_DETACH'}[what]
        timed = opt(args, '--time', False, None)
        # The request alone is timed: not Python's start, nor the family lookup.
        g.resolve()
        t0 = time.monotonic()
        err, text, _ = g.cmd(cmd, b''.join(a_u32('JOB_ID', int(i)) for i in args))
        t1 = time.monotonic()
        if err:
            fail(err, text)
        if timed:
            print(int((t1 - t0) * 1000))
        return 0
    if what == 'get':
        err, text, rep = g.cmd('JOB_GET', a_u32('JOB_ID', int(args[0])))
        if err:
            fail(err, text)
        a = rep[0]

        def u32(n):
            v = a.get(U['BLKLOAD_A_' + n])
            return struct.unpack('=I', v[0][:4])[0] if v else None
        print(json.dumps({'job_id': u32('JOB_ID'), 'state': u32('STATE'),
                          'reason': u32('REASON'), 'owner': u32('OWNER'),
                          'deleted': U['BLKLOAD_A_DELETED'] in a}))
        return 0
    if what == 'rows':
        first = opt(args, '--first', 0)
        unpaged = opt(args, '--unpaged', False, None)
        hist = opt(args, '--hist', False, None)
        row_bytes = opt(args, '--row-bytes', False, None)
        p = a_u32('JOB_ID', int(args[0])) + a_flag('WANT_QUEUES')
        if hist:
            p += a_flag('WANT_HIST')
        if not unpaged:
            p += a_u32('QUEUE_FIRST', first)
        err, text, rep = g.cmd('JOB_GET', p)
        if err:
            fail(err, text)
        raw = rep[0][U['BLKLOAD_A_STATS']][0]
        st = parse_attrs(raw)
        if row_bytes:
            # The rows come first in the nest: its header, the first row's.
            ln, t = struct.unpack('=HH', raw[:4])
            if t & 0x3fff != U['BLKLOAD_A_STATS_QUEUE']:
                fail(0, 'the stats nest does not start with a queue row')
            print(4 + ((ln + 3) & ~3))
            return 0
        nxt = st.get(U['BLKLOAD_A_STATS_QUEUES_NEXT'])
        print('rows %d queues-next %d' % (len(st.get(U['BLKLOAD_A_STATS_QUEUE'], [])),
                                          struct.unpack('=I', nxt[0][:4])[0] if nxt else 0))
        return 0
    if what == 'cycles':
        n, path = int(args[0]), args[1]
        t0, bad = time.time(), 0
        for _ in range(n):
            err, text, rep = g.cmd('JOB_NEW', job_new_payload(path, rw=2, iodepth=4,
                                                              runtime_ns=60 * 10**9,
                                                              cpus=[0, 1]))
            if err:
                print(f'# new: errno {err}: {text}')
                bad += 1
                continue
            jid = a_u32('JOB_ID', job_id(rep))
            for cmd in ('JOB_START', 'JOB_STOP', 'JOB_DEL'):
                err, text, _ = g.cmd(cmd, jid)
                if err:
                    print(f'# {cmd}: errno {err}: {text}')
                    bad += 1
        print(f'# {n} cycles in {time.time() - t0:.1f} s, {bad} errors')
        return 1 if bad else 0
    if what == 'failnth':
        # Fail the Nth fault-injection point (slab, page allocation) of this
        # thread during job-new, for N = 1, 2, ... until one passes them all.
        # fail-nth is set and read from another thread, whose own
        # allocations do not count for this one.
        import concurrent.futures
        path, top = args[0], opt(args, '--max', 2000)
        g.resolve()
        nth = f'/proc/self/task/{threading.get_native_id()}/fail-nth'
        helper = concurrent.futures.ThreadPoolExecutor(max_workers=1)

        def put(v):
            with open(nth, 'w') as f:
                f.write(str(v))

        def get():
            with open(nth) as f:
                return int(f.read() or 0)
        failed = made = 0
        errs = {}
        for n in range(1, top + 1):
            try:
                err, text, rep = g.cmd('JOB_NEW', job_new_payload(path, rw=2, iodepth=8,
                                                                  number_ios=100, cpus=[0, 1]),
                                       before_send=lambda: helper.submit(put, n).result())
            except OSError as e:
                # netlink's own allocations fail too: the request never arrived,
                # or its answer was lost (a job then goes with this socket).
                err, text, rep = e.errno, e.strerror, None
            left = helper.submit(get).result()
            helper.submit(put, 0).result()
            if err:
                failed += 1
                errs[err] = errs.get(err, 0) + 1
            elif rep:
                made += 1
                e, t, _ = g.cmd('JOB_DEL', a_u32('JOB_ID', job_id(rep)))
                if e:
                    fail(e, t)
            if left:
                print(f'# fail-nth {n}: no fault point left; {failed} creations failed '
                      f'cleanly ({errs}), {made} succeeded')
                return 0 if failed else 1
        print(f'# still injecting after {top} points')
        return 1
    if what == 'listen':
        secs = float(args[0])
        try:
            g.resolve()
            g.s.setsockopt(SOL_NETLINK, NETLINK_ADD_MEMBERSHIP, g.groups['events'])
        except OSError as e:
            print(f'errno {e.errno}: {e.strerror}')
            return 1
        print('# listening', flush=True)
        n, end = 0, time.time() + secs
        while time.time() < end:
            r, _, _ = select.select([g.s], [], [], max(0, end - time.time()))
            if r:
                data = g.s.recv(1 << 20)
                n += 1 if data else 0
        print(n)
        return 0
    sys.exit(__doc__)


if __name__ == '__main__':
    sys.exit(main(sys.argv))
