# SPDX-License-Identifier: BSD-2-Clause
# make bench-trace: the software trace encoder's cost (M-mode instructions
# per traced instruction, slowdown) for block stepping in HTM and BTM and for
# single-stepping, from -icount runs of the traced-program payload, and its
# compression (bits per instruction) beside the host encoder's, byte
# identity checked (scripts/bench-trace.py).  Table in
# build/results/bench-trace.md; work files in build/bench-trace.

.PHONY: bench-trace
bench-trace: $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/trace-prog.elf $(BUILD)/tools/ntrace
	@python3 scripts/bench-trace.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --ntrace $(BUILD)/tools/ntrace \
		--workdir $(BUILD)/bench-trace --out $(BUILD)/results/bench-trace.md

# make bench-trace-linux: the same for a Linux boot (the test kernel of
# mk/50-linux.mk on 1 hart): M-mode instructions per traced instruction,
# instructions per stepped block, slowdown in instructions and wall time,
# bits per instruction, for its first ~million instructions and for the
# whole boot to user space; then for a program traced from Linux through
# the perf trace PMU (linux-trace/; one boot on 2 harts, init's trace-bench
# mode, tests/linux/trace_bench.c): tsbi-traced untraced, recorded user only
# and user+kernel, its instructions from execve to exit on CPU 0, slowdown
# in instructions and wall time, M-mode instructions per decoded
# instruction, bits per instruction, TCI register accesses per start+stop
# of the encoder, and the cost of a context switch of a traced task
# (tsbi-pingpong through pipes, traced against untraced)
# (scripts/bench-trace-linux.py; BENCH_ARGS="--only program" runs the
# program part alone, "--only boot" the boot part).  Tables in
# build/results/bench-trace-linux.md; work files in build/bench-trace-linux.
BENCH_ARGS ?=
.PHONY: bench-trace-linux
bench-trace-linux: $(BUILD)/tracesbi.elf $(BUILD)/tools/ntrace linux-kernel
	@python3 scripts/bench-trace-linux.py --fw $(BUILD)/tracesbi.elf \
		--kernel $(BUILD)/linux/Image --vmlinux $(BUILD)/linux/vmlinux \
		--ntrace $(BUILD)/tools/ntrace --workdir $(BUILD)/bench-trace-linux \
		--out $(BUILD)/results/bench-trace-linux.md $(BENCH_ARGS)

# make profile-trace [PROG=sort] [APPEND="mode=btm"]: where the firmware's
# M-mode instructions go while it traces one program of that payload (per
# function, from QEMU's execution log; scripts/profile-fw.py).
PROG ?= sort
APPEND ?=
.PHONY: profile-trace
profile-trace: $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/trace-prog.elf
	@python3 scripts/profile-fw.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --prog $(PROG) --append "$(APPEND)"
