# SPDX-License-Identifier: BSD-2-Clause
# tsbi-record (linux-trace/recorder): the Linux user program that runs a
# program under the tracesbi_trace perf PMU and saves its records and AUX
# data (static, glibc, riscv64; `ntrace perf` decodes the file).
#   make tsbi-record   build/linux-trace/tsbi-record
# Its command line is tested in `make test-host` on a host build
# (test_tsbi_record: usage, the missing PMU, format terms, failing
# syscalls named; the host has no tracesbi_trace PMU, so a stand-in sysfs
# directory).

CROSS_LINUX      ?= riscv64-linux-gnu-
TSBI_RECORD_DIR  := linux-trace/recorder
TSBI_RECORD      := $(BUILD)/linux-trace/tsbi-record
TSBI_RECORD_SRCS := $(TSBI_RECORD_DIR)/tsbi-record.c linux-trace/recording.h

ALL_TARGETS += $(TSBI_RECORD)

$(TSBI_RECORD): $(TSBI_RECORD_SRCS)
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CROSS_LINUX)gcc -static -O2 -std=gnu11 -Wall -Wextra -Werror -o $@ $<

.PHONY: tsbi-record
tsbi-record: $(TSBI_RECORD)

# The same program for the host, with the sanitizers, for its tests.
$(BUILD)/host/tsbi-record-host: $(TSBI_RECORD_SRCS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -o $@ $<

$(BUILD)/host/test_tsbi_record: tests/host/test_tsbi_record.c tests/host/test_tool_cli.h \
		$(BUILD)/host/tsbi-record-host
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) -Ilinux-trace \
		-DTSBI_RECORD_TOOL='"$(abspath $(BUILD)/host/tsbi-record-host)"' -o $@ $< $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_tsbi_record
