#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""What people read from a trace, end to end on the corpus (make test-ntrace).

    views.py NTRACE_TOOL OUTDIR TRACE.pcs...

Each TRACE.pcs has its program next to it as TRACE.elf.  For every trace,
encoded with every optional compression and timestamps:

- `decode --listing`: its instruction lines are the trace's pcs in order,
  each with objdump's disassembly; every trap of the trace is followed by
  its "-- exception" / "-- interrupt" line; timestamps never go back;
- `profile --json` / `--folded`: self instructions add up to the trace's
  length, the outermost function's total is all of it, the folded stacks
  add up to it too, and calls into a function equal the call edges into it;
- `decode --export-pcseq`, then `encode --pcseq`, then `decode`: the trace
  comes back byte for byte (the pcseq classes are right for the encoder).

Then, in Debian's chromium (headless screenshot), the flame graph of one
program and two timelines: the pixels at the frames the folded stacks
place (recomputed here from the layout rules in tools/ntrace/flamegraph.c)
have the frames' colours; in the timelines (layout rules of
tools/ntrace/timeline_svg.c), column by column, the bar's privilege colours
and the height of every exception and interrupt mark are what the trace
gives, at low density (a trap every few hundred instructions, no
Ownership messages) and at high density (up to a dozen interrupts a pixel
column, U and S from Ownership messages, settings from a sidecar), and the
time axis is drawn.  Malformed input gives a message, never a
crash.  One PASS:/FAIL: line per check.
"""
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import zlib

failed = False


def report(ok, name, detail=''):
    global failed
    print('%s: ntrace views %s%s' % ('PASS' if ok else 'FAIL', name,
                                      ' (%s)' % detail if detail else ''))
    failed |= not ok


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def read_pcs(path):
    """[(pc, marker)] of a canonical .pcs file."""
    out = []
    for line in open(path):
        f = line.split()
        out.append((int(f[0], 16), f[1] if len(f) > 1 else ''))
    return out


# ---- listing, profile, pcseq over the corpus --------------------------------

CODEC = ['--all-opt', '--timestamp']


def check_listing(tool, elf, nex, trace, name):
    r = run([tool, 'decode', '--listing', '--elf', elf, nex] + CODEC)
    if r.returncode:
        return report(False, name + ' listing', r.stderr[:200])
    lines = r.stdout.splitlines()
    insns = [l for l in lines if not l.startswith('-- ')]
    pcs = [int(l.split()[1], 16) for l in insns]
    ok = pcs == [pc for pc, _ in trace]
    detail = '' if ok else 'instruction lines differ from the trace'
    no_dis = [l for l in insns if l.endswith('(no disassembly)')]
    if ok and no_dis:
        ok, detail = False, 'no disassembly: ' + no_dis[0]
    # a trap line right after each trapped instruction
    traps = 0
    want = {'exc': '-- exception -> ', 'int': '-- interrupt -> '}
    k = 0
    for i, l in enumerate(lines):
        if l.startswith('-- '):
            continue
        marker = trace[k][1]
        k += 1
        if marker:
            traps += 1
            if i + 1 >= len(lines) or not lines[i + 1].startswith(want[marker]):
                ok, detail = False, 'no trap line after %s' % l
                break
    stamps = [int(l[2:].split()[0]) for l in insns]
    if ok and stamps != sorted(stamps):
        ok, detail = False, 'timestamps go back'
    report(ok, name + ' listing', detail or '%d instructions, %d traps' % (len(insns), traps))


def check_profile(tool, elf, nex, trace, name):
    r = run([tool, 'profile', '--json', '--elf', elf, nex] + CODEC)
    f = run([tool, 'profile', '--folded', '--elf', elf, nex] + CODEC)
    if r.returncode or f.returncode:
        return report(False, name + ' profile', (r.stderr + f.stderr)[:200])
    prof = json.loads(r.stdout)
    n = len(trace)
    funcs = prof['functions']
    self_sum = sum(x['self'] for x in funcs)
    top = max(x['total'] for x in funcs)
    folded = sum(int(l.rsplit(' ', 1)[1]) for l in f.stdout.splitlines())
    calls_in = {}
    for e in prof['edges']:
        calls_in[e['callee']] = calls_in.get(e['callee'], 0) + e['calls']
    calls_ok = all(calls_in.get(x['name'], 0) == x['calls'] for x in funcs)
    blocks = sum(b['instructions'] for b in prof['blocks'])
    ok = (prof['instructions'] == n and self_sum == n and top == n and folded == n and
          calls_ok and blocks == n)
    report(ok, name + ' profile',
           'instructions %d, self sum %d, largest total %d, folded %d, blocks %d, calls %s' %
           (n, self_sum, top, folded, blocks, 'match edges' if calls_ok else 'differ'))


def check_pcseq(tool, elf, nex, pcs, outdir, name):
    seq = os.path.join(outdir, name.replace(' ', '-') + '.pcseq')
    back = seq + '.nex'
    r1 = run([tool, 'decode', '--export-pcseq', '--elf', elf, nex, '--out', seq] + CODEC)
    r2 = run([tool, 'encode', '--pcseq', seq, '--out', back] + CODEC)
    r3 = run([tool, 'decode', '--elf', elf, back] + CODEC)
    ok = not (r1.returncode or r2.returncode or r3.returncode) and r3.stdout == open(pcs).read()
    report(ok, name + ' pcseq export round trip',
           (r1.stderr + r2.stderr + r3.stderr)[:200] if not ok else '')


# ---- PNG (what chromium writes: 8-bit RGB/RGBA, not interlaced) -------------

def png_pixels(path):
    data = open(path, 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            w, h, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
            assert depth == 8 and ctype in (2, 6) and not interlace, 'unexpected PNG form'
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, lambda x, y: tuple(rows[y][x * bpp:x * bpp + 3])


def screenshot(svg, png, width, height):
    chromium = shutil.which('chromium')
    if not chromium:
        return 'chromium is not installed (make deps installs it)'
    profile = os.path.join(os.path.dirname(os.path.abspath(png)), 'chromium-profile')
    r = run([chromium, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
             '--user-data-dir=' + profile,
             '--force-device-scale-factor=1', '--window-size=%d,%d' % (width, height),
             '--screenshot=' + png, 'file://' + os.path.abspath(svg)], timeout=120)
    if r.returncode or not os.path.exists(png):
        return 'chromium failed: ' + r.stderr[-200:]
    return None


def near(a, b, tol=6):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


# ---- flame graph: the layout rules of tools/ntrace/flamegraph.c -------------

def flame_colour(name):
    h = 2166136261
    for ch in name.encode():
        h = ((h ^ ch) * 16777619) & 0xffffffff
    return (205 + h % 51, 60 + (h >> 8) % 171, 20 + (h >> 16) % 41)


def flame_frames(folded):
    """[(name, x, y, width)] of every frame, from the folded stacks."""
    tree = {}
    total = 0
    for line in folded.splitlines():
        stack, count = line.rsplit(' ', 1)
        total += int(count)
        node = tree
        for f in stack.split(';'):
            node = node.setdefault(f, [0, {}])
            node[0] += int(count)
            node = node[1]
    depth = [0]

    def max_depth(t, d):
        for f, (n, kids) in t.items():
            depth[0] = max(depth[0], d)
            max_depth(kids, d + 1)
    max_depth(tree, 1)
    height = 34 + 10 + (depth[0] + 1) * 16
    scale = 1180.0 / total
    frames = [('all', 10.0, height - 10 - 16, 1180.0)]

    def place(t, x, d):
        for f in sorted(t):
            n, kids = t[f]
            frames.append((f, x, height - 10 - (d + 1) * 16, n * scale))
            place(kids, x, d + 1)
            x += n * scale
    place(tree, 10.0, 1)
    return frames, height


def check_flame_graph(tool, elf, nex, outdir):
    svg = os.path.join(outdir, 'flame.svg')
    png = os.path.join(outdir, 'flame.png')
    f = run([tool, 'profile', '--folded', '--elf', elf, nex] + CODEC)
    s = run([tool, 'profile', '--svg', '--elf', elf, nex, '--out', svg] + CODEC)
    if f.returncode or s.returncode:
        return report(False, 'flame graph in chromium', (f.stderr + s.stderr)[:200])
    frames, height = flame_frames(f.stdout)
    err = screenshot(svg, png, 1200, height)
    if err:
        return report(False, 'flame graph in chromium', err)
    w, h, px = png_pixels(png)
    checked, bad = 0, []
    for name, x, y, width in frames:
        if width < 12:
            continue
        # the frame's top row: above its label
        at = (int(x + width / 2), int(y + 1))
        got = px(*at)
        checked += 1
        if not near(got, flame_colour(name)):
            bad.append('%s at %s: %s, expected %s' % (name, at, got, flame_colour(name)))
    # white above the tallest frame and right of the plot
    for at in ((5, height - 20), (1195, height - 20), (600, 30)):
        if px(*at) != (255, 255, 255):
            bad.append('background at %s: %s' % (at, px(*at)))
    report(not bad and checked >= 5, 'flame graph in chromium',
           '; '.join(bad[:3]) if bad else '%d frames at their places and colours' % checked)


# ---- timeline: the layout rules of tools/ntrace/timeline_svg.c -------------

TL_LEFT, TL_COLUMNS, TL_TOP, TL_LANE, TL_MARKS, TL_BAR = 100, 1080, 46, 52, 10, 20
TL_COLOURS = {'U': (90, 170, 90), 'S': (70, 120, 200), None: (160, 160, 160)}
TL_EXC, TL_INT = (210, 30, 30), (230, 140, 0)
TL_ORDER = ['U', 'S', None]     # bottom to top (timeline_svg.c enum tl_class)


def lround(x):
    return int(math.floor(x + 0.5))


def tl_marks(trace, span):
    """Exceptions and interrupts per pixel column: a trap after instruction k
    is an event at instruction index k + 1."""
    exc, irq = [0] * TL_COLUMNS, [0] * TL_COLUMNS
    for k, line in enumerate(trace):
        if line[1]:
            col = min(int((k + 1) / span * TL_COLUMNS), TL_COLUMNS - 1)
            (exc if line[1] == 'exc' else irq)[col] += 1
    return exc, irq


def tl_mark_height(n, most):
    if not n:
        return 0
    if most <= 1:
        return TL_MARKS
    return max(2, lround(TL_MARKS * math.log2(1 + n) / math.log2(1 + most)))


def tl_bar(trace, span):
    """Per column: [(privilege, pixels)] bottom to top, as column_heights()
    stacks the privileges' shares (instruction k runs in [k, k + 1))."""
    shares = [dict() for _ in range(TL_COLUMNS)]
    for k, line in enumerate(trace):
        x0, x1 = k / span * TL_COLUMNS, (k + 1) / span * TL_COLUMNS
        col = int(x0)
        while col < TL_COLUMNS and col < x1:
            part = min(x1, col + 1) - max(x0, col)
            if part > 0:
                shares[col][line[2]] = shares[col].get(line[2], 0) + part
            col += 1
    bars = []
    for sh in shares:
        traced = sum(sh.values())
        acc, below, h = 0, 0, {}
        for p in TL_ORDER:
            acc += sh.get(p, 0)
            top = lround(acc / traced * TL_BAR) if traced else 0
            h[p] = max(top - below, 3 if sh.get(p, 0) > 1e-6 else 0)
            below = top
        excess = sum(h.values()) - TL_BAR
        if excess > 0:
            h[max(TL_ORDER, key=lambda p: h[p])] -= excess
        bars.append([(p, h[p]) for p in TL_ORDER if h[p]])
    return bars


def check_lane(px, lane, trace, span, most, bad):
    """The bar's colours and the marks' heights of one lane, column by column."""
    top = TL_TOP + TL_LANE * lane
    bar_y = top + TL_MARKS + 1
    exc, irq = tl_marks(trace, span)
    for col, stack in enumerate(tl_bar(trace, span)):
        x, y = TL_LEFT + col, bar_y + TL_BAR
        for p, h in stack:
            # rows inside the privilege's part (its edges may round either way)
            for yy in range(y - h + 1, y - 1):
                if not near(px(x, yy), TL_COLOURS[p]):
                    bad.append('lane %d column %d row %d: %s, expected %s (%s)' %
                               (lane, col, yy, px(x, yy), TL_COLOURS[p], p))
                    break
            y -= h
    for counts, base, up, colour in ((exc, bar_y - 1, True, TL_EXC),
                                     (irq, bar_y + TL_BAR + 1, False, TL_INT)):
        for col, n in enumerate(counts):
            h = tl_mark_height(n, most)
            x = TL_LEFT + col
            inside = base - h if up else base + h - 1   # the mark's far end
            beyond = inside - 1 if up else inside + 1
            if h and not near(px(x, inside), colour):
                bad.append('lane %d column %d: %d events, %d pixels: %s at row %d' %
                           (lane, col, n, h, px(x, inside), inside))
            if near(px(x, beyond), colour):
                bad.append('lane %d column %d: %d events, mark taller than %d pixels' %
                           (lane, col, n, h))


def check_axis(px, nharts, bad):
    y = TL_TOP + TL_LANE * nharts
    for x in (TL_LEFT + 1, TL_LEFT + TL_COLUMNS // 2, TL_LEFT + TL_COLUMNS - 2):
        if sum(px(x, y)) > 150:
            bad.append('axis line at (%d, %d): %s' % (x, y, px(x, y)))
    # the tick at 0 and its label
    if sum(px(TL_LEFT, y + 3)) > 300:
        bad.append('tick at 0: %s' % (px(TL_LEFT, y + 3),))
    if not any(sum(px(x, yy)) < 300 for x in range(TL_LEFT - 5, TL_LEFT + 5)
               for yy in range(y + 8, y + 18)):
        bad.append('no label under the tick at 0')


def tl_height(nharts):
    """The picture's height: the lanes, the axis, two legend lines."""
    return TL_TOP + TL_LANE * nharts + 90


def screenshot_svg(svg, png):
    height = int(re.search(r'height="(\d+)"', open(svg).read()).group(1))
    return screenshot(svg, png, 1200, height)


def tl_size_error(w, h, nharts):
    if (w, h) != (1200, tl_height(nharts)):
        return 'the picture is %d x %d, not 1200 x %d' % (w, h, tl_height(nharts))
    return None


def encode_plain(tool, elf, trace, pcs, nex):
    """The trace encoded with default options (time: instruction index)."""
    with open(pcs, 'w') as f:
        f.write(''.join('%x%s\n' % (pc, ' ' + m if m else '') for pc, m in trace))
    return run([tool, 'encode', '--elf', elf, '--pcs', pcs, '--out', nex])


def check_timeline(tool, elf, trace, outdir):
    """Low density: the trace as harts 0 and 2 (copies), no Ownership
    messages: grey bars, one full-height mark per exception, the axis."""
    svg = os.path.join(outdir, 'timeline.svg')
    png = os.path.join(outdir, 'timeline.png')
    nexes = [os.path.join(outdir, 'tl.hart%d.nex' % i) for i in (0, 2)]
    e = encode_plain(tool, elf, trace, os.path.join(outdir, 'tl.pcs'), nexes[0])
    shutil.copyfile(nexes[0], nexes[1])
    r = run([tool, 'timeline', '--svg', '--out', svg, '--elf', elf] + nexes)
    name = 'timeline in chromium: 2 harts, no Ownership messages'
    if e.returncode or r.returncode:
        return report(False, name, (e.stderr + r.stderr)[:200])
    err = screenshot_svg(svg, png)
    if err:
        return report(False, name, err)
    w, h, px = png_pixels(png)
    err = tl_size_error(w, h, 2)
    if err:
        return report(False, name, err)
    plain = [(pc, marker, None) for pc, marker in trace]
    exc, irq = tl_marks(plain, len(trace))
    most = max(exc + irq)
    bad = []
    for lane in (0, 1):
        check_lane(px, lane, plain, len(trace), most, bad)
    check_axis(px, 2, bad)
    report(not bad and sum(exc) > 0, name, '; '.join(bad[:3]) if bad else
           '%d exception marks per lane, bars and axis in place (%s)' % (sum(x > 0 for x in exc),
                                                                        png))


def dense_trace(trace):
    """The trace with an interrupt marked after every 3rd instruction in its
    first third, every 40th in the second, every 9th in the last (the next
    pc stays: a trap to the next instruction), and privileges that change at
    traps, as they do: U in the first third, switching between U and S at
    every 40th instruction in the second, S in the last."""
    n = len(trace)
    out, priv = [], 'U'
    for k, (pc, marker) in enumerate(trace):
        step = 3 if k < n // 3 else 40 if k < 2 * n // 3 else 9
        if not marker and k % step == 0 and k + 1 < n:
            marker = 'int'
        out.append((pc, marker, priv))
        if marker:
            priv = ('U' if k < n // 3 else 'S' if k >= 2 * n // 3 else
                    'S' if (k // 40) % 2 == 0 else 'U')
    return out


def check_timeline_dense(tool, elf, trace, outdir):
    """High density, privilege from Ownership messages (the dense trace, its
    settings in a sidecar) beside the plain trace: interrupts aggregated per
    column (log-scale heights), the bar's U and S shares per column."""
    dense = dense_trace(trace)
    pcs = os.path.join(outdir, 'tl-dense.pcs')
    with open(pcs, 'w') as f:
        for pc, marker, priv in dense:
            f.write('%x%s %s\n' % (pc, ' ' + marker if marker else '', priv))
    tci = '0x100026b,0'                 # HTM, trTeContext: Ownership messages
    hart0 = os.path.join(outdir, 'tl-dense.hart0.nex')
    hart1 = os.path.join(outdir, 'tl-plain.hart1.nex')
    name = 'timeline in chromium: dense, privilege from Ownership messages'
    e1 = run([tool, 'encode', '--elf', elf, '--pcs', pcs, '--out', hart0, '--tci', tci])
    open(hart0 + '.tci', 'w').write('control=0x100026b\nfeatures=0\n')
    plain = [(pc, marker, None) for pc, marker in trace]
    e2 = encode_plain(tool, elf, trace, pcs + '.plain', hart1)
    svg = os.path.join(outdir, 'timeline-dense.svg')
    png = os.path.join(outdir, 'timeline-dense.png')
    r = run([tool, 'timeline', '--svg', '--out', svg, '--elf', elf, hart0, hart1])
    if e1.returncode or e2.returncode or r.returncode:
        return report(False, name, (e1.stderr + e2.stderr + r.stderr)[:200])
    err = screenshot_svg(svg, png)
    if err:
        return report(False, name, err)
    w, h, px = png_pixels(png)
    err = tl_size_error(w, h, 2)
    if err:
        return report(False, name, err)
    span = len(trace)
    marks = tl_marks(dense, span) + tl_marks(plain, span)
    most = max(max(m) for m in marks)
    bad = []
    check_lane(px, 0, dense, span, most, bad)
    check_lane(px, 1, plain, span, most, bad)
    check_axis(px, 2, bad)
    mixed = sum(len(s) > 1 for s in tl_bar(dense, span))
    report(not bad and most > 5 and mixed > 50, name, '; '.join(bad[:3]) if bad else
           '%d interrupts, up to %d in a column; %d columns both U and S (%s)' %
           (sum(marks[1]), most, mixed, png))


def check_malformed(tool, elf, nex, outdir):
    cases = [
        ('profile of non-N-Trace bytes', [tool, 'profile', '--elf', elf, elf], 1,
         r'byte offset [0-9]+: '),
        ('listing with an objdump that does not exist',
         [tool, 'decode', '--listing', '--objdump', '/nonexistent/objdump', '--elf', elf, nex],
         1, r'cannot run /nonexistent/objdump'),
        ('timeline of a missing file', [tool, 'timeline', '--elf', elf, '/nonexistent.nex'], 1,
         r'/nonexistent\.nex: '),
        ('profile without --elf', [tool, 'profile', nex], 2, r'needs --elf'),
        ('two profile forms', [tool, 'profile', '--json', '--svg', '--elf', elf, nex], 2,
         r'give one of --json, --folded, --svg'),
    ]
    for name, cmd, want, pattern in cases:
        r = run(cmd)
        ok = r.returncode == want and re.search(pattern, r.stderr)
        report(bool(ok), 'malformed: ' + name,
               r.stderr.strip().splitlines()[0][:100] if r.stderr.strip() else
               'exit %d' % r.returncode)


def main():
    tool, outdir, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(outdir, exist_ok=True)
    progs = {}
    for pcs in traces:
        elf = pcs[:-4] + '.elf'
        name = '%s %s' % (os.path.basename(os.path.dirname(pcs)), os.path.basename(pcs)[:-4])
        nex = os.path.join(outdir, name.replace(' ', '-') + '.nex')
        r = run([tool, 'encode', '--elf', elf, '--pcs', pcs, '--out', nex] + CODEC)
        if r.returncode:
            report(False, name + ' encode', r.stderr[:200])
            continue
        trace = read_pcs(pcs)
        progs[name] = (elf, nex, trace)
        check_listing(tool, elf, nex, trace, name)
        check_profile(tool, elf, nex, trace, name)
        check_pcseq(tool, elf, nex, pcs, outdir, name)
    if 'rv64 recurse' in progs:
        check_flame_graph(tool, progs['rv64 recurse'][0], progs['rv64 recurse'][1], outdir)
    else:
        report(False, 'flame graph in chromium', 'no rv64 recurse trace')
    if 'rv64 traps' in progs:
        check_timeline(tool, progs['rv64 traps'][0], progs['rv64 traps'][2], outdir)
        check_timeline_dense(tool, progs['rv64 traps'][0], progs['rv64 traps'][2], outdir)
        check_malformed(tool, progs['rv64 traps'][0], progs['rv64 traps'][1], outdir)
    else:
        report(False, 'timeline in chromium', 'no rv64 traps trace')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
