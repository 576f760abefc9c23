# SPDX-License-Identifier: BSD-2-Clause
# N-Trace codec library (lib/rvinsn, lib/ntrace): freestanding C shared by the
# host tool (tools/ntrace), the firmware encoder and the tests.  Other
# fragments use RVINSN_SRCS / NTRACE_SRCS / NTRACE_LIB_INC, and for the
# qualified ingress (lib/ntrace/ntrace_ingress.c with the TCI filters of
# lib/tci) NTRACE_INGRESS_SRCS / NTRACE_INGRESS_INC / NTRACE_INGRESS_HDRS.

RVINSN_SRCS     := lib/rvinsn/rvinsn.c
NTRACE_SRCS     := lib/ntrace/ntrace_msg.c lib/ntrace/ntrace_enc.c lib/ntrace/ntrace_dec.c
NTRACE_LIB_INC  := -Ilib/rvinsn -Ilib/ntrace
NTRACE_LIB_HDRS := $(wildcard lib/rvinsn/*.h lib/ntrace/*.h)
NTRACE_INGRESS_SRCS := lib/ntrace/ntrace_ingress.c lib/tci/tci_filter.c
NTRACE_INGRESS_INC  := -Ilib/tci
NTRACE_INGRESS_HDRS := $(wildcard lib/tci/*.h)

NTRACE_LIB_TESTS := $(BUILD)/host/test_rvinsn $(BUILD)/host/test_ntrace_msg \
                    $(BUILD)/host/test_ntrace_enc $(BUILD)/host/test_ntrace_roundtrip \
                    $(BUILD)/host/test_ntrace_block $(BUILD)/host/test_ntrace_golden

$(BUILD)/host/test_rvinsn: tests/host/test_rvinsn.c $(RVINSN_SRCS) $(NTRACE_LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(NTRACE_LIB_INC) -o $@ $< $(RVINSN_SRCS) $(CMOCKA_LIBS)

$(BUILD)/host/test_ntrace_%: tests/host/test_ntrace_%.c $(wildcard tests/host/test_ntrace_*.h) \
		$(wildcard tests/data/ntrace/golden/*.hex) \
		$(RVINSN_SRCS) $(NTRACE_SRCS) $(NTRACE_LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(NTRACE_LIB_INC) -Itests/host \
		-DNTRACE_GOLDEN_DIR='"$(abspath tests/data/ntrace/golden)"' -o $@ $< \
		$(RVINSN_SRCS) $(NTRACE_SRCS) $(CMOCKA_LIBS)

# The library must also build freestanding for the firmware (rv64imac).
$(BUILD)/ntrace-lib-rv/%.o: lib/%.c $(NTRACE_LIB_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) $(RV_CFLAGS) --specs=picolibc.specs $(NTRACE_LIB_INC) -c -o $@ $<

NTRACE_LIB_RV_OBJS := $(patsubst lib/%.c,$(BUILD)/ntrace-lib-rv/%.o,$(RVINSN_SRCS) $(NTRACE_SRCS))
ALL_TARGETS += $(NTRACE_LIB_RV_OBJS)

HOST_TESTS += $(NTRACE_LIB_TESTS)
