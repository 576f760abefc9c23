# SPDX-License-Identifier: BSD-2-Clause
# libFuzzer targets for every parser of untrusted input, built with ASan and
# UBSan (clang):
#   fuzz_ntrace_decoder   N-Trace decoder (fixed program image: the corpus
#                         program "interp")
#   fuzz_ntrace_parser    N-Trace message parser (the dump path)
#   fuzz_ntrace_roundtrip encode/decode of generated executions
#   fuzz_perfrec          tsbi-record's recordings as `ntrace perf` reads them
#                         (tools/ntrace/perfrec.c)
#   fuzz_fdt              the devicetree reader and writer (lib/fdt)
#   fuzz_pmu_map          the "riscv,pmu" map (drivers/pmu/pmu_map.c)
#   fuzz_insn             the instruction decoders of stepping and emulation
#                         (lib/rvinsn, firmware/emu/memaccess.c)
#   fuzz_tci              the emulated TCI encoder and RAM sink registers
#   fuzz_tvtrace          the Bluespec tandem-verification trace parser
#                         (lib/tvtrace), with write-back of what it parsed
# `make test-fuzz` runs each for FUZZ_TIME seconds; `make soak-fuzz` (part of
# `make soak`) runs each for SOAK_FUZZ_RUNS executions.
# (Moved out of mk/70-ntrace-tests.mk: it needs the PMU and trace fragments'
# variables, defined in mk/85 and mk/86.)

FUZZ_CC     ?= clang
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer -iquote . \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_DIR    := $(BUILD)/fuzz
FUZZ_TIME   ?= 10
SOAK_FUZZ_RUNS ?= 10000000
FUZZ_NTRACE_INC  := -Ilib/ntrace -Ilib/rvinsn $(NTRACE_INGRESS_INC) -I$(FUZZ_DIR)
FUZZ_NTRACE_DEPS := $(RVINSN_SRCS) $(NTRACE_SRCS) $(NTRACE_INGRESS_SRCS) \
                    $(wildcard lib/ntrace/*.h lib/rvinsn/*.h) $(NTRACE_INGRESS_HDRS)

$(FUZZ_DIR)/fuzz_image.h: tests/fuzz/bin2c.py $(NT_BUILD)/rv64/interp.elf $(NT_BUILD)/rv32/interp.elf
	@mkdir -p $(@D)
	$(call quiet,GEN)python3 $< $@ interp64=$(NT_BUILD)/rv64/interp.elf interp32=$(NT_BUILD)/rv32/interp.elf

$(FUZZ_DIR)/fuzz_ntrace_decoder: tests/fuzz/fuzz_ntrace_decoder.c $(FUZZ_DIR)/fuzz_image.h $(FUZZ_NTRACE_DEPS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) -o $@ $< $(RVINSN_SRCS) $(NTRACE_SRCS)

# Also drives the dump/stats code of the tool core.
$(FUZZ_DIR)/fuzz_ntrace_parser: tests/fuzz/fuzz_ntrace_parser.c $(FUZZ_NTRACE_DEPS) \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

# Encode → decode of executions generated from the input (tool core + library).
$(FUZZ_DIR)/fuzz_ntrace_roundtrip: tests/fuzz/fuzz_ntrace_roundtrip.c $(FUZZ_DIR)/fuzz_image.h \
		$(FUZZ_NTRACE_DEPS) $(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

# tsbi-record's recordings as ntrace perf reads them (tool core + library).
$(FUZZ_DIR)/fuzz_perfrec: tests/fuzz/fuzz_perfrec.c $(FUZZ_NTRACE_DEPS) $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_LIBS)

# target[:seed directory[:max input length]] for tests/fuzz/run-fuzz.sh
FUZZ_RUNS := $(FUZZ_DIR)/fuzz_ntrace_decoder:$(FUZZ_DIR)/seeds/decoder:2048 \
             $(FUZZ_DIR)/fuzz_ntrace_parser:$(FUZZ_DIR)/seeds/parser:512 \
             $(FUZZ_DIR)/fuzz_ntrace_roundtrip::1024 \
             $(FUZZ_DIR)/fuzz_perfrec:$(FUZZ_DIR)/seeds/perfrec:4096
FUZZ_BINS := $(FUZZ_DIR)/fuzz_ntrace_decoder $(FUZZ_DIR)/fuzz_ntrace_parser \
             $(FUZZ_DIR)/fuzz_ntrace_roundtrip $(FUZZ_DIR)/fuzz_perfrec

ifneq ($(wildcard tests/fuzz/fuzz_fdt.c),)
$(FUZZ_DIR)/fuzz_fdt: tests/fuzz/fuzz_fdt.c $(FDT_SRCS) $(FDT_HEADERS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) -DFDT_RW_CHECK_KNOWN -Ilib/fdt -Ilib -o $@ $< $(FDT_SRCS)

# Seeds: the devicetree blobs of the fdt unit tests.
$(FUZZ_DIR)/seeds/fdt/.done: $(filter %.dtb,$(FDT_TEST_BLOBS))
	@mkdir -p $(@D)
	@cp $^ $(@D)/ && touch $@

FUZZ_RUNS += $(FUZZ_DIR)/fuzz_fdt:$(FUZZ_DIR)/seeds/fdt
FUZZ_BINS += $(FUZZ_DIR)/fuzz_fdt $(FUZZ_DIR)/seeds/fdt/.done
endif


# The "riscv,pmu" map, on devicetrees built from the input.
$(FUZZ_DIR)/fuzz_pmu_map: tests/fuzz/fuzz_pmu_map.c $(MOD_PMU_MAP_SRCS) $(FDT_SRCS) $(PMU_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(PMU_HOST_INC) -o $@ $< $(MOD_PMU_MAP_SRCS) $(FDT_SRCS)

# Instruction decoders: lib/rvinsn and the load/store decoder of emulation.
$(FUZZ_DIR)/fuzz_insn: tests/fuzz/fuzz_insn.c $(RVINSN_SRCS) $(MOD_MEMACCESS_SRCS) \
		$(wildcard lib/rvinsn/*.h) $(MISALIGNED_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) -Ilib/rvinsn -iquote . -o $@ $< \
		$(RVINSN_SRCS) $(MOD_MEMACCESS_SRCS)

# The emulated TCI encoder (with lib/tci's filters) and RAM sink.
$(FUZZ_DIR)/fuzz_tci: tests/fuzz/fuzz_tci.c $(MOD_TCI_ENC_SRCS) $(MOD_TCI_SINK_SRCS) \
		$(TRACE_HOST_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(TRACE_HOST_INC) -o $@ $< $(MOD_TCI_ENC_SRCS) \
		$(MOD_TCI_SINK_SRCS)

FUZZ_RUNS += $(FUZZ_DIR)/fuzz_pmu_map::2048 $(FUZZ_DIR)/fuzz_insn::1200 $(FUZZ_DIR)/fuzz_tci::2048
FUZZ_BINS += $(FUZZ_DIR)/fuzz_pmu_map $(FUZZ_DIR)/fuzz_insn $(FUZZ_DIR)/fuzz_tci

# The Bluespec tandem-verification trace parser (lib/tvtrace, mk/31-tvtrace.mk).
$(FUZZ_DIR)/fuzz_tvtrace: tests/fuzz/fuzz_tvtrace.c $(TVTRACE_SRCS) $(TVTRACE_HDRS)
	@mkdir -p $(@D)
	$(call quiet,FUZZCC)$(FUZZ_CC) $(FUZZ_CFLAGS) $(TVTRACE_INC) -o $@ $< $(TVTRACE_SRCS)

FUZZ_RUNS += $(FUZZ_DIR)/fuzz_tvtrace::1024
FUZZ_BINS += $(FUZZ_DIR)/fuzz_tvtrace

.PHONY: suite-fuzz fuzz-build soak-fuzz
fuzz-build: $(FUZZ_BINS)

TEST_SUITES += fuzz
suite-fuzz: $(FUZZ_BINS) $(NTRACE_TOOL_BIN) $(NT_BUILD)/rv64/interp.pcs $(NT_BUILD)/rv32/interp.pcs
	@rc=0; tests/fuzz/make-seeds.sh $(NTRACE_TOOL_BIN) $(NT_BUILD) $(FUZZ_DIR)/seeds || rc=1; \
	tests/fuzz/run-fuzz.sh $(FUZZ_TIME) $(FUZZ_DIR) $(FUZZ_RUNS) || rc=1; exit $$rc


# Each target for SOAK_FUZZ_RUNS executions (the corpus grown by test-fuzz
# runs is reused).
SOAK_TARGETS += soak-fuzz
soak-fuzz: $(FUZZ_BINS) $(NTRACE_TOOL_BIN) $(NT_BUILD)/rv64/interp.pcs $(NT_BUILD)/rv32/interp.pcs
	@rc=0; tests/fuzz/make-seeds.sh $(NTRACE_TOOL_BIN) $(NT_BUILD) $(FUZZ_DIR)/seeds || rc=1; \
	tests/fuzz/run-fuzz.sh runs=$(SOAK_FUZZ_RUNS) $(FUZZ_DIR) $(FUZZ_RUNS) || rc=1; exit $$rc
