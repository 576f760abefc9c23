# SPDX-License-Identifier: BSD-2-Clause
# Board runs (scripts/run-board-tests.sh): the S-mode test kernel under
# tracesbi on QEMU's sifive_u (an E51 without S-mode, sifive,uart0,
# gpio-restart), spike (HTIF console and power-off) and the PolarFire SoC
# Icicle kit with Linux 6.1's DT (MMUART1, no reset device, a DDR alias).
TEST_SUITES += boards

.PHONY: suite-boards
suite-boards: $(PAYLOAD_DIR)/target-tests.elf $(BUILD)/tracesbi.elf $(BOARD_DTB_LIST)
	@scripts/run-board-tests.sh $(BUILD)/tracesbi.elf $(PAYLOAD_DIR)/target-tests.elf $(BOARD_DTB_DIR)

# platform/cpu_smode.c on the host: which cpu nodes describe S-mode, on a
# tree of cases and on QEMU sifive_u's and spike's own DTBs.
$(FDT_TEST_DIR)/qemu-sifive-u.dtb:
	@mkdir -p $(@D)
	$(call quiet,DUMPDTB)$(QEMU) -M sifive_u -smp 3 -display none -machine dumpdtb=$@.full 2>/dev/null
	@$(call fdt_trim_to_totalsize,$@.full,$@)
	@rm -f $@.full

$(FDT_TEST_DIR)/qemu-spike.dtb:
	@mkdir -p $(@D)
	$(call quiet,DUMPDTB)$(QEMU) -M spike -display none -machine dumpdtb=$@.full 2>/dev/null
	@$(call fdt_trim_to_totalsize,$@.full,$@)
	@rm -f $@.full

CPU_SMODE_BLOBS := $(addprefix $(FDT_TEST_DIR)/, cpus-smode.dtb qemu-sifive-u.dtb qemu-spike.dtb)

$(BUILD)/host/test_cpu_smode: tests/host/test_cpu_smode.c $(MOD_CPU_SMODE_SRCS) $(FDT_SRCS) \
		$(FDT_HEADERS) $(CPU_SMODE_BLOBS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -Ilib/fdt -I. \
		-DFDT_TEST_DIR='"$(abspath $(FDT_TEST_DIR))"' \
		-o $@ tests/host/test_cpu_smode.c $(MOD_CPU_SMODE_SRCS) $(FDT_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_cpu_smode
