# (Numbered 80 so lib fragments that define FDT_SRCS etc. are read first.)
# The M-mode firmware: build/tracesbi.elf and build/tracesbi.bin.
FW_BUILD   := $(BUILD)/fw
PICOLIBC   := /usr/lib/picolibc/riscv64-unknown-elf
FW_INCLUDE := -Ifirmware/include -Ilib/fdt -Ilib/rvinsn -Ilib/ntrace -Ilib/tci -Idrivers/trace \
              -I$(PICOLIBC)/include

# The trace engine encodes with the N-Trace library (no decoder in M-mode).
FW_LIB_SRCS = lib/rvinsn/rvinsn.c lib/ntrace/ntrace_msg.c lib/ntrace/ntrace_enc.c \
              lib/ntrace/ntrace_ingress.c lib/tci/tci_filter.c
FW_C_SRCS   = $(wildcard firmware/*.c firmware/sbi/*.c firmware/trace/*.c platform/*.c \
                drivers/*/*.c) $(FDT_SRCS) $(FW_LIB_SRCS)
FW_S_SRCS  := $(wildcard firmware/*.S)
FW_OBJS     = $(patsubst %.c,$(FW_BUILD)/%.o,$(sort $(FW_C_SRCS))) \
              $(patsubst %.S,$(FW_BUILD)/%.S.o,$(FW_S_SRCS))

ALL_TARGETS += $(BUILD)/tracesbi.elf $(BUILD)/tracesbi.bin

# t3..t6 are S-mode's: the firmware's C code never uses them, so the ecall
# fast path (firmware/trap.S) need not save them.  scripts/check-fixed-regs.sh
# checks the linked image, library code included.
FW_FIXED_REGS := -ffixed-t3 -ffixed-t4 -ffixed-t5 -ffixed-t6

$(FW_BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC_RV) $(RV_CFLAGS) $(FW_FIXED_REGS) $(FW_INCLUDE) -MMD -MP -c $< -o $@

$(FW_BUILD)/%.S.o: %.S
	@mkdir -p $(dir $@)
	$(CC_RV) $(RV_CFLAGS) $(FW_INCLUDE) -MMD -MP -c $< -o $@

$(BUILD)/tracesbi.elf: $(FW_OBJS) linker/tracesbi.ld
	$(CC_RV) $(RV_CFLAGS) $(RV_LDFLAGS) -T linker/tracesbi.ld -o $@ $(FW_OBJS) \
		-L$(PICOLIBC)/lib/rv64imac/lp64 -lc $(RV_LIBGCC) -Wl,-Map,$(BUILD)/tracesbi.map
	@CROSS=$(CROSS) scripts/check-fixed-regs.sh $@ || { rm -f $@; exit 1; }
	@$(CROSS)size $@

$(BUILD)/tracesbi.bin: $(BUILD)/tracesbi.elf
	$(OBJCOPY_RV) -O binary $< $@

-include $(wildcard $(FW_BUILD)/*/*.d $(FW_BUILD)/*/*/*.d)

# Boot-level checks: banner/feature detection per CPU model, many harts,
# sparse hart IDs, the DT handed over, a bad DTB.
TEST_SUITES += boot
.PHONY: test-boot
test-boot: $(BUILD)/tracesbi.elf $(BUILD)/payloads/demo.elf $(BUILD)/payloads/target-tests.elf
	@scripts/run-boot-tests.sh $(BUILD)/tracesbi.elf $(BUILD)/payloads/demo.elf \
		$(BUILD)/payloads/target-tests.elf
