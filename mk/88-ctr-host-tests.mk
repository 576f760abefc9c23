# SPDX-License-Identifier: BSD-2-Clause
# Host tests of the emulated Control Transfer Records (docs/CTR.md):
#   test_ctr     firmware/ctr/ctr_model.c, ctr_record.c, ctr_classify.c
#                and ctr_csr.c: registers, recording rule, transfer types,
#                the CSR instructions of both layouts
#   test_ctr_ingress  firmware/ctr/ctr_ingress.c: the trace engine's
#                ingress records turned into CTR records
#   test_ctr_hw  drivers/ctr/ctr_hw.c, the Smctr/Ssctr hardware path,
#                against a fake CSR file (CTR_HW_FAKE)

CTR_HOST_HDRS := $(wildcard firmware/ctr/ctr_*.h drivers/ctr/*.h) $(NTRACE_LIB_HDRS)
# -iquote: the repository root is the include root of "..." includes only,
# so no name of ours hides a host C library header.
CTR_HOST_INC  := -Idrivers/ctr -Ilib/rvinsn -Ilib/ntrace -iquote .

$(BUILD)/host/test_ctr: tests/host/test_ctr.c $(MOD_CTR_SRCS) $(CTR_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(CTR_HOST_INC) -o $@ \
		tests/host/test_ctr.c $(MOD_CTR_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_ctr

$(BUILD)/host/test_ctr_ingress: tests/host/test_ctr_ingress.c $(MOD_CTR_INGRESS_SRCS) \
		$(CTR_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(CTR_HOST_INC) -o $@ tests/host/test_ctr_ingress.c \
		$(MOD_CTR_INGRESS_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_ctr_ingress

$(BUILD)/host/test_ctr_hw: tests/host/test_ctr_hw.c $(MOD_CTR_HW_SRCS) $(CTR_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(CTR_HOST_INC) -DCTR_HW_FAKE -o $@ \
		tests/host/test_ctr_hw.c $(MOD_CTR_HW_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_ctr_hw
