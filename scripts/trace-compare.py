#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""Compare a decoded trace with the ground truth of one trace session.

    trace-compare.py (--elf PAYLOAD.elf [--elf more.elf] [--session K] |
        --whole) [--priv U|S|US] [--range A-B]... [--match exact|suffix|prefix]
        [--emit-window FILE] GROUND.pcs [DECODED.pcs]

GROUND.pcs is one hart's ground truth from scripts/trace-ground-truth.py
(`<hex pc>[ exc|int] <U|S|M>`); DECODED.pcs is what `build/tools/ntrace
decode` wrote (`<hex pc>[ exc|int]`; `#` comments and blank lines ignored).

Sessions.  The payload brackets each trace session with two symbols, read
from the symbol tables of the --elf files: `trace_first`, the first traced
instruction (right after the store that enables tracing), and `trace_last`,
the store that disables tracing (the last traced instruction).  Session K
(from 0) of the ground truth is the window from the K-th line at
trace_first to the next line at trace_last, both included.  Sessions do not
nest: a trace_first inside an open session is an error, as is a session that
is never closed or a K with no session.  A trace_last outside a session is
ignored.  One exception: when a trap is taken right after the enabling
store (the instruction that ends at trace_first; its line carries exc/int),
the traced execution starts with the trap handler, so the session starts at
the line after the store, and the one trace_first the handler returns to is
part of it (not a nested session).  At the other end, a trap taken right
after trace_last (the disabling store) comes after tracing stopped: the
window's last line loses its exc/int mark (also in --emit-window).

--whole: the window is the whole ground truth, for a trace that starts at
the hart's first S/U instruction (the firmware's boot option,
`tracesbi.trace=`: tests/trace/linux-run.py); no --elf is needed.

Comparison.  From the window: M lines are dropped (they never appear in a
decoded trace), then --priv keeps only instructions of those privileges and
--range (repeatable) only those whose pc is in [A, B) of one of the ranges;
both filters must hold.  The pcs and the marks (`exc`/`int`) of what is left
are compared with the decoded trace:
  exact   decoded == window;
  suffix  the decoded trace is a non-empty suffix of the window (the trace
          buffer wrapped and kept the newest messages);
  prefix  it is a non-empty prefix (stop-on-wrap kept the oldest).
On a mismatch the first differing position is printed with a few lines of
context from both sides and the exit status is 1; on success one summary
line (instructions compared).  Errors in the inputs also exit with 1.

--emit-window FILE writes the whole window (no filter, M lines kept) in the
ground-truth format, e.g. to encode it again with the host encoder.  With
--emit-window, DECODED.pcs may be omitted.
"""

import argparse
import os
import sys

from tsbi import elf as rvelf

PROG = 'trace-compare'
CONTEXT = 3


class CompareError(Exception):
    pass


def parse_gt_line(path, lineno, line):
    f = line.split()
    if len(f) == 2 and f[1] in ('U', 'S', 'M'):
        mark, priv = '', f[1]
    elif len(f) == 3 and f[1] in ('exc', 'int') and f[2] in ('U', 'S', 'M'):
        mark, priv = f[1], f[2]
    else:
        raise CompareError(f'{path}:{lineno}: bad ground-truth line '
                           f'{line.strip()[:80]!r}')
    try:
        pc = int(f[0], 16)
    except ValueError:
        raise CompareError(f'{path}:{lineno}: bad pc {f[0]!r}')
    return pc, mark, priv


def read_window(path, session, first, last, enable_pcs=()):
    """[(lineno, pc, mark, priv)] of session `session`.  enable_pcs: the pcs
    of the enabling store (the instruction that ends at trace_first)."""
    count = 0               # sessions started so far
    opened = None           # line number of the open session's first line
    via_trap = False        # opened after a trap on the enabling store
    start_next = False      # the next line opens a session (via_trap)
    window = None
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            pc, mark, priv = parse_gt_line(path, lineno, line)
            opens = False
            if start_next:
                start_next = False
                opens = via_trap = True
            elif pc == first:
                if opened is not None and via_trap:
                    via_trap = False    # the handler returned to trace_first
                elif opened is not None:
                    raise CompareError(
                        f'{path}:{lineno}: trace_first ({first:x}) again '
                        f'inside session {count - 1}, opened at line '
                        f'{opened}: sessions cannot nest')
                else:
                    opens = True
            if opens:
                opened = lineno
                count += 1
                if count - 1 == session:
                    window = []
            if window is not None:
                window.append((lineno, pc, mark, priv))
            if pc == last and opened is not None:
                opened = None
                via_trap = False
                if window is not None:
                    # Tracing stopped with the store: a trap after it is
                    # not part of the trace.
                    window[-1] = (lineno, pc, '', priv)
                    return window
            if pc in enable_pcs and mark and opened is None:
                start_next = True
    if window is not None:
        raise CompareError(f'{path}: session {session} (first line '
                           f'{window[0][0]}) has no trace_last ({last:x})')
    raise CompareError(f'{path}: no session {session}: the ground truth has '
                       f'{count} (trace_first = {first:x})')


def read_whole(path):
    """[(lineno, pc, mark, priv)] of every line (--whole)."""
    with open(path) as f:
        window = [(lineno, *parse_gt_line(path, lineno, line))
                  for lineno, line in enumerate(f, 1)]
    if not window:
        raise CompareError(f'{path}: empty ground truth')
    return window


def enabling_store(images, first):
    """The pcs of the instruction that ends right at trace_first."""
    pcs = set()
    for size in (2, 4):
        got = images.decode(first - size)
        if got is not None and got[2] == size:
            pcs.add(first - size)
    return pcs


def read_decoded(path):
    recs = []
    with open(path) as f:
        for lineno, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith('#'):
                continue
            fields = text.split()
            mark = fields[1] if len(fields) > 1 else ''
            if len(fields) > 2 or mark not in ('', 'exc', 'int'):
                raise CompareError(f'{path}:{lineno}: bad line {text[:80]!r}')
            try:
                pc = int(fields[0], 16)
            except ValueError:
                raise CompareError(f'{path}:{lineno}: bad pc {fields[0]!r}')
            recs.append((lineno, pc, mark))
    return recs


def fmt(pc, mark):
    return f'{pc:x} {mark}' if mark else f'{pc:x}'


def report_mismatch(exp, got, offset, i, gt_path, dec_path, why):
    """exp[offset + i] and got[i] differ (or one side has ended)."""
    print(f'{PROG}: mismatch at compared instruction {i + 1}: {why}')
    print(f'    left: ground truth {gt_path}, right: decoded {dec_path} '
          '(line numbers in those files)')
    for k in range(max(0, i - CONTEXT), i + CONTEXT + 1):
        e = exp[offset + k] if 0 <= offset + k < len(exp) else None
        g = got[k] if k < len(got) else None
        if e is None and g is None:
            break
        left = (f'{e[0]:>8}  {fmt(e[1], e[2]):<20}' if e else
                f'{"":>8}  {"(end)" if offset + k == len(exp) else "":<20}')
        right = (f'{g[0]:>8}  {fmt(g[1], g[2])}' if g else
                 f'{"":>8}  {"(end)" if k == len(got) else ""}')
        print(f'{">>" if k == i else "  "}{left}{right}'.rstrip())


def compare(exp, got, match, gt_path, dec_path):
    """exp: [(gt lineno, pc, mark)], got: [(lineno, pc, mark)].  Returns the
    number of instructions compared, or None after a mismatch report."""
    if match != 'exact' and not got:
        raise CompareError(f'{dec_path}: empty decoded trace (--match '
                           f'{match} needs at least one instruction)')
    offset = 0
    if match == 'suffix':
        offset = len(exp) - len(got)
        if offset < 0:
            report_mismatch(exp, got, 0, len(exp), gt_path, dec_path,
                            f'the decoded trace ({len(got)} instructions) is '
                            f'longer than the window ({len(exp)})')
            return None
    n = len(got) if match != 'exact' else max(len(exp), len(got))
    for i in range(n):
        e = exp[offset + i] if offset + i < len(exp) else None
        g = got[i] if i < len(got) else None
        if e is None:
            why = (f'the decoded trace goes on after the window\'s '
                   f'{len(exp)} instructions')
        elif g is None:
            why = (f'the decoded trace ends after {len(got)} of the '
                   f'window\'s {len(exp)} instructions')
        elif e[1] != g[1]:
            why = f'pc {g[1]:x} decoded, {e[1]:x} expected'
        elif e[2] != g[2]:
            why = (f'at {e[1]:x}: mark {g[2] or "(none)"!s} decoded, '
                   f'{e[2] or "(none)"} expected')
        else:
            continue
        report_mismatch(exp, got, offset, i, gt_path, dec_path, why)
        return None
    return n


def main():
    ap = argparse.ArgumentParser(
        description=__doc__.split('\n\n')[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog='See the header of this script for the rules.')
    ap.add_argument('--elf', action='append', default=[],
                    metavar='PAYLOAD.elf',
                    help='image(s) defining trace_first and trace_last')
    ap.add_argument('--whole', action='store_true',
                    help='the window is the whole ground truth (no sessions)')
    ap.add_argument('--session', type=int, default=0, metavar='K',
                    help='session number, from 0 (default 0)')
    ap.add_argument('--priv', choices=('U', 'S', 'US'), default='US',
                    help='keep only instructions of these privileges')
    ap.add_argument('--range', action='append', default=[], metavar='A-B',
                    help='keep only pcs in [A, B) (hex; repeatable)')
    ap.add_argument('--match', choices=('exact', 'suffix', 'prefix'),
                    default='exact')
    ap.add_argument('--emit-window', metavar='FILE',
                    help='write the session window (ground-truth format)')
    ap.add_argument('ground', metavar='GROUND.pcs')
    ap.add_argument('decoded', metavar='DECODED.pcs', nargs='?')
    args = ap.parse_args()
    if args.decoded is None and args.emit_window is None:
        ap.error('DECODED.pcs is required unless --emit-window is given')
    if args.session < 0:
        ap.error('--session must be >= 0')
    if not args.elf and not args.whole:
        ap.error('--elf is required (the session symbols), unless --whole')
    ranges = []
    for r in args.range:
        try:
            ranges.append(rvelf.parse_range(r))
        except ValueError as e:
            ap.error(f'--range: {e}')
    try:
        if args.whole:
            window = read_whole(args.ground)
        else:
            images = rvelf.Images(rvelf.open_spec(p) for p in args.elf)
            first = images.symbol('trace_first')
            last = images.symbol('trace_last')
            window = read_window(args.ground, args.session, first, last,
                                 enabling_store(images, first))
        if args.emit_window:
            with open(args.emit_window, 'w') as out:
                out.write(''.join(f'{fmt(pc, mark)} {priv}\n'
                                  for _, pc, mark, priv in window))
        if args.decoded is None:
            print(f'{PROG}: session {args.session} ({args.ground} lines '
                  f'{window[0][0]}-{window[-1][0]}): {len(window)} lines '
                  f'written to {args.emit_window}')
            return 0
        exp = [(ln, pc, mark) for ln, pc, mark, priv in window
               if priv != 'M' and priv in args.priv and
               (not ranges or any(a <= pc < b for a, b in ranges))]
        got = read_decoded(args.decoded)
        n = compare(exp, got, args.match, args.ground, args.decoded)
    except (CompareError, rvelf.ElfError) as e:
        print(f'{PROG}: {e}', file=sys.stderr)
        return 1
    except OSError as e:
        print(f'{PROG}: {e.filename}: {e.strerror}', file=sys.stderr)
        return 1
    if n is None:
        return 1
    filters = [f'priv {args.priv}'] if args.priv != 'US' else []
    filters += [f'range {a:x}-{b:x}' for a, b in ranges]
    what = 'whole ground truth' if args.whole else f'session {args.session}'
    print(f'{PROG}: {what} ({args.ground} lines '
          f'{window[0][0]}-{window[-1][0]}'
          f'{", " + ", ".join(filters) if filters else ""}): '
          f'{n} instructions compared, {args.match} match')
    return 0


if __name__ == '__main__':
    sys.exit(main())
