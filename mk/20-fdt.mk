# SPDX-License-Identifier: BSD-2-Clause
# lib/fdt: bounds-checked flattened devicetree reader and in-place writer.
# FDT_SRCS is what the firmware compiles for RISC-V (freestanding, needs
# only memcpy/memmove/memset/memcmp/strlen/strcmp from the C library).
FDT_SRCS    := lib/fdt/fdt.c lib/fdt/fdt_rw.c
FDT_HEADERS := lib/fdt/fdt.h lib/fdt/fdt_internal.h

# Test blobs: .dts sources compiled with dtc, and QEMU's own DTBs.
FDT_TEST_DIR   := $(BUILD)/host/fdt
FDT_TEST_BLOBS := $(addprefix $(FDT_TEST_DIR)/, basic.dtb basic-v16.dtb odd.dtb \
                  qemu-virt.dtb qemu-virt-aclint.dtb basic-resv.dts qemu-virt-resv.dts)

$(FDT_TEST_DIR)/%.dtb: tests/data/fdt/%.dts
	@mkdir -p $(@D)
	$(call quiet,DTC)dtc -q -I dts -O dtb -o $@ $<

$(FDT_TEST_DIR)/basic-v16.dtb: tests/data/fdt/basic.dts
	@mkdir -p $(@D)
	$(call quiet,DTC)dtc -q -V 16 -I dts -O dtb -o $@ $<

# QEMU dumps its whole 1 MiB DT buffer: keep the blob's totalsize bytes.
fdt_trim_to_totalsize = head -c $$(od -An -tu4 --endian=big -j4 -N4 $(1)) $(1) > $(2)

$(FDT_TEST_DIR)/qemu-virt.dtb:
	@mkdir -p $(@D)
	$(call quiet,DUMPDTB)QEMU=$(QEMU) scripts/qemu-run.sh --bios none --cpu '' --smp 4 \
		--console none -- -machine dumpdtb=$@.full >/dev/null 2>&1
	@$(call fdt_trim_to_totalsize,$@.full,$@)
	@rm -f $@.full

$(FDT_TEST_DIR)/qemu-virt-aclint.dtb:
	@mkdir -p $(@D)
	$(call quiet,DUMPDTB)QEMU=$(QEMU) scripts/qemu-run.sh --machine virt-aclint --bios none \
		--cpu '' --smp 4 --console none -- -machine dumpdtb=$@.full >/dev/null 2>&1
	@$(call fdt_trim_to_totalsize,$@.full,$@)
	@rm -f $@.full

# What the writer test must turn X.dtb into, as dtc decompiles it: X.dtb's
# source with resv-overlay.dtsi merged in, compiled and decompiled again.
$(FDT_TEST_DIR)/%-resv.dts: $(FDT_TEST_DIR)/%.dtb tests/data/fdt/resv-overlay.dtsi
	$(call quiet,DTC)dtc -q -I dtb -O dts -o $@.src $<
	@cat tests/data/fdt/resv-overlay.dtsi >> $@.src
	$(call quiet,DTC)dtc -q -I dts -O dtb -o $@.dtb $@.src
	$(call quiet,DTC)dtc -q -I dtb -O dts -o $@ $@.dtb
	@rm -f $@.src $@.dtb

$(BUILD)/host/test_fdt: tests/host/test_fdt.c $(FDT_SRCS) $(FDT_HEADERS) $(FDT_TEST_BLOBS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -Ilib/fdt -DFDT_RW_CHECK_KNOWN \
		-DFDT_TEST_DIR='"$(abspath $(FDT_TEST_DIR))"' \
		-o $@ tests/host/test_fdt.c $(FDT_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_fdt

# tests/fuzz/fuzz_fdt.c (libFuzzer) is built and run by the fuzz suite
# (mk/70-ntrace-tests.mk), with the .dtb files above as seeds.
