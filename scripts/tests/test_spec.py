#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""The netlink spec against the kernel's own YNL schema and spec loader.

Loads Documentation/netlink/specs/blkload.yaml with tools/net/ynl's
SpecFamily (from Debian's linux-source, via scripts/ksrc.sh) validating it
against Documentation/netlink/genetlink-legacy.yaml (jsonschema); the same
check must refuse a copy of the spec with an unknown key, so it can fail.
"""
import os
import subprocess
import sys
import tempfile

top = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ksrc = subprocess.run([os.path.join(top, "scripts/ksrc.sh")], capture_output=True,
                      text=True, check=True).stdout.strip()
sys.path.insert(0, os.path.join(ksrc, "tools/net/ynl"))
from lib import SpecFamily  # noqa: E402

spec = os.path.join(top, "Documentation/netlink/specs/blkload.yaml")
schema = os.path.join(ksrc, "Documentation/netlink/genetlink-legacy.yaml")

fam = SpecFamily(spec, schema)
ops = sorted(fam.ops)
print("# spec valid; %d operations: %s" % (len(ops), " ".join(ops)))
assert "job-new" in ops and "info-get" in ops, ops

with tempfile.NamedTemporaryFile("w", suffix=".yaml") as bad:
    bad.write(open(spec).read().replace("kernel-policy: global",
                                        "kernel-policy: global\nno-such-key: 1", 1))
    bad.flush()
    try:
        SpecFamily(bad.name, schema)
    except Exception as e:  # jsonschema.ValidationError
        print("# a spec with an unknown key is refused: %s" % str(e).splitlines()[0])
    else:
        sys.exit("the schema check accepted a spec with an unknown key")
