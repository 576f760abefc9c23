# SPDX-License-Identifier: BSD-2-Clause
# Host tests of the SBI PMU core: firmware/pmu/pmu.c against a fake PMU
# (PMU_HW_FAKE: pmu_hw.h then declares the CSR accessors the test supplies)
# and drivers/pmu/pmu_map.c, the "riscv,pmu" DT map, against hand-built
# blobs and the DTBs QEMU dumps (mk/20-fdt.mk).

PMU_HOST_HDRS := firmware/pmu/pmu.h firmware/pmu/pmu_hw.h \
                 drivers/pmu/pmu_map.h firmware/core/platform.h \
                 firmware/sbi/ecall.h firmware/core/sbi_spec.h $(FDT_HEADERS)
# -iquote: the repository root is the include root of "..." includes only,
# so no name of ours hides a host C library header.
PMU_HOST_INC  := -iquote . -iquote lib/fdt

$(BUILD)/host/test_pmu_map: tests/host/test_pmu_map.c $(MOD_PMU_MAP_SRCS) $(FDT_SRCS) \
		$(PMU_HOST_HDRS) $(FDT_TEST_DIR)/qemu-virt.dtb $(FDT_TEST_DIR)/qemu-virt-aclint.dtb
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(PMU_HOST_INC) \
		-DFDT_TEST_DIR='"$(abspath $(FDT_TEST_DIR))"' -o $@ \
		tests/host/test_pmu_map.c $(MOD_PMU_MAP_SRCS) $(FDT_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_pmu: tests/host/test_pmu.c $(MOD_PMU_SRCS) \
		$(FDT_SRCS) $(PMU_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(PMU_HOST_INC) -DPMU_HW_FAKE -o $@ \
		tests/host/test_pmu.c $(MOD_PMU_SRCS) $(FDT_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_pmu_map $(BUILD)/host/test_pmu
