# SPDX-License-Identifier: BSD-2-Clause
# tvtrace host tool (tools/tvtrace): dump and check Bluespec tandem-
# verification traces (lib/tvtrace, mk/31-tvtrace.mk).  It loads ELF files
# with the ntrace tool's image loader (tools/ntrace/image.c and loadmap.c, pcs.c for its
# error type) and decodes with lib/rvinsn.  Its tests run in `make
# test-host`: test_tvtrace_tool (the core: dump, every check rule, against
# a tiny assembled program) and test_tvtrace_tool_cli (exit statuses and
# messages of a sanitizer build, malformed files).

TVTRACE_TOOL_DIR  := tools/tvtrace
TVTRACE_TOOL_CORE := $(TVTRACE_TOOL_DIR)/trace.c $(TVTRACE_TOOL_DIR)/dump.c \
                     $(TVTRACE_TOOL_DIR)/operands.c $(TVTRACE_TOOL_DIR)/check.c \
                     $(TVTRACE_TOOL_DIR)/check_insn.c $(TVTRACE_TOOL_DIR)/check_mem.c \
                     $(TVTRACE_TOOL_DIR)/check_csr.c
TVTRACE_TOOL_LIBSRCS := $(TVTRACE_SRCS) $(RVINSN_SRCS) \
                     $(NTRACE_TOOL_DIR)/image.c $(NTRACE_TOOL_DIR)/loadmap.c $(NTRACE_TOOL_DIR)/pcs.c
TVTRACE_TOOL_HDRS := $(wildcard $(TVTRACE_TOOL_DIR)/*.h) $(TVTRACE_HDRS) \
                     $(NTRACE_TOOL_HDRS)
TVTRACE_TOOL_INC  := -I$(TVTRACE_TOOL_DIR) $(NTRACE_TOOL_INC) $(TVTRACE_INC)
TVTRACE_TOOL_SRCS := $(TVTRACE_TOOL_CORE) $(TVTRACE_TOOL_DIR)/main.c $(TVTRACE_TOOL_LIBSRCS)

ALL_TARGETS += $(BUILD)/tools/tvtrace

$(BUILD)/tools/tvtrace: $(TVTRACE_TOOL_SRCS) $(TVTRACE_TOOL_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(TVTRACE_TOOL_INC) -o $@ $(TVTRACE_TOOL_SRCS) -lelf

# The program the traces of the tests run (built, never committed).
TVTRACE_TOOL_DATA    := tests/data/tvtrace/tool
TVTRACE_TOOL_TESTBIN := $(BUILD)/host/tvtrace_tool

$(TVTRACE_TOOL_TESTBIN)/prog.elf: $(TVTRACE_TOOL_DATA)/prog.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80000000 -Wl,--no-relax -o $@ $<

TVTRACE_TOOL_TEST_CFLAGS := $(HOST_CFLAGS) $(HOST_SAN) $(TVTRACE_TOOL_INC) -Itests/host \
	-DTV_TEST_ELF='"$(abspath $(TVTRACE_TOOL_TESTBIN)/prog.elf)"' \
	-DTV_TEST_GOLDEN='"$(abspath tests/data/tvtrace)"'

$(BUILD)/host/test_tvtrace_tool: tests/host/test_tvtrace_tool.c tests/host/test_tvtrace_tool.h \
		$(TVTRACE_TOOL_CORE) $(TVTRACE_TOOL_LIBSRCS) $(TVTRACE_TOOL_HDRS) \
		$(TVTRACE_TOOL_TESTBIN)/prog.elf $(wildcard tests/data/tvtrace/*.hex)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(TVTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(TVTRACE_TOOL_CORE) \
		$(TVTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) -lelf

HOST_TESTS += $(BUILD)/host/test_tvtrace_tool

# Command-line contract, on a copy of the tool built with the sanitizers.
$(TVTRACE_TOOL_TESTBIN)/tvtrace-san: $(TVTRACE_TOOL_SRCS) $(TVTRACE_TOOL_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(TVTRACE_TOOL_INC) -o $@ $(TVTRACE_TOOL_SRCS) -lelf

$(BUILD)/host/test_tvtrace_tool_cli: tests/host/test_tvtrace_tool_cli.c tests/host/test_tvtrace_tool.h tests/host/test_tool_cli.h \
		$(TVTRACE_TOOL_TESTBIN)/tvtrace-san $(TVTRACE_TOOL_TESTBIN)/prog.elf \
		$(TVTRACE_SRCS) $(TVTRACE_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(TVTRACE_TOOL_TEST_CFLAGS) \
		-DTV_TEST_TOOL='"$(abspath $(TVTRACE_TOOL_TESTBIN)/tvtrace-san)"' -o $@ $< \
		$(TVTRACE_SRCS) $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_tvtrace_tool_cli

# Suite tvtrace: check on real execution (QEMU, a few seconds), see
# tests/host/tvtrace-qemu.sh.
TEST_SUITES += tvtrace

$(TVTRACE_TOOL_TESTBIN)/smode.elf: $(TVTRACE_TOOL_DATA)/smode.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80200000 -Wl,--no-relax -o $@ $<

$(TVTRACE_TOOL_TESTBIN)/smode.bin: $(TVTRACE_TOOL_TESTBIN)/smode.elf
	$(call quiet,OBJCOPY)$(OBJCOPY_RV) -O binary $< $@

.PHONY: suite-tvtrace
suite-tvtrace: $(BUILD)/tracesbi.elf $(BUILD)/tools/tvtrace $(TVTRACE_TOOL_TESTBIN)/smode.elf \
		$(TVTRACE_TOOL_TESTBIN)/smode.bin
	@tests/host/tvtrace-qemu.sh $(BUILD)/tracesbi.elf $(TVTRACE_TOOL_TESTBIN)/smode.elf \
		$(TVTRACE_TOOL_TESTBIN)/smode.bin $(BUILD)/tools/tvtrace $(TVTRACE_TOOL_TESTBIN)/qemu
