# SPDX-License-Identifier: BSD-2-Clause
"""Firmware boot arguments (`tracesbi.trace=` words) as make trace merges
them: scripts/trace-listing.py, tested by tests/trace/listing-test.py."""

# The payload's default timer period (400) makes TV mode, ~1600 M-mode
# instructions per traced one, spend its time in the tick handler.
DEFAULT = 'tick=3000'


def merge(defaults, given):
    """Words of `defaults` not named in `given`, then `given`'s words.  A
    word's name is what comes before its `=` (all of a flag)."""
    name = lambda w: w.split('=', 1)[0]  # noqa: E731
    named = {name(w) for w in given.split()}
    return ' '.join([w for w in defaults.split() if name(w) not in named] + given.split())
