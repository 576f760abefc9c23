# SPDX-License-Identifier: BSD-2-Clause
"""tsbi: the Python library of tracesbi's scripts and tests.

  qemu          the one place that starts QEMU (scripts/qemu-run.sh for shells)
  suite         PASS:/FAIL: result lines of a suite written in Python
  elf           little-endian RISC-V ELF images, instruction classification
  qemulog       the one parser of QEMU's -singlestep -d exec,nochain,int log
  qemu_monitor  QEMU's human monitor over a socket
  trace_save    saving the trace buffers of a running machine (trace-save.py)
  bootargs      make trace's boot arguments (trace-listing.py)

How to import it: a program in scripts/ needs nothing (Python puts the
script's own directory, scripts/, first on sys.path); a program elsewhere
starts with the two-line bootstrap

    # The tsbi package (scripts/tsbi) of this checkout.
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))

(its directory two levels below the top: tests/trace, tests/linux).
"""
