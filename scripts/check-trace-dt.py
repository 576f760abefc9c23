#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Check the trace component nodes tracesbi adds to the DT it hands over.

Input: the DT as `dtc -I dtb -O dts` prints it.  The rules are those of
../shared/specs/trace-component-dt-binding.md plus tracesbi's layout:

* every served hart has one encoder and one RAM sink node `trace@<addr>`,
  compatible "tracesbi,trace-component", "riscv,trace-component";
* `reg` is the node's 4 KiB block at its unit address;
* `cpus` is the phandle of that hart's cpu node;
* the encoder's out-ports endpoint points at its sink's in-ports endpoint
  and back (remote-endpoint <-> phandle);
* no other node's `reg` overlaps a component.

Exit status 0 when everything holds; otherwise the last line says what not.
"""

import argparse
import re
import sys

COMPAT = '"tracesbi,trace-component\\0riscv,trace-component"'


def parse(text):
    """Nodes as {path: {prop: raw value text}}."""
    nodes, stack = {}, []
    for raw in text.splitlines():
        line = raw.strip()
        m = re.match(r'^([\w,.+@/-]+|/)\s*\{$', line)
        if m:
            stack.append(m.group(1))
            nodes['/'.join(stack)] = {}
            continue
        if line == '};':
            stack.pop()
            continue
        m = re.match(r'^([\w,.#+-]+)(?:\s*=\s*(.*))?;$', line)
        if m and stack:
            nodes['/'.join(stack)][m.group(1)] = m.group(2) or ''
    return nodes


def cells(value):
    return [int(x, 16) for x in re.findall(r'0x[0-9a-f]+', value)]


def fail(msg):
    print(msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--harts', type=int, required=True, help='harts tracesbi serves')
    ap.add_argument('dts')
    args = ap.parse_args()
    nodes = parse(open(args.dts).read())

    phandles = {}
    for path, props in nodes.items():
        if 'phandle' in props:
            phandles[cells(props['phandle'])[0]] = path
    comps = {p: v for p, v in nodes.items() if v.get('compatible') == COMPAT}
    if len(comps) != 2 * args.harts:
        fail(f'{len(comps)} tracesbi component nodes, expected {2 * args.harts}')

    encoders, sinks = {}, {}
    for path, props in comps.items():
        unit = int(path.rsplit('@', 1)[1], 16)
        reg = cells(props.get('reg', ''))
        if len(reg) != 4 or (reg[0] << 32 | reg[1]) != unit or reg[3] != 0x1000 or unit & 0xfff:
            fail(f'{path}: reg {props.get("reg")} is not its 4 KiB block')
        cpu = phandles.get(cells(props.get('cpus', ''))[0] if props.get('cpus') else -1)
        if not cpu or '/cpus/cpu@' not in '/' + cpu:
            fail(f'{path}: cpus does not name a cpu node')
        hart = int(cpu.rsplit('@', 1)[1], 16)
        kind = 'out-ports' if f'{path}/out-ports' in nodes else 'in-ports'
        ep = nodes.get(f'{path}/{kind}/port/endpoint')
        if ep is None or 'remote-endpoint' not in ep or 'phandle' not in ep:
            fail(f'{path}: no {kind}/port/endpoint with remote-endpoint and phandle')
        entry = (path, hart, cells(ep['phandle'])[0], cells(ep['remote-endpoint'])[0])
        table = encoders if kind == 'out-ports' else sinks
        if hart in table:
            fail(f'{path}: hart {hart} has two {kind} components')
        table[hart] = entry

    if set(encoders) != set(sinks) or len(encoders) != args.harts:
        fail(f'harts with an encoder {sorted(encoders)} / a sink {sorted(sinks)}')
    for hart, (epath, _, eph, eremote) in encoders.items():
        spath, _, sph, sremote = sinks[hart]
        if eremote != sph or sremote != eph:
            fail(f'{epath} and {spath}: endpoints do not point at each other')

    spans = []
    for path, props in nodes.items():
        if path in comps or 'reg' not in props or path.count('/') > 2:
            continue
        reg = cells(props['reg'])
        if len(reg) >= 4 and 'cpu@' not in path:
            spans.append((path, reg[0] << 32 | reg[1], reg[2] << 32 | reg[3]))
    for cpath in comps:
        base = int(cpath.rsplit('@', 1)[1], 16)
        for path, lo, size in spans:
            if lo < base + 0x1000 and base < lo + size:
                fail(f'{cpath} overlaps {path}')
    print(f'{len(comps)} trace components for {args.harts} harts: OK')
    return 0


if __name__ == '__main__':
    sys.exit(main())
