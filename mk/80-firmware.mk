# SPDX-License-Identifier: BSD-2-Clause
# (Numbered 80 so lib fragments that define FDT_SRCS etc. are read first.)
# The M-mode firmware: build/tracesbi.elf and build/tracesbi.bin.
FW_BUILD   := $(BUILD)/fw
PICOLIBC   := /usr/lib/picolibc/riscv64-unknown-elf
# One include root, the repository's: every #include names its file's path
# ("firmware/core/hart.h", "lib/fdt/fdt.h").
FW_INCLUDE := -I. -I$(PICOLIBC)/include

# The trace engine encodes with the N-Trace library (no decoder in M-mode),
# and with the tandem-verification writer in TV mode.
FW_LIB_SRCS = lib/rvinsn/rvinsn.c lib/ntrace/ntrace_msg.c lib/ntrace/ntrace_enc.c \
              lib/ntrace/ntrace_ingress.c lib/tci/tci_filter.c lib/tvtrace/tvtrace.c
# asm_offsets.c is not linked: it gives the assembly its offsets
# (asm_offsets.h below).
FW_OFFSETS_SRC := firmware/trap/asm_offsets.c
FW_C_SRCS   = $(filter-out $(FW_OFFSETS_SRC),$(wildcard firmware/*/*.c platform/*.c \
                drivers/*/*.c)) $(FDT_SRCS) $(FW_LIB_SRCS)
FW_S_SRCS  := $(wildcard firmware/*/*.S)
FW_OBJS     = $(patsubst %.c,$(FW_BUILD)/%.o,$(sort $(FW_C_SRCS))) \
              $(patsubst %.S,$(FW_BUILD)/%.S.o,$(FW_S_SRCS))

ALL_TARGETS += $(BUILD)/tracesbi.elf $(BUILD)/tracesbi.bin

# t3..t6 are S-mode's: the firmware's C code never uses them, so the ecall
# fast path (firmware/trap/trap.S) need not save them.  scripts/check-fixed-regs.sh
# checks the linked image, library code included.
FW_FIXED_REGS := -ffixed-t3 -ffixed-t4 -ffixed-t5 -ffixed-t6

# Linker relaxation for the firmware's calls (auipc + jalr -> jal, tail ->
# j): one instruction less per call on every path.  gp stays S-mode's:
# linker/tracesbi.ld defines no __global_pointer$, without which ld never
# relaxes an access to gp-relative (payloads keep -mno-relax, see Makefile).
FW_RELAX := -mrelax -Wl,--relax

# The stepper's fused visits are one large function (firmware/trace/
# stepper.c, stepper_breakpoint()) that GCC's default regional register
# allocator spills more in: one region for the whole function, with
# register pressure weighed for its loops, saves about 1.3 % of the
# traced run's M-mode instructions (make bench-trace, HTM 78.0 -> 77.0;
# docs/TRACE.md "Cost").  Measured with Debian 12's GCC 12.  Its parts
# too: the block decoder costs 6 % more a decode without (773.7 against
# 728.1 instructions, scripts/profile-fw.py on u-pagefault).
STEPPER_OBJS := $(addsuffix .o,$(basename $(wildcard firmware/trace/stepper.c \
                                                     firmware/trace/step_*.c)))
$(addprefix %/,$(STEPPER_OBJS)): FW_FILE_FLAGS := -fira-region=one -fira-loop-pressure
# The encoder's hot functions hoist loop invariants into registers that
# its common paths then save and restore: HTM 77.0 -> 76.9, BTM 115.0 ->
# 113.6 without that.
%/lib/ntrace/ntrace_enc.o: FW_FILE_FLAGS := -fno-move-loop-invariants
# LR/SC sequences (a decoder and an evaluator, off every hot path) for size.
%/firmware/trace/lrsc.o: FW_FILE_FLAGS := -Os
# What runs only at boot (DT parsing and fix-up, feature probing, the
# banner) for size too: the 1 MiB region is full (docs/ARCHITECTURE.md
# "Memory").
FW_BOOT_ONLY_OBJS := $(addsuffix .o,$(basename $(wildcard firmware/boot/*.c) \
                     lib/fdt/fdt_rw.c platform/cpu_smode.c \
                     firmware/core/features.c firmware/core/fdt_irq.c))
$(addprefix %/,$(FW_BOOT_ONLY_OBJS)): FW_FILE_FLAGS := -Os

# One firmware image: its objects in a build directory of their own, then
# two links: the first with an empty symbol table, from which
# scripts/gen-fwsyms.py makes the table of the fault report (panic.c); the
# second adds it after the code (linker/tracesbi.ld), so no code address
# moves, which the rule checks.
#   $(1): build directory, $(2): image, $(3): extra compiler flags.
FW_LINK = $(CC_RV) $(RV_CFLAGS) $(RV_LDFLAGS) $(FW_RELAX) -T linker/tracesbi.ld \
	-L$(PICOLIBC)/lib/rv64imac/lp64
define fw_image
$(1)_OBJS := $(patsubst $(FW_BUILD)/%,$(1)/%,$(FW_OBJS))

$(1)/%.o: %.c
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC)$(CC_RV) $(RV_CFLAGS) $(FW_FIXED_REGS) $(FW_RELAX) $(3) $$(FW_FILE_FLAGS) $(FW_INCLUDE) -MMD -MP -c $$< -o $$@

$(1)/%.S.o: %.S
	@mkdir -p $$(dir $$@)
	$$(call quiet,CC)$(CC_RV) $(RV_CFLAGS) $(FW_RELAX) $(3) $(FW_INCLUDE) -I$(1)/gen -MMD -MP -c $$< -o $$@

# The offsets of the C structures the assembly reads: each "@@ NAME value"
# line of asm_offsets.c compiled to assembly becomes a #define.
$(1)/gen/asm_offsets.h: $(FW_OFFSETS_SRC)
	@mkdir -p $$(dir $$@)
	$$(call quiet,GEN)$(CC_RV) $(RV_CFLAGS) $(FW_FIXED_REGS) $(3) $(FW_INCLUDE) -MMD -MP -MT $$@ -MF $$@.d \
		-S $$< -o $$@.s
	@{ echo '/* Generated from $(FW_OFFSETS_SRC) by mk/80-firmware.mk: do not edit. */'; \
	  sed -n 's/.*@@ \([A-Z0-9_]*\) \(-\{0,1\}[0-9][0-9]*\).*/#define \1 \2/p' $$@.s; } > $$@.tmp
	@test "$$$$(grep -c '^#define' $$@.tmp)" -eq "$$$$(grep -c '@@ ' $$@.s)" || \
		{ echo "$$@: a line of $$@.s was not understood"; rm -f $$@.tmp; exit 1; }
	@mv $$@.tmp $$@

$(patsubst %.S,$(1)/%.S.o,$(FW_S_SRCS)): $(1)/gen/asm_offsets.h

$(1)/fwsyms-empty.c:
	@mkdir -p $$(@D)
	$$(call quiet,GEN): > $(1)/empty.nm && python3 scripts/gen-fwsyms.py $(1)/empty.nm $$@

$(1)/fwsyms-empty.o: $(1)/fwsyms-empty.c
	$$(call quiet,CC)$(CC_RV) $(RV_CFLAGS) -c $$< -o $$@

$(1)/fwsyms.o: $(1)/fwsyms.c
	$$(call quiet,CC)$(CC_RV) $(RV_CFLAGS) -c $$< -o $$@

$(1)/pass1.elf: $$($(1)_OBJS) $(1)/fwsyms-empty.o linker/tracesbi.ld linker/hook-tables.ld
	$$(call quiet,LD)$(FW_LINK) -o $$@ $$($(1)_OBJS) $(1)/fwsyms-empty.o -lc $(RV_LIBGCC)

$(1)/fwsyms.c: $(1)/pass1.elf scripts/gen-fwsyms.py
	$$(call quiet,GEN)$(CROSS)nm -n $$< > $(1)/pass1.nm && \
		python3 scripts/gen-fwsyms.py $(1)/pass1.nm $$@

$(2): $(1)/pass1.elf $(1)/fwsyms.o
	$$(call quiet,LD)$(FW_LINK) -o $$@ $$($(1)_OBJS) $(1)/fwsyms.o -lc $(RV_LIBGCC) -Wl,-Map,$$(basename $$@).map
	@$(CROSS)nm -n $$@ | grep ' [tT] ' > $$@.text.nm; grep ' [tT] ' $(1)/pass1.nm | \
		cmp -s - $$@.text.nm || { echo "$$@: code moved between the links"; rm -f $$@; exit 1; }
	@CROSS=$(CROSS) scripts/check-fixed-regs.sh $$@ || { rm -f $$@; exit 1; }
	@$(CROSS)size $$@
endef
$(eval $(call fw_image,$(FW_BUILD),$(BUILD)/tracesbi.elf,))

# The fault-injection build (tests only): tracesbi's extension gains the
# functions that make the firmware fault on purpose (sbi/tracesbi.c).
FW_DEBUG_BUILD := $(BUILD)/fw-debug
$(eval $(call fw_image,$(FW_DEBUG_BUILD),$(BUILD)/tracesbi-faultinject.elf,-DTRACESBI_FAULT_INJECT))

$(BUILD)/tracesbi.bin: $(BUILD)/tracesbi.elf
	$(call quiet,OBJCOPY)$(OBJCOPY_RV) -O binary $< $@

# (the generated headers' own: only today's, so that a header no longer
# generated is never asked for by a dependency file left in build/)
-include $(filter-out %.h.d,$(wildcard $(FW_BUILD)/*/*.d $(FW_BUILD)/*/*/*.d \
                    $(FW_DEBUG_BUILD)/*/*.d $(FW_DEBUG_BUILD)/*/*/*.d)) \
         $(wildcard $(FW_BUILD)/gen/asm_offsets.h.d $(FW_DEBUG_BUILD)/gen/asm_offsets.h.d)

# Boot-level checks: banner/feature detection per CPU model, many harts,
# sparse hart IDs, the DT handed over, a bad DTB, the report of injected
# M-mode faults.
TEST_SUITES += boot
.PHONY: suite-boot
suite-boot: $(BUILD)/tracesbi.elf $(BUILD)/payloads/demo.elf $(BUILD)/payloads/target-tests.elf \
		$(BUILD)/tracesbi-faultinject.elf $(BUILD)/boot/tracesbi-demo-payload.bin
	@scripts/run-boot-tests.sh $(BUILD)/tracesbi.elf $(BUILD)/payloads/demo.elf \
		$(BUILD)/payloads/target-tests.elf $(BUILD)/tracesbi-faultinject.elf \
		$(BUILD)/boot/tracesbi-demo-payload.bin
