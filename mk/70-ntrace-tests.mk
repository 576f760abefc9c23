# N-Trace test corpus, round-trip suite, fuzz targets and benchmark.
#
#   make ntrace-corpus   build the corpus programs (RV64 and RV32) and their
#                        .pcs traces (QEMU single-step runs, cached by ELF hash)
#   make test-ntrace     encode → decode round trip of every trace under every
#                        option set, plus dump/stats on every .nex
#   make test-fuzz       libFuzzer targets, bounded time each
#   make bench-ntrace    bits/instruction and codec speed table (markdown),
#                        then the encoder's block entry beside its record entry

NT_DIR      := tests/ntrace
NT_BUILD    := $(BUILD)/ntrace
NT_PROGS    := sort crc32 recurse interp strings matmul lists traps timer irqstorm
NT_XLENS    := rv64 rv32
NT_COMMON   := $(NT_DIR)/common/crt0.S $(NT_DIR)/common/rt.c
NT_LDSCRIPT := $(NT_DIR)/common/link.ld

NT_CFLAGS   := -std=gnu11 -Wall -Wextra -Werror -O2 -g -ffreestanding \
               -fno-builtin -fno-pic -fno-stack-protector \
               -nostdlib -static -T $(NT_LDSCRIPT)
# Linker relaxation turns calls into JAL / C.JAL as in ordinary code (the
# linker script defines no __global_pointer$, so nothing becomes
# gp-relative).  These programs keep AUIPC+JALR calls instead, the pattern
# the sequential-jump optimisation (N-Trace 9.1) is for.
NT_NORELAX_PROGS := recurse strings
NT_NORELAX  := -mno-relax -Wl,--no-relax
NT_ARCH_rv64 := -march=rv64imac_zicsr -mabi=lp64 -mcmodel=medany
NT_ARCH_rv32 := -march=rv32imac_zicsr -mabi=ilp32
# libgcc of the matching multilib (the _zicsr suffix defeats multilib lookup).
NT_LIBGCC_rv64 = $(shell $(CC_RV) -march=rv64imac -mabi=lp64 -print-libgcc-file-name)
NT_LIBGCC_rv32 = $(shell $(CC_RV) -march=rv32imac -mabi=ilp32 -print-libgcc-file-name)

NT_ELFS := $(foreach x,$(NT_XLENS),$(foreach p,$(NT_PROGS),$(NT_BUILD)/$(x)/$(p).elf))
NT_PCS  := $(NT_ELFS:.elf=.pcs)

define nt_corpus_rule
$(NT_BUILD)/$(1)/%.elf: $(NT_DIR)/progs/%.c $(NT_COMMON) $(NT_DIR)/common/rt.h $(NT_LDSCRIPT) \
		mk/70-ntrace-tests.mk
	@mkdir -p $$(dir $$@)
	$(CC_RV) $(NT_CFLAGS) $(NT_ARCH_$(1)) $$(if $$(filter $$*,$$(NT_NORELAX_PROGS)),$$(NT_NORELAX)) \
		-o $$@ $(NT_COMMON) $$< $$(NT_LIBGCC_$(1))
endef
$(foreach x,$(NT_XLENS),$(eval $(call nt_corpus_rule,$(x))))

$(NT_BUILD)/%.pcs: $(NT_BUILD)/%.elf $(NT_DIR)/gen-trace.sh scripts/qemu-log-to-pcs.py \
		$(NT_DIR)/check-pcs.py
	$(NT_DIR)/gen-trace.sh $< $@

.PHONY: ntrace-corpus test-ntrace
ntrace-corpus: $(NT_ELFS) $(NT_PCS)
# Keep the ELFs: the tests and the benchmark read them next to their traces.
.SECONDARY: $(NT_ELFS)

# ---- Round trip ---------------------------------------------------------

NTRACE_TOOL_BIN := $(BUILD)/tools/ntrace

TEST_SUITES += ntrace
test-ntrace: $(NT_ELFS) $(NTRACE_TOOL_BIN)
	@$(NT_DIR)/run-suite.sh $(NTRACE_TOOL_BIN) $(NT_BUILD) $(NT_ELFS)

# ---- Fuzzing ----------------------------------------------------------------
# libFuzzer targets: the N-Trace decoder (fixed program image: the corpus
# program "interp"), the message parser (the dump path), the encode/decode
# round trip of generated executions and, when another fragment provides
# tests/fuzz/fuzz_fdt.c, the devicetree reader.  FUZZ_TIME seconds each.

FUZZ_CC     ?= clang
FUZZ_CFLAGS := -std=gnu11 -Wall -Wextra -Werror -g -O1 -fno-omit-frame-pointer \
               -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
FUZZ_DIR    := $(BUILD)/fuzz
FUZZ_TIME   ?= 15
FUZZ_NTRACE_INC  := -Ilib/ntrace -Ilib/rvinsn $(NTRACE_INGRESS_INC) -I$(FUZZ_DIR)
FUZZ_NTRACE_DEPS := $(RVINSN_SRCS) $(NTRACE_SRCS) $(NTRACE_INGRESS_SRCS) \
                    $(wildcard lib/ntrace/*.h lib/rvinsn/*.h) $(NTRACE_INGRESS_HDRS)

$(FUZZ_DIR)/fuzz_image.h: tests/fuzz/bin2c.py $(NT_BUILD)/rv64/interp.elf $(NT_BUILD)/rv32/interp.elf
	@mkdir -p $(@D)
	python3 $< $@ interp64=$(NT_BUILD)/rv64/interp.elf interp32=$(NT_BUILD)/rv32/interp.elf

$(FUZZ_DIR)/fuzz_ntrace_decoder: tests/fuzz/fuzz_ntrace_decoder.c $(FUZZ_DIR)/fuzz_image.h $(FUZZ_NTRACE_DEPS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) -o $@ $< $(RVINSN_SRCS) $(NTRACE_SRCS)

# Also drives the dump/stats code of the tool core.
$(FUZZ_DIR)/fuzz_ntrace_parser: tests/fuzz/fuzz_ntrace_parser.c $(FUZZ_NTRACE_DEPS) \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) -lelf

# Encode → decode of executions generated from the input (tool core + library).
$(FUZZ_DIR)/fuzz_ntrace_roundtrip: tests/fuzz/fuzz_ntrace_roundtrip.c $(FUZZ_DIR)/fuzz_image.h \
		$(FUZZ_NTRACE_DEPS) $(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) $(FUZZ_NTRACE_INC) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) -lelf

# target[:seed directory[:max input length]] for tests/fuzz/run-fuzz.sh
FUZZ_RUNS := $(FUZZ_DIR)/fuzz_ntrace_decoder:$(FUZZ_DIR)/seeds/decoder:2048 \
             $(FUZZ_DIR)/fuzz_ntrace_parser:$(FUZZ_DIR)/seeds/parser:512 \
             $(FUZZ_DIR)/fuzz_ntrace_roundtrip::1024
FUZZ_BINS := $(FUZZ_DIR)/fuzz_ntrace_decoder $(FUZZ_DIR)/fuzz_ntrace_parser \
             $(FUZZ_DIR)/fuzz_ntrace_roundtrip

ifneq ($(wildcard tests/fuzz/fuzz_fdt.c),)
$(FUZZ_DIR)/fuzz_fdt: tests/fuzz/fuzz_fdt.c $(FDT_SRCS) $(FDT_HEADERS)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -Ilib/fdt -Ilib -o $@ $< $(FDT_SRCS)

# Seeds: the devicetree blobs of the fdt unit tests.
$(FUZZ_DIR)/seeds/fdt/.done: $(filter %.dtb,$(FDT_TEST_BLOBS))
	@mkdir -p $(@D)
	cp $^ $(@D)/ && touch $@

FUZZ_RUNS += $(FUZZ_DIR)/fuzz_fdt:$(FUZZ_DIR)/seeds/fdt
FUZZ_BINS += $(FUZZ_DIR)/fuzz_fdt $(FUZZ_DIR)/seeds/fdt/.done
endif

.PHONY: test-fuzz fuzz-build
fuzz-build: $(FUZZ_BINS)

TEST_SUITES += fuzz
test-fuzz: $(FUZZ_BINS) $(NTRACE_TOOL_BIN) $(NT_BUILD)/rv64/interp.pcs $(NT_BUILD)/rv32/interp.pcs
	@rc=0; tests/fuzz/make-seeds.sh $(NTRACE_TOOL_BIN) $(NT_BUILD) $(FUZZ_DIR)/seeds || rc=1; \
	tests/fuzz/run-fuzz.sh $(FUZZ_TIME) $(FUZZ_DIR) $(FUZZ_RUNS) || rc=1; exit $$rc

# ---- Benchmark --------------------------------------------------------------
# tools/ntrace-bench links the codec library and the tool core (loading and
# classifying a trace), built optimised and without sanitizers.

NTRACE_BENCH_BIN := $(BUILD)/tools/ntrace-bench

$(NTRACE_BENCH_BIN): tools/ntrace-bench/ntrace_bench.c $(NTRACE_TOOL_CORE_SRCS) \
		$(NTRACE_TOOL_LIBSRCS) $(NTRACE_TOOL_HDRS)
	@mkdir -p $(@D)
	$(HOSTCC) $(HOST_CFLAGS) $(NTRACE_TOOL_INC) -o $@ $< \
		$(NTRACE_TOOL_CORE_SRCS) $(NTRACE_TOOL_LIBSRCS) -lelf

.PHONY: bench-ntrace
bench-ntrace: $(NTRACE_BENCH_BIN) $(NT_PCS)
	@rc=0; scripts/bench-ntrace.sh $(NTRACE_BENCH_BIN) $(NT_PCS) || rc=1; echo; \
	tools/ntrace-bench/bench-blocks.sh $(NTRACE_BENCH_BIN) $(NT_PCS) || rc=1; exit $$rc
