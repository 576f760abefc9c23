#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-2-Clause
# Boots one firmware (and S-mode kernel) on a QEMU machine, bounded by a
# timeout, console on stdout and (with --log) in a log file: the shell
# runners' way of starting QEMU.  The one implementation is the tsbi
# package's (scripts/tsbi/qemu.py: the machines, their options, the icount
# modes), which the Python runners import.
#
# usage: qemu-run.sh [--machine virt|sifive_u|spike|icicle] --bios FW
#                    [--kernel ELF] [--smp N] [--cpu CPU] [--mem SIZE]
#                    [--append ARGS] [--initrd FILE] [--dtb FILE]
#                    [--timeout SECONDS] [--log FILE] [--icount [exact|held|bench]]
#                    [--print] [-- QEMU ARGS...]
# Exits with QEMU's status, or 124 when the timeout expired.
exec python3 "$(dirname "$0")/tsbi/qemu.py" "$@"
