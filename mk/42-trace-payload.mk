# SPDX-License-Identifier: BSD-2-Clause
# The traced-program payload (tests/target/trace): an S-mode kernel that
# runs S- and U-mode programs while tracesbi traces them; `make test-trace`
# (mk/72-trace-tests.mk) checks its traces against QEMU's execution log.

TRACE_PAYLOAD_DIR := tests/target/trace
TRACE_PAYLOAD_OBJ := $(PAYLOAD_DIR)/obj/trace
TRACE_PAYLOAD_SRCS := entry.S kernel.c progs.c uprogs.c fp.S
TRACE_PAYLOAD_CFLAGS = $(TARGET_CFLAGS) -I$(TRACE_PAYLOAD_DIR) -Ilib/fdt -Ilib/tci -Idrivers/trace \
                        -idirafter $(PICOLIBC)/include
TRACE_PAYLOAD_OBJS := $(patsubst %,$(TRACE_PAYLOAD_OBJ)/%.o,$(basename $(TRACE_PAYLOAD_SRCS))) \
                      $(TRACE_PAYLOAD_OBJ)/tci.o $(TRACE_PAYLOAD_OBJ)/fdt.o

$(TRACE_PAYLOAD_OBJ)/%.o: $(TRACE_PAYLOAD_DIR)/%.c
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC_RV) $(TRACE_PAYLOAD_CFLAGS) -c $< -o $@

$(TRACE_PAYLOAD_OBJ)/%.o: $(TRACE_PAYLOAD_DIR)/%.S
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC_RV) $(TRACE_PAYLOAD_CFLAGS) -c $< -o $@

$(TRACE_PAYLOAD_OBJ)/tci.o: drivers/trace/tci.c
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC_RV) $(TRACE_PAYLOAD_CFLAGS) -c $< -o $@

$(TRACE_PAYLOAD_OBJ)/fdt.o: lib/fdt/fdt.c
	@mkdir -p $(@D)
	$(call quiet,CC)$(CC_RV) $(TRACE_PAYLOAD_CFLAGS) -c $< -o $@

$(PAYLOAD_DIR)/trace-prog.elf: $(TARGET_RT_OBJS) $(TRACE_PAYLOAD_OBJS) $(TRACE_PAYLOAD_DIR)/link.ld
	$(call quiet,CC)$(CC_RV) $(RV_LDFLAGS) -T $(TRACE_PAYLOAD_DIR)/link.ld -o $@ $(TARGET_RT_OBJS) \
		$(TRACE_PAYLOAD_OBJS) $(RV_LIBS)

-include $(wildcard $(TRACE_PAYLOAD_OBJ)/*.d)

ALL_TARGETS += $(PAYLOAD_DIR)/trace-prog.elf
