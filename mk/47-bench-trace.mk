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

# make profile-trace [PROG=sort] [APPEND="mode=btm"]: where the firmware's
# M-mode instructions go while it traces one program of that payload (per
# function, from QEMU's execution log; scripts/profile-fw.py).
PROG ?= sort
APPEND ?=
.PHONY: profile-trace
profile-trace: $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/trace-prog.elf
	@python3 scripts/profile-fw.py --fw $(BUILD)/tracesbi.elf \
		--payload $(PAYLOAD_DIR)/trace-prog.elf --prog $(PROG) --append "$(APPEND)"
