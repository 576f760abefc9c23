# SPDX-License-Identifier: BSD-2-Clause
# Misaligned load/store emulation: the firmware source (picked up by the
# firmware fragment through MISALIGNED_SRCS) and its host test.

MISALIGNED_SRCS = $(MOD_MISALIGNED_SRCS)

MISALIGNED_HDRS := firmware/emu/misaligned.h firmware/emu/memaccess.h firmware/core/trap_regs.h \
                   firmware/core/umem.h firmware/core/riscv_csr.h
MISALIGNED_TEST := tests/host/test_misaligned.c

HOST_TESTS += $(BUILD)/host/test_misaligned

# The test's instruction encoders are cross-checked against the assembler:
# every `ASM_CHECK("text", ...)` line of the test is assembled (compressed
# mnemonics with RVC on, the others with it off so they stay 32-bit) and the
# bytes become misaligned_asm.inc, which the test includes.
$(BUILD)/host/misaligned_asm.inc: $(MISALIGNED_TEST) mk/25-misaligned.mk
	@mkdir -p $(@D)
	$(call quiet,GEN){ echo '.option norvc'; \
	  sed -n 's/^[[:space:]]*ASM_CHECK("\([^"]*\)".*/\1/p' $< | \
	  sed 's/^c\..*/.option rvc\n&\n.option norvc/'; } > $(@D)/misaligned_asm.s
	$(call quiet,AS)$(CROSS)as -march=rv64gc_zfh -o $(@D)/misaligned_asm.o $(@D)/misaligned_asm.s
	$(call quiet,OBJCOPY)$(OBJCOPY_RV) -O binary -j .text $(@D)/misaligned_asm.o $(@D)/misaligned_asm.bin
	@od -An -tx1 -v $(@D)/misaligned_asm.bin | \
	  sed 's/[0-9a-f][0-9a-f]/0x&,/g' > $@.tmp
	@mv $@.tmp $@

# The same source must also build for the firmware, warning-free; checking
# it here keeps `make test-host` honest about that.
$(BUILD)/host/misaligned-rv64.o: $(MISALIGNED_SRCS) $(MISALIGNED_HDRS)
	@mkdir -p $(@D)
	$(call quiet,CC)for s in $(MISALIGNED_SRCS); do $(CC_RV) $(RV_CFLAGS) -I. -c -o $@ $$s || exit 1; done

# -iquote: the repository root is the include root of "..." includes only,
# so no name of ours hides a host C library header.
$(BUILD)/host/test_misaligned: $(MISALIGNED_TEST) $(MISALIGNED_SRCS) \
		$(MISALIGNED_HDRS) $(BUILD)/host/misaligned_asm.inc \
		$(BUILD)/host/misaligned-rv64.o
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -iquote . -iquote $(@D) -o $@ \
		$(MISALIGNED_TEST) $(MISALIGNED_SRCS) $(CMOCKA_LIBS)
