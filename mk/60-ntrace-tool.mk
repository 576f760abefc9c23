# SPDX-License-Identifier: BSD-2-Clause
# ntrace host tool (tools/ntrace): encode/decode/dump/stats around the N-Trace
# codec library (lib/rvinsn, lib/ntrace; mk/30-ntrace-lib.mk exports their
# sources as RVINSN_SRCS and NTRACE_SRCS, the qualified ingress as
# NTRACE_INGRESS_SRCS).  Its tests run in `make test-host`:
# test_ntrace_tool_io (parsers, ELF/raw loader, symbols), test_ntrace_tool_e2e
# (core with the codec: classification, round trips, dump, stats),
# test_ntrace_tool_ingress (--tci, privileges through the ingress, filters,
# --wrapped, --symbols), test_ntrace_tool_views (listing, profile, flame
# graph, timeline, pcseq export), test_ntrace_tool_stack (the profile's call
# stack rules), test_ntrace_tool_loadmap (--elf FILE@ADDR: one ELF at its
# load and virtual addresses), test_ntrace_tool_perf (ntrace perf:
# tsbi-record's recordings) and test_ntrace_tool_cli (exit statuses and
# messages of a sanitizer build).
# Other fragments (the benchmark) reuse NTRACE_TOOL_CORE_SRCS,
# NTRACE_TOOL_LIBSRCS, NTRACE_TOOL_LIBS, NTRACE_TOOL_INC and NTRACE_TOOL_HDRS.

NTRACE_TOOL_DIR      := tools/ntrace
NTRACE_TOOL_IO_SRCS  := $(NTRACE_TOOL_DIR)/image.c $(NTRACE_TOOL_DIR)/loadmap.c $(NTRACE_TOOL_DIR)/pcs.c \
                        $(NTRACE_TOOL_DIR)/symbols.c
NTRACE_TOOL_CORE_SRCS := $(NTRACE_TOOL_IO_SRCS) \
                        $(NTRACE_TOOL_DIR)/codec.c $(NTRACE_TOOL_DIR)/tci.c \
                        $(NTRACE_TOOL_DIR)/dump.c $(NTRACE_TOOL_DIR)/stats.c \
                        $(NTRACE_TOOL_DIR)/disasm.c $(NTRACE_TOOL_DIR)/listing.c \
                        $(NTRACE_TOOL_DIR)/pcseq_out.c $(NTRACE_TOOL_DIR)/profile.c \
                        $(NTRACE_TOOL_DIR)/profile_out.c $(NTRACE_TOOL_DIR)/flamegraph.c \
                        $(NTRACE_TOOL_DIR)/timeline.c $(NTRACE_TOOL_DIR)/timeline_svg.c \
                        $(NTRACE_TOOL_DIR)/diag.c \
                        $(NTRACE_TOOL_DIR)/settings.c $(NTRACE_TOOL_DIR)/perfrec.c
NTRACE_TOOL_SRCS     := $(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_DIR)/cli.c $(NTRACE_TOOL_DIR)/cli_perf.c \
                        $(NTRACE_TOOL_DIR)/main.c
# linux-trace/recording.h: the layout of tsbi-record's recordings (ntrace perf).
NTRACE_TOOL_HDRS     := $(wildcard $(NTRACE_TOOL_DIR)/*.h lib/rvinsn/*.h lib/ntrace/*.h) \
                        $(NTRACE_INGRESS_HDRS) linux-trace/recording.h
NTRACE_TOOL_INC      := -I$(NTRACE_TOOL_DIR) -Ilib -Ilib/rvinsn -Ilib/ntrace $(NTRACE_INGRESS_INC) \
                        -Ilinux-trace
NTRACE_TOOL_LIBSRCS  := $(RVINSN_SRCS) $(NTRACE_SRCS) $(NTRACE_INGRESS_SRCS)
# Libraries the core links with: ELF loading; the timeline's log scale and ticks.
NTRACE_TOOL_LIBS     := -lelf -lm

ALL_TARGETS += $(BUILD)/tools/ntrace

$(BUILD)/tools/ntrace: $(NTRACE_TOOL_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(NTRACE_TOOL_INC) -o $@ \
		$(NTRACE_TOOL_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

# Tiny RISC-V programs the tests load (built, never committed).
NTRACE_TOOL_DATA     := tests/data/ntrace/tool
NTRACE_TOOL_TESTBIN  := $(BUILD)/host/ntrace_tool
NTRACE_TOOL_FIXTURES := $(NTRACE_TOOL_TESTBIN)/tiny.elf $(NTRACE_TOOL_TESTBIN)/tiny32.elf \
                        $(NTRACE_TOOL_TESTBIN)/tiny.bin $(NTRACE_TOOL_TESTBIN)/tiny-hi.elf

$(NTRACE_TOOL_TESTBIN)/tiny.elf: $(NTRACE_TOOL_DATA)/tiny.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80000000 -Wl,--no-relax -o $@ $<

# The same program 2 MiB higher: a second image (like firmware + kernel).
$(NTRACE_TOOL_TESTBIN)/tiny-hi.elf: $(NTRACE_TOOL_DATA)/tiny.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80200000 -Wl,--no-relax -o $@ $<

# A kernel in miniature, linked like Linux's vmlinux (virtual addresses at
# 0xffffffff80000000, load addresses from 0): --elf FILE@ADDR, and its
# objcopy'd image, the Image a loader would place.
$(NTRACE_TOOL_TESTBIN)/kern.elf: $(NTRACE_TOOL_DATA)/kern.S $(NTRACE_TOOL_DATA)/kern.ld
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-T,$(NTRACE_TOOL_DATA)/kern.ld -Wl,--no-relax -o $@ $<

$(NTRACE_TOOL_TESTBIN)/kern.bin: $(NTRACE_TOOL_TESTBIN)/kern.elf
	$(call quiet,OBJCOPY)$(OBJCOPY_RV) -O binary $< $@

# Raw memory image of tiny.elf (its code at 0x80000000).
$(NTRACE_TOOL_TESTBIN)/tiny.bin: $(NTRACE_TOOL_TESTBIN)/tiny.elf
	$(call quiet,OBJCOPY)$(OBJCOPY_RV) -O binary $< $@

# Functions, calls, a trap and a tail call for the profile tests.
$(NTRACE_TOOL_TESTBIN)/prof.elf: $(NTRACE_TOOL_DATA)/prof.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80000000 -Wl,--no-relax -o $@ $<

# Calls, returns, traps and breaks for the call stack tests.
$(NTRACE_TOOL_TESTBIN)/stack.elf: $(NTRACE_TOOL_DATA)/stack.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv64imac_zicsr -mabi=lp64 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80000000 -Wl,--no-relax -o $@ $<

# The same program position-independent (ET_DYN linked at 0), as a Linux
# loader maps a PIE with a load bias: ntrace perf places it by the
# process's PERF_RECORD_MMAP2.  Its code is the same (la is auipc + addi).
$(NTRACE_TOOL_TESTBIN)/tiny-pie.elf: $(NTRACE_TOOL_DATA)/tiny.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CROSS_LINUX)gcc -march=rv64imac_zicsr -mabi=lp64 -mno-relax -fno-pic -pie \
		-nostdlib -Wl,--no-relax -Wl,--no-dynamic-linker -o $@ $<

$(NTRACE_TOOL_TESTBIN)/tiny32.elf: $(NTRACE_TOOL_DATA)/tiny.S
	@mkdir -p $(dir $@)
	$(call quiet,CC)$(CC_RV) -march=rv32imac_zicsr -mabi=ilp32 -mno-relax -nostdlib -static \
		-Wl,-Ttext=0x80000000 -Wl,--no-relax -o $@ $<

NTRACE_TOOL_TEST_CFLAGS := $(HOST_CFLAGS) $(HOST_SAN) $(NTRACE_TOOL_INC) \
	-DNT_TEST_DATA='"$(abspath $(NTRACE_TOOL_DATA))"' \
	-DNT_TEST_BUILD='"$(abspath $(NTRACE_TOOL_TESTBIN))"'

# Parsers and image loading: no codec library needed.
$(BUILD)/host/test_ntrace_tool_io: tests/host/test_ntrace_tool_io.c $(NTRACE_TOOL_IO_SRCS) \
		$(NTRACE_TOOL_DIR)/ntrace_tool.h $(NTRACE_TOOL_FIXTURES)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(NTRACE_TOOL_IO_SRCS) $(CMOCKA_LIBS) -lelf

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_io

# End to end with the codec library: classification, round trips, dump, stats.
$(BUILD)/host/test_ntrace_tool_e2e: tests/host/test_ntrace_tool_e2e.c $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS) $(NTRACE_TOOL_FIXTURES) \
		$(NTRACE_TOOL_DATA)/tiny.pcs $(NTRACE_TOOL_DATA)/tiny-int.pcs
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) $(NTRACE_TOOL_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_e2e

# The tool as the mirror of the firmware's encoder: --tci, privilege tokens
# through the qualified ingress, filters, feeding, --wrapped, --symbols.
$(BUILD)/host/test_ntrace_tool_ingress: tests/host/test_ntrace_tool_ingress.c tests/host/test_ntrace_tool.h \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS) \
		$(NTRACE_TOOL_FIXTURES) $(NTRACE_TOOL_DATA)/tiny.pcs
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) $(NTRACE_TOOL_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_ingress

# What people read: listing (objdump's disassembly), profile, folded stacks,
# flame graph, timeline, pcseq export (golden file).
$(BUILD)/host/test_ntrace_tool_views: tests/host/test_ntrace_tool_views.c tests/host/test_ntrace_tool.h \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS) \
		$(NTRACE_TOOL_FIXTURES) $(NTRACE_TOOL_TESTBIN)/prof.elf $(NTRACE_TOOL_DATA)/tiny.pcs \
		$(NTRACE_TOOL_DATA)/prof.pcs $(NTRACE_TOOL_DATA)/tiny.export.pcseq
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) $(NTRACE_TOOL_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_views

# The profile's call stack: one rule per test, on traces of stack.S.
$(BUILD)/host/test_ntrace_tool_stack: tests/host/test_ntrace_tool_stack.c \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS) \
		$(NTRACE_TOOL_TESTBIN)/stack.elf
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) $(NTRACE_TOOL_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_stack

# One ELF at two addresses (--elf FILE@ADDR, loadmap.c): images, symbols,
# disassembly and a trace that runs at the load address, then at the
# virtual one, as Linux does before and after its MMU is on.
$(BUILD)/host/test_ntrace_tool_loadmap: tests/host/test_ntrace_tool_loadmap.c tests/host/test_ntrace_tool.h \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS) \
		$(NTRACE_TOOL_TESTBIN)/kern.elf $(NTRACE_TOOL_TESTBIN)/kern.bin $(NTRACE_TOOL_DATA)/kern.pcs
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) -o $@ $< $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) $(NTRACE_TOOL_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_loadmap

# ntrace perf: tsbi-record's recordings (perfrec.c, cli_perf.c), built in
# memory around N-Trace from the encoder: parsing with every malformation
# named by its byte, placement by PERF_RECORD_MMAP2, the settings from
# attr.config, each AUX record decoded on its own; and the command line
# (run on ntrace-san).
$(BUILD)/host/test_ntrace_tool_perf: tests/host/test_ntrace_tool_perf.c tests/host/test_tool_cli.h \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS) \
		$(NTRACE_TOOL_TESTBIN)/ntrace-san $(NTRACE_TOOL_TESTBIN)/tiny.elf \
		$(NTRACE_TOOL_TESTBIN)/tiny-pie.elf $(NTRACE_TOOL_DATA)/tiny.pcs
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) \
		-DNT_TEST_TOOL='"$(abspath $(NTRACE_TOOL_TESTBIN)/ntrace-san)"' -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(CMOCKA_LIBS) $(NTRACE_TOOL_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_perf

# Command-line contract (exit status, messages), run on a copy of the tool
# built with the sanitizers.
$(NTRACE_TOOL_TESTBIN)/ntrace-san: $(NTRACE_TOOL_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(HOST_CFLAGS) $(HOST_SAN) $(NTRACE_TOOL_INC) -o $@ \
		$(NTRACE_TOOL_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

$(BUILD)/host/test_ntrace_tool_cli: tests/host/test_ntrace_tool_cli.c tests/host/test_tool_cli.h $(NTRACE_TOOL_TESTBIN)/ntrace-san \
		$(NTRACE_TOOL_FIXTURES) $(NTRACE_TOOL_DATA)/tiny.pcs $(NTRACE_TOOL_DATA)/tiny.pcseq \
		$(NTRACE_TOOL_TESTBIN)/kern.elf $(NTRACE_TOOL_DATA)/kern.pcs
	@mkdir -p $(dir $@)
	$(call quiet,HOSTCC)$(HOSTCC) $(NTRACE_TOOL_TEST_CFLAGS) \
		-DNT_TEST_TOOL='"$(abspath $(NTRACE_TOOL_TESTBIN)/ntrace-san)"' -o $@ $< $(CMOCKA_LIBS)

HOST_TESTS += $(BUILD)/host/test_ntrace_tool_cli
