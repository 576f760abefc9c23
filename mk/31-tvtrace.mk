# SPDX-License-Identifier: BSD-2-Clause
# Bluespec tandem-verification trace codec (lib/tvtrace): freestanding C for
# the firmware's TV mode and the host tools.  Other fragments use
# TVTRACE_SRCS / TVTRACE_INC / TVTRACE_HDRS.

TVTRACE_SRCS := lib/tvtrace/tvtrace.c
TVTRACE_INC  := -Ilib/tvtrace
TVTRACE_HDRS := $(wildcard lib/tvtrace/*.h)

$(BUILD)/host/test_tvtrace: tests/host/test_tvtrace.c tests/host/test_ntrace_golden.h \
		$(wildcard tests/data/tvtrace/*.hex) $(TVTRACE_SRCS) $(TVTRACE_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TVTRACE_INC) -Itests/host \
		-DTVTRACE_GOLDEN_DIR='"$(abspath tests/data/tvtrace)"' -o $@ $< \
		$(TVTRACE_SRCS) $(CMOCKA_LIBS)

# The library must also build freestanding for the firmware (rv64imac).
$(BUILD)/tvtrace-lib-rv/%.o: lib/%.c $(TVTRACE_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) $(RV_CFLAGS) --specs=picolibc.specs $(TVTRACE_INC) -c -o $@ $<

TVTRACE_RV_OBJS := $(patsubst lib/%.c,$(BUILD)/tvtrace-lib-rv/%.o,$(TVTRACE_SRCS))
ALL_TARGETS += $(TVTRACE_RV_OBJS)

HOST_TESTS += $(BUILD)/host/test_tvtrace
