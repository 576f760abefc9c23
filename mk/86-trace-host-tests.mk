# SPDX-License-Identifier: BSD-2-Clause
# Host tests of the trace engine's pure parts, against docs/TRACE.md and the
# Trace Control Interface 1.0:
#   test_tci_encoder   firmware/trace/tci_encoder.c, the emulated encoder's
#                      registers (with lib/tci filters and the timestamp unit)
#   test_tci_ramsink   firmware/trace/tci_ramsink.c, the RAM sink's registers
#                      and data path over a fake S-mode memory
#   test_tci_filter    lib/tci/tci_filter.c, filter/comparator WARL and
#                      tci_qualify()
#   test_ntrace_ingress  lib/ntrace/ntrace_ingress.c, qualification around
#                      the N-Trace encoder (output parsed with ntrace_msg_parse)
#   test_tv_decode     firmware/trace/tv_decode.c, what TV mode reads from an
#                      instruction (destination, memory operands, CSR, flow)
#   test_lrsc          firmware/trace/lrsc.c, the constrained LR/SC sequences
#                      lrsc_scan() takes or refuses (ISA "Zalrsc") over a fake
#                      memory, and the path lrsc_replay() finds from registers
#   test_stepper       firmware/trace/stepper.c, block stepping's visits on a
#                      model hart running random programs, against the
#                      per-record path (the same bytes as `ntrace encode`)
# (test_ntrace_ingress has its own rule below: the test_ntrace_% pattern rule
# of mk/30 links neither ntrace_ingress.c nor tci_filter.c.)

TRACE_HOST_HDRS := $(wildcard firmware/trace/tci_*.h lib/tci/*.h) $(NTRACE_LIB_HDRS)
# -iquote: the repository root is the include root of "..." includes only,
# so no name of ours hides a host C library header.
TRACE_HOST_INC  := -Ilib/tci -Ilib/ntrace -Ilib/rvinsn -iquote .

$(BUILD)/host/test_tci_encoder: tests/host/test_tci_encoder.c $(MOD_TCI_ENC_SRCS) \
		$(TRACE_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TRACE_HOST_INC) -o $@ \
		tests/host/test_tci_encoder.c $(MOD_TCI_ENC_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_tci_ramsink: tests/host/test_tci_ramsink.c $(MOD_TCI_SINK_SRCS) \
		$(TRACE_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TRACE_HOST_INC) -o $@ \
		tests/host/test_tci_ramsink.c $(MOD_TCI_SINK_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_tci_filter: tests/host/test_tci_filter.c $(MOD_TCI_FILTER_SRCS) $(TRACE_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TRACE_HOST_INC) -o $@ \
		tests/host/test_tci_filter.c $(MOD_TCI_FILTER_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_ntrace_ingress: tests/host/test_ntrace_ingress.c lib/ntrace/ntrace_ingress.c \
		lib/tci/tci_filter.c $(RVINSN_SRCS) $(NTRACE_SRCS) $(TRACE_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TRACE_HOST_INC) -o $@ \
		tests/host/test_ntrace_ingress.c lib/ntrace/ntrace_ingress.c lib/tci/tci_filter.c \
		$(RVINSN_SRCS) $(NTRACE_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_tv_decode: tests/host/test_tv_decode.c $(MOD_TV_DECODE_SRCS) \
		firmware/trace/tv_decode.h $(NTRACE_LIB_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TRACE_HOST_INC) -o $@ \
		tests/host/test_tv_decode.c $(MOD_TV_DECODE_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_lrsc: tests/host/test_lrsc.c $(MOD_LRSC_SRCS) firmware/trace/lrsc.h \
		$(NTRACE_LIB_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -Ilib/rvinsn -o $@ \
		tests/host/test_lrsc.c $(MOD_LRSC_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_stepper: tests/host/test_stepper.c $(MOD_STEPPER_SRCS) \
		$(wildcard firmware/trace/*.h firmware/core/*.h firmware/service/*.h) $(NTRACE_LIB_HDRS)
	@mkdir -p $(@D)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -DTSBI_HOST_CSR -o $@ \
		tests/host/test_stepper.c $(MOD_STEPPER_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_tci_encoder $(BUILD)/host/test_tci_ramsink \
              $(BUILD)/host/test_tci_filter $(BUILD)/host/test_ntrace_ingress \
              $(BUILD)/host/test_tv_decode $(BUILD)/host/test_lrsc \
              $(BUILD)/host/test_stepper
