#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the blkload uAPI header and kernel policy tables from the YAML spec.

The spec follows the kernel's genetlink spec format (a subset of it):
definitions (const, enum), attribute-sets, operations, mcast-groups.

  nlgen.py uapi   SPEC > include/uapi/linux/blkload.h
  nlgen.py policy SPEC > module/nl_gen.c
  nlgen.py policy-h SPEC > module/nl_gen.h
  nlgen.py names SPEC > userspace/nl_names.h
  nlgen.py check  SPEC UAPI POLICY POLICY_H NAMES   exit 1 when a file is stale
"""

import sys

import yaml


def c_upper(name):
    return name.upper().replace('-', '_')


def c_lower(name):
    return name.lower().replace('-', '_')


class Spec:
    def __init__(self, path):
        self.path = path
        with open(path, encoding='utf-8') as f:
            self.y = yaml.safe_load(f)
        self.name = self.y['name']
        self.up = c_upper(self.name)
        self.sets = self.y.get('attribute-sets', [])
        self.ops = self.y.get('operations', {}).get('list', [])
        self.mcgrps = self.y.get('mcast-groups', {}).get('list', [])
        self.defs = self.y.get('definitions', [])
        self.set_by_name = {s['name']: s for s in self.sets}

    def attr_prefix(self, aset):
        if aset['name'] == self.name:
            return f'{self.up}_A_'
        return f'{self.up}_A_{c_upper(aset["name"])}_'

    def attr_enum(self, aset, attr):
        return self.attr_prefix(aset) + c_upper(attr['name'])

    def attr_max(self, aset):
        return self.attr_prefix(aset) + 'MAX'

    def attr_cnt(self, aset):
        return '__' + self.attr_prefix(aset) + 'MAX'

    def rel_path(self):
        p = self.path
        i = p.find('Documentation/')
        return p[i:] if i >= 0 else p


def banner(spec, comment_style, tool_name):
    lines = []
    if comment_style == 'c-uapi':
        lines.append('/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) '
                     'OR BSD-3-Clause) */')
    else:
        lines.append('// SPDX-License-Identifier: GPL-2.0')
    lines.append('/* Do not edit directly, auto-generated from: */')
    lines.append(f'/*\t{spec.rel_path()} */')
    lines.append(f'/* {tool_name} */')
    return lines


def gen_uapi(spec):
    out = banner(spec, 'c-uapi', 'YNL-GEN uapi header (scripts/nlgen.py)')
    guard = f'_UAPI_LINUX_{spec.up}_H'
    out += ['', f'#ifndef {guard}', f'#define {guard}', '']
    out.append(f'#define {spec.up}_FAMILY_NAME\t"{spec.name}"')
    out.append(f'#define {spec.up}_FAMILY_VERSION\t{spec.y.get("version", 1)}')
    out.append('')

    for d in spec.defs:
        if d['type'] == 'const':
            out.append(f'#define {spec.up}_{c_upper(d["name"])}\t{d["value"]}')
            out.append('')
        elif d['type'] == 'flags':
            ename = f'{c_lower(spec.name)}_{c_lower(d["name"])}'
            prefix = c_upper(d.get('name-prefix', f'{spec.up}_{c_upper(d["name"])}_'))
            if d.get('doc'):
                out.append(f'/* {d["doc"]} */')
            out.append(f'enum {ename} {{')
            for i, e in enumerate(d['entries']):
                en = e['name'] if isinstance(e, dict) else e
                out.append(f'\t{prefix}{c_upper(en)} = {1 << i},')
            out.append('};')
            out.append('')
        elif d['type'] == 'enum':
            ename = f'{c_lower(spec.name)}_{c_lower(d["name"])}'
            prefix = d.get('name-prefix', f'{spec.up}_{c_upper(d["name"])}_')
            prefix = c_upper(prefix)
            if d.get('doc'):
                out.append(f'/* {d["doc"]} */')
            out.append(f'enum {ename} {{')
            value = d.get('value-start', 0)
            for e in d['entries']:
                en = e['name'] if isinstance(e, dict) else e
                out.append(f'\t{prefix}{c_upper(en)} = {value},')
                value += 1
            if d.get('render-max', True):
                out.append('')
                out.append('\t/* private: */')
                out.append(f'\t__{prefix}MAX,')
                out.append(f'\t{prefix}MAX = (__{prefix}MAX - 1)')
            out.append('};')
            out.append('')

    for aset in spec.sets:
        out.append('enum {')
        first = True
        for a in aset['attributes']:
            if first:
                out.append(f'\t{spec.attr_enum(aset, a)} = 1,')
                first = False
            else:
                out.append(f'\t{spec.attr_enum(aset, a)},')
        out.append('')
        out.append(f'\t{spec.attr_cnt(aset)},')
        out.append(f'\t{spec.attr_max(aset)} = ({spec.attr_cnt(aset)} - 1)')
        out.append('};')
        out.append('')

    out.append('enum {')
    first = True
    for op in spec.ops:
        cname = f'{spec.up}_CMD_{c_upper(op["name"])}'
        if first:
            out.append(f'\t{cname} = 1,')
            first = False
        else:
            out.append(f'\t{cname},')
    out.append('')
    out.append(f'\t__{spec.up}_CMD_MAX,')
    out.append(f'\t{spec.up}_CMD_MAX = (__{spec.up}_CMD_MAX - 1)')
    out.append('};')
    out.append('')

    for g in spec.mcgrps:
        out.append(f'#define {spec.up}_MCGRP_{c_upper(g["name"])}\t"{g["name"]}"')
    if spec.mcgrps:
        out.append('')
    out.append(f'#endif /* {guard} */')
    return '\n'.join(out) + '\n'


NLA_TYPES = {
    'u8': 'NLA_U8', 'u16': 'NLA_U16', 'u32': 'NLA_U32', 'u64': 'NLA_U64',
    's8': 'NLA_S8', 's16': 'NLA_S16', 's32': 'NLA_S32', 's64': 'NLA_S64',
    'flag': 'NLA_FLAG', 'binary': 'NLA_BINARY', 'string': 'NLA_NUL_STRING',
}


S16_MAX = 32767


def range_name(spec, aset, attr):
    return policy_name(spec, aset).replace('_nl_policy', f'_{c_lower(attr["name"])}_range')


def needs_full_range(attr):
    checks = attr.get('checks', {})
    return attr['type'] in ('u32', 'u64', 'u16') and \
        any(k in checks and checks[k] > S16_MAX for k in ('min', 'max'))


def policy_entry(spec, aset, attr):
    t = attr['type']
    checks = attr.get('checks', {})
    if t == 'nest':
        nested = spec.set_by_name[attr['nested-attributes']]
        return f'NLA_POLICY_NESTED({policy_name(spec, nested)})'
    nla = NLA_TYPES[t]
    if needs_full_range(attr):
        return f'NLA_POLICY_FULL_RANGE({nla}, &{range_name(spec, aset, attr)})'
    if t in ('string', 'binary'):
        if 'max-len' in checks:
            return f'{{ .type = {nla}, .len = {checks["max-len"]}, }}'
        return f'{{ .type = {nla}, }}'
    if 'min' in checks and 'max' in checks:
        return f'NLA_POLICY_RANGE({nla}, {checks["min"]}, {checks["max"]})'
    if 'max' in checks:
        return f'NLA_POLICY_MAX({nla}, {checks["max"]})'
    if 'min' in checks:
        return f'NLA_POLICY_MIN({nla}, {checks["min"]})'
    return f'{{ .type = {nla}, }}'


def policy_name(spec, aset):
    if aset['name'] == spec.name:
        return f'{c_lower(spec.name)}_nl_policy'
    return f'{c_lower(spec.name)}_{c_lower(aset["name"])}_nl_policy'


def policy_order(spec):
    # Nested sets first, so that NLA_POLICY_NESTED() can name them.
    order = [s for s in spec.sets if s['name'] != spec.name]
    return order + [s for s in spec.sets if s['name'] == spec.name]


def gen_policy_h(spec):
    out = banner(spec, 'c-kernel-h', 'YNL-GEN kernel header (scripts/nlgen.py)')
    out[0] = '/* SPDX-License-Identifier: GPL-2.0 */'
    guard = f'_{spec.up}_NL_GEN_H'
    out += ['', f'#ifndef {guard}', f'#define {guard}', '',
            '#include <net/netlink.h>', '',
            '#include <uapi/linux/blkload.h>', '']
    for aset in policy_order(spec):
        out.append(f'extern const struct nla_policy '
                   f'{policy_name(spec, aset)}[{spec.attr_max(aset)} + 1];')
    out += ['', f'#endif /* {guard} */']
    return '\n'.join(out) + '\n'


def gen_policy(spec):
    out = banner(spec, 'c', 'YNL-GEN kernel source (scripts/nlgen.py)')
    out += ['', '#include "nl_gen.h"', '']
    for aset in policy_order(spec):
        for a in aset['attributes']:
            if needs_full_range(a):
                checks = a['checks']
                # Not const: older kernels' nla_policy points at it without const.
                out.append('static struct netlink_range_validation '
                           f'{range_name(spec, aset, a)} = {{')
                out.append(f'\t.min = {checks.get("min", 0)},')
                out.append(f'\t.max = {checks.get("max", "U64_MAX")},')
                out.append('};')
                out.append('')
    for aset in policy_order(spec):
        pname = policy_name(spec, aset)
        out.append(f'const struct nla_policy {pname}[{spec.attr_max(aset)} + 1] = {{')
        for a in aset['attributes']:
            line = f'\t[{spec.attr_enum(aset, a)}] = {policy_entry(spec, aset, a)},'
            if len(line.expandtabs(8)) > 100 and ', &' in line:
                # Kernel style: at most 100 columns, continued under the '('.
                head, tail = line.split(', &', 1)
                col = len(head.expandtabs(8)) - len(head) + head.index('(') + 1
                line = head + ',\n' + '\t' * (col // 8) + ' ' * (col % 8) + '&' + tail
            out.append(line)
        out.append('};')
        out.append('')
    return '\n'.join(out).rstrip('\n') + '\n'


def gen_names(spec):
    out = banner(spec, 'c', 'YNL-GEN user names (scripts/nlgen.py)')
    out[0] = '/* SPDX-License-Identifier: GPL-2.0 */'
    guard = f'{spec.up}_NL_NAMES_H'
    out += ['', f'#ifndef {guard}', f'#define {guard}', '',
            '#include <linux/blkload.h>', '']
    main_set = spec.set_by_name[spec.name]
    out.append('/* Top-level attribute names, for the kernel\'s "bad attribute" reports. */')
    out.append(f'static const char *const {c_lower(spec.name)}_attr_names[] = {{')
    for a in main_set['attributes']:
        out.append(f'\t[{spec.attr_enum(main_set, a)}] = "{a["name"]}",')
    out += ['};', '', f'#endif /* {guard} */']
    return '\n'.join(out) + '\n'


def main(argv):
    if len(argv) < 3:
        sys.stderr.write(__doc__)
        return 2
    mode, spec = argv[1], Spec(argv[2])
    if mode == 'uapi':
        sys.stdout.write(gen_uapi(spec))
    elif mode == 'policy':
        sys.stdout.write(gen_policy(spec))
    elif mode == 'policy-h':
        sys.stdout.write(gen_policy_h(spec))
    elif mode == 'names':
        sys.stdout.write(gen_names(spec))
    elif mode == 'check':
        rc = 0
        for path, text in ((argv[3], gen_uapi(spec)), (argv[4], gen_policy(spec)),
                           (argv[5], gen_policy_h(spec)), (argv[6], gen_names(spec))):
            with open(path, encoding='utf-8') as f:
                if f.read() != text:
                    print(f'{path} is stale: run "make generate"')
                    rc = 1
        return rc
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
