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
