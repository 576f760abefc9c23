# SPDX-License-Identifier: BSD-2-Clause
# SBI call cost benchmark (part of `make bench`): instructions per call, boot
# instructions and the PMU calls' cost of tracesbi and of Debian's OpenSBI,
# under -icount shift=0 on one hart; tables in build/results/bench-sbi.md.
$(PAYLOAD_DIR)/bench.elf: $(TARGET_RT_OBJS) $(TARGET_OBJDIR)/bench.o $(TARGET_DIR)/link.ld
	$(call quiet,CC)$(CC_RV) $(TARGET_LDFLAGS) -o $@ $(TARGET_RT_OBJS) $(TARGET_OBJDIR)/bench.o $(RV_LIBS)

ALL_TARGETS += $(PAYLOAD_DIR)/bench.elf
BENCH_TARGETS += bench-sbi

.PHONY: bench-sbi
bench-sbi: $(PAYLOAD_DIR)/bench.elf $(BUILD)/tracesbi.elf
	@scripts/bench-sbi.sh $(BUILD)/tracesbi.elf $(OPENSBI_FW) $(PAYLOAD_DIR)/bench.elf
